"""Write a URL list's blocks (UrlBlock) into sitemap files a block at a time, in C."""
# With the template's LineForm (sitemill.render._lineform), a block read from plain lines is written
# by replacing the TAB and the newline of each line with the form's fixed text, over the whole block
# at once; the split into files is found from the running sizes of the entries. The output is the
# compiled template's, byte for byte (the tests compare them).

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from itertools import accumulate, chain, repeat
from operator import add

from sitemill.entries import RenderedSitemap, UrlBlock
from sitemill.errors import TemplateError
from sitemill.render._compiledform import CompiledTemplate
from sitemill.render._lineform import LineForm, entry_text


@dataclass(frozen=True, slots=True)
class _Text:
    """A block's text, ``head + data + tail``, of which the last ``beyond`` bytes of ``data``
    are in no file."""

    data: bytes
    head: bytes = b""
    tail: bytes = b""
    beyond: int = 0


class _Written:
    """A block written: its text, its lastmods, and where each entry ends in the text,
    found only where a file's end needs it (most files end on a count, not a size).

    The text is ``head + data + tail``, kept in three parts so that the fixed text before
    the first entry and after the last costs no copy of the block; it holds ``size``
    bytes of entries (``data`` may end in more). Entry ``i`` takes ``fixed`` bytes plus
    its loc's (and, with ``sized_lastmods``, its lastmod's); or, with ``ends`` given, ends
    where they say.
    """

    __slots__ = (
        "_ends",
        "data",
        "fixed",
        "head",
        "lastmods",
        "locs",
        "newest",
        "size",
        "sized_lastmods",
        "tail",
        "whole_newest",
    )
    newest: Callable[[Iterable[bytes | None]], bytes | None]

    def __init__(
        self,
        text: _Text,
        locs: list[bytes],
        lastmods: list[bytes] | list[bytes | None] | None,
        fixed: int = 0,
        *,
        sized_lastmods: bool = False,
        every_dated: bool = False,
        ends: list[int] | None = None,
        whole_newest: bytes | None = None,
    ) -> None:
        head, data, tail = self.head, self.data, self.tail = text.head, text.data, text.tail
        self.size = len(head) + len(data) + len(tail) - text.beyond  # (``data`` ends in more)
        self.locs, self.lastmods, self.fixed = locs, lastmods, fixed
        self.sized_lastmods = sized_lastmods
        self._ends = ends
        # The newest of some of the lastmods: in C alone when every entry has one; of all of
        # them, as the block's reader found it (UrlBlock.newest), if it did.
        self.newest = max if every_dated else _newest  # type: ignore[assignment]
        self.whole_newest = whole_newest

    def __len__(self) -> int:
        return len(self.locs)

    def end(self, count: int) -> int:
        """Where the first ``count`` entries end."""
        if count == 0:
            return 0
        if count == len(self.locs):
            return self.size
        if self._ends is not None:
            return self._ends[count - 1]
        size = count * self.fixed + sum(map(len, self.locs[:count]))
        if self.sized_lastmods:
            size += sum(map(len, self.lastmods[:count]))  # type: ignore[arg-type,index]
        return size

    def ends(self) -> list[int]:
        """Where each entry ends: running sums of the sizes of its fields."""
        if self._ends is None:
            sizes = map(len, self.locs)
            if self.sized_lastmods:
                sizes = map(add, sizes, map(len, self.lastmods))  # type: ignore[arg-type]
            self._ends = list(accumulate(map(add, sizes, repeat(self.fixed))))
        return self._ends

    def newest_of(self, start: int, stop: int) -> bytes | None:
        """The newest lastmod of entries ``start`` to ``stop`` (exclusive)."""
        if start == 0 and stop == len(self.locs) and self.whole_newest is not None:
            return self.whole_newest
        return self.newest(self.lastmods[start:stop])  # type: ignore[index]

    def pieces(self, begin: int, end: int) -> list[bytes | memoryview]:
        """Bytes ``begin`` to ``end`` of the text, as slices that copy nothing."""
        head, data = len(self.head), len(self.data)
        found: list[bytes | memoryview] = []
        if begin < head:
            found.append(self.head[begin : min(end, head)])
        low, high = max(begin - head, 0), min(end - head, data)
        if low < high:
            found.append(memoryview(self.data)[low:high])
        if end > head + data:
            found.append(self.tail[max(begin - head - data, 0) : end - head - data])
        return found


def _newest(lastmods: Iterable[bytes | None]) -> bytes | None:
    return max(filter(None, lastmods), default=None)


def _write_block(form: LineForm, block: UrlBlock) -> _Written:
    """The block's text, in C where its entries share one form (every entry dated, or
    none), entry by entry where they do not."""
    locs, lastmods, lines = block.locs, block.lastmods, block.lines
    if any(char in (lines or b"".join(locs)) for char, _ in form.escapes):
        locs = [form.escape(loc) for loc in locs]
        lines = None if lines is None else form.escape(lines)  # (no lastmod holds one)
    before, between, after = form.dated
    if lastmods is None or not any(lastmods):
        before, after = form.undated
        fixed = len(before) + len(after)
        if lines is not None and lastmods is None:  # "loc\n" lines
            # (the copy of ``before`` after the last newline is in no file)
            data = lines.replace(b"\n", after + before)
            return _Written(_Text(data, head=before, beyond=len(before)), locs, None, fixed)
        data = (after + before).join(locs)
        return _Written(_Text(data, before, after), locs, lastmods, fixed)
    if not all(lastmods):  # some dated, some not
        texts = [entry_text(form, loc, stamp) for loc, stamp in zip(locs, lastmods, strict=True)]
        ends = list(accumulate(map(len, texts)))
        return _Written(_Text(b"".join(texts)), locs, lastmods, ends=ends)
    stamps: list[bytes] = lastmods  # type: ignore[assignment]  # (all() said so)
    if between is None:  # the template writes no lastmod
        data = (after + before).join(locs)
        fixed = len(before) + len(after)
        return _Written(_Text(data, before, after), locs, stamps, fixed, every_dated=True)
    fixed = len(before) + len(between) + len(after)
    dated = partial(_Written, sized_lastmods=True, every_dated=True, whole_newest=block.newest)
    if lines is not None:  # "loc\tlastmod\n" lines
        data = lines.replace(b"\t", between).replace(b"\n", after + before)
        return dated(_Text(data, head=before, beyond=len(before)), locs, stamps, fixed)
    fields = zip(repeat(before), locs, repeat(between), stamps, repeat(after))
    return dated(_Text(b"".join(chain.from_iterable(fields))), locs, stamps, fixed)


def render_block_sitemaps(
    blocks: Iterator[UrlBlock],
    form: LineForm,
    compiled: CompiledTemplate,
    *,
    max_urls: int,
    max_bytes: int,
) -> Iterator[RenderedSitemap]:
    """Stream the blocks into as many files as the limits need; nothing for no entries."""
    header = compiled.header_for(False, False).encode()
    footer = compiled.footer.encode()
    budget = max_bytes - len(header) - len(footer)
    file = _File()
    ahead = _nonempty(blocks)
    block = next(ahead, None)
    while block is not None:
        written = _write_block(form, block)
        following = next(ahead, None)  # (so that a file knows whether it is the last)
        count = len(written)
        start = done = 0  # entries of the block already in files, and their bytes
        while start < count:
            last = min(count, start + max_urls - file.count)
            room = done + budget - file.size
            end = written.end(last)
            if end <= room:
                stop = last
            else:  # the file ends on its size, inside the block: find where
                stop = bisect_right(written.ends(), room, start, last)
                end = written.end(stop)
            if stop == start:
                if file.count == 0:
                    loc = block.locs[start].decode("ascii")
                    raise TemplateError(
                        f"one URL does not fit in max_bytes ({max_bytes} bytes): {loc}"
                    )
                yield file.rendered(header, footer, last=False)
                file = _File()
                continue
            file.take(written, start, stop, done, end)
            start, done = stop, end
            if file.count == max_urls or start < count:
                yield file.rendered(header, footer, last=start == count and following is None)
                file = _File()
        block = following
    if file.count:
        yield file.rendered(header, footer, last=True)


def _nonempty(blocks: Iterator[UrlBlock]) -> Iterator[UrlBlock]:
    return (block for block in blocks if block.locs)


class _File:
    """The file being filled: slices of written blocks, their count, size and newest
    lastmod."""

    def __init__(self) -> None:
        self.pieces: list[bytes | memoryview] = []
        self.count = 0
        self.size = 0
        self.newest: bytes | None = None

    def take(self, written: _Written, start: int, stop: int, begin: int, end: int) -> None:
        """Entries ``start`` to ``stop`` (exclusive) of a written block, its bytes ``begin``
        to ``end``."""
        self.pieces += written.pieces(begin, end)
        self.count += stop - start
        self.size += end - begin
        if written.lastmods is not None:
            newest = written.newest_of(start, stop)
            if newest is not None and (self.newest is None or newest > self.newest):
                self.newest = newest

    def rendered(self, header: bytes, footer: bytes, *, last: bool) -> RenderedSitemap:
        """The file, in parts: slices of the blocks, copied only when written out."""
        parts = (header, *self.pieces, footer)
        self.pieces = []
        lastmod = None if self.newest is None else self.newest.decode("ascii")
        return RenderedSitemap(parts, self.count, lastmod, last)
