"""Read a URL list: one absolute URL per line, optionally a TAB and its lastmod."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from datetime import datetime
from itertools import islice
from typing import Final, NamedTuple

from sitemill.errors import SourceError
from sitemill.protocol import Precision, is_canonical_datetime, parse_lastmod
from sitemill.urls import URI_CHARS_CLASS

BLOCK_LINES: Final = 4_096


class ListedUrl(NamedTuple):
    """A line of the list: the URL as written (not yet checked) and its formatted lastmod."""

    url: str
    lastmod: str | None
    line: int


def read_blocks(lines: Iterable[str], size: int = BLOCK_LINES) -> Iterator[tuple[int, list[str]]]:
    """The lines in blocks of ``size``, each with the number of its first line.

    A byte-order mark at the very start (editors on Windows write one) is dropped.
    """
    source = iter(lines)
    first = 1
    while block := list(islice(source, size)):
        if first == 1 and block[0].startswith("\ufeff"):
            block[0] = block[0][1:]
        yield first, block
        first += len(block)


class FastBlockReader:
    """Reads a whole block at once when every line is simply ``URL`` or ``URL<TAB>datetime``.

    The common case of a generated list (URLs under base_url made only of URI characters,
    each with a canonical UTC datetime or none) is recognised by one regular expression
    over the block, in C; a block with anything else (comments, blanks, other hosts,
    escapes, dot segments, other date forms) returns None and is read line by line.
    Both readers give the same result: the tests compare them.
    """

    def __init__(self, base_url: str) -> None:
        self._pattern = re.compile(
            rf"^({re.escape(base_url)}{URI_CHARS_CLASS}*(?:#{URI_CHARS_CLASS}*)?)"
            r"(?:\t(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00))?\r?$",
            re.MULTILINE,
        )

    def __call__(self, block: list[str]) -> list[tuple[str, str]] | None:
        text = "".join(block)
        if "/." in text:
            return None  # dot segments need resolving: the line reader checks them
        found: list[tuple[str, str]] = self._pattern.findall(text)
        if len(found) != len(block):
            return None
        try:
            for stamp in {stamp for _, stamp in found if stamp}:
                datetime.fromisoformat(stamp)  # the shape is right; is the date real?
        except ValueError:
            return None
        return found


def read_url_list(
    lines: Iterable[str], precision: Precision, *, name: str = "-", first_line: int = 1
) -> Iterator[ListedUrl]:
    """Yield each URL of the list; blank lines and lines starting with '#' are skipped.

    A lastmod that is not a W3C datetime raises SourceError naming the file and line.
    This loop runs once per URL of lists with millions of them: the common line (a URL,
    a TAB and a canonical UTC datetime) takes the fast path of each test.
    """
    canonical = precision is Precision.DATETIME
    number = first_line - 1
    for raw in lines:
        number += 1
        url, _, stamp = raw.rstrip("\r\n").partition("\t")
        if not url or url[0] == "#" or url[0].isspace() or url[-1].isspace():
            url = url.strip()
            if not url or url[0] == "#":
                continue
        lastmod = None
        if stamp:
            try:
                if canonical and is_canonical_datetime(stamp):
                    lastmod = stamp
                elif not stamp.isspace():
                    lastmod = parse_lastmod(stamp, precision)
            except ValueError as exc:
                raise SourceError(
                    f"{name}:{number}: lastmod {stamp.strip()!r} is not a W3C datetime"
                    " (YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+00:00)"
                ) from exc
        yield ListedUrl(url, lastmod, number)
