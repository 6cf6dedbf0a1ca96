"""Which URLs to announce: listed pages added, changed or gone since the last run. Pure."""
# The listed pages a run added, whose content changed, or that left the sitemaps since the last run,
# merged with those an earlier run could not send.
#
# Only pages a state remembers as listed are compared, so a page that was never listed is never
# announced, and a first run (no state) announces nothing. A page's content changed when its
# fingerprint did; where the two states' fingerprints are not comparable (another fingerprint
# version or scope: sitemill was upgraded, ``content_scope`` switched; another base URL, which
# relative links are resolved from), when its lastmod did, which content dates move only for a
# change a reader sees. A base URL change is no content change: pages are compared by path, so it
# announces nothing, and what was pending moves with it (state.pending.rebase_pending).
#
# Every URL announced is below the base URL (no dot segment leads out of it): one a run file, a
# summary or a state names elsewhere is dropped, so the key file is only ever read from the site's
# own origin. A public state (beside the sitemaps: anyone who can edit the site can edit it) is
# trusted for no URL this run does not list.

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from urllib.parse import unquote

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
    off_site: int = 0  # found URLs not below the base URL (a run file's, edited): dropped
    unlisted: int = 0  # a public state's pending URLs this run does not list: dropped


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


def announcements(
    pending: Mapping[str, str],
    found: Mapping[str, str],
    base_url: str,
    *,
    cap: int = MAX_PENDING,
    listed: Collection[str] | None = None,
) -> Announcements:
    """This run's ``found`` merged over the ``pending`` of earlier runs (a page added, then
    changed before it was announced, stays added), each below ``base_url``, bounded by ``cap``:
    this run's first. ``listed``: the URLs this run lists, when ``pending`` comes from a
    public state (only those of its URLs are trusted; never a removed one)."""
    own = {url: kind for url, kind in found.items() if below_base(url, base_url)}
    result = Announcements(found=Counter(own.values()), off_site=len(found) - len(own))
    found = own
    earlier = {url: kind for url, kind in pending.items() if below_base(url, base_url)}
    result.foreign = len(pending) - len(earlier)
    if listed is not None:
        trusted = {u: kind for u, kind in earlier.items() if kind != REMOVED and u in listed}
        result.unlisted, earlier = len(earlier) - len(trusted), trusted
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


def below_base(url: str, base_url: str) -> bool:
    """Whether ``url`` names a page below ``base_url``: it starts with it, and no segment
    after it is a dot segment (``..``, ``.``, percent-encoded or not), a backslash or a
    fragment (a way out of the base path once an engine or a server resolves it)."""
    if not url.startswith(base_url):
        return False
    rest = url[len(base_url) :]
    if "#" in rest:
        return False
    path = unquote(rest.partition("?")[0], errors="surrogateescape")
    return "\\" not in path and not {".", ".."} & set(path.split("/"))
