"""Sitemaps from a URL list: one absolute URL per line, optionally a TAB and its lastmod."""

from __future__ import annotations

import io
import logging
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import chain
from typing import BinaryIO, TypeVar, cast
from urllib.parse import unquote, urlsplit, urlunsplit

from sitemill.bounded.dedupe import SeenUrlBytes
from sitemill.bounded.repeatfinder import FORK_AT_BYTES, repeat_finder
from sitemill.config.llms import refuse_llms
from sitemill.config.model import Config, IndexNowMode, LastmodMode, refuse_shards_on
from sitemill.entries import Entry, Skip, SkipReason, UrlBlock, UrlBlocks
from sitemill.errors import ConfigError, SourceError
from sitemill.lastmod.decide import evidence_ceiling
from sitemill.lastmod.summary import list_dates_from
from sitemill.outputs import OutputFeature, OutputRun
from sitemill.protocol import MAX_URL_LENGTH, Precision
from sitemill.report import Progress, Report, Tally, WriteResult, file_progress
from sitemill.rules import first_rule, is_listed_url_path, rule_values
from sitemill.sinks import Sink
from sitemill.sources.urlchunks import CHUNK_BYTES, LineChunk, PlainChunks, chunks_of
from sitemill.sources.urllist import read_url_list
from sitemill.urls import encode_host, encode_uri_text, remove_dot_segments, split_url
from sitemill.writing.usersitemaps import user_sitemaps
from sitemill.writing.writer import WriteSetup, explain_empty_run, write_sitemaps

_T = TypeVar("_T")


def build_url_list(
    config: Config,
    lines: Iterable[str] | BinaryIO,
    sink: Sink,
    *,
    name: str = "-",
    progress: Progress | None = None,
    size_hint: int | None = None,
    outputs: Sequence[OutputFeature] = (),
) -> Report:
    """Generate sitemaps from a URL list (one URL per line, optional TAB + lastmod), and the
    ``outputs`` written beside them (sitemill.outputs: no page read, no state kept; none
    unless listed).

    ``lines``: the list's lines as text, or a binary stream of it (UTF-8), read a chunk at
    a time. ``size_hint``, the list's size in bytes when known, lets the duplicate check
    size its table once from the first chunk's line length instead of growing (and
    copying) it. A lastmod after the run's time is dropped (LateLastmods, below)."""
    refuse_shards_on(config, "a URL list's children")
    refuse_llms(config)
    if config.indexnow is not IndexNowMode.OFF:
        raise ConfigError(
            "indexnow",
            "a URL list keeps no state to tell which pages changed (use build or s3)",
        )
    mode = LastmodMode.NONE if config.lastmod is LastmodMode.NONE else LastmodMode.MTIME
    report = Report(WriteResult(), mode)
    tally = Tally(report.skipped, report.skips)
    late = LateLastmods.now()
    entries = late.dropped(_listed_entries(config, chunks_of(lines), name, tally.record, size_hint))
    on_file = file_progress(progress)  # (a list keeps no state: no digest of its files)
    named = user_sitemaps(config, None, None, ())  # (named as given: no site to read)
    started = [feature.start(OutputRun(config, sink)) for feature in outputs]
    for output in started:
        entries = output.watch(entries)
    with explain_empty_run(report.skipped):
        setup = WriteSetup(on_file=on_file, digests=False, named=lambda: named, outputs=started)
        report.result = write_sitemaps(entries, sink, config, setup)
    for output in started:
        output.finish(report.result)
    report.warnings.extend(named.warnings + report.result.warnings + late.warnings())
    report.lastmod_from = list_dates_from(report.result.sitemaps, mode)
    return report


def _listed_entries(
    config: Config,
    chunks: Iterable[LineChunk],
    name: str,
    record: Callable[[Skip], None],
    size_hint: int | None = None,
) -> Iterator[Entry]:
    """The listed entries: in blocks (UrlBlocks) for a renderer that writes them a block
    at a time, unless rules give entries a changefreq or priority (one entry at a time)."""
    parts = _listed_parts(config, chunks, name, record, size_hint)
    if config.rules:  # (no plain chunk with rules: each part is a list of entries)
        return chain.from_iterable(cast("Iterator[list[Entry]]", parts))
    return UrlBlocks(cast("Iterator[UrlBlock]", parts))


def _listed_parts(
    config: Config,
    chunks: Iterable[LineChunk],
    name: str,
    record: Callable[[Skip], None],
    size_hint: int | None,
) -> Iterator[UrlBlock | list[Entry]]:
    """Each chunk's listed entries, each URL once: a block (the chunk's columns when it is
    plain, PlainChunks; else the entries its lines give), or with rules (which give entries
    a changefreq or a priority) the entries. A long list's duplicate check runs on another
    core, a block behind (sitemill.bounded.repeatfinder)."""
    filtering = bool(config.include or config.exclude or config.rules)
    datetimes = config.lastmod_precision is Precision.DATETIME
    plain = PlainChunks(config.base_url) if datetimes and not filtering else None
    keep_lastmod = config.lastmod is not LastmodMode.NONE
    source = iter(chunks)
    first = next(source, None)
    if first is None:
        return
    fork = config.workers != 1 and _long(first, size_hint)
    finder = repeat_finder(SeenUrlBytes(), _table_size(first, size_hint), fork=fork)
    waiting: deque[UrlBlock | list[Entry]] = deque()
    try:
        for chunk in chain([first], source):
            part: UrlBlock | list[Entry] | None = None
            if plain is not None:
                part = plain(chunk.data, keep_lastmod)
            if part is None:
                lines = io.StringIO(_text_of(chunk, name), newline="")
                entries = list(_listed_block(config, lines, name, chunk.first_line, record))
                part = entries if config.rules else _block_of(entries)
            finder.submit(_locs_of(part))
            waiting.append(part)
            while len(waiting) > finder.lag:
                yield _unique(waiting.popleft(), finder.result(), record)
        while waiting:
            yield _unique(waiting.popleft(), finder.result(), record)
    finally:
        finder.close()


def _long(first: LineChunk, size_hint: int | None) -> bool:
    """Whether a list is long enough to give its duplicate check a helper: FORK_AT_BYTES,
    or of unknown length (a pipe) with a full first chunk (cut at a line's end: over half
    CHUNK_BYTES). Judged at the first chunk: a later fork might copy a lock held by the
    writer's thread."""
    return size_hint >= FORK_AT_BYTES if size_hint else len(first.data) > CHUNK_BYTES // 2


def _table_size(chunk: LineChunk, size_hint: int | None) -> int:
    """The URLs a list of ``size_hint`` bytes holds, judged by its first chunk (so that
    the duplicate check sizes its table once instead of growing it), or 0."""
    if not size_hint or not chunk.data:
        return 0
    line_bytes = len(chunk.data) / max(chunk.data.count(b"\n"), 1)
    return int(size_hint / line_bytes * 1.05)


def _locs_of(part: UrlBlock | list[Entry]) -> list[bytes]:
    if isinstance(part, UrlBlock):
        return part.locs
    return [entry.loc.encode("utf-8") for entry in part]


def _unique(
    part: UrlBlock | list[Entry], repeated: list[int], record: Callable[[Skip], None]
) -> UrlBlock | list[Entry]:
    """The part without the URLs at ``repeated`` (listed before: dropped quietly)."""
    if not repeated:
        return part
    if isinstance(part, UrlBlock):
        for position in repeated:
            record(Skip(part.locs[position].decode("ascii"), SkipReason.DUPLICATE))
        stamps = cast("list[bytes | None] | None", part.lastmods)
        lastmods = None if stamps is None else _kept(stamps, repeated)
        return UrlBlock(_kept(part.locs, repeated), lastmods)
    for position in repeated:
        record(Skip(part[position].loc, SkipReason.DUPLICATE))
    return _kept(part, repeated)


def _kept(items: list[_T], dropped: list[int]) -> list[_T]:
    """``items`` without those at the positions ``dropped``."""
    gone = set(dropped)
    return [item for position, item in enumerate(items) if position not in gone]


def _text_of(chunk: LineChunk, name: str) -> str:
    try:
        return chunk.data.decode("utf-8")
    except UnicodeDecodeError as exc:
        at = chunk.offset + exc.start
        if at == 0 and chunk.data.startswith((b"\xff\xfe", b"\xfe\xff")):  # (Excel, PowerShell)
            raise SourceError(f"{name}: UTF-16 text; save the list as UTF-8") from None
        raise SourceError(f"{name}: not UTF-8 text ({exc.reason} at byte {at})") from exc


def _block_of(entries: list[Entry]) -> UrlBlock:
    """Entries read line by line (no rule gave them more than a loc and a lastmod), as a
    block."""
    locs = [entry.loc.encode("utf-8") for entry in entries]
    if not any(entry.lastmod for entry in entries):
        return UrlBlock(locs, None)
    return UrlBlock(locs, [e.lastmod.encode("ascii") if e.lastmod else None for e in entries])


def _listed_block(
    config: Config,
    block: Iterable[str],
    name: str,
    first_line: int,
    record: Callable[[Skip], None],
) -> Iterator[Entry]:
    """Read a block line by line: any URL, any W3C date, filters and rules (each URL as
    often as listed: repeats are dropped after, _unique)."""
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
        yield Entry(loc, lastmod if keep_lastmod else None, changefreq, priority)


def _without_dot_segments(url: str) -> str:
    """The URL with "." and ".." path segments resolved (RFC 3986 section 5.2.4)."""
    parts = urlsplit(url)
    path = remove_dot_segments(parts.path or "/")
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, parts.fragment))


def _canonical_url(url: str, name: str, line: int) -> str:
    """Scheme and host as base_url has them (lower case, IDNA, no trailing dot, no default
    port: urls.normalize_base_url) so the prefix test is fair."""
    parts = split_url(url)
    if parts is None:
        raise SourceError(f"{name}:{line}: {url[:200]!r} is not a valid URL")
    port = parts.port
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise SourceError(f"{name}:{line}: {url[:200]!r} is not an absolute http(s) URL")
    netloc = parts.netloc.lower()
    if parts.username is None and parts.password is None:
        try:
            host = encode_host(parts.hostname.removesuffix("."), "url")
        except ConfigError as exc:
            raise SourceError(f"{name}:{line}: {url[:200]!r} has an invalid host") from exc
        default = 443 if parts.scheme.lower() == "https" else 80
        netloc = host if port in (None, default) else f"{host}:{port}"
    return urlunsplit(
        (parts.scheme.lower(), netloc, parts.path or "/", parts.query, parts.fragment)
    )


# A URL list's lastmods after the run's time, dropped from their lines and said once.
# A lastmod the list gives is published as given, but none after the run's time (docs/lastmod.md,
# "No date from the future"): a 2099 or a 9999-12-31 is no time a page changed. The line stays
# listed without its lastmod; one warning counts them and quotes the first.
log = logging.getLogger(__name__)


@dataclass
class LateLastmods:
    """Drops each lastmod that sorts after ``ceiling`` (sitemill.lastmod.decide: the
    written forms sort as the instants they name), counting them."""

    ceiling: str
    count: int = 0
    first: tuple[str, str] | None = None  # a dropped one's URL and lastmod

    @classmethod
    def now(cls) -> LateLastmods:
        """For a run that starts now."""
        return cls(evidence_ceiling(datetime.now(UTC)))

    def dropped(self, entries: Iterator[Entry]) -> Iterator[Entry]:
        """``entries`` (UrlBlocks: a block at a time) with no lastmod after the ceiling."""
        if isinstance(entries, UrlBlocks):
            return UrlBlocks(map(self._block, entries.blocks))
        return map(self._entry, entries)

    def _entry(self, entry: Entry) -> Entry:
        if entry.lastmod is None or entry.lastmod <= self.ceiling:
            return entry
        self._note(entry.loc, entry.lastmod)
        return Entry(entry.loc, None, entry.changefreq, entry.priority)

    def _block(self, block: UrlBlock) -> UrlBlock:
        ceiling, stamps = self.ceiling.encode("ascii"), block.lastmods
        if stamps is None or (block.newest or max(filter(None, stamps), default=b"")) <= ceiling:
            return block  # (the usual block: its newest found as it was read, or one pass in C)
        kept: list[bytes | None] = []
        for loc, stamp in zip(block.locs, stamps, strict=True):
            if stamp is not None and stamp > ceiling:
                self._note(loc.decode("ascii"), stamp.decode("ascii"))
                stamp = None
            kept.append(stamp)
        return UrlBlock(block.locs, kept if any(kept) else None)

    def _note(self, loc: str, lastmod: str) -> None:
        self.count += 1
        self.first = self.first or (loc, lastmod)

    def warnings(self) -> list[str]:
        """The one line that says what was dropped (none: [])."""
        if self.first is None:
            return []
        loc, lastmod = self.first
        message = (
            f"{self.count:,} lastmod(s) after the run's time dropped (no time a page changed; "
            f"the URLs stay listed without one), e.g. {loc} {lastmod!r}"
        )
        log.warning("%s", message)
        return [message]
