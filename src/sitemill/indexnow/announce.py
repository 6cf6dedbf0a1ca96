"""Which URLs to announce: the listed pages a run added, whose content changed, or that left
the sitemaps since the last run, merged with those an earlier run could not send. Pure.

Only pages a state remembers as listed are compared, so a page that was never listed is
never announced, and a first run (no state) announces nothing. A page's content changed when
its fingerprint did; where the two states' fingerprints are not comparable (another
fingerprint version or scope: sitemill was upgraded, ``content_scope`` switched), when its
lastmod did, which content dates move only for a change a reader sees.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from sitemill.state.model import State
from sitemill.state.pending import ADDED, CHANGED, MAX_PENDING, REMOVED


@dataclass
class Announcements:
    """What a run has to announce: ``urls`` (URL -> kind), this run's and earlier ones'."""

    urls: dict[str, str] = field(default_factory=dict)
    found: Counter[str] = field(default_factory=Counter)  # this run's, by kind
    carried: int = 0  # pending from earlier runs among ``urls``
    dropped: int = 0  # over MAX_PENDING, left out (the oldest first)
    foreign: int = 0  # pending URLs not below the base URL (a state from elsewhere): dropped


def changes(old: State, new: State, url_of: Callable[[str], str]) -> dict[str, str]:
    """URL -> kind for the listed pages of ``new`` that ``old`` did not list or that changed,
    and the URLs ``old`` listed that ``new`` does not."""
    comparable = (old.fingerprint_version, old.fingerprint_main) == (
        new.fingerprint_version,
        new.fingerprint_main,
    )
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


def announcements(
    pending: Mapping[str, str],
    found: Mapping[str, str],
    base_url: str,
    *,
    cap: int = MAX_PENDING,
) -> Announcements:
    """This run's ``found`` merged over the ``pending`` of earlier runs (a page added, then
    changed before it was announced, stays added), bounded by ``cap``: this run's first."""
    result = Announcements(found=Counter(found.values()))
    earlier = {url: kind for url, kind in pending.items() if url.startswith(base_url)}
    result.foreign = len(pending) - len(earlier)
    merged = dict(found)
    for url, kind in earlier.items():
        now = merged.get(url)
        if now is None:
            merged[url] = kind
            result.carried += 1
        elif kind == ADDED and now == CHANGED:
            merged[url] = ADDED
    if len(merged) > cap:
        order = sorted(found) + sorted(url for url in merged if url not in found)
        merged = {url: merged[url] for url in order[:cap]}
        result.dropped = len(order) - cap
    result.urls = merged
    return result


def kept_pending(urls: Mapping[str, str], *, public: bool) -> tuple[dict[str, str], int]:
    """What a state keeps of ``urls`` not sent, and how many it withholds: a state beside
    the sitemaps is public, and names no page they leave out, so not a removed URL."""
    if not public:
        return dict(urls), 0
    kept = {url: kind for url, kind in urls.items() if kind != REMOVED}
    return kept, len(urls) - len(kept)
