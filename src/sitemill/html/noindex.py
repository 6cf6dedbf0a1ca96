"""Tell whether an HTML page's robots meta tag keeps it out of search indexes (noindex)."""

from __future__ import annotations

import re
from typing import Final

from sitemill.html.head import HTML_SPACE, StartTag, head_start_tags

# Page facts are read from this many first bytes of a page, never from the whole of a huge
# file: a head that goes on past them is judged on what they hold.
PAGE_FACTS_BYTES: Final = 64 * 1024

# Meta names Google obeys for web search; other crawlers' names (bingbot, googlebot-news, ...)
# do not keep a page out of a sitemap meant for everyone.
# https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag
_ROBOTS_NAMES: Final = ("robots", "googlebot")
# "none" is documented as "noindex, nofollow"; "nofollow" alone still lets the page be indexed.
_NOINDEX_RULES: Final = ("noindex", "none")
_CONTENT_SEPARATORS: Final = re.compile(r"[\s,]+")
_META: Final = frozenset({"meta"})
# What a robots meta noindex holds, lower-cased: a "name" attribute, a robot's name and a
# rule, or character references that spell them (no named reference spells their letters).
_MARKS: Final = ((b"noindex", b"none", b"&#"), (b"robots", b"googlebot", b"&#"), (b"name",))


def head_is_noindex(data: bytes) -> bool:
    """Whether the page ``data`` begins with (its first PAGE_FACTS_BYTES) says noindex.

    Only a robots meta tag that the head holds whole counts: one cut off at the end of
    ``data`` does not. Linear in ``len(data)``.
    """
    return any(_is_noindex_tag(tag) for tag in head_start_tags(data, _META, _MARKS))


def _is_noindex_tag(tag: StartTag) -> bool:
    values: dict[str, str] = {}
    for key, value in tag.attributes():
        values.setdefault(key, value)  # HTML keeps the first of repeated attributes
    return is_noindex_meta(values)


def is_noindex_meta(values: dict[str, str]) -> bool:
    """Whether a meta tag with these attributes (first of each name) says noindex."""
    # A trailing "/" is the self-closing slash of an unquoted value (<meta content=noindex/>).
    name = values.get("name", "").strip(HTML_SPACE).rstrip("/").lower()
    if name not in _ROBOTS_NAMES:
        return False
    tokens = _CONTENT_SEPARATORS.split(values.get("content", "").lower())
    return any(token.rstrip("/") in _NOINDEX_RULES for token in tokens)
