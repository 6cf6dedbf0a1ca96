"""Steps two and three of a check: each <loc> is a page a crawler keeps, at the version dated."""
# A <loc> answers 200 itself (a redirect is a problem, not followed), an HTML file as HTML, with no
# noindex (robots meta or X-Robots-Tag) and a canonical that names it (check.canonicals says what a
# canonical that names another answers); and its content fingerprint,
# made as the publishing run made it, is the one that run dated: else a cache serves another
# version. Judged in the worker that fetched it, so that only the verdict is kept.
# A <loc> that redirects is never followed for the page's checks, but the fix depends on where it
# leads: a host that only adds a slash or strips ".html" serves the page at the URL a url_style
# lists (sitemill.check.served), so that style is the fix, but only if that URL answers 200. Each
# target on the site is asked once (at most MAX_TARGETS_ASKED); one that is not live means the
# page is served at neither URL.
# Whether a live page is that version (same_version) is compared like with like: the same bytes
# (a bucket's ETag, a tree's file as the build read it) are the same version; other bytes are
# compared by fingerprints made the same way from the bytes alone. The remembered fingerprint (of
# a sitemill that may have read pages otherwise) is the last resort, and none at all when this
# sitemill cannot compute its version (the page is then not compared).

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from sitemill.bounded.inflate import inflate_head
from sitemill.check.problems import CANONICAL, PAGE, STALE, UNCHECKED, Problem
from sitemill.check.published import Fingerprinting, PublishedPage, SiteFolder
from sitemill.check.served import (
    cache_fix,
    media_type,
    redirect_target,
    robots_header_noindex,
    same_url,
    status_problem,
)
from sitemill.filenames.outputs import stored_digest
from sitemill.html.facts import PageFacts, read_page_facts
from sitemill.html.links import resolve_url
from sitemill.lastmod.fingerprint.digest import MAX_FINGERPRINT_BYTES, fingerprint_file
from sitemill.safefs import read_regular, relative_inside
from sitemill.web.livesite import REDIRECTS, RUN_DEADLINE, LiveAnswer, LiveSite

_HTML_TYPES: Final = frozenset({"text/html", "application/xhtml+xml"})
MAX_TARGETS_ASKED: Final = 2_000  # redirect targets asked, at most
# Problems after which a URL is not announced: it is not live at the version dated.
BLOCKING: Final = frozenset({PAGE, CANONICAL, STALE, UNCHECKED})


@dataclass(frozen=True, slots=True)
class PageVerdict:
    """One page's problems, and the hreflang alternates it declares (absolute URLs)."""

    url: str
    problems: tuple[Problem, ...] = ()
    alternates: tuple[tuple[str, str], ...] = ()
    live: bool = False  # answered 200
    said: str = ""  # what it answered when not live ("answers 404 (not found)")
    canonical: str = ""  # the canonical URL it names when that is another (check.canonicals)
    redirect: str = ""  # where it redirects to (redirect_fixes)
    compared: bool = True  # False: its version could not be compared with the one dated

    @property
    def passed(self) -> bool:
        blocked = any(problem.kind in BLOCKING for problem in self.problems)
        return not blocked and not self.canonical and self.compared


def judge_page(
    answer: LiveAnswer,
    page: PublishedPage,
    fingerprinting: Fingerprinting | None,
    files: SiteFolder | None = None,
) -> PageVerdict:
    """What is wrong with ``page`` as ``answer`` serves it."""
    url = answer.url
    if not answer.asked and answer.problem == RUN_DEADLINE:
        return PageVerdict(url, (Problem(url, UNCHECKED, answer.problem, "run the check again"),))
    problem = status_problem(answer, what="page")
    if problem is not None:
        moved = redirect_target(answer) if answer.status in REDIRECTS else ""
        return PageVerdict(url, (Problem(url, PAGE, *problem),), said=problem[0], redirect=moved)
    found = [Problem(url, PAGE, *wrong) for wrong in _header_problems(answer, page)]
    body = _decoded(answer)
    if body is None:
        wrong = ("says Content-Encoding: gzip but is no gzip", "serve its bytes as written")
        return PageVerdict(url, (*found, Problem(url, PAGE, *wrong)))
    alternates: tuple[tuple[str, str], ...] = ()
    canonical = ""
    if page.html:
        alternates, canonical = _read_head(url, body, found)
    how = fingerprinting
    same: bool | None = True
    if how is not None and (page.fingerprint or (page.html and not how.remembered)):
        same = same_version(page, answer.body, body, how, files)
    if same is False:
        what = "serves another version than the one sitemill dated"
        found.append(Problem(url, STALE, what, cache_fix(answer)))
    return PageVerdict(
        url, tuple(found), alternates, live=True, canonical=canonical, compared=same is not None
    )


def _header_problems(answer: LiveAnswer, page: PublishedPage) -> list[tuple[str, str]]:
    """What the headers say is wrong: an HTML page's type, an X-Robots-Tag noindex."""
    found = []
    if page.html and media_type(answer) not in _HTML_TYPES:
        served = media_type(answer) or "no Content-Type"
        fix = "serve it as text/html (S3: the object's ContentType)"
        found.append((f"is an HTML page served as {served}", fix))
    if robots_header_noindex(answer.header("X-Robots-Tag")):
        fix = "remove the header for this page, or exclude the page"
        found.append(("is noindex (X-Robots-Tag header)", fix))
    return found


def _read_head(
    url: str, body: bytes, found: list[Problem]
) -> tuple[tuple[tuple[str, str], ...], str]:
    """An HTML page's noindex problem, into ``found``; its alternates, and its canonical URL
    when that names another (its problem is check.canonicals')."""
    facts = read_page_facts(body)
    if facts.noindex:
        fix = (
            "rebuild the sitemaps from the pages deployed (sitemill leaves noindex pages "
            "out), or deploy this build"
        )
        found.append(Problem(url, PAGE, "is noindex (robots meta) as served", fix))
    canonical = (resolve_url(facts.canonical, url, facts.base) or "") if facts.canonical else ""
    other = canonical if canonical and not same_url(canonical, url) else ""
    return live_alternates(url, facts), other


def live_alternates(url: str, facts: PageFacts) -> tuple[tuple[str, str], ...]:
    """The hreflang alternates of the page at ``url``, each (language, absolute URL)."""
    pairs = ((lang, resolve_url(href, url, facts.base)) for lang, href in facts.alternates)
    return tuple((lang, href) for lang, href in pairs if href)


def _decoded(answer: LiveAnswer) -> bytes | None:
    """The body as a reader gets it (a gzip Content-Encoding undone), its first
    MAX_FINGERPRINT_BYTES; None when it says gzip and is none."""
    if answer.header("Content-Encoding").strip().lower() != "gzip":
        return answer.body
    return inflate_head(answer.body, MAX_FINGERPRINT_BYTES)


def redirect_fixes(site: LiveSite, verdicts: Mapping[str, PageVerdict]) -> dict[str, str]:
    """URL -> the fix of its redirect, for the <loc>s whose redirect leads to a URL of the
    site that is not live (the others keep the fix their problem has)."""
    targets = {
        url: v.redirect for url, v in verdicts.items() if v.redirect and site.on_site(v.redirect)
    }  # ("" is no URL: never on the site, and not remembered as one, so not asked about)
    asked = sorted(set(targets.values()))[:MAX_TARGETS_ASKED]
    answers = {a.url: a for a in site.answers(asked)}
    fixes: dict[str, str] = {}
    for url, target in targets.items():
        answer = answers.get(target)
        if answer is None or answer.status == 200 or not answer.asked:
            continue
        said = status_problem(answer, what="page")
        fixes[url] = (
            f"it leads to {target}, which {said[0] if said else 'is not live'}: the page is "
            "served at neither URL (on hosts such as GitHub Pages a folder named like the page "
            "takes its URL); serve it at one of them"
        )
    return fixes


def same_version(
    page: PublishedPage,
    raw: bytes,
    body: bytes,
    how: Fingerprinting,
    files: SiteFolder | None,
) -> bool | None:
    """Whether ``body`` (``raw`` as served, before a Content-Encoding is undone) is the
    version of ``page`` that was published; ``files``: the site folder that holds it. None:
    not compared (no bytes at hand, and a remembered fingerprint this sitemill cannot make)."""
    etag = (page.version or "").strip('"')
    whole = len(raw) < MAX_FINGERPRINT_BYTES  # (a head read of a longer page is not its bytes)
    if etag and "-" not in etag and whole and stored_digest(raw) == etag:
        return True
    published = _published_bytes(files, page.path) if files is not None else None
    if published is not None:
        return published == body or _fingerprint(page, published, how) == _fingerprint(
            page, body, how
        )
    if not how.remembered and page.html:  # (another file's fingerprint hashes its bytes)
        return None
    return _fingerprint(page, body, how) == page.fingerprint


def _published_bytes(files: SiteFolder, path: str) -> bytes | None:
    """The first MAX_FINGERPRINT_BYTES of the file at ``path`` in ``files``: None when it is
    not a regular file inside the folder (a state names paths: it is input from outside)."""
    real = files.real_path(path)
    if relative_inside(files.real, real) in (None, ""):
        return None
    try:
        return read_regular(real, MAX_FINGERPRINT_BYTES, follow_symlinks=False)
    except (OSError, ValueError):
        return None


def _fingerprint(page: PublishedPage, body: bytes, how: Fingerprinting) -> str:
    return fingerprint_file(page.path, body, how.ignore, how.version, main=how.main, base=how.base)
