"""What a page's head meta tags say: whether its robots meta tag keeps it out of search indexes
(noindex), and who made it (``<meta name="generator" content="…">``)."""
# sitemill marks its own sitemap.html so: a run writes or deletes a sitemap.html only when it says
# sitemill made it, never a page someone wrote by hand under that name.

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
SITEMILL_GENERATOR: Final = "sitemill"
# What a robots meta noindex holds, lower-cased: a "name" attribute, a robot's name and a
# rule, or character references that spell them (no named reference spells their letters).
_MARKS: Final = ((b"noindex", b"none", b"&#"), (b"robots", b"googlebot", b"&#"), (b"name",))
_GENERATOR_MARKS: Final = ((b"generator",),)  # every tag of interest says so in one name or value


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


def page_generator(data: bytes) -> str | None:
    """The content of the first generator meta tag in the head of ``data`` (its first
    PAGE_FACTS_BYTES are read), white space stripped; None when there is none."""
    for tag in head_start_tags(data[:PAGE_FACTS_BYTES], _META, _GENERATOR_MARKS):
        values: dict[str, str] = {}
        for key, value in tag.attributes():
            values.setdefault(key, value)  # HTML keeps the first of repeated attributes
        if values.get("name", "").strip(HTML_SPACE).lower() == "generator":
            return values.get("content", "").strip(HTML_SPACE)
    return None


def made_by_sitemill(data: bytes) -> bool:
    """Whether the page's generator is sitemill (``sitemill``, or ``sitemill`` and more
    words, such as a version)."""
    generator = page_generator(data)
    return generator is not None and generator.split(maxsplit=1)[:1] == [SITEMILL_GENERATOR]
