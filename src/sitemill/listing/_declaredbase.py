"""Under which base URL the pages' own canonicals place the site, when it is not the run's."""
# docs/pages.md, "A base URL the site contradicts": where a page's canonical ends in the page's own
# path, what comes before is the base URL it declares. When most pages with a canonical declare one
# other than the run's, one warning asks whether ``--base-url`` is right (it stands for the off-site
# canonical warning of the same pages). ``og:url`` is counted the same way, as evidence of the
# site's URL (listing.siteurl).

from __future__ import annotations

from collections import Counter
from typing import Final

from sitemill.listing.siteurl import QUESTION, declared_base
from sitemill.report import Declared

# Pages declaring another base URL needed before the question is asked (a stray page or two
# keeps the off-site or unlisted canonical warning).
MIN_BASE_PAGES: Final = 3
# Distinct declared base URLs counted at most (a site whose canonicals all go elsewhere).
_MAX_BASES: Final = 1_000


class DeclaredBase:
    """Counts the base URLs the pages' canonicals (or ``og:url``) declare, by ``url_key``
    spelling."""

    def __init__(self, base_url: str, site_key: str) -> None:
        self._base_url = base_url
        self._site_key = site_key
        self._stem = site_key[:-1]  # (without its final "/")
        self.pages = 0  # pages with a canonical
        self._bases: Counter[str] = Counter()
        self._examples: dict[str, str] = {}

    def saw(self, path: str, key: str, named: str | None, canonical: str) -> None:
        """The page at ``path`` (its own URL's key ``key``) declares ``canonical``, of key
        ``named`` (None: no http(s) URL)."""
        self.pages += 1
        if named == key:  # (the usual case: the page names itself)
            self._bases[self._site_key] += 1
            return
        if named is None or not key.startswith(self._stem):
            return
        own = key[len(self._stem) :].rstrip("/")  # "/a/b", "" for the root
        declared = named.rstrip("/")
        if not declared.endswith(own) or "://" not in declared[: len(declared) - len(own)]:
            return  # another page's URL: no base URL to read from it
        base = declared[: len(declared) - len(own)] + "/"
        if base not in self._bases and len(self._bases) >= _MAX_BASES:
            return
        self._bases[base] += 1
        self._examples.setdefault(base, f"{path} names {canonical}")

    def contradicting(self) -> str | None:
        """The base URL most pages with a canonical declare, when it is not the run's."""
        if not self._bases:
            return None
        base, count = self._bases.most_common(1)[0]
        if base == self._site_key or count < MIN_BASE_PAGES or count * 2 <= self.pages:
            return None
        return base

    def evidence(self, what: str) -> Declared | None:
        """The base URL most pages with ``what`` (canonical, og:url) declare, the run's own
        included, as strong evidence of the site's URL; None when fewer than MIN_BASE_PAGES do."""
        if not self._bases:
            return None
        base, count = self._bases.most_common(1)[0]
        if count < MIN_BASE_PAGES or count * 2 <= self.pages:
            return None
        url = self._base_url if base == self._site_key else base
        return declared_base(url, f"{what} on {count:,} of {self.pages:,} pages", strong=True)

    def message(self) -> str | None:
        """The question, when most pages with a canonical declare another base URL."""
        base = self.contradicting()
        if base is None:
            return None
        count = self._bases[base]
        pages = (
            f"all {count:,} pages with a canonical URL declare it"
            if count == self.pages
            else f"most pages ({count:,} of {self.pages:,} with a canonical URL) declare it"
        )
        return (
            f"{pages} under {base}, not under the base URL {self._base_url}, e.g. "
            f"{self._examples[base]}: {QUESTION} If it is, fix the generator's site "
            "URL setting (site_url, baseURL, html_baseurl, url)"
        )
