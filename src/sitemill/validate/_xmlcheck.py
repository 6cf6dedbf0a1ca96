"""Check one XML document with libxml2 (lxml, the validate extra), garbage collection paused."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterable, Iterator
from functools import partial

from sitemill.errors import MissingExtraError, install_hint
from sitemill.validate._urls import LocRules
from sitemill.validate.document import BatchSchema, Document
from sitemill.validate.limits import cap_bytes
from sitemill.validate.violation import DocumentStop, Violation

_INSTALL = install_hint("validate")

# Checks one XML document (file, sink, rules, chunks); None when it had to stop (the reason
# is in the sink).
XmlCheck = Callable[[str, list[Violation], LocRules | None, Iterable[bytes]], Document | None]


def xml_check() -> XmlCheck:
    """libxml2's check of one document; a SitemillError saying how to install lxml."""
    try:
        import lxml.etree  # noqa: F401  (an optional extra: the Lambda zip goes without)

        from sitemill.validate import _lxml_reader as lxml_reader
        from sitemill.validate._lxml_xsd import LxmlSchema
    except ImportError as exc:
        raise MissingExtraError(f"validation needs the lxml package: {_INSTALL}") from exc
    return partial(_check, lxml_reader.feed_document, LxmlSchema())


def _check(
    feed: Callable[[Document, Iterable[bytes]], None],
    schema: BatchSchema,
    file: str,
    sink: list[Violation],
    rules: LocRules | None,
    chunks: Iterable[bytes],
) -> Document | None:
    document = Document(file, sink, rules, schema)
    try:
        with _collection_paused():
            feed(document, cap_bytes(chunks))
    except DocumentStop as stop:
        sink.append(Violation(file, stop.line, stop.message))
        return None
    return document


@contextlib.contextmanager
def _collection_paused() -> Iterator[None]:
    """No cyclic garbage collection while one document is read.

    lxml hands over each element as a new GC-tracked object, some 150,000 of them for a
    50,000-URL file; the collections they trigger rescan the process's long-lived objects and
    took half the run time. Reading creates no reference cycles (lxml frees its trees itself),
    so there is nothing for the collector to find until it runs again after the document.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
