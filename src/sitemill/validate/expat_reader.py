"""The pure-Python reader (expat), for installs without lxml: the same checks, in batches."""

# expat builds a line-numbered ElementTree; at each chunk the root's finished children go to the
# XSD check (xmlschema) and leave the tree. A DOCTYPE stops the parse before any entity is used;
# external entities are never read (no ExternalEntityRefHandler is set).

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from typing import cast
from xml.parsers import expat

from sitemill.validate.document import Document
from sitemill.validate.limits import (
    CHUNK,
    MAX_DEPTH,
    MAX_ENTRY_NODES,
    MAX_OTHER_NODES,
    MAX_PROLOG,
    MAX_TOKEN,
    NO_ROOT,
    NOT_FURTHER,
    TOO_DEEP,
    TOO_LONG,
    entry_too_big,
    too_many_around,
)
from sitemill.validate.names import prefixed, undeclared_prefix
from sitemill.validate.prolog import doctype_message
from sitemill.validate.py_xsd import LineElement, PySchema
from sitemill.validate.violation import DocumentStop

_UNBOUND = expat.errors.codes[expat.errors.XML_ERROR_UNBOUND_PREFIX]
_QUOTED = re.compile(rb"\"[^\"]*\"|'[^']*'")
_PREFIX = re.compile(rb"[<\s]([^\s=/>:]+):")  # of the element and of each attribute
_DECLARED = re.compile(rb"\sxmlns:([^\s=/>]+)")


def _qualify(name: str) -> str:
    # expat with namespace_separator="}" gives "uri}local"; ElementTree spells "{uri}local".
    return "{" + name if "}" in name else name


class _Reader:
    """One document through expat; handlers raise DocumentStop at the first limit crossed."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.parser = parser = expat.ParserCreate(namespace_separator="}")
        parser.buffer_text = True
        parser.buffer_size = CHUNK
        parser.StartDoctypeDeclHandler = self._doctype
        parser.EntityDeclHandler = self._entity
        parser.EndDoctypeDeclHandler = self._end_doctype
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        parser.CharacterDataHandler = self._data
        parser.CommentHandler = self._other
        parser.ProcessingInstructionHandler = self._other
        parser.StartNamespaceDeclHandler = self._declare
        parser.EndNamespaceDeclHandler = self._undeclare
        self.bound: dict[str, int] = {}  # prefixes in scope -> how many declarations
        # The bytes last given to expat, and up to CHUNK before them, with the first one's offset:
        # where an undeclared prefix is read back from (expat names no prefix).
        self.data = self.tail = b""
        self.data_start = 0
        self.builder = ET.TreeBuilder(element_factory=LineElement)
        self.root: LineElement | None = None
        self.depth = self.nodes = self.run = 0  # nodes of the open entry; length of a text
        self.entry_line = self.around = 0
        self.doctype: tuple[str, int] | None = None
        self.entities: list[tuple[str, str | None]] = []

    def _doctype(self, name: str, *_: object) -> None:
        self.doctype = (name, self.parser.CurrentLineNumber)

    def _entity(
        self, name: str, _param: bool, _value: object, _base: object, system: object, *_: object
    ) -> None:
        self.entities.append((name, None if system is None else str(system)))

    def _end_doctype(self) -> None:
        name, line = self.doctype or ("?", self.parser.CurrentLineNumber)
        raise DocumentStop(line, doctype_message(name, self.entities))

    def _start(self, name: str, attrs: dict[str, str]) -> None:
        tag, line = _qualify(name), self.parser.CurrentLineNumber
        qualified = {_qualify(key): value for key, value in attrs.items()} if attrs else {}
        if attrs and max(map(len, attrs.values())) > MAX_TOKEN:
            raise DocumentStop(line, TOO_LONG)
        element = cast(LineElement, self.builder.start(tag, qualified))
        element.sourceline = line
        self.depth += 1
        self.run = 0
        if self.depth > MAX_DEPTH:
            raise DocumentStop(line, TOO_DEEP)
        if self.depth == 1:
            self.root = element
            self.doc.start(tag, line)
        elif self.depth == 2:
            self.nodes, self.entry_line = 0, line
        self._count(1 + len(attrs))

    def _count(self, nodes: int) -> None:
        if self.depth < 2:
            return
        self.nodes += nodes
        if self.nodes > MAX_ENTRY_NODES:
            entry = self.root[-1].tag if self.root is not None and len(self.root) else ""
            raise DocumentStop(self.entry_line, entry_too_big(prefixed(entry)))

    def _end(self, name: str) -> None:
        self.builder.end(_qualify(name))
        self.depth -= 1
        self.run = 0

    def _data(self, text: str) -> None:
        self.builder.data(text)
        if self.run == 0:
            self._count(1)
        self.run += len(text)
        if self.run > MAX_TOKEN:
            raise DocumentStop(self.parser.CurrentLineNumber, TOO_LONG)

    def _other(self, *_: object) -> None:
        self.run = 0
        if self.depth >= 2:
            self._count(1)
        elif self.depth == 1:
            self.doc.other(self.parser.CurrentLineNumber)
        elif self.root is not None:  # after the root (before it, MAX_PROLOG bounds them)
            self.around += 1
            if self.around > MAX_OTHER_NODES:
                raise DocumentStop(None, too_many_around(prefixed(self.doc.root_tag)))

    def _declare(self, prefix: str | None, _uri: str | None) -> None:
        if prefix:
            self.bound[prefix] = self.bound.get(prefix, 0) + 1

    def _undeclare(self, prefix: str | None) -> None:
        if prefix:
            self.bound[prefix] -= 1

    def stop(self, exc: expat.ExpatError) -> DocumentStop:
        """The DocumentStop for a well-formedness error, worded as libxml2's path words it for
        an undeclared prefix (at the line where the start tag ends, as libxml2 places it)."""
        if exc.code == _UNBOUND:
            start = self.data_start - len(self.tail)
            at, window = self.parser.ErrorByteIndex - start, self.tail + self.data
            end = window.find(b">", at)
            tag = _QUOTED.sub(b'""', window[at : end if end >= 0 else None]) if at >= 0 else b""
            declared = set(_DECLARED.findall(tag)) | {b"xml", b"xmlns"}
            for prefix in _PREFIX.findall(tag):
                name = prefix.decode("utf-8", "replace")
                if prefix not in declared and not self.bound.get(name):
                    return DocumentStop(exc.lineno + tag.count(b"\n"), undeclared_prefix(name))
        reason = expat.ErrorString(exc.code)
        return DocumentStop(
            exc.lineno, f"XML is not well-formed: {reason} (column {exc.offset + 1})"
        )

    def feed(self, data: bytes, fed: int) -> int:
        """Parse ``data``; return how many bytes expat holds unparsed (an unfinished token)."""
        self.tail, self.data, self.data_start = self.data[-CHUNK:], data, fed - len(data)
        self.parser.Parse(data, False)
        behind = fed - self.parser.CurrentByteIndex
        if behind > MAX_TOKEN:
            raise DocumentStop(self.parser.CurrentLineNumber, TOO_LONG)
        self._hand_over(last=False)
        return behind

    def _hand_over(self, *, last: bool) -> None:
        root = self.root
        if root is None:
            return
        finished = len(root) if last or self.depth < 2 else len(root) - 1
        if finished or last:
            batch = cast(list[LineElement], root[:finished])
            del root[:finished]
            self.doc.add(root, batch, last=last)

    def close(self) -> None:
        self.parser.Parse(b"", True)
        self.builder.close()
        self._hand_over(last=True)


def read(doc: Document, chunks: Iterable[bytes]) -> None:
    """Feed ``doc`` the document in ``chunks``: its root, then its children batch by batch."""
    reader = _Reader(doc)
    pending: list[bytes] = []
    size = fed = 0
    need = CHUNK
    try:
        for chunk in chunks:
            if not fed and not pending:
                doc.head(chunk)
            pending.append(chunk)
            size += len(chunk)
            if size < need:
                continue
            fed += size
            behind = reader.feed(b"".join(pending), fed)
            if reader.root is None and fed > MAX_PROLOG:
                raise DocumentStop(None, NO_ROOT)
            # expat re-scans an unfinished token from its start at every call: waiting for
            # twice as much data each time keeps a 48 MB token linear instead of quadratic.
            need = CHUNK if behind < CHUNK else 2 * behind
            pending, size = [], 0
        reader.feed(b"".join(pending), fed + size)
        reader.close()
    except expat.ExpatError as exc:
        raise reader.stop(exc) from None
    except LookupError as exc:  # an encoding Python does not know, named by the declaration
        raise DocumentStop(1, f"unknown encoding: {exc}; {NOT_FURTHER}") from None


def schema() -> PySchema:
    """The XSD side of this reader (xmlschema loads the schemas on first use)."""
    return PySchema()
