"""Streams a document through libxml2 (lxml): a first look up to the root, then batches."""

# libxml2 parses and checks in C; Python sees one event (the root) and, at each chunk, the
# root's finished children, which move into the XSD check and leave the parser's tree. Nothing
# is fetched, no DTD is loaded, no entity is expanded, and XInclude is never processed.

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Final, cast

from lxml import etree

from sitemill.validate._prolog import doctype_in, doctype_line, doctype_message
from sitemill.validate.document import Document
from sitemill.validate.limits import (
    MAX_ENTRY_NODES,
    MAX_OTHER_NODES,
    MAX_PROLOG,
    MAX_XML_DEPTH,
    NO_ROOT,
    NOT_FURTHER,
    TOO_DEEP,
    TOO_LONG,
    entry_too_big,
    too_many_around,
)
from sitemill.validate.violation import (
    INDEX_TAG,
    URLSET_TAG,
    DocumentStop,
    undeclared_prefix,
    with_prefixes,
)

_SAFE: Final[dict[str, Any]] = {
    "no_network": True,
    "resolve_entities": False,
    "load_dtd": False,
    "huge_tree": False,  # keeps libxml2's limits: 10 MB per text or name, 256 levels deep
}
# The first element deeper than MAX_XML_DEPTH; the nodes below the root (a quick bound); the first
# root child with too many nodes (only asked when that bound is over the limit).
_TOO_DEEP = etree.XPath("(" + "/*" * (MAX_XML_DEPTH + 1) + ")[1]")
_AROUND = etree.XPath("count(/node())")  # the root and the comments and PIs beside it
_NODES = etree.XPath("count(/*/descendant::node()) + count(/*/descendant::*/@*)")
_TOO_BIG = etree.XPath(
    "(/*/node()[count(descendant::node()) + count(descendant-or-self::*/@*) > $limit])[1]"
)
MAX_WARNINGS: Final = 1_000
_LIMIT_WORDS: Final = ("XML_PARSE_HUGE", "too big", "too long", "Buffer size limit")
_WHERE = re.compile(r",\s*line \d+, column (\d+)\s*$")
# libxml2's words for an element's (or an attribute's) undeclared prefix.
_UNDECLARED = re.compile(r"Namespace prefix (\S+) (?:for \S+ )?on \S+ is not defined")


class _Refuse(etree.Resolver):
    """Answers any request for an external resource with nothing (defence in depth)."""

    def resolve(self, system_url: str | None, public_id: str | None, context: object) -> Any:
        return self.resolve_empty(context)


def _parser(tags: Iterable[str] | None) -> etree.XMLPullParser:
    """A parser that reports the start of the elements named by ``tags`` (None: all)."""
    parser = etree.XMLPullParser(events=("start",), tag=tags, **_SAFE)
    parser.resolvers.add(_Refuse())
    return parser


class _Head:
    """Parses up to the root's start tag: the DOCTYPE and root checks come before anything else."""

    def __init__(self, doc: Document) -> None:
        self.doc, self.seen = doc, b""
        self.parser: etree.XMLPullParser | None = _parser(None)

    def feed(self, chunk: bytes) -> None:
        assert self.parser is not None
        if not self.seen:
            self.doc.head(chunk)
        self.seen += chunk
        self.parser.feed(chunk)
        for _, element in self.parser.read_events():
            self._root(element)
            self.parser, self.seen = None, b""  # done: dropped, with what it parsed
            return

    def settle(self) -> None:
        """After a parse error in the chunk that holds the root: check the root all the same."""
        assert self.parser is not None
        for _, element in self.parser.read_events():
            self._root(element)
            return

    def _root(self, element: etree._Element) -> None:
        info = element.getroottree().docinfo
        if info.doctype or info.internalDTD is not None:
            subset = info.internalDTD
            entities = [] if subset is None else list(subset.iterentities())
            declared = [(str(entity.name), entity.system_url) for entity in entities]
            name = info.root_name or "?"
            raise DocumentStop(doctype_line(self.seen), doctype_message(name, declared))
        self.doc.start(str(element.tag), element.sourceline)


def _stop(exc: etree.XMLSyntaxError) -> DocumentStop:
    where = _WHERE.search(str(exc.msg))
    text = str(exc.msg)[: where.start() if where else None].strip()
    if text.startswith("Excessive depth"):
        return DocumentStop(exc.lineno, TOO_DEEP)
    if any(word in text for word in _LIMIT_WORDS):
        return DocumentStop(exc.lineno, TOO_LONG)
    undeclared = _UNDECLARED.match(text)
    if undeclared:
        return DocumentStop(exc.lineno, undeclared_prefix(undeclared[1]))
    column = f" (column {where[1]})" if where else ""
    return DocumentStop(exc.lineno or 1, f"XML is not well-formed: {text}{column}")


def _recoverable_errors(parser: etree.XMLPullParser) -> None:
    """DocumentStop at an error libxml2 lets parsing go on after (an undeclared prefix): lxml would
    raise it at the end, and a flood of them would fill its log first."""
    log = parser.feed_error_log
    for entry in log:
        if entry.level >= etree.ErrorLevels.ERROR:
            undeclared = _UNDECLARED.match(entry.message)
            if undeclared:
                raise DocumentStop(entry.line, undeclared_prefix(undeclared[1]))
            message = f"XML is not well-formed: {entry.message.strip()} (column {entry.column})"
            raise DocumentStop(entry.line, message)
    if len(log) > MAX_WARNINGS:  # only warnings (a relative namespace URI), but a flood
        raise DocumentStop(None, f"more than {MAX_WARNINGS:,} XML parser warnings; {NOT_FURTHER}")


def _bounds(root: etree._Element) -> None:
    """DocumentStop at an element too deep, or a root child too big, in the tree held now."""
    if cast(float, _AROUND(root)) > MAX_OTHER_NODES + 1:  # + 1: the root itself
        raise DocumentStop(None, too_many_around(with_prefixes(str(root.tag))))
    deep = _TOO_DEEP(root)
    if isinstance(deep, list) and deep:
        raise DocumentStop(getattr(deep[0], "sourceline", None), TOO_DEEP)
    if cast(float, _NODES(root)) <= MAX_ENTRY_NODES:
        return
    big = _TOO_BIG(root, limit=MAX_ENTRY_NODES)
    if isinstance(big, list) and big:
        node = big[0]
        raise DocumentStop(
            getattr(node, "sourceline", None), entry_too_big(with_prefixes(str(node.tag)))
        )


def feed_document(doc: Document, chunks: Iterable[bytes]) -> None:
    """Feed ``doc`` the document in ``chunks``: its root, then its children batch by batch."""
    head = _Head(doc)
    main = _parser((URLSET_TAG, INDEX_TAG))
    root: etree._Element | None = None
    try:
        fed = 0
        for chunk in chunks:
            fed += len(chunk)
            if head.parser is not None:
                head.feed(chunk)
                if head.parser is not None and fed > MAX_PROLOG:
                    raise DocumentStop(None, NO_ROOT)
            main.feed(chunk)
            _recoverable_errors(main)
            for _, element in main.read_events():
                root = element if root is None else root
            if root is not None:
                _bounds(root)
                finished = root[:-1]  # the last child may still be open
                if finished:
                    doc.add(root, finished, last=False)
        if head.parser is not None:
            head.parser.close()  # no root at all: libxml2 says why
        root = main.close()
    except etree.XMLSyntaxError as exc:
        if head.parser is not None:
            head.settle()  # the root's checks come first, as they do in document order
            raise (doctype_in(head.seen) or _stop(exc)) from None
        raise _stop(exc) from None
    _bounds(root)
    doc.add(root, list(root), last=True)
