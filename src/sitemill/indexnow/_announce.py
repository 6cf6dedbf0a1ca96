"""Which URLs to announce: listed pages added, changed or gone since the last run. Pure."""
# Only pages a state remembers as listed are compared (state.pending.changes): a page never listed
# is never announced, and a first run announces nothing. A base URL change is no content change
# (pages are compared by path; what was pending moves with it: state.pending.rebase_pending). Every
# URL announced is below the base URL: one a run file, a summary or a state names elsewhere is
# dropped, so the key file is only read from the site's own origin. A public state is trusted for
# no URL this run does not list.

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from urllib.parse import unquote

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
