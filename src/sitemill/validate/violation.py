"""The one result type of validation: a broken rule with its file, line and severity; the
protocol's element names, and how messages print names and values."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Final

from sitemill.errors import SitemillError
from sitemill.protocol import MAX_SITEMAPS_PER_INDEX_LIMIT, MAX_URLS_PER_SITEMAP, SITEMAP_NS

URLSET_TAG: Final = f"{{{SITEMAP_NS}}}urlset"
INDEX_TAG: Final = f"{{{SITEMAP_NS}}}sitemapindex"
LOC: Final = f"{{{SITEMAP_NS}}}loc"
LASTMOD: Final = f"{{{SITEMAP_NS}}}lastmod"
ENTRY_TAG: Final = {URLSET_TAG: f"{{{SITEMAP_NS}}}url", INDEX_TAG: f"{{{SITEMAP_NS}}}sitemap"}
ENTRY_LIMIT: Final = {URLSET_TAG: MAX_URLS_PER_SITEMAP, INDEX_TAG: MAX_SITEMAPS_PER_INDEX_LIMIT}
# Prefixes for element names in messages; the sitemap namespace prints unprefixed.
PREFIXES: Final = {
    "": SITEMAP_NS,
    "image": "http://www.google.com/schemas/sitemap-image/1.1",
    "video": "http://www.google.com/schemas/sitemap-video/1.1",
    "news": "http://www.google.com/schemas/sitemap-news/0.9",
    "xhtml": "http://www.w3.org/1999/xhtml",
    "xi": "http://www.w3.org/2001/XInclude",
}
_LONG_QUOTED = re.compile(r"'([^']{101,})'")


class DocumentStop(SitemillError):
    """Raised inside `validate`'s readers when a document cannot be checked further (a limit,
    an unknown encoding); reported as one violation at ``line``, never to the user as such."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


class Severity(Enum):
    """Errors fail validation (exit 1); warnings and notes are reported and pass (exit 0).
    A note breaks no rule: it says what validation could not check (a child of sitemill's
    own index that another app serves, sitemill.validate._ownindex)."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule, located as precisely as the input allows."""

    file: str
    line: int | None
    message: str
    severity: Severity = Severity.ERROR
    count: int = 1  # the findings this line stands for: N for "… and N more"

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        mark = "" if self.is_error else f"{self.severity.value}: "
        return f"{where}: {mark}{self.message}"


def warning(file: str, line: int | None, message: str) -> Violation:
    """A finding that consumers tolerate: reported, but it does not fail validation."""
    return Violation(file, line, message, Severity.WARNING)


def note(file: str, line: int | None, message: str) -> Violation:
    """What validation could not check, and why that is no fault: reported, never failing."""
    return Violation(file, line, message, Severity.NOTE)


# Warnings of one kind in one file printed one per line before "… and N more" counts the rest: a
# generated sitemap that repeats one URL 50,000 times is one finding, not 50,000 lines.
MAX_SAME_WARNINGS: Final = 5


class WarningsOfOneKind:
    """The warnings of one kind (``kind``, e.g. "duplicate loc") in one file: the first
    MAX_SAME_WARNINGS go into ``sink`` as they come, the others are counted, and ``finish``
    adds one line for them at the first line it stands for."""

    def __init__(self, file: str, kind: str, sink: list[Violation]) -> None:
        self.file, self.kind, self.sink = file, kind, sink
        self.seen = 0
        self.first_hidden: int | None = None
        self.last_hidden: int | None = None

    def add(self, line: int | None, message: str) -> None:
        self.seen += 1
        if self.seen <= MAX_SAME_WARNINGS:
            self.sink.append(warning(self.file, line, message))
            return
        if self.first_hidden is None:
            self.first_hidden = line
        self.last_hidden = line

    def finish(self) -> None:
        """The one line for the warnings not shown (none when all were)."""
        hidden = self.seen - MAX_SAME_WARNINGS
        if hidden <= 0:
            return
        until = f" (up to line {self.last_hidden:,})" if self.last_hidden is not None else ""
        message = f"… and {hidden:,} more {self.kind}{until}"
        self.sink.append(Violation(self.file, self.first_hidden, message, Severity.WARNING, hidden))
        self.seen = MAX_SAME_WARNINGS  # (a second finish adds nothing)


def tally(violations: Iterable[Violation]) -> str:
    """How many warnings and notes: "2 warnings and 1 note" ("" for none); a "… and N more"
    line counts N."""
    counts: Counter[Severity] = Counter()
    for violation in violations:
        counts[violation.severity] += violation.count
    kinds = (Severity.WARNING, Severity.NOTE)
    said = [f"{n:,} {kind.value}{'s' if n != 1 else ''}" for kind in kinds if (n := counts[kind])]
    return " and ".join(said)


def with_prefixes(text: str) -> str:
    """``text`` with each known ``{namespace}`` written as its prefix from PREFIXES."""
    for prefix, uri in PREFIXES.items():
        text = text.replace(f"{{{uri}}}", f"{prefix}:" if prefix else "")
    return text


def undeclared_prefix(prefix: str) -> str:
    """The message for a prefix used without its xmlns declaration (libxml2's own words name
    no fix)."""
    uri = PREFIXES.get(prefix) if prefix else None
    fix = (
        f'add xmlns:{prefix}="{uri}" to the root element'
        if uri
        else f"no xmlns:{prefix} is in scope"
    )
    return f"XML is not well-formed: namespace prefix {prefix} is not declared; {fix}"


def short(text: str) -> str:
    """``text`` cut to 100 characters, for messages."""
    return text if len(text) <= 100 else text[:97] + "..."


def clip(message: str) -> str:
    """A validator's message with long quoted values cut: a 40 MB value must not print whole."""
    return _LONG_QUOTED.sub(lambda match: repr(short(match[1])), message)
