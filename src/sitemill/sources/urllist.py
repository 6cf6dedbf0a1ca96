"""Read a URL list: one absolute URL per line, optionally a TAB and its lastmod."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from sitemill.errors import SourceError
from sitemill.protocol import Precision, parse_lastmod


class ListedUrl(NamedTuple):
    """A line of the list: the URL as written (not yet checked) and its formatted lastmod."""

    url: str
    lastmod: str | None
    line: int


def read_url_list(
    lines: Iterable[str], precision: Precision, *, name: str = "-"
) -> Iterator[ListedUrl]:
    """Yield each URL of the list; blank lines and lines starting with '#' are skipped.

    A lastmod that is not a W3C datetime raises SourceError naming the file and line.
    """
    number = 0
    for raw in lines:
        number += 1
        url, tab, lastmod_text = raw.rstrip("\r\n").partition("\t")
        url = url.strip()
        if not url or url[0] == "#":
            continue
        lastmod = None
        if tab and lastmod_text and not lastmod_text.isspace():
            try:
                lastmod = parse_lastmod(lastmod_text, precision)
            except ValueError as exc:
                raise SourceError(
                    f"{name}:{number}: lastmod {lastmod_text.strip()!r} is not a W3C datetime"
                    " (YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+00:00)"
                ) from exc
        yield ListedUrl(url, lastmod, number)
