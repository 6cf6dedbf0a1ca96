"""The comparison's work grows with the site, not with its pairs of pages: a restructure that
moves a tenth of a site's pages (each edited a little, so that only the resemblance sketch can
find it) costs, at twice the pages, at most RATIO times the resemblance comparisons (counted,
never timed); every moved page is found."""

from __future__ import annotations

import random
from typing import Any

import pytest

import sitemill.diff._renames
from sitemill.diff.compare import compare_builds
from sitemill.diff.model import Verdict
from sitemill.lastmod.fingerprint.resemblance import sketch_text
from sitemill.state.model import PageRecord

pytestmark = pytest.mark.heavy  # (run first: tests/conftest.py)

BASE = "https://example.org/"
RATIO = 2.5  # linear work doubles; all pairs would quadruple
VOCABULARY = [f"w{number}" for number in range(20_000)]


def site(pages: int) -> tuple[dict[str, PageRecord], dict[str, PageRecord], set[str]]:
    """Old and new records by URL: a tenth of the pages moved, each with 5 % of its words
    replaced; the moved pages' old URLs."""
    rng = random.Random(pages)
    old: dict[str, PageRecord] = {}
    new: dict[str, PageRecord] = {}
    moved: set[str] = set()
    for number in range(pages):
        words = [rng.choice(VOCABULARY) for _ in range(120)]
        url = f"{BASE}s{number % 50}/p{number}.html"
        old[url] = PageRecord("v", fingerprint=f"f{number}", sketch=sketch_text(" ".join(words)))
        if number % 10:
            new[url] = old[url]
            continue
        for index in rng.sample(range(len(words)), len(words) // 20):
            words[index] = rng.choice(VOCABULARY)
        text = " ".join(words)
        new[f"{BASE}moved/p{number}.html"] = PageRecord(
            "w", fingerprint="g", sketch=sketch_text(text)
        )
        moved.add(url)
    return old, new, moved


def comparisons(pages: int, monkeypatch: pytest.MonkeyPatch) -> int:
    counted = [0]
    real = sitemill.diff._renames.resemblance

    def counting(one: str, other: str) -> Any:
        counted[0] += 1
        return real(one, other)

    monkeypatch.setattr(sitemill.diff._renames, "resemblance", counting)
    old, new, moved = site(pages)
    found = compare_builds(old, new, lambda url: None, same_fingerprints=True)
    renamed = {item.url for item in found.removed if item.verdict is Verdict.RENAMED}
    assert renamed == moved
    return counted[0]


def test_the_resemblance_comparisons_grow_linearly(monkeypatch: pytest.MonkeyPatch) -> None:
    # (Each moved page is compared with where it went and next to nothing else: 500 and 1,001
    # comparisons here, 1,001 and 2,004 at 10,000 and 20,000 pages, the sizes once used; all
    # pairs would quadruple at any size. A hidden quadratic part shows once it is a third of the
    # linear work at the smaller size: at half the sizes, it must be twice as large to show.)
    small, large = comparisons(5_000, monkeypatch), comparisons(10_000, monkeypatch)
    assert small >= 500  # (each moved page compared at least with where it went)
    assert large / small <= RATIO
