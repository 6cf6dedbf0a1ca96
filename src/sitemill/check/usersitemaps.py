"""A step of a check: the user's sitemaps the build named (index, robots.txt) are live sitemaps."""
# Each on the site's own origin answers 200 itself (no redirect) with a sitemap at its start: a
# urlset or sitemapindex root in the sitemaps.org namespace (a .gz inflated no further than its
# head; a .txt sitemap's first line a URL), read bounded (its first 64 KiB). Its bytes are the
# user's, so they are not compared with anything. A sitemap on another host is never asked: no
# request of a check leaves the site's origin; a note says it was not checked.

from __future__ import annotations

from urllib.parse import urlsplit

from sitemill.check.problems import SITEMAP, CheckReport
from sitemill.check.published import Published
from sitemill.check.served import status_problem
from sitemill.messages import printable
from sitemill.urls import url_origin
from sitemill.web.livesite import LiveAnswer, LiveSite, origin_or_blank
from sitemill.writing.sitemapfile import HEAD_BYTES, is_sitemap


def check_user_sitemaps(site: LiveSite, published: Published, report: CheckReport) -> None:
    """Each of ``published.named`` on the site's origin, asked once; a note for the rest."""
    origin = url_origin(published.base_url)
    here = [url for url in published.named if origin_or_blank(url) == origin]
    elsewhere = [url for url in published.named if url not in here]
    for url, problem in site.get_many(here, HEAD_BYTES, _judged, head=True):
        report.sitemaps += 1
        if problem is not None:
            report.add(url, SITEMAP, *problem)
    if elsewhere:
        shown = ", ".join(printable(url) for url in elsewhere[:3])
        more = f" and {len(elsewhere) - 3:,} more" if len(elsewhere) > 3 else ""
        report.notes.append(
            f"not asked: {shown}{more}, named by the build on another host (a check asks "
            "the site's own origin only)"
        )


def _judged(answer: LiveAnswer) -> tuple[str, tuple[str, str] | None]:
    """What is wrong with one of the user's sitemaps as served (what, fix), or None."""
    problem = status_problem(answer, what="sitemap")
    if problem is None and not is_sitemap(urlsplit(answer.url).path, answer.body):
        problem = (
            "is no sitemap (no <urlset> or <sitemapindex> of the sitemaps.org namespace at its "
            "start), yet sitemill's index names it",
            "serve your sitemap at this URL, or take it out of `sitemaps`",
        )
    return answer.url, problem
