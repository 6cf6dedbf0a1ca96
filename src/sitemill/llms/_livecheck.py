"""A step of a check: the llms files this build published are live, as text, its very bytes."""
# Each llms file the build recorded, at its URL: 200 itself (no redirect), a text type that reads
# UTF-8, and the very bytes published (their MD5; others are an older copy a cache serves). A 200
# with an HTML page is said plainly (a host's 404 page or an app's fallback). gzip in transit is
# unpacked before comparing. With llms_pages, each twin the check asks anyway (run.chosen_urls)
# answers 200 with a text type (its bytes are not recorded, so not compared).

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from sitemill.bounded.inflate import inflate
from sitemill.check.problems import LLMS, CheckReport
from sitemill.check.published import Published
from sitemill.check.served import cache_fix, copy_age, media_type, status_problem
from sitemill.errors import InflateError
from sitemill.filenames.outputs import (
    content_type,
    read_limit,
    stored_digest,
    twin_url,
)
from sitemill.urls import encode_uri_part
from sitemill.web.livesite import REDIRECTS, LiveAnswer, LiveSite

TEXT_TYPES: Final = frozenset({"text/plain", "text/markdown"})
_UTF8: Final = frozenset({"utf-8", "utf8"})
_IDENTITY: Final = frozenset({"", "identity"})
_HTML_START: Final = re.compile(rb"\s*<(?:!doctype\s+html|html[\s>])", re.IGNORECASE)
_TWIN_READ: Final = 1024  # a twin's first bytes: its status and type are what is asked

LlmsProblem = tuple[str, str]  # (what, fix)


def check_llms(site: LiveSite, published: Published, report: CheckReport, urls: list[str]) -> None:
    """Each llms file ``published`` names; with its twins, those of the HTML pages in ``urls``."""
    names = {published.base_url + encode_uri_part(name): name for name in published.llms}
    limit = max(map(read_limit, published.llms), default=0)
    for url, problem in site.get_many(
        sorted(names), limit, lambda a: (a.url, _judged(a, names[a.url], published.llms))
    ):
        report.llms += 1
        if problem is not None:
            report.add(url, LLMS, *problem)
    if published.twins:
        _check_twins(site, published, report, urls)


def _judged(answer: LiveAnswer, name: str, digests: dict[str, str]) -> LlmsProblem | None:
    """What is wrong with one llms file as served (what, fix), or None."""
    problem = _status(answer, name)
    if problem is not None:
        return problem
    if answer.too_large:
        return (f"is {answer.problem}", f"serve the {name} this build wrote")
    encoding = answer.header("Content-Encoding").strip().lower()
    body = answer.body
    if encoding == "gzip":  # (clients unpack it: what they read is compared)
        try:
            body = inflate(body, read_limit(name), what="its body")
        except InflateError as exc:
            return (f"says Content-Encoding: gzip but {exc}", f"serve the {name} as written")
    elif encoding not in _IDENTITY:
        return (
            f"is served with Content-Encoding: {encoding[:40]}, although the request accepted "
            "none (identity): its bytes cannot be compared",
            "serve it uncompressed to a client that asks for identity",
        )
    published = stored_digest(body) == digests[name]
    problem = _type_problem(answer, name, body, published=published)
    if problem is None and not _reads_utf8(body):
        problem = ("is not UTF-8 text (not the file this build wrote)", f"deploy the {name}")
    if problem is None and not published:
        problem = (f"is not the file this build published ({copy_age(answer)})", cache_fix(answer))
    return problem or _charset_problem(answer, name, body)


def _status(answer: LiveAnswer, name: str, files: str = ".txt") -> LlmsProblem | None:
    """A status other than 200 (what, fix), with a fix for a file agents ask at its URL."""
    problem = status_problem(answer, what=name)
    if problem is None or answer.status is None:
        return problem
    what, fix = problem
    if answer.status in REDIRECTS:
        fix = f"serve the {name} at this URL with 200, without a redirect"
    elif answer.status in (404, 410):
        fix = f"deploy the {name} this build wrote (did the upload leave {files} files out?)"
    return (what, fix)


def _type_problem(
    answer: LiveAnswer, name: str, body: bytes, *, published: bool
) -> LlmsProblem | None:
    """A Content-Type that is no text type; an HTML page in the file's place (by its type or
    its first bytes: an llms file starts with "# "), said as such."""
    kind, wanted = media_type(answer), content_type(name)
    if not published and (kind == "text/html" or _HTML_START.match(body[:1024])):
        return (
            f"answers 200 with an HTML page ({kind or 'no Content-Type'}), not the file: a "
            "host's 404 page or a single-page app's fallback answers any path so",
            f"deploy the {name} this build wrote, and serve .txt files as they are",
        )
    if kind in TEXT_TYPES:
        return None
    return (
        f"is served as {kind or 'no Content-Type'}, not {wanted.partition(';')[0]}",
        f"serve it with Content-Type {wanted} (S3: the object's ContentType)",
    )


def _charset_problem(answer: LiveAnswer, name: str, body: bytes) -> LlmsProblem | None:
    """UTF-8 text beyond ASCII served with another charset, or none: a client that follows
    HTTP reads it as ASCII or Latin-1 (RFC 6657; RFC 7763 requires a charset on Markdown)."""
    charset = _charset(answer)
    if body.isascii() or charset in _UTF8:
        return None
    said = f"charset={charset}" if charset else "no charset"
    return (
        f"holds UTF-8 text beyond ASCII served as {media_type(answer)} with {said}: clients "
        "read it wrong",
        f"serve it with Content-Type {content_type(name)} (S3: the object's ContentType; "
        "aws s3 sync sets no charset)",
    )


def _reads_utf8(body: bytes) -> bool:
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _charset(answer: LiveAnswer) -> str:
    """The charset parameter of the Content-Type, lower-cased ("" when none)."""
    for parameter in answer.header("Content-Type").split(";")[1:]:
        key, _, value = parameter.partition("=")
        if key.strip().lower() == "charset":
            return value.strip().strip('"').lower()[:40]
    return ""


def _check_twins(
    site: LiveSite, published: Published, report: CheckReport, urls: Iterable[str]
) -> None:
    """The twins of the HTML pages in ``urls``: each 200 itself with a text type."""
    twins = [twin_url(url) for url in urls if published.pages[url].html]
    for answer in site.answers(twins, _TWIN_READ):
        report.twins += 1
        problem = _status(answer, "Markdown twin", ".md")
        kind = media_type(answer)
        if problem is None and kind not in TEXT_TYPES:
            problem = (
                f"is served as {kind or 'no Content-Type'}, not text/markdown",
                "serve .md files with Content-Type text/markdown; charset=utf-8 (S3: the "
                "object's ContentType)",
            )
        if problem is not None:
            report.add(answer.url, LLMS, *problem)
