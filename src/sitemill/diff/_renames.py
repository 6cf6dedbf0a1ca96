"""Which new page holds a removed page's content: the same fingerprint, else a near sketch."""
# A page moved to a new URL is found by its content, never by its name: the added page with the
# removed page's fingerprint, else whose resemblance sketch (lastmod.fingerprint.resemblance) is
# nearest and at least RENAMED_AT. Sketches are indexed by bands of BAND bytes (locality-sensitive
# hashing: a pair alike at 0.6 shares a band with probability 0.89, unrelated pages almost never),
# so a restructure costs one pass over each side, not every pair. A page too short for a sketch is
# matched only by a fingerprint no other page shares. Ties go to the URL nearest the removed one.

from __future__ import annotations

import base64
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Final

from sitemill.lastmod.fingerprint.resemblance import BINS, resemblance

RENAMED_AT: Final = 0.6  # the resemblance at which a new page holds a removed page's content
BAND: Final = 4  # bins per band of the index
_TIE: Final = 0.02  # candidates this close to the best are equally good


@dataclass(frozen=True, slots=True)
class PageContent:
    """What the state says of one page's content: its fingerprint and sketch."""

    fingerprint: str | None
    sketch: str | None


@dataclass(frozen=True, slots=True)
class Rename:
    """The new URL that holds a removed URL's content, and how nearly."""

    target: str
    resemblance: float


class Renames:
    """The added pages (URL -> content), indexed to find where each removed page went."""

    def __init__(self, added: Mapping[str, PageContent], removed: Iterable[PageContent]) -> None:
        self.added = added
        self.by_fingerprint: dict[str, list[str]] = defaultdict(list)
        self.by_band: dict[tuple[int, bytes], list[str]] = defaultdict(list)
        for url, content in sorted(added.items()):
            if content.fingerprint is not None:
                self.by_fingerprint[content.fingerprint].append(url)
            for band in _bands(content.sketch):
                self.by_band[band].append(url)
        self.removed_prints = Counter(c.fingerprint for c in removed if c.fingerprint is not None)

    def find(self, url: str, content: PageContent) -> Rename | None:
        """Where the removed page at ``url`` went, if a new page holds its content."""
        same = [] if content.fingerprint is None else self.by_fingerprint[content.fingerprint]
        if same and (content.sketch is not None or self._unique(content, same)):
            return Rename(_nearest_url(url, same), 1.0)
        if content.sketch is None:
            return None
        scores: dict[str, float] = {}
        for band in _bands(content.sketch):
            for candidate in self.by_band.get(band, ()):
                if candidate not in scores:
                    other = self.added[candidate].sketch
                    scores[candidate] = (other and resemblance(content.sketch, other)) or 0.0
        best = max(scores.values(), default=0.0)
        if best < RENAMED_AT:
            return None
        ties = [candidate for candidate, score in scores.items() if score >= best - _TIE]
        return Rename(_nearest_url(url, ties), best)

    def _unique(self, content: PageContent, same: list[str]) -> bool:
        printed = content.fingerprint
        return len(same) == 1 and printed is not None and self.removed_prints[printed] == 1


def _bands(sketch: str | None) -> Iterable[tuple[int, bytes]]:
    if sketch is None:
        return ()
    data = base64.urlsafe_b64decode(sketch[1:] + "==")
    return ((start, data[start : start + BAND]) for start in range(0, BINS, BAND))


def _nearest_url(url: str, candidates: list[str]) -> str:
    """The candidate whose URL is nearest ``url``: the same file name first, then the most
    alike path (ties: the first in URL order)."""
    name = _name(url)

    def nearness(candidate: str) -> tuple[bool, float]:
        alike = SequenceMatcher(None, url, candidate, autojunk=False).ratio()
        return (_name(candidate) == name, alike)

    ordered = sorted(candidates)
    return max(ordered, key=nearness)


def _name(url: str) -> str:
    """A URL's last name without its suffix (``/a/b.html`` and ``/x/b/`` are both ``b``)."""
    last = url.rstrip("/").rsplit("/", 1)[-1]
    for suffix in (".html", ".htm"):
        if last.endswith(suffix):
            return last[: -len(suffix)]
    return last
