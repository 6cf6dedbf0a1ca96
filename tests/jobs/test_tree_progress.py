"""A tree's progress moves as the work completes: in a real git repository of a few hundred
pages, the reading and dates phases are told counts between 0 and their total (each chunk of
pages read, each chunk of files dated), not "0 of 300" until the phase is over."""

from __future__ import annotations

from pathlib import Path

from gitutil import clock, commit, make_repo
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.progress import DATES, READING
from sitemill.sinks import LocalDirSink

PAGES = 300
TEXT = "".join(f"<p>paragraph {n} of a page that someone reads</p>" for n in range(40))


def page(n: int, revision: int) -> str:
    return (
        f"<!doctype html><html><head><title>Page {n}</title></head><body><main><h1>{n}</h1>"
        f"{TEXT}<p>revision {revision}</p></main></body></html>"
    )


def test_reading_and_dates_count_up_as_the_chunks_complete(tmp_path: Path) -> None:
    site = make_repo(tmp_path / "site")
    times = clock("2024-01-01T10:00:00+00:00")
    commit(site, {f"p{n // 50}/page{n}.html": page(n, 0) for n in range(PAGES)}, when=next(times))
    # Every page has an older version: the dates phase walks each of them.
    commit(site, {f"p{n // 50}/page{n}.html": page(n, 1) for n in range(PAGES)}, when=next(times))
    told: list[tuple[str, int, int | None]] = []

    def progress(phase: str, done: int, total: int | None) -> None:
        told.append((phase, done, total))

    out = tmp_path / "out"
    config = load_config({"base_url": "https://example.com/", "workers": "1"})
    build_from_tree(config, site, LocalDirSink(out), output_dir=out, progress=progress)

    for phase in (READING, DATES):
        counts = [(done, total) for name, done, total in told if name == phase]
        assert counts[-1] == (PAGES, PAGES), phase
        between = sorted({done for done, total in counts if total and 0 < done < total})
        assert len(between) >= 2, (phase, counts)  # (the count moved before the phase ended)
