"""A page whose every deploy printed a new stamp: the walk follows it past all of them, not only
past as many as it follows template edits (history.templateedits). Shaped like a bookdown book
built by CI (its home page says "built on <the deploy's date>"), text our own."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from gitutil import commit, make_repo, unix
from sitemill.lastmod.fingerprint import digest
from sitemill.lastmod.history import stamps
from sitemill.lastmod.history._templateedits import MAX_ROUNDS
from sitemill.lastmod.history.stamps import stamp_pattern
from sitemill.protocol import Precision, lastmod_from_timestamp
from treedates import WHEN, at, built_lastmods

CHAPTERS = ("intro", "spatial", "raster", "vector", "maps")


def deploy(day: int) -> str:
    """The time of the deploy that ran on ``day`` (2024-01-01 is day 0)."""
    return f"2024-{1 + day // 28:02}-{1 + day % 28:02} 07:30:00"


def book(day: int, intro: str = "Geocomputation in R.", built: str = "") -> dict[str, str]:
    """The book as the deploy of ``day`` built it: each page says when it was built, or
    ``built`` (how)."""
    built = built or f"by CI on {deploy(day)[:10]}"
    return {
        f"{name}.html": (
            f"<html><head><title>{name} | The Book</title></head><body><main><h1>{name}</h1>"
            f"<p>{intro if name == 'intro' else f'The chapter on {name}.'}</p>"
            f"<p>This version of the book was built {built}.</p></main></body></html>"
        )
        for name in CHAPTERS
    }


def test_a_stamp_on_every_deploy_is_followed_past_more_rounds_than_template_edits(
    tmp_path: Path,
) -> None:
    # More deploys than the rounds template edits are followed for, each re-stamping every
    # page; the intro's own words changed at the second. Before: every page kept the date of
    # the deploy MAX_ROUNDS back from the last.
    repo = make_repo(tmp_path / "site")
    deploys = MAX_ROUNDS + 4
    for day in range(deploys):
        commit(
            repo,
            book(day, "Geocomputation with R." if day >= 1 else "Geocomputation."),
            deploy(day),
        )
    found = built_lastmods(repo)
    at = {day: lastmod_from_timestamp(unix(deploy(day)), Precision.DATETIME) for day in (0, 1)}
    assert found == {f"{name}.html": at[1 if name == "intro" else 0] for name in CHAPTERS}, found


def test_edits_that_print_no_stamp_compile_no_stamp_expression(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every page's own words edited by every commit, no date, name or hash near an edit: the
    # stops are named, and none needs a commit's stamps. An expression costs milliseconds to
    # compile; before, both commits' were compiled for each stop named (a 1,000-commit history
    # spent most of its run compiling them).
    compiled: list[int] = []

    def counted(commits: Iterable[stamps.CommitFacts]) -> re.Pattern[str] | None:
        compiled.append(1)
        return stamp_pattern(commits)

    monkeypatch.setattr(stamps, "stamp_pattern", counted)
    repo = make_repo(tmp_path / "site")
    words = ("one", "two", "three", "four")
    for number, when in enumerate(WHEN):
        pages = {
            f"notes/{name}.html": f"<html><head><title>{name}</title></head><body><main>"
            f"<p>The note on {name}, told {words[number]}{name} ways.</p></main></body></html>"
            for name in ("alpha", "beta", "gamma", "delta", "epsilon", "zeta")
        }
        commit(repo, pages, when)
    found = built_lastmods(repo)
    assert set(found.values()) == {at(len(WHEN) - 1)}, found
    assert compiled == []


def test_a_version_is_reduced_once_however_many_rounds_name_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each round carries every page one deploy back past the theme it names (a stamp's run is
    # followed at once, not a round each: lonestamps): the newer version of its next stop is the
    # older one of the stop before, which the round before read and reduced (history.stopedits'
    # HeldReductions), and the first stop's versions are those the walk reduced as it
    # fingerprinted them (history.stopnames). Before: each version between two stops was read
    # and reduced twice, and then each older version twice (the walk's, the first stop's).
    reduced: Counter[tuple[str, bytes]] = Counter()
    reduce_html = digest.reduce_html

    def counted(data: bytes, *args: Any, **kwargs: Any) -> str:
        reduced[kwargs.get("url", ""), data] += 1
        return reduce_html(data, *args, **kwargs)

    monkeypatch.setattr(digest, "reduce_html", counted)
    repo = make_repo(tmp_path / "site")
    themes = ("plain", "bold", "clean", "dark", "light", "sharp")
    for day, theme in enumerate(themes):
        commit(repo, book(day, built=f"with the {theme} theme"), deploy(day))
    found = built_lastmods(repo)
    assert set(found.values()) == {lastmod_from_timestamp(unix(deploy(0)), Precision.DATETIME)}
    assert len(reduced) == 6 * len(CHAPTERS)  # (every version of every page was named)
    current = {page.encode() for page in book(5, built="with the sharp theme").values()}
    older = [count for (_, data), count in reduced.items() if data not in current]
    assert older and set(older) == {1}  # (the current one: its page's and the blob's, alike)
