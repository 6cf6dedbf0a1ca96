"""The whole job: a source's pages, filtered and mapped to entries, written through a sink."""

from __future__ import annotations

import logging
import posixpath
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final
from urllib.parse import unquote, urlsplit, urlunsplit

from sitemill.config import DEFAULT_INCLUDE, Config, LastmodMode
from sitemill.dedupe import SeenUrls
from sitemill.entries import Entry, Page, Skip, SkipReason
from sitemill.errors import ConfigError, GitError, SourceError
from sitemill.globs import compile_globs, matches_any
from sitemill.noindex import page_is_noindex
from sitemill.protocol import MAX_URL_LENGTH, Precision, lastmod_from_timestamp
from sitemill.robots import RobotsRules
from sitemill.sinks import Sink
from sitemill.sources.git import find_work_tree, read_git_history
from sitemill.sources.tree import TreeFile, walk_tree
from sitemill.sources.urllist import FastBlockReader, read_blocks, read_url_list
from sitemill.urls import encode_uri_text, page_url, site_root_path
from sitemill.writer import ROBOTS_TXT, WriteResult, is_own_name, write_sitemaps

log = logging.getLogger(__name__)

_DEFAULT_INCLUDE_GLOBS: Final = compile_globs(DEFAULT_INCLUDE)
_BUILTIN_EXCLUDE_NAMES: Final = frozenset({"404.html", "404.htm"})
_HTML_SUFFIXES: Final = (".html", ".htm")
# Skips kept in full for reports and annotations; beyond this they are only counted.
MAX_SKIPS_KEPT: Final = 1_000

Progress = Callable[[int], None]
_WARNED: Final = frozenset({SkipReason.DUPLICATE, SkipReason.TOO_LONG, SkipReason.OFF_SITE})


@dataclass
class Report:
    """What a build did: the write result, and every page left out with why."""

    result: WriteResult
    lastmod: LastmodMode
    skipped: Counter[SkipReason] = field(default_factory=Counter)
    skips: list[Skip] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


class _Tally:
    def __init__(self, report_skips: Counter[SkipReason], kept: list[Skip]) -> None:
        self.counts = report_skips
        self.kept = kept

    def skip(self, path: str, reason: SkipReason, detail: str = "") -> None:
        self.record(Skip(path, reason, detail))

    def record(self, skip: Skip) -> None:
        self.counts[skip.reason] += 1
        if len(self.kept) < MAX_SKIPS_KEPT:
            self.kept.append(skip)
        # Warn where the user would not expect a page to be missing; a skip without
        # detail (a URL list's repeated line) is only counted.
        if skip.detail and skip.reason in _WARNED:
            log.warning("skipped %s: %s (%s)", skip.path, skip.reason.value, skip.detail)


def build_from_tree(
    config: Config,
    site_dir: Path,
    sink: Sink,
    *,
    progress: Progress | None = None,
) -> Report:
    """Generate the sitemaps of a site directory (a static build, a repository checkout)."""
    files = [file for file in walk_tree(site_dir) if is_candidate(config, file.path)]
    warnings: list[str] = []
    mode, dates = _resolve_lastmod(config, site_dir, files, warnings)
    precision = config.lastmod_precision

    def pages() -> Iterator[Page]:
        for file in files:
            lastmod = None
            if mode is not LastmodMode.NONE:
                when = None if dates is None else dates.get(file.path)
                lastmod = lastmod_from_timestamp(file.mtime if when is None else when, precision)
            yield Page(file.path, lastmod)

    def noindex(path: str) -> bool:
        return page_is_noindex(site_dir / path)

    robots = read_robots(site_dir) if config.respect_robots_txt else None
    return build_from_pages(
        config,
        pages(),
        sink,
        robots=robots,
        noindex=noindex,
        lastmod=mode,
        warnings=warnings,
        progress=progress,
    )


def build_from_pages(
    config: Config,
    pages: Iterator[Page],
    sink: Sink,
    *,
    robots: RobotsRules | None,
    noindex: Callable[[str], bool] | None,
    lastmod: LastmodMode,
    warnings: list[str] | None = None,
    progress: Progress | None = None,
) -> Report:
    """Generate sitemaps from any source of files (a tree, a bucket listing).

    ``noindex(path)`` tells whether an HTML page asks not to be indexed (None: not checked).
    """
    report = Report(WriteResult(), lastmod, warnings=list(warnings or []))
    tally = _Tally(report.skipped, report.skips)
    check = noindex if config.respect_noindex else None
    entries = _page_entries(config, pages, robots, check, tally)
    report.result = write_sitemaps(entries, sink, config, on_file=_file_progress(progress))
    return report


def build_from_url_list(
    config: Config,
    lines: Iterable[str],
    sink: Sink,
    *,
    name: str = "-",
    progress: Progress | None = None,
    size_hint: int | None = None,
) -> Report:
    """Generate sitemaps from a URL list (one URL per line, optional TAB + lastmod).

    ``size_hint``, the list's size in bytes when known, lets the duplicate check size its
    table once from the first block's line length instead of growing (and copying) it.
    """
    mode = LastmodMode.NONE if config.lastmod is LastmodMode.NONE else LastmodMode.MTIME
    report = Report(WriteResult(), mode)
    tally = _Tally(report.skipped, report.skips)
    entries = _tallied(_listed_entries(config, lines, name, size_hint), tally)
    report.result = write_sitemaps(entries, sink, config, on_file=_file_progress(progress))
    return report


def _tallied(items: Iterator[Entry | Skip], tally: _Tally) -> Iterator[Entry]:
    for item in items:
        if item.__class__ is Skip:
            tally.record(item)
        else:
            yield item  # type: ignore[misc]


def is_candidate(config: Config, path: str) -> bool:
    """Include/exclude and the built-in excludes: dot-files and dot-directories, 404 pages,
    sitemill's own outputs and robots.txt at the root."""
    if path.startswith(".") or "/." in path:
        return False
    if "/" not in path and (is_own_name(path) or path == ROBOTS_TXT):
        return False
    if path.rpartition("/")[2] in _BUILTIN_EXCLUDE_NAMES:
        return False
    if not matches_any(config.include or _DEFAULT_INCLUDE_GLOBS, path):
        return False
    return not matches_any(config.exclude, path)


def _resolve_lastmod(
    config: Config, site_dir: Path, files: list[TreeFile], warnings: list[str]
) -> tuple[LastmodMode, dict[str, int] | None]:
    mode = config.lastmod
    if mode is LastmodMode.NONE:
        return mode, None
    if find_work_tree(site_dir) is None:
        if mode is LastmodMode.GIT:
            raise ConfigError("lastmod", f"git needs a git work tree, and {site_dir} is not in one")
        return LastmodMode.MTIME, None
    if mode is LastmodMode.MTIME:
        return mode, None
    history = read_git_history(site_dir, {file.path for file in files})
    if history.shallow:
        advice = (
            "this is a shallow clone, so git dates would all be the newest commit's; "
            "fetch the full history (actions/checkout: fetch-depth: 0)"
        )
        if mode is LastmodMode.GIT:
            raise GitError(f"lastmod = git: {advice}")
        warnings.append(f"{advice}. Using file modification times instead.")
        log.warning("%s; using file modification times", advice)
        return LastmodMode.MTIME, None
    dates = {path: when for path, when in history.dates.items() if path not in history.dirty}
    return LastmodMode.GIT, dates


def read_robots(site_dir: Path) -> RobotsRules | None:
    path = site_dir / ROBOTS_TXT
    try:
        text = path.read_bytes().decode("utf-8", "replace")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {exc.strerror or exc}") from exc
    return RobotsRules.parse(text)


def _page_entries(
    config: Config,
    pages: Iterator[Page],
    robots: RobotsRules | None,
    noindex: Callable[[str], bool] | None,
    tally: _Tally,
) -> Iterator[Entry]:
    seen = SeenUrls()
    base = config.base_url
    root_path = site_root_path(base)
    for page in pages:
        path = page.path
        if not is_candidate(config, path):
            continue
        changefreq = priority = None
        rule = next((rule for rule in config.rules if rule.pattern.matches(path)), None)
        if rule is not None:
            if rule.exclude:
                tally.skip(path, SkipReason.EXCLUDED, f"rule {rule.pattern.pattern}")
                continue
            changefreq = None if rule.changefreq is None else rule.changefreq.value
            priority = rule.priority
        loc = page_url(base, path, config.url_style)
        if robots is not None and not robots.allows(root_path + loc[len(base) :]):
            tally.skip(path, SkipReason.ROBOTS_TXT, "disallowed for User-agent: *")
            continue
        if noindex is not None and path.lower().endswith(_HTML_SUFFIXES) and noindex(path):
            tally.skip(path, SkipReason.NOINDEX, "robots meta noindex")
            continue
        if len(loc) > MAX_URL_LENGTH:
            tally.skip(path, SkipReason.TOO_LONG, f"URL of {len(loc)} characters")
            continue
        if not seen.add(loc):
            tally.skip(path, SkipReason.DUPLICATE, f"{loc} is already listed (kept the first)")
            continue
        yield Entry(loc, page.lastmod, changefreq, priority)


def _listed_entries(
    config: Config, lines: Iterable[str], name: str, size_hint: int | None = None
) -> Iterator[Entry | Skip]:
    filtering = bool(config.include or config.exclude or config.rules)
    fast = (
        FastBlockReader(config.base_url)
        if not filtering and config.lastmod_precision is Precision.DATETIME
        else None
    )
    keep_lastmod = config.lastmod is not LastmodMode.NONE
    seen = SeenUrls()
    for first_line, block in read_blocks(lines):
        if size_hint and first_line == 1:
            line_bytes = sum(map(len, block)) / len(block)  # characters: close to bytes for URLs
            seen.reserve(int(size_hint / max(line_bytes, 1.0) * 1.05))
        simple = fast(block) if fast is not None else None
        if simple is None:
            yield from _listed_block(config, block, name, first_line, seen)
            continue
        fits = [(loc, lastmod) for loc, lastmod in simple if len(loc) <= MAX_URL_LENGTH]
        if len(fits) < len(simple):
            for loc, _ in simple:
                if len(loc) > MAX_URL_LENGTH:
                    yield Skip(loc[:100], SkipReason.TOO_LONG, f"URL of {len(loc)} characters")
        new = seen.add_many([loc for loc, _ in fits])
        for (loc, lastmod), first in zip(fits, new, strict=True):
            if first:
                yield Entry(loc, lastmod if lastmod and keep_lastmod else None)
            else:
                yield Skip(loc, SkipReason.DUPLICATE)  # a list's repeats are dropped quietly


def _listed_block(
    config: Config, block: list[str], name: str, first_line: int, seen: SeenUrls
) -> Iterator[Entry | Skip]:
    """Read a block line by line: any URL, any W3C date, filters and rules."""
    base = config.base_url
    filtering = bool(config.include or config.exclude or config.rules)
    keep_lastmod = config.lastmod is not LastmodMode.NONE
    listed = read_url_list(block, config.lastmod_precision, name=name, first_line=first_line)
    for raw_url, lastmod, line in listed:
        url = raw_url if raw_url.startswith(base) else _canonical_url(raw_url, name, line)
        if not url.startswith(base) or ("/." in url and not _stays_under(url, base)):
            yield Skip(raw_url, SkipReason.OFF_SITE, f"not under {base}")
            continue
        loc = encode_uri_text(url)
        changefreq = priority = None
        if filtering:
            path = unquote(loc[len(base) :].partition("?")[0].partition("#")[0])
            if config.include and not matches_any(config.include, path):
                continue
            if matches_any(config.exclude, path):
                continue
            rule = next((rule for rule in config.rules if rule.pattern.matches(path)), None)
            if rule is not None:
                if rule.exclude:
                    yield Skip(raw_url, SkipReason.EXCLUDED, f"rule {rule.pattern.pattern}")
                    continue
                changefreq = None if rule.changefreq is None else rule.changefreq.value
                priority = rule.priority
        if len(loc) > MAX_URL_LENGTH:
            yield Skip(raw_url[:100], SkipReason.TOO_LONG, f"URL of {len(loc)} characters")
            continue
        if not seen.add(loc):
            yield Skip(loc, SkipReason.DUPLICATE)  # a list's repeats are dropped quietly
            continue
        yield Entry(loc, lastmod if keep_lastmod else None, changefreq, priority)


def _stays_under(url: str, base: str) -> bool:
    """Whether a URL with dot segments ("/../") still points under base after resolving them."""
    parts = urlsplit(url)
    resolved = posixpath.normpath(parts.path) + ("/" if parts.path.endswith("/") else "")
    return urlunsplit((parts.scheme, parts.netloc, resolved, "", "")).startswith(base)


def _canonical_url(url: str, name: str, line: int) -> str:
    """Lower-case scheme and host so that the prefix test against base_url is fair."""
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        raise SourceError(f"{name}:{line}: {url[:200]!r} is not a valid URL") from exc
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise SourceError(f"{name}:{line}: {url[:200]!r} is not an absolute http(s) URL")
    return urlunsplit(
        (parts.scheme.lower(), parts.netloc.lower(), parts.path or "/", parts.query, parts.fragment)
    )


def _file_progress(progress: Progress | None) -> Callable[[str, int], None] | None:
    """Report progress once per finished sitemap file: no per-URL cost."""
    if progress is None:
        return None
    report = progress

    def on_file(name: str, url_count: int) -> None:
        report(url_count)

    return on_file
