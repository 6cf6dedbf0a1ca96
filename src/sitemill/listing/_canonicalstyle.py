"""Which ``url_style`` the pages' own canonicals are written in, when it is not the run's."""
# A site whose pages declare clean canonicals (``https://site/a/b``) built with the default
# ``url_style = "directory"`` gets ``https://site/a/b.html`` in its sitemap: one page, two URLs, and
# search engines see a sitemap that disagrees with every canonical. sitemill counts, for each page
# whose canonical names the page itself, the styles in which the page's URL is written as the
# canonical is; when most pages agree on another style than the run's, the summary says which.

from __future__ import annotations

from collections import Counter
from typing import Final
from urllib.parse import unquote, urlsplit

from sitemill.urls import UrlStyle, url_path

# Pages with a canonical of their own needed before a style is suggested.
MIN_STYLE_PAGES: Final = 10


class StyleHint:
    """Counts the styles the pages' own canonicals are written in."""

    def __init__(self, style: UrlStyle) -> None:
        self._style = style
        self._pages = 0
        self._matches: Counter[UrlStyle] = Counter()
        self._examples: dict[UrlStyle, str] = {}

    def saw(self, path: str, loc: str, canonical: str) -> None:
        """The page at ``path``, listed at ``loc``, names itself as ``canonical`` (an
        absolute URL of one key with ``loc``)."""
        self._pages += 1
        written = _last_segment(urlsplit(canonical).path)
        for style in UrlStyle:
            if _last_segment(url_path(path, style)) == written:
                self._matches[style] += 1
                if style not in self._examples:
                    self._examples[style] = f"{path} declares {canonical}, listed as {loc}"

    def message(self) -> str | None:
        pages, matches = self._pages, self._matches
        if pages < MIN_STYLE_PAGES:
            return None
        best = max(UrlStyle, key=lambda style: (matches[style], style is self._style))
        if best is self._style or matches[best] * 2 <= pages:
            return None
        return (
            f"{matches[best]:,} of {pages:,} listed pages declare their own URL in the "
            f'"{best.value}" url_style as their canonical (only {matches[self._style]:,} as '
            f'listed), e.g. {self._examples[best]}: set url_style = "{best.value}" so that '
            "the sitemap's URLs are the pages' canonical URLs"
        )


def _last_segment(path: str) -> str:
    return unquote(path.rpartition("/")[2])
