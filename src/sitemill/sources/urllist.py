"""Read a URL list: one absolute URL per line, optionally a TAB and its lastmod."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from sitemill.errors import SourceError
from sitemill.protocol import Precision, parse_lastmod


@dataclass(frozen=True, slots=True)
class ListedUrl:
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
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        if not line or line.startswith("#") or line.isspace():
            continue
        url, tab, lastmod_text = line.partition("\t")
        lastmod = None
        if tab and lastmod_text.strip():
            try:
                lastmod = parse_lastmod(lastmod_text, precision)
            except ValueError as exc:
                raise SourceError(
                    f"{name}:{number}: lastmod {lastmod_text.strip()!r} is not a W3C datetime"
                    " (YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+00:00)"
                ) from exc
        yield ListedUrl(url.strip(), lastmod, number)
