"""IndexNow's URLs not announced yet, and the last run's changes, as a state keeps them."""
# Their kinds, their bound, the check of a remembered table (a state is input from outside), and
# what changed from one state to the next (changes: what IndexNow announces, what `sitemill check`
# asks first). A page's content changed when its fingerprint did, or its lastmod where the two
# fingerprints are not comparable (another version, scope or base URL). A run that changed no
# listed page keeps the last one's record, so a second run with no change writes nothing.

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Final

from sitemill.state.model import State

ADDED: Final = "added"
CHANGED: Final = "changed"
REMOVED: Final = "removed"
CHANGE_KINDS: Final = (ADDED, CHANGED, REMOVED)
# Pending URLs a state keeps at most (ten full batches); beyond, the oldest are dropped.
MAX_PENDING: Final = 100_000
# The pages a state names as the last run's changes at most (remember_changes).
MAX_CHANGES: Final = 10_000
_URL: Final = re.compile(r"https?://[\x21-\x7e]{1,2040}")


def pending_from_json(value: object) -> dict[str, str]:
    """A state's pending URLs, checked: a table of at most MAX_PENDING absolute http(s)
    URLs, each with its kind; anything else in it is dropped (a state is input from outside:
    a run announces only URLs below its own base URL, ``announcements``)."""
    if not isinstance(value, dict):
        return {}
    table = value.get("pending")
    if not isinstance(table, dict) or len(table) > MAX_PENDING:
        return {}
    return {
        url: kind
        for url, kind in table.items()
        if isinstance(url, str) and _URL.fullmatch(url) and kind in CHANGE_KINDS
    }


def rebase_pending(pending: Mapping[str, str], before: str | None, now: str) -> dict[str, str]:
    """The pending URLs of a state written at base URL ``before``, moved below ``now`` (the
    same pages, announced at their new URLs); others stay as they are (announcements drops
    those not below the base URL)."""
    if before is None or before == now:
        return dict(pending)
    return {
        now + url[len(before) :] if url.startswith(before) else url: kind
        for url, kind in pending.items()
    }


def changes_from_json(value: object, pages: Mapping[str, object]) -> dict[str, str]:
    """A state's record of the last run's changes, checked: at most MAX_CHANGES of its
    listed ``pages``, each added or changed; anything else in it is dropped."""
    if not isinstance(value, dict) or len(value) > MAX_CHANGES:
        return {}
    return {
        path: kind
        for path, kind in value.items()
        if isinstance(path, str) and path in pages and kind in (ADDED, CHANGED)
    }


def changes(old: State, new: State, url_of: Callable[[str], str]) -> dict[str, str]:
    """URL -> kind for the listed pages of ``new`` that ``old`` did not list or that changed,
    and the URLs ``old`` listed that ``new`` does not."""
    comparable = (old.fingerprint_version, old.fingerprint_main) == (
        new.fingerprint_version,
        new.fingerprint_main,
    ) and not changes_base_url(old, new)
    found: dict[str, str] = {}
    added: set[str] = set()
    remembered = old.pages.get
    for path, record in new.pages.items():
        before = remembered(path)
        if before is None:
            added.add(url_of(path))
        elif comparable:
            then, now = before.fingerprint, record.fingerprint
            if then != now and then is not None and now is not None:
                found[url_of(path)] = CHANGED
        elif before.lastmod != record.lastmod:
            found[url_of(path)] = CHANGED
    removed = {url_of(path) for path in old.pages.keys() - new.pages.keys()}
    for url in added:  # (a URL another file lists now, such as a.htm for a.html: changed)
        found[url] = CHANGED if url in removed else ADDED
    for url in removed - added:
        found[url] = REMOVED
    return found


def changes_base_url(old: State, new: State) -> bool:
    """Whether ``new`` was made at another base URL than ``old`` (both known)."""
    return None not in (old.base_url, new.base_url) and old.base_url != new.base_url


def remember_changes(known: State, remember: State, *, first_run: bool) -> None:
    """Set ``remember.changes``: the listed pages added or changed since ``known`` (at most
    MAX_CHANGES, by path), else those ``known`` named that are still listed. A first run
    (no state) changed nothing it can tell."""
    if first_run:
        remember.changes = {}
        return
    found = {
        path: kind
        for path, kind in changes(known, remember, lambda path: path).items()
        if kind != REMOVED and path in remember.pages
    }
    if not found:
        found = {path: kind for path, kind in known.changes.items() if path in remember.pages}
    remember.changes = {path: found[path] for path in sorted(found)[:MAX_CHANGES]}
