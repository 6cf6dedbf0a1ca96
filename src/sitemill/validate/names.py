"""Element names of the protocol, and how messages print names and values."""

from __future__ import annotations

import re
from typing import Final

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
