"""Read a URL list: one absolute URL per line, optionally a TAB (or a space) and its lastmod."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Final, NamedTuple

from sitemill.errors import SourceError
from sitemill.protocol import Precision, is_canonical_datetime, parse_lastmod

_DATE_START: Final = re.compile(r"[0-9]{4}-[0-9]")


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
        if " " in url or not url.isprintable():  # (printable: no other white space either)
            url, stamp = _spaced(url, stamp, name, number)
        lastmod = None
        if stamp:
            try:
                if canonical and is_canonical_datetime(stamp):
                    lastmod = stamp
                elif not stamp.isspace():
                    lastmod = parse_lastmod(stamp, precision)
            except OverflowError as exc:  # in UTC, past the calendar's end (or its start)
                if not stamp.lstrip().startswith("9999-"):
                    raise _not_w3c(name, number, stamp) from exc
                lastmod = stamp.strip()  # (after any run's time: jobs.urllist drops it)
            except ValueError as exc:
                raise _not_w3c(name, number, stamp) from exc
        yield ListedUrl(url, lastmod, number)


def _not_w3c(name: str, number: int, stamp: str) -> SourceError:
    return SourceError(
        f"{name}:{number}: lastmod {stamp.strip()!r} is not a W3C datetime"
        " (YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+00:00)"
    )


def _spaced(url: str, stamp: str, name: str, number: int) -> tuple[str, str]:
    """A line whose URL holds white space: a URL cannot hold a raw space, so what follows
    the last space is the lastmod when it starts as a date does (``URL 2024-02-01``, typed
    by hand; no TAB); any other space is refused with the line's number, never folded into
    the URL as ``%20``."""
    parts = url.split()
    if len(parts) == 1 or "://" not in parts[0]:  # (the URL check says what is wrong)
        return url, stamp
    if len(parts) == 2 and not stamp and _DATE_START.match(parts[1]):
        return parts[0], parts[1]
    raise SourceError(
        f"{name}:{number}: {url[:200]!r} holds white space, which no URL can: write a space "
        "as %20, and put a TAB (or one space) between the URL and its lastmod"
    )
