"""The redirects a change's report suggests: one for each renamed URL, to its new page."""

from __future__ import annotations

from urllib.parse import urlsplit

from sitemill.diff.model import SiteDiff, Verdict
from sitemill.redirects import Redirect


def suggested_redirects(diff: SiteDiff) -> list[Redirect]:
    """A 301 from each renamed URL's path on its host to its new page's path (an absolute
    URL when that page is on another host), in URL order. A gone URL has none to suggest."""
    found = []
    for item in diff.with_verdict(Verdict.RENAMED):
        if item.target is None:
            continue
        source, target = urlsplit(item.url), urlsplit(item.target)
        same = (source.scheme, source.netloc) == (target.scheme, target.netloc)
        found.append(Redirect(source.path or "/", (target.path or "/") if same else item.target))
    return found
