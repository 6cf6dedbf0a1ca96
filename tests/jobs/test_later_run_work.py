"""A later run does only a later run's work (issue 47: "a second run costs what it does
today"): it reads no declared date and imports nothing that reads them, asks include and
exclude once a page, and with no progress shown reads the pages in as few chunks as its
workers need."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from sitemill.config.model import load_config
from sitemill.jobs._treereads import ReadOptions, read_pages
from sitemill.progress import READING, Ticker
from sitemill.rules import is_candidate, reads_candidate, reads_page
from sitemill.safefs import Root
from sitemill.sources.tree import walk_tree
from sitemill.workers.workpool import CHUNKS_PER_WORKER, PROGRESS_CHUNK

# The modules of a first run's sources (rung 2), declared dates (rung 3) and of the replaced
# sitemap's dates.
FIRST_RUN_ONLY = (
    "sitemill.lastmod.declared.inpage",
    "sitemill.lastmod.declared.rung",
    "sitemill.lastmod.sourcefiles.sourcemap",
    "sitemill.lastmod.sourcefiles.rung",
    "sitemill.lastmod.sourcefiles.textdates",
    "sitemill.lastmod.declared.buildstamps",
    "sitemill.lastmod.declared.w3cdate",
    "sitemill.writing.replaced",
)

# One run in a fresh process: the sitemap's lastmods and the first-run-only modules loaded.
RUN = """
import json, sys
from pathlib import Path
from sitemill.config.model import load_config
from sitemill.jobs.tree import build_tree as build_from_tree
from sitemill.sinks import LocalDirSink

site, out = Path(sys.argv[1]), Path(sys.argv[2])
config = load_config({"base_url": "https://example.com/", "workers": "1"})
build_from_tree(config, site, LocalDirSink(out), output_dir=out)
loaded = sorted(name for name in sys.modules if name in json.loads(sys.argv[3]))
print(json.dumps({"loaded": loaded, "sitemap": (out / "sitemap.xml").read_text()}))
"""


def page(n: int) -> str:
    return (
        f"<!doctype html><html><head><title>Page {n}</title>"
        '<meta property="article:modified_time" content="2023-05-0'
        f'{1 + n % 9}T10:00:00+00:00"></head><body><main><p>page {n} says something</p>'
        "</main></body></html>"
    )


def run(site: Path, out: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(site), str(out), json.dumps(FIRST_RUN_ONLY)],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_a_later_run_imports_nothing_that_reads_declared_dates(tmp_path: Path) -> None:
    site = tmp_path / "site"
    for n in range(12):
        (site / f"p{n}").mkdir(parents=True)
        (site / f"p{n}" / "index.html").write_text(page(n))
    out = tmp_path / "out"
    first = run(site, out)
    assert "<lastmod>2023-05-0" in first["sitemap"]  # (the declared dates dated the pages)
    assert set(first["loaded"]) >= {"sitemill.lastmod.declared.inpage", "sitemill.writing.replaced"}
    for file in site.rglob("*.html"):  # rebuilt: the same bytes, new file times
        file.write_bytes(file.read_bytes())
    later = run(site, out)
    assert later["loaded"] == []
    assert later["sitemap"] == first["sitemap"]


@pytest.mark.parametrize(
    "path",
    [
        "index.html",
        "docs/guide/index.html",
        "404.html",
        "fr/404/index.html",
        "_static/theme.html",
        "google0123456789abcdef.html",
        "private/secret.html",
        "drafts/index.html",
        "report.pdf",
    ],
)
def test_reads_candidate_answers_as_reads_page_for_a_candidate(path: str) -> None:
    config = load_config(
        {
            "base_url": "https://example.com/",
            "exclude": "drafts/**",
            "rules": [{"pattern": "private/**", "exclude": True}],
        }
    )
    assert is_candidate(config, path) or path.startswith("drafts/")
    if is_candidate(config, path):
        assert reads_candidate(config, None, path) == reads_page(config, None, path)


class CountingPool:
    """A pool of ``workers`` that reads in this process and keeps how many chunks it got."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.chunks = 0

    def imap(self, work: Callable[[Any], Any], chunks: Iterable[Any]) -> Iterator[Any]:
        chunks = list(chunks)
        self.chunks += len(chunks)
        return map(work, chunks)


@pytest.mark.parametrize("shown", [False, True])
def test_pages_are_read_in_fewer_chunks_when_no_progress_is_shown(
    tmp_path: Path, shown: bool
) -> None:
    pages = 3 * PROGRESS_CHUNK * 2 * CHUNKS_PER_WORKER
    for n in range(pages):
        (tmp_path / f"p{n}.html").write_text(page(n))
    files = sorted(walk_tree(tmp_path), key=lambda file: file.path)
    config = load_config({"base_url": "https://example.com/"})
    told: list[int] = []
    progress = (lambda phase, done, total: told.append(done)) if shown else None
    pool = CountingPool(2)
    reads = read_pages(
        config,
        None,
        Root(tmp_path),
        files,
        ReadOptions(whole=True, stream=True),
        pool,  # type: ignore[arg-type]
        Ticker(progress, READING, len(files)),
    )
    reads.complete()
    assert len(reads.fingerprints) == pages
    expected = -(-pages // PROGRESS_CHUNK) if shown else 2 * CHUNKS_PER_WORKER
    assert pool.chunks == expected
