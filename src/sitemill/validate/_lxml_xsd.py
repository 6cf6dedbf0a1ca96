"""The official XSDs through libxml2 (lxml): imports resolved by the catalog, never the network."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final, cast

from lxml import etree

from sitemill.errors import SitemillError
from sitemill.protocol import SITEMAP_NS
from sitemill.schemas import schema_folder
from sitemill.validate.document import Batch, Node, element_text
from sitemill.validate.violation import (
    ENTRY_TAG,
    INDEX_TAG,
    LASTMOD,
    LOC,
    URLSET_TAG,
    clip,
    with_prefixes,
)

# "Element '{ns}name'[, attribute 'a']: what is wrong" is how libxml2 words a schema error.
_ELEMENT = re.compile(r"Element '([^']*)'(?:, attribute '([^']*)')?: (?:\[facet '\w+'\] )?")
_LASTMOD_HINT: Final = " (use YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+hh:mm)"
# A valid entry of each kind, placed around a batch that is not the document's first.
_STAND_IN: Final = {
    URLSET_TAG: "https://example.com/",
    INDEX_TAG: "https://example.com/sitemap.xml",
}


def _xpath(path: str) -> etree.XPath:
    return etree.XPath(path, namespaces={"s": SITEMAP_NS})


# Each entry's fields, found in C rather than element by element in Python. (No "|" unions:
# libxml2 sorts their results, which takes minutes on 100,000 nodes.)
_LOCS: Final = {URLSET_TAG: _xpath("s:url/s:loc"), INDEX_TAG: _xpath("s:sitemap/s:loc")}
_LASTMODS: Final = {URLSET_TAG: _xpath("s:url/s:lastmod"), INDEX_TAG: _xpath("s:sitemap/s:lastmod")}


class _Catalog(etree.Resolver):
    """Serves the catalog's URLs (xml.xsd, which xhtml1-strict.xsd imports) from local files."""

    def __init__(self, mapping: dict[str, Path]) -> None:
        super().__init__()
        self.mapping = mapping

    def resolve(self, system_url: str | None, public_id: str | None, context: object) -> Any:
        local = self.mapping.get(system_url or "")
        return None if local is None else self.resolve_filename(str(local), context)


def catalog(folder: Path) -> dict[str, Path]:
    """catalog.xml's URL -> local file map (its ``uri`` and ``system`` entries)."""
    mapping = {}
    root = etree.parse(folder / "catalog.xml", etree.XMLParser(no_network=True)).getroot()
    for entry in root.iterchildren(etree.Element):
        name = entry.get("name") or entry.get("systemId")
        target = entry.get("uri")
        if etree.QName(entry).localname in {"uri", "system"} and name and target:
            mapping[name] = folder / target
    return mapping


@functools.cache
def schema(root_tag: str) -> etree.XMLSchema:
    """The schema for a root (urlset: core + extensions; sitemapindex), built once per process."""
    name = "siteindex.xsd" if root_tag == INDEX_TAG else "sitemap-all.xsd"
    with schema_folder() as folder:
        # no_network: anything the catalog does not map fails here instead of being fetched.
        parser = etree.XMLParser(no_network=True, resolve_entities=False, load_dtd=False)
        parser.resolvers.add(_Catalog(catalog(folder)))
        try:
            return etree.XMLSchema(etree.parse(folder / name, parser))
        except (etree.XMLSchemaParseError, etree.XMLSyntaxError) as exc:
            raise SitemillError(f"the bundled XSD {name} does not load: {exc}") from exc


def message(text: str) -> str:
    """libxml2's wording made short: prefixes for namespaces, the element first."""
    match = _ELEMENT.match(text)
    if match is None:
        return clip(with_prefixes(f"XSD: {text}"))
    element, attribute, rest = match[1], match[2], text[match.end() :]
    where = f"<{element}>" + (f" attribute {attribute!r}:" if attribute else "")
    hint = _LASTMOD_HINT if element == LASTMOD else ""
    return clip(with_prefixes(f"XSD: {where} {rest}".rstrip(".") + hint))


def _stand_in(root_tag: str) -> etree._Element:
    entry = etree.Element(ENTRY_TAG[root_tag])
    etree.SubElement(entry, LOC).text = _STAND_IN[root_tag]
    return entry


class LxmlSchema:
    """Checks batches of lxml elements; moving them into the check frees the parser's tree."""

    def check(
        self, root: Node, children: Sequence[Node], *, first: bool, lead: bool, trail: bool
    ) -> Batch:
        real = cast(etree._Element, root)
        tag = cast(str, real.tag)
        batch = etree.Element(tag, attrib=dict(real.attrib) if first else None, nsmap=real.nsmap)
        if first:
            batch.text = real.text
        if lead:
            batch.append(_stand_in(tag))
        # Moves, not copies: lines are kept (a copy loses those past 65,535).
        batch.extend(cast(Sequence[etree._Element], children))
        if trail:
            batch.append(_stand_in(tag))
        checker = schema(tag)
        checker.validate(batch)
        errors = [(error.line or None, message(error.message)) for error in checker.error_log]
        return _fields(errors, batch, int(lead), int(trail))


def _fields(
    errors: list[tuple[int | None, str]], batch: etree._Element, lead: int, trail: int
) -> Batch:
    tag = cast(str, batch.tag)
    found = cast(list[etree._Element], _LOCS[tag](batch))
    locs = found[lead : len(found) - trail]  # the stand-ins' <loc> are not the document's
    lastmods = cast(list[etree._Element], _LASTMODS[tag](batch))
    return Batch(
        errors,
        _texts(locs),
        [node.sourceline or 0 for node in locs],
        _texts(lastmods),
        # A lastmod's line is asked only for one the rules flag: most never need it.
        lambda number: lastmods[number].sourceline,
    )


def _texts(fields: list[etree._Element]) -> list[str]:
    # A field has no children unless comments split its text.
    if any(map(len, fields)):
        return [element_text(field) for field in fields]
    return [field.text or "" for field in fields]
