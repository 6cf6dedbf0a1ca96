"""hreflang alternates: what each page declares, from its head or from language folders."""
# A page's ``<link rel="alternate" hreflang href>`` tags (sitemill.html.facts reads them) are
# resolved against the page's URL here, checked, and kept only when they name a URL of this site;
# sitemill.alternates.clusters then joins the declarations of all pages into reciprocal clusters of
# listed URLs. For sites whose pages carry no such links, ``[alternates]`` maps languages to folders
# (``en = "en/**"``, ``fr = "fr/**"``): a page's versions are the same rest of path in each folder.
# https://developers.google.com/search/docs/specialty/international/localized-versions#sitemap

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from sitemill.config.alternates import AlternatesSetting, parse_alternates
from sitemill.entries import Entry
from sitemill.html.facts import PageFacts
from sitemill.html.hreflang import X_DEFAULT, normalize_hreflang
from sitemill.html.links import resolve_url, url_key
from sitemill.messages import KindCounts
from sitemill.urls import join_plain

__all__ = [
    "X_DEFAULT",
    "AlternateCounts",
    "AlternatesSetting",
    "SiteKeys",
    "declared_alternate_keys",
    "folder_versions",
    "parse_alternates",
]


class AlternateCounts(KindCounts[str]):
    """Declared alternates that were left out, by why (with the first example of each)."""

    def messages(self) -> Iterator[str]:
        texts = {
            "bad_hreflang": "hreflang value(s) that are not an ISO 639-1 language (with an "
            "optional ISO 3166-1 region or ISO 15924 script) or x-default were left out",
            "off_site": "alternate(s) naming a URL off this site were left out",
            "unlisted": "alternate(s) naming a page this sitemap does not list were left out",
            "conflict": "hreflang value(s) of one cluster named two different pages: the one "
            "most pages name was kept",
            "unconfirmed": "alternate(s) whose target does not name the page back (Google "
            "needs return links) were left out; other pages' clusters are kept as they are",
            "too_many": "cluster(s) had more versions than a sitemap entry should carry: "
            "the first ones were kept",
        }
        for kind, text in texts.items():
            if self.counts[kind]:
                yield f"{self.counts[kind]:,} {text}, e.g. {self.examples[kind]}"


@dataclass(frozen=True, slots=True)
class SiteKeys:
    """How a declared alternate is keyed on this site: ``own_key`` is the key of a URL that
    sitemill wrote (fast: for one under ``base_url``), ``site_key`` the key every URL of the
    site starts with, ``page_url`` the URL of a site path."""

    base_url: str
    site_key: str
    own_key: Callable[[str], str]
    page_url: Callable[[str], str]


def declared_alternate_keys(
    facts: PageFacts | None,
    path: str,
    loc: str,
    setting: AlternatesSetting,
    site: SiteKeys,
    counts: AlternateCounts,
) -> tuple[tuple[str, str], ...]:
    """The (hreflang, URL key) pairs the page at ``path`` declares: its head's alternates on
    this site, else its language folders' versions."""
    own_key, site_key, base_url = site.own_key, site.site_key, site.base_url
    pairs: list[tuple[str, str]] = []
    if facts is not None and facts.alternates:
        for raw, href in facts.alternates:
            hreflang = normalize_hreflang(raw)
            if hreflang is None:
                counts.count("bad_hreflang", f"{path} declares hreflang={raw!r}")
                continue
            key = _key(href, loc, facts.base, base_url, own_key)
            if key is None or not key.startswith(site_key):
                counts.count("off_site", f"{path} names {href}")
                continue
            pairs.append((hreflang, key))
    elif setting.folders:
        pairs = [
            (hreflang, own_key(site.page_url(version)))
            for hreflang, version in folder_versions(setting.folders, path)
        ]
    return tuple(dict.fromkeys(pairs))  # each pair once, in order


def _key(
    href: str, loc: str, base_href: str | None, base_url: str, own_key: Callable[[str], str]
) -> str | None:
    """The URL key of ``href`` on the page at ``loc``: a plain path under the site the fast
    way (as sitemill writes its own URLs), anything else through the URL parser."""
    if base_href is None:
        joined = join_plain(href, loc)
        if joined is not None and joined.startswith(base_url):
            return own_key(joined)
    resolved = resolve_url(href, loc, base_href)
    return None if resolved is None else url_key(resolved)


# Language folders: a page's versions across the ``[alternates]`` folders, and its language.
# The folders of the ``[alternates]`` table (sitemill.config.alternates reads it) serve sites whose
# pages carry no hreflang links. A page's language is what its cluster or its folder tells (site
# chrome is counted per language: sitemill.images.chrome).
def folder_versions(folders: tuple[tuple[str, str], ...], path: str) -> list[tuple[str, str]]:
    """The (hreflang, site path) of each version of the page at ``path`` (itself included),
    or none when it lies in no language folder. Its folder is the longest prefix."""
    for _, prefix in folders:
        if path.startswith(prefix):
            rest = path[len(prefix) :]
            return [(hreflang, other + rest) for hreflang, other in folders]
    return []


def folder_language(folders: tuple[tuple[str, str], ...], path: str) -> str:
    """The hreflang of the language folder the page at ``path`` lies in, "" for none."""
    for hreflang, prefix in folders:
        if hreflang != X_DEFAULT and path.startswith(prefix):
            return hreflang
    return ""


def cluster_language(entry: Entry) -> str:
    """The language the entry's hreflang cluster (once resolved) lists its page under, ""
    when it is in no cluster (or only as x-default)."""
    for hreflang, href in entry.alternates:
        if href == entry.loc and hreflang != X_DEFAULT:
            return hreflang
    return ""
