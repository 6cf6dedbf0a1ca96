"""The sitemap extensions' rules that an XSD cannot express, per <url> and across a file set."""
# hreflang alternates (``<xhtml:link rel="alternate" hreflang href>``): a valid hreflang and an
# absolute URL are errors; an alternate on another site, one hreflang naming two pages, a page
# missing from its own cluster and, across every file checked in one run, a cluster that is not
# reciprocal (a listed page it names carries another) are warnings: the file is valid, but Google
# ignores those alternates. Images (``<image:image><image:loc>``): at most 1,000 per <url> and
# absolute http(s) URLs (errors), each once (a warning).
# https://developers.google.com/search/docs/specialty/international/localized-versions#sitemap
# https://developers.google.com/search/docs/crawling-indexing/sitemaps/image-sitemaps

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Final, Protocol

from sitemill.html.hreflang import is_valid_hreflang
from sitemill.validate._urls import LocRules, place_of
from sitemill.validate.violation import LOC, Violation, short, warning

XHTML_LINK: Final = "{http://www.w3.org/1999/xhtml}link"
_IMAGE_NS: Final = "{http://www.google.com/schemas/sitemap-image/1.1}"
IMAGE: Final = f"{_IMAGE_NS}image"
IMAGE_LOC: Final = f"{_IMAGE_NS}loc"
MAX_IMAGES: Final = 1_000  # per <url>, Google's limit
# What the XSD's LanguageCode allows (a value outside it is the XSD's error, not reported again).
_XSD_LANGUAGE: Final = re.compile(r"[a-zA-Z]{1,8}(?:-[a-zA-Z0-9]{1,8})*")
# Reciprocity problems reported at most (the rest counted in one line).
MAX_RECIPROCITY_REPORTS: Final = 100


class Element(Protocol):
    """What the reader's elements offer here."""

    @property
    def tag(self) -> object: ...
    @property
    def text(self) -> str | None: ...
    @property
    def sourceline(self) -> int | None: ...
    def get(self, key: str) -> str | None: ...
    def findtext(self, path: str) -> str | None: ...
    def iter(self, tag: str) -> Iterator[Element]: ...
    def __iter__(self) -> Iterator[Element]: ...


@dataclass
class _Cluster:
    """One distinct cluster: its members' hrefs, how many listed members carry it, where
    it was first seen."""

    hrefs: tuple[str, ...]
    carriers: int
    file: str
    line: int | None
    loc: str


@dataclass
class ClusterSet:
    """The clusters of every file checked in one run, for the reciprocity check at the end.

    Kept per distinct cluster, not per URL (members share one), with a 64-bit hash of each
    listed loc: a million URLs in three-language clusters cost about a hundred MB.
    """

    listed: set[int] = field(default_factory=set)
    clusters: dict[int, _Cluster] = field(default_factory=dict)

    def finish(self) -> Iterator[Violation]:
        """The reciprocity findings, once every file was read."""
        reported = 0
        for cluster in self.clusters.values():
            listed = [href for href in cluster.hrefs if hash(href) in self.listed]
            found: list[Violation] = []
            if cluster.carriers < len(listed):
                found.append(
                    warning(
                        cluster.file,
                        cluster.line,
                        f"alternates of {short(cluster.loc)} are not reciprocal (Google ignores "
                        f"them): of the {len(listed)} listed pages its cluster names "
                        f"({', '.join(short(href) for href in listed[:4])}"
                        f"{', …' if len(listed) > 4 else ''}), only {cluster.carriers} "
                        "carry the same cluster",
                    )
                )
            for href in cluster.hrefs:
                if hash(href) not in self.listed:
                    found.append(
                        warning(
                            cluster.file,
                            cluster.line,
                            f"alternate {short(href)} of {short(cluster.loc)} names a page "
                            "this sitemap set does not list",
                        )
                    )
            for violation in found:
                reported += 1
                if reported <= MAX_RECIPROCITY_REPORTS:
                    yield violation
        if reported > MAX_RECIPROCITY_REPORTS:
            more = reported - MAX_RECIPROCITY_REPORTS
            yield warning("(all files)", None, f"… and {more:,} more alternates problems")


def _any_extension(urls: Sequence[Element]) -> bool:
    """Whether an element of the extensions stands in the batch, found by C searches: lxml's
    schema check moved the batch under an element of its own; ElementTree's elements know no
    parent, so a wrapper holds them for the search (without moving them)."""
    parent = getattr(urls[0], "getparent", None)
    if parent is not None:
        scope = parent()
    else:
        scope = ET.Element("batch")
        scope.extend(urls)  # type: ignore[arg-type]
    return (
        next(scope.iter(XHTML_LINK), None) is not None or next(scope.iter(IMAGE), None) is not None
    )


class ExtensionRules:
    """Checks the extensions of each <url> of one file, adding to the run's ClusterSet."""

    def __init__(self, rules: LocRules, clusters: ClusterSet) -> None:
        self.file, self.sink, self.rules, self.clusters = rules.file, rules.sink, rules, clusters

    def check(self, root: Element, urls: Sequence[Element], locs: list[str]) -> None:
        """A batch of <url> elements and their locs (stripped): one without extensions costs
        two searches in C, over the batch alone (the readers hold no more of a document)."""
        listed = self.clusters.listed
        if not urls:
            return
        if not _any_extension(urls):
            listed.update(map(hash, locs))
            return
        for url in urls:
            loc = ""
            links: list[Element] = []
            images: list[Element] = []
            for child in url:
                tag = child.tag
                if tag == LOC:
                    loc = (child.text or "").strip()
                elif tag == XHTML_LINK:
                    links.append(child)
                elif tag == IMAGE:
                    images.append(child)
            if not loc:
                continue  # the XSD reports it
            listed.add(hash(loc))
            if links:
                self._alternates(url, loc, links)
            if images:
                self._images(loc, images)

    def _report(self, line: int | None, message: str) -> None:
        self.sink.append(Violation(self.file, line, message))

    def _warn(self, kind: str, line: int | None, message: str) -> None:
        """A warning of ``kind``: the file's first few each a line, the rest counted."""
        self.rules.warn(kind, line, message)

    def _alternates(self, url: Element, loc: str, links: list[Element]) -> None:
        pairs: dict[str, str] = {}
        seen: set[tuple[str, str]] = set()
        for link in links:
            line = link.sourceline
            rel, hreflang, href = link.get("rel"), link.get("hreflang"), link.get("href")
            if rel != "alternate":
                self._report(
                    line, f'xhtml:link rel is {rel!r}; a sitemap alternate is rel="alternate"'
                )
                continue
            if hreflang is None or href is None:
                self._report(line, "xhtml:link needs both hreflang and href")
                continue
            if _XSD_LANGUAGE.fullmatch(hreflang) and not is_valid_hreflang(hreflang):
                self._report(
                    line,
                    f"hreflang {short(hreflang)!r} is not an ISO 639-1 language (with an optional "
                    "ISO 15924 script and ISO 3166-1 region, e.g. en-GB, zh-Hant) or x-default",
                )
                continue
            if not self._on_site(line, href):
                continue
            if (hreflang, href) in seen:
                self._warn(
                    "alternate listed twice",
                    line,
                    f"alternate {hreflang} {short(href)} is listed twice",
                )
                continue
            seen.add((hreflang, href))
            other = pairs.setdefault(hreflang.lower(), href)
            if other != href:
                self._warn(
                    "hreflang naming two pages",
                    line,
                    f"hreflang {hreflang} names two pages in one cluster: {short(other)} and "
                    f"{short(href)}",
                )
        if not seen:
            return
        if loc not in {href for _, href in seen}:
            self._warn(
                "page missing from its own cluster",
                url.sourceline,
                f"the page {short(loc)} is missing from its own cluster (Google ignores its "
                "alternates): one xhtml:link must name its own URL and language",
            )
            return
        key = tuple(sorted(seen))
        digest = hash(key)
        cluster = self.clusters.clusters.get(digest)
        if cluster is None:
            hrefs = tuple(dict.fromkeys(href for _, href in key))
            cluster = _Cluster(hrefs, 0, self.file, url.sourceline, loc)
            self.clusters.clusters[digest] = cluster
        cluster.carriers += 1

    def _on_site(self, line: int | None, href: str) -> bool:
        site = self.rules.place  # (learnt from the first loc when no base URL was given)
        if site is not None and href.startswith(site.origin_url + "/"):
            return True  # the usual alternate: no URL parser needed
        place = place_of(href)
        if place is None:
            self._report(line, f"alternate href {short(href)!r} is not an absolute http(s) URL")
            return False
        if site is not None and place.origin != site.origin:
            self._warn(
                "alternate on another host",
                line,
                f"alternate {short(href)} is on {place.origin_url}, not {site.origin_url}: "
                "Google reads it only when both sites are verified together",
            )
            return False
        return True

    def _images(self, loc: str, images: list[Element]) -> None:
        if len(images) > MAX_IMAGES:
            self._report(
                images[MAX_IMAGES].sourceline,
                f"{len(images):,} images in the <url> of {short(loc)}; at most {MAX_IMAGES:,} "
                "are allowed",
            )
        seen: set[str] = set()
        for image in images:
            url = image.findtext(IMAGE_LOC)
            if url is None:
                continue  # the XSD reports a missing image:loc
            url = url.strip()
            if place_of(url) is None:
                self._report(
                    image.sourceline, f"image:loc {short(url)!r} is not an absolute http(s) URL"
                )
            elif url in seen:
                self._warn(
                    "image listed twice", image.sourceline, f"image {short(url)} is listed twice"
                )
            seen.add(url)
