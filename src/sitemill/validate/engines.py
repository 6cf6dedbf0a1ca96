"""Which XML engine checks documents: libxml2 (lxml) when installed, else expat + xmlschema."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from enum import Enum

from sitemill.errors import MissingExtraError, install_hint
from sitemill.validate.document import BatchSchema, Document
from sitemill.validate.limits import capped
from sitemill.validate.urls import LocRules
from sitemill.validate.violation import DocumentStop, Violation

_INSTALL = install_hint("validate")


class Engine(Enum):
    """``LXML``: libxml2 in C, the default. ``XMLSCHEMA``: pure Python, the fallback."""

    LXML = "lxml"
    XMLSCHEMA = "xmlschema"


@dataclass(frozen=True, slots=True)
class Reader:
    """One engine: how it streams a document into a Document, and its XSD side."""

    engine: Engine
    read: Callable[[Document, Iterable[bytes]], None]
    schema: BatchSchema

    def check(
        self, file: str, sink: list[Violation], rules: LocRules | None, chunks: Iterable[bytes]
    ) -> Document | None:
        """Check one XML document; None when it had to stop (the reason is in ``sink``)."""
        document = Document(file, sink, rules, self.schema)
        try:
            with _collection_paused():
                self.read(document, capped(chunks))
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


def reader(engine: Engine | None = None) -> Reader:
    """The requested engine, or the best one installed; a SitemillError saying how to get one."""
    if engine is not Engine.XMLSCHEMA:
        try:
            import lxml.etree  # noqa: F401  (an optional extra: the Lambda package goes without)

            from sitemill.validate import lxml_reader
        except ImportError as exc:
            if engine is Engine.LXML:
                raise MissingExtraError(f"validation with libxml2 needs lxml: {_INSTALL}") from exc
        else:
            return Reader(Engine.LXML, lxml_reader.read, lxml_reader.schema())
    try:
        import xmlschema  # noqa: F401

        from sitemill.validate import expat_reader
    except ImportError as exc:
        raise MissingExtraError(f"validation needs the lxml package: {_INSTALL}") from exc
    return Reader(Engine.XMLSCHEMA, expat_reader.read, expat_reader.schema())
