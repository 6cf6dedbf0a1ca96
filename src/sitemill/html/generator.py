"""Who made a page, as its head says: ``<meta name="generator" content="…">``."""
# sitemill marks its own sitemap.html so: a run writes or deletes a sitemap.html only when it says
# sitemill made it, never a page someone wrote by hand under that name.

from __future__ import annotations

from typing import Final

from sitemill.html.head import HTML_SPACE, head_start_tags
from sitemill.html.noindex import PAGE_FACTS_BYTES

SITEMILL_GENERATOR: Final = "sitemill"
_META: Final = frozenset({"meta"})
_MARKS: Final = ((b"generator",),)  # every tag of interest says so in one name or value


def page_generator(data: bytes) -> str | None:
    """The content of the first generator meta tag in the head of ``data`` (its first
    PAGE_FACTS_BYTES are read), white space stripped; None when there is none."""
    for tag in head_start_tags(data[:PAGE_FACTS_BYTES], _META, _MARKS):
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
