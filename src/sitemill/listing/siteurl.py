"""The base URL a site says it is served at, by what it holds, weighed against the run's."""
# A wrong base URL passes without a word on a site whose pages carry no canonical link. What else
# the site says of its address is evidence, each piece naming a base URL: the pages' canonicals and
# ``og:url`` (most of them, at least MIN_PAGES), the folder's ``CNAME``, the generator's configured
# URL, the previous state's base URL and the generator's own sitemap (jobs.treesiteurl). One
# decision for every front end (docs/pages.md, "A base URL the site contradicts"). Agreement
# decides: another base URL is what the site says when two independent sources name it, or one
# strong one (the pages' majority, CNAME, the config of the generator that built this very folder,
# the last run's state), and the run's own has less for it. Weak or absent evidence says nothing.

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from sitemill.errors import ConfigError
from sitemill.report import Declared
from sitemill.urls import normalize_base_url, spelt_base_url

QUESTION: Final = "is --base-url right?"  # (the Action asks no second one: github.mismatch)
# A strong source decides alone; weak ones need another beside them.
_STRONG: Final = 2
_WEAK: Final = 1


@dataclass(frozen=True, slots=True)
class SiteSays:
    """The base URL the evidence agrees on, when it is not the run's, and its sources."""

    base: str
    sources: tuple[str, ...]

    @property
    def where(self) -> str:
        return ", ".join(self.sources)


def declared_base(url: str, source: str, *, strong: bool = False) -> Declared | None:
    """A piece of evidence; None when ``url`` is no base URL (relative, not http(s), a
    query, user info: nothing of it is said)."""
    try:
        return Declared(normalize_base_url(url), source, strong)
    except ConfigError:
        return None


def what_the_site_says(base_url: str, evidence: Iterable[Declared]) -> SiteSays | None:
    """The base URL the evidence agrees on when it contradicts ``base_url`` (another scheme,
    host or path): named by a strong source or two, and by more than ``base_url`` is; None
    when the evidence is weak, split or the run's own."""
    weights: dict[str, int] = defaultdict(int)
    sources: dict[str, list[str]] = defaultdict(list)
    for item in evidence:
        weights[item.base] += _STRONG if item.strong else _WEAK
        sources[item.base].append(item.source)
    own = weights.pop(spelt_base_url(base_url), 0)
    if not weights:
        return None
    ranked = sorted(weights.values(), reverse=True)
    if ranked[0] < _STRONG or ranked[0] <= own or ranked[1:2] == ranked[:1]:
        return None  # (weak; no more than the run's own; split between two others)
    base = max(weights, key=weights.__getitem__)
    return SiteSays(base, tuple(dict.fromkeys(sources[base])))


def site_url_warning(
    base_url: str, evidence: Iterable[Declared], warnings: Iterable[str]
) -> list[str]:
    """The one warning line of what the site says, when it contradicts ``base_url`` and no
    line of ``warnings`` asks already (the canonicals' own question: listing.declaredbase);
    the CLI says it, the Action fails on it instead (github.mismatch)."""
    says = what_the_site_says(base_url, evidence)
    if says is None or any(QUESTION in line for line in warnings):
        return []
    return [
        f"the base URL is {base_url} but the site says {says.base} ({says.where}): "
        f"{QUESTION} If it is, fix what says otherwise (CNAME, the generator's site URL "
        "setting: site_url, baseURL, html_baseurl, url)"
    ]
