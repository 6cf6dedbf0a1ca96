"""IndexNow's URLs not announced yet, and the last run's changes, as a state keeps them."""
# Their kinds, their bound, and the check of a remembered table (a state is input from outside).

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

ADDED: Final = "added"
CHANGED: Final = "changed"
REMOVED: Final = "removed"
CHANGE_KINDS: Final = (ADDED, CHANGED, REMOVED)
# Pending URLs a state keeps at most (ten full batches); beyond, the oldest are dropped.
MAX_PENDING: Final = 100_000
# The pages a state names as the last run's changes at most (sitemill.check.changes).
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
