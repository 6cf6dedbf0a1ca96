"""The cyclic garbage collector's pace during a run (workers.collector), counted."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from sitemill.cli.main import main
from sitemill.workers.collector import YOUNG_OBJECTS, fewer_collections


@pytest.fixture
def young_collections() -> Iterator[list[int]]:
    """The collections of the youngest generation from here to the test's end."""
    counted: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info["generation"] == 0:
            counted.append(1)

    gc.collect()
    gc.callbacks.append(count)
    try:
        yield counted
    finally:
        gc.callbacks.remove(count)


def test_a_build_of_a_few_thousand_pages_runs_few_collections(
    tmp_path: Path, young_collections: list[int]
) -> None:
    # The tables a run builds and keeps (pages, versions, fingerprints) made Python collect
    # every 700 new objects, finding nothing: 320 collections in the main process of
    # build-git-10k, 0.08 s of CPU where every other thread waits.
    site = tmp_path / "site"
    for index in range(2_000):
        page = site / f"s{index % 10}" / f"p{index}.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(f"<html><head><title>{index}</title></head><p>Page {index}</p></html>")
    threshold = gc.get_threshold()

    argv = ["build", str(site), "--base-url", "https://example.com/", "--lastmod", "none"]
    assert main([*argv, "--out", str(tmp_path / "out"), "--quiet", "--workers", "1"]) == 0
    assert len(young_collections) <= 10  # (3; 33 at the default pace of 700 objects)
    assert gc.get_threshold() == threshold  # (as it was once the run is over)


def test_the_pace_is_only_ever_slowed_and_comes_back() -> None:
    before = gc.get_threshold()
    try:
        gc.set_threshold(50_000, 20, 30)
        with fewer_collections():
            assert gc.get_threshold() == (50_000, 20, 30)
        gc.set_threshold(700, 10, 10)
        with fewer_collections():
            assert gc.get_threshold() == (YOUNG_OBJECTS, 10, 10)
        assert gc.get_threshold() == (700, 10, 10)
        gc.set_threshold(0)  # (no collections at all: stays so)
        with fewer_collections():
            assert gc.get_threshold()[0] == 0
    finally:
        gc.set_threshold(*before)
