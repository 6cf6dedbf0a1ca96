"""The change report of two builds' listed pages: added, changed, removed and where each went."""
# Pure: the two builds' records by URL in, the report out. A removed URL is "redirected" when the
# new build serves a redirect for it that ends, within MAX_REDIRECT_HOPS, on a page the new build
# lists or on another host; a redirect that ends nowhere is no way out ("gone", said so). Else
# "renamed" when a new page holds its content (diff.renames), else "gone".

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final
from urllib.parse import urlsplit

from sitemill.diff._renames import PageContent, Rename, Renames
from sitemill.diff.model import Changed, Removed, SiteDiff, Verdict
from sitemill.lastmod.proof import Proof, Rung
from sitemill.state.model import PageRecord

MAX_REDIRECT_HOPS: Final = (
    5  # redirects followed from a removed URL before it counts as leading nowhere
)
# Where the new build sends a URL (the target as an absolute URL, and how: "a redirect stub",
# "_redirects line 12"), None when it serves no redirect there.
RedirectOf = Callable[[str], tuple[str, str] | None]


def compare_builds(
    old: Mapping[str, PageRecord],
    new: Mapping[str, PageRecord],
    redirect_of: RedirectOf,
    *,
    same_fingerprints: bool,
    unseen: Callable[[str], bool] | None = None,
) -> SiteDiff:
    """The report of the new build's listed pages (``new``, by URL) against the old ones'.
    ``same_fingerprints``: both builds fingerprint alike (one version, one scope), so a
    fingerprint says whether a kept page changed and where a removed one went. ``unseen``:
    whether a URL lies where ``new`` holds none of the build's pages (a shard the run did not
    read: its pages are as they were), so that a redirect ending there counts as one."""
    added = sorted(new.keys() - old.keys())
    changed = [
        _changed(url, old[url], record, same_fingerprints)
        for url, record in sorted(new.items())
        if url in old and _differs(old[url], record, same_fingerprints)
    ]
    gone_urls = sorted(old.keys() - new.keys())
    renames = Renames(
        {url: _content(new[url], same_fingerprints) for url in added},
        (_content(old[url], same_fingerprints) for url in gone_urls),
    )
    removed = []
    for url in gone_urls:
        found = _redirected(url, new, redirect_of, unseen)
        if found is None:
            found = _renamed(url, renames.find(url, _content(old[url], same_fingerprints)))
        removed.append(found)
    return SiteDiff(tuple(added), tuple(changed), tuple(removed))


def _content(record: PageRecord, same_fingerprints: bool) -> PageContent:
    return PageContent(record.fingerprint if same_fingerprints else None, record.sketch)


def _differs(old: PageRecord, new: PageRecord, same_fingerprints: bool) -> bool:
    if same_fingerprints and None not in (old.fingerprint, new.fingerprint):
        return old.fingerprint != new.fingerprint
    return old.lastmod != new.lastmod


def _changed(url: str, old: PageRecord, new: PageRecord, same_fingerprints: bool) -> Changed:
    return Changed(url, new.lastmod, evidence(new, moved=old.lastmod != new.lastmod))


def evidence(record: PageRecord, *, moved: bool) -> str:
    """One line on a changed page's date, as `sitemill why` names its root evidence."""
    if record.lastmod is None:
        return "no date: no evidence yet"
    if not moved:
        return f"content changed; its date {record.lastmod} stands (a date only moves forward)"
    return f"{record.lastmod} from {_proof(record.proof)}"


def _proof(proof: Proof | None) -> str:
    if proof is None:
        return "this run"
    words = {
        Rung.GIT: "the page's git history",
        Rung.SOURCE: "its source's last text change",
        Rung.DECLARED: "the date the page declares",
        Rung.FILE_TIME: "its file time",
        Rung.DEPLOY: "the deploy that changed it",
    }[proof.rung]
    if proof.commit is not None:
        return f"{words}, commit {proof.commit[:12]}"
    return f"{words} ({proof.kind})" if proof.kind else words


def _redirected(
    url: str,
    new: Mapping[str, PageRecord],
    redirect_of: RedirectOf,
    unseen: Callable[[str], bool] | None,
) -> Removed | None:
    first = redirect_of(url)
    if first is None:
        return None
    target, how = first
    seen = {url}
    for _ in range(MAX_REDIRECT_HOPS):
        if _served(target, new) or _origin(target) != _origin(url):
            return Removed(url, Verdict.REDIRECTED, first[0], detail=how)
        if unseen is not None and unseen(target):
            how += ", to a page this run did not read (a shard it left as it was)"
            return Removed(url, Verdict.REDIRECTED, first[0], detail=how)
        if target in seen:
            break
        seen.add(target)
        hop = redirect_of(target)
        if hop is None:
            break
        target = hop[0]
    where = f"{how} to {first[0]}, which the new build does not serve"
    return Removed(url, Verdict.GONE, first[0], detail=where)


def _renamed(url: str, rename: Rename | None) -> Removed:
    if rename is not None:
        how = "the same content" if rename.resemblance == 1.0 else "nearly the same content"
        return Removed(
            url, Verdict.RENAMED, rename.target, rename.resemblance, f"{how}: no redirect"
        )
    return Removed(url, Verdict.GONE, detail="no redirect, no page with its content")


def _served(url: str, new: Mapping[str, PageRecord]) -> bool:
    """Whether a static host serves ``url`` from a page the new build lists: the URL itself,
    or the file a host serves for it (``/x`` from ``x.html`` or ``x/``, ``/x/index.html``
    as ``/x/``), as GitHub Pages, Netlify and an S3 website do. Query and fragment aside."""
    bare = url.split("#", 1)[0].split("?", 1)[0]
    if bare.endswith("/index.html"):
        bare = bare[: -len("index.html")]
    forms: tuple[str, ...]
    if bare.endswith("/"):
        forms = (bare, bare + "index.html")
    elif bare.endswith((".html", ".htm")):
        forms = (bare,)
    else:
        forms = (bare, bare + ".html", bare + "/")
    return any(form in new for form in forms)


def _origin(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme, parts.netloc.lower()
