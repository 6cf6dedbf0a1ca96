"""Sitemaps from a URL list: one absolute URL per line, optionally a TAB and its lastmod."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import repeat
from urllib.parse import unquote, urlsplit, urlunsplit

from sitemill.config.model import Config, IndexNowMode, LastmodMode, refuse_shards_on
from sitemill.dedupe import SeenUrls
from sitemill.entries import Entry, Skip, SkipReason
from sitemill.errors import ConfigError, SourceError
from sitemill.protocol import MAX_URL_LENGTH, Precision
from sitemill.report import Progress, Report, Tally, WriteResult, file_progress
from sitemill.rules import first_rule, is_listed_url_path, rule_values
from sitemill.sinks import Sink
from sitemill.sources.urllist import FastBlockReader, read_blocks, read_url_list
from sitemill.urls import encode_host, encode_uri_text
from sitemill.writer import write_sitemaps


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
    refuse_shards_on(config, "a URL list's children")
    if config.indexnow is not IndexNowMode.OFF:
        raise ConfigError(
            "indexnow",
            "a URL list keeps no state to tell which pages changed (use build or s3)",
        )
    mode = LastmodMode.NONE if config.lastmod is LastmodMode.NONE else LastmodMode.MTIME
    report = Report(WriteResult(), mode)
    tally = Tally(report.skipped, report.skips)
    entries = _listed_entries(config, lines, name, tally.record, size_hint)
    report.result = write_sitemaps(entries, sink, config, on_file=file_progress(progress))
    report.warnings.extend(report.result.warnings)
    return report


def _listed_entries(
    config: Config,
    lines: Iterable[str],
    name: str,
    record: Callable[[Skip], None],
    size_hint: int | None = None,
) -> Iterator[Entry]:
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
            yield from _listed_block(config, block, name, first_line, seen, record)
            continue
        locs = [loc for loc, _ in simple]
        stamps = [stamp or None for _, stamp in simple] if keep_lastmod else [None] * len(locs)
        if max(map(len, locs), default=0) > MAX_URL_LENGTH:
            for loc in locs:
                if len(loc) > MAX_URL_LENGTH:
                    record(Skip(loc[:100], SkipReason.TOO_LONG, f"URL of {len(loc)} characters"))
            kept = [i for i, loc in enumerate(locs) if len(loc) <= MAX_URL_LENGTH]
            locs, stamps = [locs[i] for i in kept], [stamps[i] for i in kept]
        new = seen.add_many(locs)
        if all(new):  # the usual block: every entry built in C
            nothing = repeat(None)  # changefreq, priority, title, key
            columns = (locs, stamps, nothing, nothing, repeat(()), repeat(()), nothing, nothing)
            yield from map(Entry._make, zip(*columns, strict=False))  # repeat() never ends
            continue
        for loc, lastmod, first in zip(locs, stamps, new, strict=True):
            if first:
                yield Entry(loc, lastmod)
            else:
                record(Skip(loc, SkipReason.DUPLICATE))  # a list's repeats are dropped quietly


def _listed_block(
    config: Config,
    block: list[str],
    name: str,
    first_line: int,
    seen: SeenUrls,
    record: Callable[[Skip], None],
) -> Iterator[Entry]:
    """Read a block line by line: any URL, any W3C date, filters and rules."""
    base = config.base_url
    filtering = bool(config.include or config.exclude or config.rules)
    keep_lastmod = config.lastmod is not LastmodMode.NONE
    listed = read_url_list(block, config.lastmod_precision, name=name, first_line=first_line)
    for raw_url, lastmod, line in listed:
        url = raw_url if raw_url.startswith(base) else _canonical_url(raw_url, name, line)
        loc = encode_uri_text(url)  # also decodes %2E, so encoded dot segments show as "/."
        if "/." in loc:
            loc = _without_dot_segments(loc)
        if not loc.startswith(base):
            record(Skip(raw_url, SkipReason.OFF_SITE, f"not under {base}"))
            continue
        changefreq = priority = None
        if filtering:
            path = unquote(loc[len(base) :].partition("?")[0].partition("#")[0])
            if not is_listed_url_path(config, path):
                continue
            rule = first_rule(config, path)
            if rule is not None and rule.exclude:
                record(Skip(raw_url, SkipReason.EXCLUDED, f"rule {rule.pattern.pattern}"))
                continue
            changefreq, priority = rule_values(rule)
        if len(loc) > MAX_URL_LENGTH:
            record(Skip(raw_url[:100], SkipReason.TOO_LONG, f"URL of {len(loc)} characters"))
            continue
        if not seen.add(loc):
            record(Skip(loc, SkipReason.DUPLICATE))  # a list's repeats are dropped quietly
            continue
        yield Entry(loc, lastmod if keep_lastmod else None, changefreq, priority)


def _without_dot_segments(url: str) -> str:
    """The URL with "." and ".." path segments resolved (RFC 3986 section 5.2.4)."""
    parts = urlsplit(url)
    segments = parts.path.split("/")
    kept: list[str] = []
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment in (".", ".."):
            if segment == ".." and len(kept) > 1:
                kept.pop()
            if last:
                kept.append("")
        else:
            kept.append(segment)
    path = "/".join(kept) or "/"
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, parts.fragment))


def _canonical_url(url: str, name: str, line: int) -> str:
    """Scheme and host as base_url has them (lower case, IDNA) so the prefix test is fair."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise SourceError(f"{name}:{line}: {url[:200]!r} is not a valid URL") from exc
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise SourceError(f"{name}:{line}: {url[:200]!r} is not an absolute http(s) URL")
    netloc = parts.netloc.lower()
    if parts.username is None and parts.password is None:
        try:
            host = encode_host(parts.hostname, "url")
        except ConfigError as exc:
            raise SourceError(f"{name}:{line}: {url[:200]!r} has an invalid host") from exc
        netloc = host if port is None else f"{host}:{port}"
    return urlunsplit(
        (parts.scheme.lower(), netloc, parts.path or "/", parts.query, parts.fragment)
    )
