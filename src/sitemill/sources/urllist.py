"""Read a URL list: one absolute URL per line, optionally a TAB and its lastmod."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from sitemill.errors import SourceError
from sitemill.protocol import Precision, is_canonical_datetime, parse_lastmod


class ListedUrl(NamedTuple):
    """A line of the list: the URL as written (not yet checked) and its formatted lastmod."""

    url: str
    lastmod: str | None
    line: int


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
