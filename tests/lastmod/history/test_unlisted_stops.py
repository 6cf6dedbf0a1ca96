"""A page no sitemap lists has no date to find: its lone stops are not named for its commit's
census (issue 79, stops95: nostrum's ExDoc search page, `noindex`, and its redirect stub stopped
alone at 15 release bumps, each a census of the deploy's 250 pages, a round each: the first run
1.75x the CPU, no date moved). Shaped like an ExDoc site, text our own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gitutil import commit, make_repo, unix
from sitemill.lastmod.history import _templateedits as templateedits
from sitemill.protocol import Precision, lastmod_from_timestamp
from treedates import built_lastmods

MODULES = ("Client", "Gateway", "Cache", "Voice", "Struct")
# Words each release wrote on a module page of its own (nostrum's source links' line numbers).
WORDS = ("retries", "shards", "expiry", "frames", "fields", "limits", "events", "caching", "tokens")


def deploy(number: int) -> str:
    return f"2024-{1 + number // 20:02}-{1 + number % 20:02} 10:00:00"


def docs(release: int) -> dict[str, str]:
    """The docs as the deploy of ``release`` built them: the release in every title, and on
    each module's page a note of its own."""
    title = f"v0.{release}"
    pages = {}
    for at, name in enumerate(MODULES):
        own = WORDS[(release + at) % len(WORDS)]
        pages[f"{name}.html"] = (
            f"<html><head><title>{name} - ours {title}</title></head><body><main><h1>{name}</h1>"
            f"<p>What {name} does.</p><p>Now with {own} of its own.</p></main></body></html>"
        )
    pages["search.html"] = (
        f"<html><head><title>Search - ours {title}</title><meta name='robots' content='noindex'>"
        "</head><body><main><h1>Search</h1><p>Type to search.</p></main></body></html>"
    )
    return pages


def rounds(tmp_path: Path, releases: int, monkeypatch: pytest.MonkeyPatch) -> int:
    """The rounds of template edits of a history of ``releases`` release bumps."""
    counted: list[int] = []
    this_round = templateedits._this_round

    def counted_round(*args: Any) -> Any:
        counted.append(1)
        return this_round(*args)

    repo = make_repo(tmp_path / f"site-{releases}")
    for number in range(releases):
        commit(repo, docs(number), deploy(number))
    with monkeypatch.context() as patched:
        patched.setattr(templateedits, "_this_round", counted_round)
        found = built_lastmods(repo)
    last = lastmod_from_timestamp(unix(deploy(releases - 1)), Precision.DATETIME)
    assert found == {f"{name}.html": last for name in MODULES}, found
    return len(counted)


def test_an_unlisted_page_stopping_alone_at_each_release_costs_the_same_however_many(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The module pages stop at the last deploy (their own words beside the release); the
    # search page, listed nowhere, stops there alone, at a release bump every page made
    # (the commit's census names it: a commit is judged by the pages it changed). Before: it
    # was carried past one release a round, each round a census of the deploy's other pages.
    short = rounds(tmp_path, 4, monkeypatch)
    long = rounds(tmp_path, 8, monkeypatch)
    assert long == short, (short, long)
