"""What finding stamps costs (issue 79): the same work however long the history of a page that
printed its deploy's day on every deploy (history.stamps, history.lonestamps), whether the deploy
changed that page alone or the whole section. Shaped like aea's guidance FAQs ("Published: <the
deploy's day>"), text our own."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from gitutil import commit, make_repo, unix
from sitemill.lastmod.history import _templateedits as templateedits
from sitemill.protocol import Precision, lastmod_from_timestamp
from treedates import built_lastmods

GUIDES = ("deposit", "citation", "licensing", "step-by-step", "next", "index")
MONTHS = ("January", "February", "March", "April", "May", "June")


def deploy(number: int) -> str:
    """The time of the deploy ``number`` (one every other day from 2024-01-01)."""
    return f"2024-{1 + number // 14:02}-{1 + 2 * (number % 14):02} 14:15:46"


def guidance(when: str) -> dict[str, str]:
    """The guidance section as the deploy at ``when`` built it: the FAQ prints the deploy's
    day, the other guides their own words."""
    year, month, day = (int(part) for part in when[:10].split("-"))
    meta = f'<meta property="article:published_time" content="{when[:10]}T{when[11:]}">'
    pages = {
        f"guidance/{name}.html": f"<html><head><title>{name}</title>{meta}</head><body><main>"
        f"<h1>{name}</h1><p>How to {name} a replication package.</p></main></body></html>"
        for name in GUIDES
    }
    pages["guidance/FAQ.html"] = (
        f"<html><head><title>FAQ</title>{meta}</head><body><main><h1>FAQ</h1>"
        f'<p><strong>Published:</strong> <time datetime="{when[:10]}">'
        f"{MONTHS[month - 1]} {day}, {year}</time></p><p>Questions, answered.</p>"
        "</main></body></html>"
    )
    return pages


def work(
    tmp_path: Path, deploys: int, monkeypatch: pytest.MonkeyPatch, whole: bool = False
) -> tuple[int, int]:
    """The rounds of template edits and the regular expressions compiled building a history
    of ``deploys`` deploys, each of which changed the FAQ's stamp alone, or (``whole``) that
    and every guide's published time in its head, which no reading holds."""
    rounds: list[int] = []
    compiled: list[int] = []
    this_round = templateedits._this_round
    compile_pattern = re._compiler.compile  # type: ignore[attr-defined]

    def counted_round(*args: Any) -> Any:
        rounds.append(1)
        return this_round(*args)

    def counted_compile(*args: Any) -> Any:
        compiled.append(1)
        return compile_pattern(*args)

    repo = make_repo(tmp_path / f"site-{deploys}-{whole}")
    commit(repo, guidance(deploy(0)), deploy(0))
    for number in range(1, deploys):
        built = guidance(deploy(number))
        commit(
            repo,
            built if whole else {"guidance/FAQ.html": built["guidance/FAQ.html"]},
            deploy(number),
        )
    re.purge()
    with monkeypatch.context() as patched:
        patched.setattr(templateedits, "_this_round", counted_round)
        patched.setattr(re._compiler, "compile", counted_compile)  # type: ignore[attr-defined]
        found = built_lastmods(repo)
    first = lastmod_from_timestamp(unix(deploy(0)), Precision.DATETIME)
    assert set(found.values()) == {first}, found
    return len(rounds), len(compiled)


def test_a_page_stamped_on_every_deploy_costs_the_same_however_long_its_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: one round of template edits carried the FAQ one deploy back (every stop of the
    # site read again each round), and each deploy's stamps were one expression compiled
    # (milliseconds each): aea's 180 stamped deploys took its first run from 5.6 to 21 s of
    # CPU. Now the FAQ is carried past all of them in one round, and the one expression of
    # any date is compiled once in a process.
    work(tmp_path, 3, monkeypatch)  # (what a process compiles once: no history's work)
    short_rounds, short_compiled = work(tmp_path, 10, monkeypatch)
    long_rounds, long_compiled = work(tmp_path, 20, monkeypatch)
    assert long_rounds / short_rounds == 1, (short_rounds, long_rounds)
    assert long_compiled <= short_compiled, (short_compiled, long_compiled)


def test_a_page_stamped_on_every_deploy_of_its_section_costs_the_same_however_long_its_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each deploy re-stamped the FAQ and every guide's head (7 pages changed, at least
    # MIN_SECTION): the FAQ's stop there is named by the round (a commit is judged by the pages
    # it changed, dating rules 12) and is a stamp. Before: it was carried one deploy a round,
    # each round reading every stop of the site again (aea's two guidance pages: 173 rounds
    # where 24 had been, its first run 1.36x the CPU). Now it is followed past every stamp after
    # it in the round that carries it, as a stop no round named is.
    short_rounds, _ = work(tmp_path, 6, monkeypatch, whole=True)
    long_rounds, _ = work(tmp_path, 12, monkeypatch, whole=True)
    assert long_rounds == short_rounds <= 3, (short_rounds, long_rounds)
