"""What a document's first bytes declare: its encoding, and where a DOCTYPE sits."""

from __future__ import annotations

import codecs
import re
from typing import Final

from sitemill.validate.limits import NOT_FURTHER
from sitemill.validate.violation import DocumentStop

_BOMS: Final = ((codecs.BOM_UTF8, "UTF-8"), (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))
_DECLARATION = re.compile(rb"<\?xml\s[^>]*?encoding\s*=\s*([\"'])([^\"'>]*)\1")
_UTF8: Final = {"utf-8", "utf8"}
_DOCTYPE = re.compile(rb"<!DOCTYPE\s+([^\s\[>]+)")
_ENTITY = re.compile(  # a name, and the URL of an external entity
    rb"<!ENTITY\s+(?:%\s+)?([^\s\"'>]+)\s+"
    rb"(?:(?:SYSTEM|PUBLIC\s+[\"'][^\"']*[\"'])\s+[\"']([^\"']*)[\"'])?"
)


def declared_encoding(head: bytes) -> str | None:
    """The encoding a byte-order mark or the XML declaration names; None when neither does."""
    for bom, name in _BOMS:
        if head.startswith(bom):
            return name
    if head.startswith((b"<\x00?\x00", b"\x00<\x00?")):
        return "UTF-16"  # UTF-16 without a mark: the declaration itself shows it
    match = _DECLARATION.match(head, 0, 4096)
    return match[2].decode("ascii", "replace") if match else None


def encoding_problem(head: bytes) -> str | None:
    """Why the declared encoding is wrong for a sitemap (UTF-8 only); DocumentStop if unknown."""
    name = declared_encoding(head)
    if name is None or name.lower().replace("_", "-") in _UTF8:
        return None
    try:
        codecs.lookup(name)
    except LookupError:
        raise DocumentStop(
            1, f"unknown encoding {name!r} in the XML declaration; {NOT_FURTHER}"
        ) from None
    return f"encoding is {name}; use UTF-8"


def doctype_line(head: bytes) -> int | None:
    """The line of ``<!DOCTYPE`` in the bytes read so far (ASCII-compatible encodings)."""
    at = head.find(b"<!DOCTYPE")
    return head.count(b"\n", 0, at) + 1 if at >= 0 else None


def doctype_in(head: bytes) -> DocumentStop | None:
    """The DOCTYPE DocumentStop for a prolog a parser gave up on (libxml2 refuses a billion laughs
    while still reading the DTD): the names as the bytes spell them."""
    line = doctype_line(head)
    if line is None:
        return None
    found = _DOCTYPE.search(head)
    name = found[1].decode("utf-8", "replace") if found else "?"
    entities = [
        (entity.decode("utf-8", "replace"), system.decode("utf-8", "replace") if system else None)
        for entity, system in _ENTITY.findall(head)
    ]
    return DocumentStop(line, doctype_message(name, entities))


def doctype_message(name: str, entities: list[tuple[str, str | None]]) -> str:
    """The one line for a DOCTYPE: sitemaps have none, and entities in them are never expanded."""
    if not entities:
        return f"DOCTYPE {name} is not allowed in a sitemap; {NOT_FURTHER}"
    shown = [f"{entity} (SYSTEM {system})" if system else entity for entity, system in entities]
    more = f" and {len(shown) - 5} more" if len(shown) > 5 else ""
    noun = "entities" if len(shown) > 1 else "entity"
    return (
        f"DOCTYPE {name} is not allowed in a sitemap: it declares the {noun} "
        f"{', '.join(shown[:5])}{more}; {NOT_FURTHER}"
    )
