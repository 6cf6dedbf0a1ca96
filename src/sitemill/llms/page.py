"""What llms.txt says of one listed page, and of the site as its home page tells it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class LlmsPage:
    """One page the sitemap lists, as llms.txt links it.

    ``url`` is the sitemap's ``<loc>`` (absolute, percent-encoded: the site's URL style);
    ``title`` and ``description`` are the page's own ``<title>`` and meta description, tidied
    (None: it has none); ``hreflang`` is the language the page's own hreflang cluster gives it
    ("" when it declares none); ``group`` is the name of the ``[[groups]]`` entry that holds it
    (None: no group names it)."""

    url: str
    title: str | None = None
    description: str | None = None
    hreflang: str = ""
    group: str | None = None


@dataclass(frozen=True, slots=True)
class LlmsSite:
    """The site as llms.txt heads it: from its home page (None: the home page does not say)."""

    base_url: str  # the configuration's base_url, ending in "/"
    sitemap_url: str  # the absolute URL of the sitemap (the entry file) the pages are listed in
    name: str | None = None  # the home page's og:site_name
    summary: str | None = None  # the home page's meta description


# An entry as llms.txt takes it: whether it is the home page, whether its description is shared.
# A meta description on more than half of the pages (and on at least this many) is the site's,
# not the page's: it tells nothing of one page (MkDocs writes the site's, or "None", on each).
_SHARED_MIN_PAGES: Final = 4


def home_rank(loc: str, base: str) -> tuple[int, int]:
    """The site's home page is the one at the base URL; else (a root that redirects to
    ``en/`` or ``current/``) the least deep folder page: ``(0, 0)`` beats every other."""
    if loc == base:
        return (0, 0)
    rest = loc[len(base) :].partition("?")[0] if loc.startswith(base) else loc
    folder_page = rest.endswith("/") or rest.rsplit("/", 1)[-1].startswith("index.")
    return (1 if folder_page else 2, rest.rstrip("/").count("/"))


def without_shared_descriptions(pages: list[LlmsPage]) -> list[LlmsPage]:
    counts = Counter(page.description for page in pages if page.description)
    shared = {
        text
        for text, count in counts.items()
        if count >= _SHARED_MIN_PAGES and count * 2 > len(pages)
    }
    if not shared:
        return pages
    return [
        LlmsPage(p.url, p.title, None, p.hreflang, p.group) if p.description in shared else p
        for p in pages
    ]
