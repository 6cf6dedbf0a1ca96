"""Read a URL list a chunk of whole lines at a time, and take a plain chunk whole."""
# A chunk of a generated list (every line a URL under base_url made only of URI characters, each
# with a date or a UTC datetime, or none with one) is recognised and split into its columns by a few
# passes in C over the whole chunk; any other chunk is read line by line (sitemill.sources.urllist).
# Both give the same entries: the tests compare them.

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import BinaryIO, Final, cast

from sitemill.entries import UrlBlock
from sitemill.protocol import MAX_URL_LENGTH
from sitemill.urls import URI_CHARS

CHUNK_BYTES: Final = 1 << 18
# A longer line can be no listed URL: it is cut here (and then skipped as too long, or
# refused for its lastmod) rather than held whole, however long it runs.
MAX_URL_LINE_BYTES: Final = 1 << 20
_BOM: Final = b"\xef\xbb\xbf"
_LINES_PER_BLOCK: Final = 8_192
_URI: Final = b"[" + re.escape(URI_CHARS.encode("ascii")) + b"]"
# A lastmod the line reader keeps as written (a date, or a canonical UTC datetime), or one
# ending in "Z" that it writes with "+00:00": fields in range, each month's days with it
# (the 29th of February is looked at once more: _leap_days_exist).
_DATE: Final = (
    rb"(?!0000)[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])"
    rb"|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-9]))"
)
_LASTMOD: Final = _DATE + rb"(?:T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\+00:00|Z))?"
# A "/." anywhere (a dot segment, or a name that starts with a dot): found by re's search for its
# first byte, "/", nearly twice as fast as ``b"/." in data``, which stops at every "." (of every
# host name and ".html").
_DOT_SEGMENT: Final = re.compile(rb"/\.")


@dataclass(frozen=True, slots=True)
class LineChunk:
    """Whole lines of the list, each ending in a newline (the last one's added if missing),
    with the number of the first line and the offset of the first byte."""

    data: bytes
    first_line: int
    offset: int


def read_line_chunks(stream: BinaryIO, size: int = CHUNK_BYTES) -> Iterator[LineChunk]:
    """The stream in chunks of about ``size`` bytes, cut after a line's end (a newline; a
    CR alone where no newline comes). A byte-order mark at the very start (editors on
    Windows write one) is dropped; a line of more than MAX_URL_LINE_BYTES is cut to that (at a
    UTF-8 character's start) and the rest of it skipped."""
    cutter = _Cutter()
    carry = b""
    skipping = False  # inside an over-long line, after the part kept of it
    while data := stream.read(size):
        if skipping:
            end = data.find(b"\n")
            if end < 0:
                cutter.offset += len(data)
                continue
            skipping = False
            cutter.offset += end + 1
            data = data[end + 1 :]
        data = carry + data if carry else data
        cut = data.rfind(b"\n") + 1 or data.rfind(b"\r", 0, len(data) - 1) + 1
        if cut:
            yield cutter.chunk(data[:cut])
            carry = data[cut:]
        else:
            carry = data
        if len(carry) > MAX_URL_LINE_BYTES:
            yield cutter.chunk(_utf8_prefix(carry, MAX_URL_LINE_BYTES) + b"\n", taken=len(carry))
            carry, skipping = b"", True
    if carry:
        yield cutter.chunk(carry + b"\n", taken=len(carry))


class _Cutter:
    """Numbers the chunks' lines and bytes; drops a byte-order mark at the very start."""

    def __init__(self) -> None:
        self.line = 1
        self.offset = 0

    def chunk(self, data: bytes, taken: int | None = None) -> LineChunk:
        """``data`` as the next chunk, ``taken`` bytes of the stream (default: its length)."""
        taken = len(data) if taken is None else taken
        if self.offset == 0 and data.startswith(_BOM):
            data, taken, self.offset = data[len(_BOM) :], taken - len(_BOM), len(_BOM)
        chunk = LineChunk(data, self.line, self.offset)
        self.line += _line_ends(data)
        self.offset += taken
        return chunk


def _line_ends(data: bytes) -> int:
    """How many lines end in ``data``: at a newline, a CR and newline, or a CR alone."""
    ends = data.count(b"\n")
    if b"\r" in data:
        ends += data.count(b"\r") - data.count(b"\r\n")
    return ends


def _utf8_prefix(data: bytes, limit: int) -> bytes:
    """The first ``limit`` bytes at most, not ending inside a UTF-8 character."""
    end = limit
    while end > 0 and limit - end < 3 and (data[end] & 0xC0) == 0x80:
        end -= 1
    return data[:end]


def chunks_of(lines: Iterable[str] | BinaryIO) -> Iterator[LineChunk]:
    """A binary stream read a chunk at a time, or lines of text gathered in chunks."""
    if hasattr(lines, "read") and not isinstance(lines, io.TextIOBase):
        return read_line_chunks(cast(BinaryIO, lines))
    return chunks_of_lines(lines)


def chunks_of_lines(lines: Iterable[str]) -> Iterator[LineChunk]:
    """Lines given as text (the library's callers) as chunks of UTF-8."""
    source = iter(lines)
    cutter = _Cutter()
    while block := list(islice(source, _LINES_PER_BLOCK)):
        text = "".join(line if line.endswith(("\n", "\r")) else line + "\n" for line in block)
        yield cutter.chunk(text.encode("utf-8", "surrogateescape"))


class PlainChunks:
    """Takes a chunk whole when every line is simply ``URL<TAB>lastmod``, or every line
    simply ``URL``: a URL under base_url of URI characters only (no "%", at most one "#", no
    dot segment, at most MAX_URL_LENGTH characters), a lastmod that exists: a date, or a
    UTC datetime ending in "+00:00" or "Z" (written with "+00:00", as the line reader
    writes it)."""

    def __init__(self, base_url: str) -> None:
        base = re.escape(base_url.encode("ascii"))
        url = base + _URI + rb"*+(?:#" + _URI + rb"*+)?"
        self._dated = re.compile(rb"(?:" + url + rb"\t" + _LASTMOD + rb"\n)*+")
        self._undated = re.compile(rb"(?:" + url + rb"\n)*+")

    def __call__(self, data: bytes, keep_lastmod: bool = True) -> UrlBlock | None:
        if b"\r" in data:
            data = data.replace(b"\r\n", b"\n")  # a lone CR is a line end too: not plain
        if _DOT_SEGMENT.search(data):
            return None  # dot segments need resolving: the line reader checks them
        first = data[: data.find(b"\n")]
        dated = b"\t" in first
        if (self._dated if dated else self._undated).fullmatch(data) is None:
            return None
        if dated:
            if b"-02-29" in data and not _leap_days_exist(data):
                return None
            # (only a datetime ends a line that has a TAB; a search for one byte first, in C
            # at memchr's speed: a two-byte one stops at every newline, 7 times slower)
            if b"Z" in data and b"Z\n" in data:
                data = data.replace(b"Z\n", b"+00:00\n")
            columns = data.replace(b"\t", b"\n").split(b"\n")
            locs, stamps = columns[0:-1:2], columns[1::2]
        else:
            locs, stamps = data.split(b"\n"), None
            locs.pop()  # after the last newline
        if max(map(len, locs)) > MAX_URL_LENGTH:
            return None
        if stamps is None:
            return UrlBlock(locs, None, data)
        if not keep_lastmod:
            return UrlBlock(locs, None)
        return UrlBlock(locs, stamps, data, max(stamps))  # (one pass, for every check after)


def _leap_days_exist(data: bytes) -> bool:
    """Whether each 29th of February among the chunk's lastmods is in a leap year (a few
    a chunk: each found by a search in C, not a pattern tried at every TAB)."""
    at = data.find(b"-02-29")
    while at >= 0:
        if data[at - 5 : at - 4] == b"\t" and not _is_leap(int(data[at - 4 : at])):
            return False
        at = data.find(b"-02-29", at + 6)
    return True


def _is_leap(year: int) -> bool:
    """The Gregorian rule (calendar.isleap, without importing calendar and locale)."""
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
