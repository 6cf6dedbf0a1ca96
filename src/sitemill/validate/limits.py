"""Bounds that keep one document's check linear and small, and the one line each one prints."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from sitemill.protocol import MAX_BYTES_LIMIT
from sitemill.validate.violation import DocumentStop

# Bytes read and fed at a time; also the granularity at which finished entries are checked
# and dropped, so memory holds about one chunk's worth of tree.
FEED_BYTES: Final = 1 << 16
# The protocol's documents are at most 5 deep (urlset/url/video:video/video:price); far below
# the point where a recursive validator would overflow its stack.
MAX_XML_DEPTH: Final = 64
# Nodes (elements, attributes, texts, comments) in one <url> or <sitemap>: Google's limits
# (1,000 images of up to 6 elements each, plus alternates and videos) stay well below it.
MAX_ENTRY_NODES: Final = 20_000
# Comments and elements directly in the root besides the entries: a generator's comment per
# entry stays below it; a flood of them does not.
MAX_OTHER_NODES: Final = 50_000
# Bytes before the root element: a declaration, perhaps a comment or a stylesheet PI. Far less
# than this; a parser keeps every comment it meets there, and nothing can be dropped yet.
MAX_PROLOG: Final = 1 << 20
# libxml2's limit for one text, attribute value, comment or name without XML_PARSE_HUGE.
MAX_TOKEN: Final = 10_000_000

NOT_FURTHER: Final = "not checked further"
TOO_MANY_BYTES: Final = (
    f"more than {MAX_BYTES_LIMIT:,} bytes uncompressed (the protocol maximum); {NOT_FURTHER}"
)
TOO_DEEP: Final = f"elements nested more than {MAX_XML_DEPTH} deep; {NOT_FURTHER}"
TOO_LONG: Final = (
    f"a text, attribute value, comment or name longer than {MAX_TOKEN:,} bytes; {NOT_FURTHER}"
)


def cap_bytes(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """``chunks`` up to MAX_BYTES_LIMIT bytes in all; past it, DocumentStop (a gzip bomb ends
    here)."""
    size = 0
    for chunk in chunks:
        size += len(chunk)
        if size > MAX_BYTES_LIMIT:
            raise DocumentStop(None, TOO_MANY_BYTES)
        yield chunk


NO_ROOT: Final = f"no root element in the first {MAX_PROLOG:,} bytes; {NOT_FURTHER}"


def entry_too_big(entry: str) -> str:
    return f"<{entry}> has more than {MAX_ENTRY_NODES:,} nodes; {NOT_FURTHER}"


def too_many_others(root: str, entry: str) -> str:
    return (
        f"more than {MAX_OTHER_NODES:,} comments or elements besides <{entry}> in <{root}>; "
        f"{NOT_FURTHER}"
    )


def too_many_around(root: str) -> str:
    return (
        f"more than {MAX_OTHER_NODES:,} comments or processing instructions around <{root}>; "
        f"{NOT_FURTHER}"
    )
