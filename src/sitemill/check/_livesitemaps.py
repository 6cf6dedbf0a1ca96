"""Step one of a check: the live sitemaps are the ones this build published, served right."""
# robots.txt's Sitemap: lines and every sitemap file the build published, at its URL: 200 itself
# (no redirect), a Content-Type its bytes agree with, no Content-Encoding on a file that is gzip
# already, and the very bytes published (their MD5; others are an older copy a cache serves, said
# with its age). The user's sitemaps the build named (check_user_sitemaps) answer 200 themselves on
# the site's own origin with a sitemap at their start, read bounded; their bytes are the user's, so
# not compared. A sitemap on another host is never asked: a note says so (docs/check.md).

from __future__ import annotations

from typing import Final
from urllib.parse import urlsplit

from sitemill.bounded.inflate import GZIP_MAGIC, inflate
from sitemill.check.problems import ROBOTS, SITEMAP, CheckReport
from sitemill.check.published import Published
from sitemill.check.served import cache_fix, copy_age, media_type, status_problem
from sitemill.errors import InflateError
from sitemill.filenames.outputs import read_limit, stored_digest
from sitemill.messages import printable
from sitemill.robots.lines import sitemap_urls
from sitemill.robots.rules import MAX_ROBOTS_TXT_BYTES
from sitemill.urls import split_url, url_origin
from sitemill.web.livesite import LiveAnswer, LiveSite, origin_or_blank
from sitemill.writing.sitemapfile import HEAD_BYTES, is_sitemap

_XML_TYPES: Final = frozenset({"application/xml", "text/xml"})
_GZIP_TYPES: Final = frozenset({"application/gzip", "application/x-gzip"})
MAX_ROBOTS_SITEMAPS: Final = 50  # Sitemap: lines of robots.txt asked, at most


def check_sitemaps(site: LiveSite, published: Published, report: CheckReport) -> None:
    """Every sitemap file ``published`` names, and robots.txt's lines for them."""
    urls = {published.base_url + name: name for name in published.sitemaps}
    limit = max(map(read_limit, published.sitemaps), default=0)
    for url, problem in site.get_many(
        sorted(urls), limit, lambda a: (a.url, _judged(a, published, urls))
    ):
        report.sitemaps += 1
        if problem is not None:
            report.add(url, SITEMAP, *problem)
    _check_robots(site, published, report, frozenset(urls))


def _judged(
    answer: LiveAnswer, published: Published, names: dict[str, str]
) -> tuple[str, str] | None:
    """What is wrong with one sitemap file as served (what, fix), or None."""
    name = names[answer.url]
    problem = status_problem(answer, what="sitemap file")
    if problem is not None:
        return problem
    if answer.too_large:
        return (f"is {answer.problem}", "serve the file this build wrote")
    encoding = answer.header("Content-Encoding").strip().lower()
    gzipped = name.endswith(".gz")
    if gzipped and encoding == "gzip":
        return (
            "is a .gz file served with Content-Encoding: gzip (gzip twice: clients unpack it "
            "in transit, and a crawler then finds no gzip file)",
            "serve it with no Content-Encoding (S3: remove the object's ContentEncoding "
            "metadata; upload .gz sitemaps with --content-type application/gzip only)",
        )
    body = answer.body
    if encoding == "gzip":  # (an .xml a host compressed although asked not to)
        try:
            body = inflate(body, read_limit(name), what=answer.url)
        except InflateError:
            return ("says Content-Encoding: gzip but is no gzip", "serve its bytes as written")
    wrong_type = _type_problem(name, media_type(answer), body, gzipped)
    if wrong_type is not None:
        return wrong_type
    if stored_digest(body) != published.sitemaps[name]:
        return (f"is not the file this build published ({copy_age(answer)})", cache_fix(answer))
    return None


def _type_problem(name: str, kind: str, body: bytes, gzipped: bool) -> tuple[str, str] | None:
    is_gzip = body.startswith(GZIP_MAGIC)
    if gzipped != is_gzip:
        what = "is no gzip file" if gzipped else "holds gzip bytes under a name without .gz"
        return (what, "serve the bytes this build wrote under this name")
    wanted = _GZIP_TYPES if gzipped else _XML_TYPES if name.endswith(".xml") else {"text/plain"}
    if kind in wanted:
        return None
    expected = sorted(wanted)[0]
    return (
        f"is served as {kind or 'no Content-Type'}, not {expected}",
        f"serve it with Content-Type {expected} (S3: the object's ContentType)",
    )


def _is_web_url(url: str) -> bool:
    """Whether a Sitemap: line names an http(s) URL (not one urllib.parse refuses)."""
    parts = split_url(url)
    return parts is not None and parts.scheme in ("http", "https")


def _check_robots(
    site: LiveSite, published: Published, report: CheckReport, ours: frozenset[str]
) -> None:
    """robots.txt at the host's root names the entry file (a problem when sitemill keeps its
    lines, else a note), and no Sitemap: line on this site leads nowhere."""
    robots = url_origin(published.base_url) + "/robots.txt"
    answer = site.get(robots, MAX_ROBOTS_TXT_BYTES, head=True)
    entry = published.base_url + published.entry
    text = answer.body.decode("utf-8", "replace") if answer.status == 200 else ""
    named = [url for url in sitemap_urls(text) if _is_web_url(url)]
    if entry not in named:
        said = (
            "names no Sitemap: line for " + entry
            if answer.status == 200
            else f"answers {answer.status or answer.problem}"
        )
        at_root = urlsplit(published.base_url).path == "/"
        if published.robots_txt and at_root:
            report.add(robots, ROBOTS, said, "deploy the robots.txt this build wrote")
        elif at_root:
            report.notes.append(
                f"{robots} {said}: crawlers find the sitemap only where it is submitted "
                "(robots_txt = true keeps a Sitemap: line)"
            )
        else:
            report.notes.append(
                f"{robots} {said}: the host's robots.txt is not the site's (it is served below "
                "the root); submit the sitemap to the engines (Search Console, Webmaster Tools)"
            )
    on_site = [u for u in named if u not in ours and u.startswith(published.base_url)]
    for answer in site.answers(on_site[:MAX_ROBOTS_SITEMAPS]):
        if answer.status != 200:
            report.add(
                robots,
                ROBOTS,
                f"names the sitemap {answer.url}, which answers {answer.status or answer.problem}",
                "remove that Sitemap: line (or deploy the file)",
            )


def check_user_sitemaps(site: LiveSite, published: Published, report: CheckReport) -> None:
    """Each of ``published.named`` on the site's origin, asked once; a note for the rest."""
    origin = url_origin(published.base_url)
    here = [url for url in published.named if origin_or_blank(url) == origin]
    elsewhere = [url for url in published.named if url not in here]
    for url, problem in site.get_many(here, HEAD_BYTES, _judged_users, head=True):
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


def _judged_users(answer: LiveAnswer) -> tuple[str, tuple[str, str] | None]:
    """What is wrong with one of the user's sitemaps as served (what, fix), or None."""
    problem = status_problem(answer, what="sitemap")
    if problem is None and not is_sitemap(urlsplit(answer.url).path, answer.body):
        problem = (
            "is no sitemap (no <urlset> or <sitemapindex> of the sitemaps.org namespace at its "
            "start), yet sitemill's index names it",
            "serve your sitemap at this URL, or take it out of `sitemaps`",
        )
    return answer.url, problem
