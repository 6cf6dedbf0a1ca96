"""What llms.txt says of one listed page, and of the site as its home page tells it."""

from __future__ import annotations

from dataclasses import dataclass


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
