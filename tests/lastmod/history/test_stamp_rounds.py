"""A page whose every deploy printed a new stamp: the walk follows it past all of them, not only
past as many as it follows template edits (history.templateedits). Shaped like a bookdown book
built by CI (its home page says "built on <the deploy's date>"), text our own."""

from __future__ import annotations

from pathlib import Path

from gitutil import commit, make_repo, unix
from sitemill.lastmod.history.templateedits import MAX_ROUNDS
from sitemill.protocol import Precision, lastmod_from_timestamp
from treedates import built_lastmods

CHAPTERS = ("intro", "spatial", "raster", "vector", "maps")


def deploy(day: int) -> str:
    """The time of the deploy that ran on ``day`` (2024-01-01 is day 0)."""
    return f"2024-{1 + day // 28:02}-{1 + day % 28:02} 07:30:00"


def book(day: int, intro: str = "Geocomputation in R.") -> dict[str, str]:
    """The book as the deploy of ``day`` built it: each page says when it was built."""
    built = deploy(day)[:10]
    return {
        f"{name}.html": (
            f"<html><head><title>{name} | The Book</title></head><body><main><h1>{name}</h1>"
            f"<p>{intro if name == 'intro' else f'The chapter on {name}.'}</p>"
            f"<p>This version of the book was built by CI on {built}.</p></main></body></html>"
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
