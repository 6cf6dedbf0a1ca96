"""One streaming expat pass per document: protocol checks on the fly, a line-numbered tree."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable
from typing import Final, cast
from xml.parsers import expat

from sitemill.protocol import (
    MAX_BYTES_LIMIT,
    MAX_SITEMAPS_PER_INDEX_LIMIT,
    MAX_URLS_PER_SITEMAP,
    SITEMAP_NS,
)
from sitemill.validate.urls import LocRules, lastmod_problem
from sitemill.validate.violation import Violation

URLSET: Final = f"{{{SITEMAP_NS}}}urlset"
INDEX: Final = f"{{{SITEMAP_NS}}}sitemapindex"
_ENTRY_TAG: Final = {URLSET: f"{{{SITEMAP_NS}}}url", INDEX: f"{{{SITEMAP_NS}}}sitemap"}
_ENTRY_LIMIT: Final = {URLSET: MAX_URLS_PER_SITEMAP, INDEX: MAX_SITEMAPS_PER_INDEX_LIMIT}
_LOC: Final = f"{{{SITEMAP_NS}}}loc"
LASTMOD: Final = f"{{{SITEMAP_NS}}}lastmod"
# Prefixes for element names in messages; the sitemap namespace prints unprefixed.
PREFIXES: Final = {
    "": SITEMAP_NS,
    "image": "http://www.google.com/schemas/sitemap-image/1.1",
    "video": "http://www.google.com/schemas/sitemap-video/1.1",
    "news": "http://www.google.com/schemas/sitemap-news/0.9",
    "xhtml": "http://www.w3.org/1999/xhtml",
}
CHUNK: Final = 1 << 16


class _LineElement(ET.Element):
    """An element that knows its line; xmlschema reports it as the error's ``sourceline``."""

    __slots__ = ("sourceline",)
    sourceline: int


def _qualify(name: str) -> str:
    # expat with namespace_separator="}" gives "uri}local"; ElementTree spells "{uri}local".
    return "{" + name if "}" in name else name


def prefixed(text: str) -> str:
    """``text`` with each known ``{namespace}`` written as its prefix from PREFIXES."""
    for prefix, uri in PREFIXES.items():
        text = text.replace(f"{{{uri}}}", f"{prefix}:" if prefix else "")
    return text


class XmlScan:
    """Streams a document through expat: protocol checks on the fly, a tree for the XSD."""

    def __init__(self, file: str, sink: list[Violation], rules: LocRules | None) -> None:
        self.file, self.sink, self.rules = file, sink, rules
        self.parser = expat.ParserCreate(namespace_separator="}")
        self.parser.buffer_text = True
        self.parser.buffer_size = CHUNK
        self.parser.XmlDeclHandler = self._declaration
        self.parser.StartElementHandler = self._start
        self.parser.EndElementHandler = self._end
        self.parser.CharacterDataHandler = self._data
        self.builder = ET.TreeBuilder(element_factory=_LineElement)
        self.root_tag: str | None = None
        self.root_line = 1
        self.depth = 0
        self.entries = 0
        self.in_entry = False
        self.field: str | None = None  # _LOC or LASTMOD while its text is being collected
        self.field_line = 0
        self.text: list[str] = []
        self.children: list[tuple[str, int]] = []  # an index's (loc, line) pairs

    def parse(self, chunks: Iterable[bytes]) -> ET.Element | None:
        """Feed the document; return its tree, or None when it cannot be checked further."""
        size = 0
        try:
            for chunk in chunks:
                size += len(chunk)
                if size > MAX_BYTES_LIMIT:
                    # Stop here: a gzip bomb must not cost more than the limit it breaks.
                    self._report(
                        None,
                        f"more than {MAX_BYTES_LIMIT:,} bytes uncompressed (the protocol "
                        "maximum); not checked further",
                    )
                    return None
                self.parser.Parse(chunk, False)
            self.parser.Parse(b"", True)
        except expat.ExpatError as exc:
            reason = expat.ErrorString(exc.code)
            self._report(exc.lineno, f"XML is not well-formed: {reason} (column {exc.offset + 1})")
            return None
        return self.builder.close()

    def _report(self, line: int | None, message: str) -> None:
        self.sink.append(Violation(self.file, line, message))

    def _declaration(self, version: str, encoding: str | None, standalone: int) -> None:
        if (
            self.rules is not None
            and encoding is not None
            and encoding.lower().replace("_", "-") not in {"utf-8", "utf8"}
        ):
            self._report(self.parser.CurrentLineNumber, f"encoding is {encoding}; use UTF-8")

    def _start(self, name: str, attrs: dict[str, str]) -> None:
        tag, line = _qualify(name), self.parser.CurrentLineNumber
        qualified = {_qualify(key): value for key, value in attrs.items()} if attrs else {}
        cast(_LineElement, self.builder.start(tag, qualified)).sourceline = line
        self.depth += 1
        if self.depth == 1:
            self.root_tag, self.root_line = tag, line
            if self.rules is not None:
                self.rules.siblings = tag == INDEX
        elif self.depth == 2:
            self.in_entry = self.root_tag in _ENTRY_TAG and tag == _ENTRY_TAG[self.root_tag]
            if self.in_entry:
                self._count_entry(tag, line)
        elif self.depth == 3 and self.in_entry and tag in {_LOC, LASTMOD}:
            self.field, self.field_line, self.text = tag, line, []

    def _count_entry(self, tag: str, line: int) -> None:
        self.entries += 1
        limit = _ENTRY_LIMIT[cast(str, self.root_tag)]
        if self.entries == limit + 1 and self.rules is not None:
            entry = prefixed(tag)
            self._report(line, f"more than {limit:,} <{entry}> in one file (protocol maximum)")

    def _data(self, text: str) -> None:
        self.builder.data(text)
        if self.field is not None:
            self.text.append(text)

    def _end(self, name: str) -> None:
        self.builder.end(_qualify(name))
        if self.depth == 3 and self.field is not None:
            self._end_field(self.field, "".join(self.text).strip())
            self.field = None
        elif self.depth == 2:
            self.in_entry = False
        self.depth -= 1

    def _end_field(self, tag: str, value: str) -> None:
        if self.rules is None:
            return
        if tag == _LOC:
            self.rules.check(value, self.field_line)
            if self.root_tag == INDEX:
                self.children.append((value, self.field_line))
        elif problem := lastmod_problem(value):
            self._report(self.field_line, problem)


def check_root(scan: XmlScan, sink: list[Violation]) -> bool:
    """Whether the scanned root is <urlset> or <sitemapindex>; if not, say so in ``sink``."""
    if scan.root_tag in _ENTRY_TAG:
        return True
    found = prefixed(scan.root_tag or "")
    sink.append(
        Violation(
            scan.file,
            scan.root_line,
            f"root element is <{found}>; expected <urlset> or <sitemapindex> in {SITEMAP_NS}",
        )
    )
    return False
