"""Which paths are pages: include/exclude, the built-in excludes, and the first matching rule;
and which pages a run looks at (those, and robots.txt): only those are read, fingerprinted and
dated."""

from __future__ import annotations

import re
from typing import Final

from sitemill.config.globs import compile_globs, matches_any
from sitemill.config.llms import writes_llms
from sitemill.config.model import DEFAULT_INCLUDE, Config
from sitemill.config.tables import Rule, group_names
from sitemill.filenames.outputs import HTML_SITEMAP, ROBOTS_TXT, is_llms_name, is_own_name
from sitemill.filenames.pagenames import is_page_name
from sitemill.html.facts import wants_facts
from sitemill.robots.rules import RobotsRules
from sitemill.urls import URL_STYLES, UrlStyle, page_url, site_root_path

_DEFAULT_INCLUDE_GLOBS: Final = compile_globs(DEFAULT_INCLUDE)
# The 404 page in every spelling a generator writes it, at any depth (a language's own too):
# Jekyll, Hugo and MkDocs write 404.html, Gatsby and Next.js 404/index.html.
_NOT_FOUND_PAGES: Final = ("404.html", "404.htm", "404/index.html", "404/index.htm")
# Files that search engines ask a site owner to upload to prove ownership: never pages.
# https://support.google.com/webmasters/answer/9008080 (HTML file upload)
_VERIFICATION_NAME: Final = re.compile(
    r"(?:.*/)?(?:google[0-9a-f]{16}|yandex_[0-9a-f]{16}|pinterest-[0-9a-f]{5})\.html"
)
# Sphinx copies its theme's files (scripts, fonts, a theme's own PDFs and HTML) to _static/.
_THEME_ASSETS: Final = "_static/"
NOT_FOUND_PAGE: Final = "the 404 page"
THEME_ASSET: Final = "a theme asset under _static/"
VERIFICATION_FILE: Final = "search-engine verification file"
# A name no URL reaches as it is (sitemill.filenames.pagenames): one warning counts them all.
NO_PAGE_NAME: Final = "a name that can name no page (a control character, a backslash)"
# Why a root file of sitemill's own is no page (``own_output``; sitemill why says it).
OWN_OUTPUT: Final = "one of sitemill's own files"
OWN_HTML_SITEMAP: Final = "sitemill's own sitemap.html (html_sitemap is on)"
LEFTOVER_HTML_SITEMAP: Final = (
    "sitemill's own sitemap.html of an earlier run (its head's generator meta says so), "
    "which this run deletes"
)
# The Markdown twin of an HTML file's page (index.html.md, a/b.html.md:
# sitemill.llms._markdownfiles).
_TWIN_OF_A_FILE: Final = (".html.md", ".htm.md")


def is_candidate(config: Config, path: str) -> bool:
    """Include/exclude and the silent built-in excludes: dot-files and dot-directories,
    sitemill's own outputs, the IndexNow key file and robots.txt at the root (``own_output``),
    the llms files while on (files of a tree or a bucket). The counted ones are
    ``builtin_exclusion``'s."""
    if path.startswith(".") or "/." in path:
        return False
    if "/" not in path and own_output(config, path) is not None:
        return False
    if not matches_any(config.include or _DEFAULT_INCLUDE_GLOBS, path):
        return False
    if path.endswith((".txt", ".md")) and _is_llms_output(config, path):
        return False
    return not matches_any(config.exclude, path)


def own_output(config: Config, path: str) -> str | None:
    """Why the site-root file ``path`` is one of sitemill's own and never a page (None: it
    is not): its outputs' names, robots.txt, the IndexNow key file. ``sitemap.html`` is the
    user's page like any other while html_sitemap is off (one sitemill made is
    ``is_leftover_html_sitemap``'s: only its bytes tell)."""
    if path == HTML_SITEMAP:
        return OWN_HTML_SITEMAP if config.html_sitemap else None
    if is_own_name(path, group_names(config.groups)) or path == ROBOTS_TXT:
        return OWN_OUTPUT
    if _is_key_file(path, config.indexnow_key):
        return "the IndexNow key file"
    return None


def may_be_leftover(config: Config, path: str) -> bool:
    """Whether ``path`` is a root sitemap.html that a run with html_sitemap off lists unless
    its head says sitemill made it (``is_leftover_html_sitemap``)."""
    return path == HTML_SITEMAP and not config.html_sitemap


def is_leftover_html_sitemap(head: bytes | None) -> bool:
    """Whether a root sitemap.html for which ``may_be_leftover`` holds is sitemill's own from
    an earlier run, which this run (html_sitemap off) deletes: never a page. ``head``: its
    first bytes (PAGE_FACTS_BYTES are enough), None when it could not be read (then it is the
    user's page, as any)."""
    if head is None:
        return False
    from sitemill.html.meta import made_by_sitemill  # (loads only for a sitemap.html)

    return made_by_sitemill(head)


def _is_llms_output(config: Config, path: str) -> bool:
    """llms.txt (any folder's), llms-full.txt and an HTML file's Markdown twin, while sitemill
    writes them: its outputs, never pages (an include of *.txt or *.md would list them)."""
    return writes_llms(config) and (is_llms_name(path) or path.endswith(_TWIN_OF_A_FILE))


def builtin_exclusion(path: str) -> str | None:
    """Why a candidate is never a page, counted under ``excluded`` (trees and buckets alike):
    a 404 page in any spelling at any depth, a theme asset under ``_static/``, a
    search-engine verification file, a name that can name no page (a newline, a backslash:
    ``is_page_name``); None for any other path."""
    if not is_page_name(path):
        return NO_PAGE_NAME
    if path.endswith(_NOT_FOUND_PAGES) and _whole_tail(path, _NOT_FOUND_PAGES):
        return NOT_FOUND_PAGE
    if path.startswith(_THEME_ASSETS) or f"/{_THEME_ASSETS}" in path:
        return THEME_ASSET
    if _VERIFICATION_NAME.fullmatch(path) is not None:
        return VERIFICATION_FILE
    return None


def is_page_candidate(config: Config, path: str) -> bool:
    """is_candidate, and no built-in exclusion either (where the reason is not counted)."""
    return is_candidate(config, path) and builtin_exclusion(path) is None


def _whole_tail(path: str, tails: tuple[str, ...]) -> bool:
    """Whether ``path`` ends with one of ``tails`` as whole segments ("a/404.html", not
    "a/x404.html")."""
    return any(
        path.endswith(tail) and (len(path) == len(tail) or path[-len(tail) - 1] == "/")
        for tail in tails
    )


def _is_key_file(path: str, key: str) -> bool:
    """Whether ``path`` is the IndexNow key file, ``<key>.txt`` (no string built per path)."""
    return (
        bool(key) and len(path) == len(key) + 4 and path.startswith(key) and path.endswith(".txt")
    )


def is_listed_url_path(config: Config, path: str) -> bool:
    """Include/exclude for a URL list's paths: only what the user gave, no built-in rules."""
    if config.include and not matches_any(config.include, path):
        return False
    return not matches_any(config.exclude, path)


def first_rule(config: Config, path: str) -> Rule | None:
    """The first ``[[rules]]`` table whose pattern matches ``path``: it alone applies."""
    return next((rule for rule in config.rules if rule.pattern.matches(path)), None)


def rule_values(rule: Rule | None) -> tuple[str | None, str | None]:
    """The changefreq and priority a rule sets for its pages (None where it sets none)."""
    if rule is None:
        return None, None
    return (None if rule.changefreq is None else rule.changefreq.value), rule.priority


def reads_head(config: Config, robots: RobotsRules | None, path: str) -> bool:
    """Whether the pipeline will look at the facts of the page at ``path``: an HTML page
    that include, exclude, rules and robots.txt leave in. A source whose reads cost a round
    trip (S3) reads only these."""
    return wants_facts(path) and reads_page(config, robots, path)


def reads_page(config: Config, robots: RobotsRules | None, path: str) -> bool:
    """Whether the pipeline will look at the page at ``path`` at all (include, exclude,
    rules, robots.txt): only such pages are read, fingerprinted and dated. While ``auto``
    has not settled the URL style, a page robots.txt allows in any style is read."""
    return is_candidate(config, path) and reads_candidate(config, robots, path)


def reads_candidate(config: Config, robots: RobotsRules | None, path: str) -> bool:
    """reads_page of a path that is_candidate let in (a tree's listed files: include and
    exclude are not asked again, on every page of every run)."""
    if builtin_exclusion(path) is not None:
        return False
    rule = first_rule(config, path)
    if rule is not None and rule.exclude:
        return False
    if robots is None:
        return True
    base = config.base_url
    root = site_root_path(base)
    styles = URL_STYLES if config.url_style is UrlStyle.AUTO else (config.url_style,)
    return any(robots.allows(root + page_url(base, path, style)[len(base) :]) for style in styles)
