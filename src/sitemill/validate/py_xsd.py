"""The official XSDs through xmlschema (pure Python): the fallback when lxml is not installed."""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, cast

from sitemill.schemas import schema_folder
from sitemill.validate.document import Batch, Node, text_of
from sitemill.validate.names import ENTRY_TAG, INDEX, LASTMOD, LOC, PREFIXES, URLSET, clip, prefixed

if TYPE_CHECKING:
    from xmlschema import XMLSchemaBase

_STAND_IN: Final = {URLSET: "https://example.com/", INDEX: "https://example.com/sitemap.xml"}


class LineElement(ET.Element):
    """An element that knows its line; xmlschema reports it as the error's ``sourceline``."""

    __slots__ = ("sourceline",)
    sourceline: int


@functools.cache
def schema(root_tag: str) -> XMLSchemaBase:
    """The schema for a root (urlset: core + extensions; sitemapindex), built once per process."""
    import xmlschema

    name = "siteindex.xsd" if root_tag == INDEX else "sitemap-all.xsd"
    with schema_folder() as folder:
        # "sandbox": files in this folder only, never the network. xhtml1-strict.xsd's import of
        # http://www.w3.org/2001/xml.xsd is served from xmlschema's bundled copy of that namespace.
        return xmlschema.XMLSchema(str(folder / name), allow="sandbox")


def _stand_in(root_tag: str) -> LineElement:
    entry = LineElement(ENTRY_TAG[root_tag])
    ET.SubElement(entry, LOC).text = _STAND_IN[root_tag]
    return entry


class PySchema:
    """Checks batches of ElementTree elements with xmlschema."""

    def check(
        self, root: Node, children: Sequence[Node], *, first: bool, lead: bool, trail: bool
    ) -> Batch:
        import xmlschema

        real = cast(ET.Element, root)
        entries = cast(list[ET.Element], children)
        batch = ET.Element(real.tag, dict(real.attrib) if first else {})
        if first:
            batch.text = real.text
        batch.extend(([_stand_in(real.tag)] if lead else []) + entries)
        if trail:
            batch.append(_stand_in(real.tag))
        # allow="none": the document may name schemas (xsi:schemaLocation); none is ever fetched.
        resource = xmlschema.XMLResource(batch, allow="none")
        errors = []
        for error in schema(real.tag).iter_errors(resource, namespaces=PREFIXES):
            tag = "" if error.elem is None else str(error.elem.tag)
            element = f"<{prefixed(tag)}> " if tag else ""
            reason = prefixed(error.reason or error.message)
            if tag == LASTMOD:
                reason += " (use YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+hh:mm)"
            errors.append((error.sourceline, clip(f"XSD: {element}{reason}")))
        return _fields(errors, real.tag, entries)


def _fields(
    errors: list[tuple[int | None, str]], root_tag: str, children: list[ET.Element]
) -> Batch:
    entry = ENTRY_TAG[root_tag]
    fields = [
        cast(LineElement, field)
        for child in children
        if child.tag == entry
        for field in child
        if field.tag in (LOC, LASTMOD)
    ]
    locs = [field for field in fields if field.tag == LOC]
    lastmods = [field for field in fields if field.tag == LASTMOD]
    return Batch(
        errors,
        [text_of(field) for field in locs],
        [field.sourceline for field in locs],
        [text_of(field) for field in lastmods],
        lambda number: lastmods[number].sourceline,
    )
