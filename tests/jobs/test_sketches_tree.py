"""A tree build keeps each listed HTML page's resemblance sketch in its state (sitemill diff
finds a moved page by it): made from the reduction the page's fingerprint hashes, whether the
page is read or the walk through git takes it; carried over without a read while the
fingerprint holds; a state of an earlier sitemill without sketches is not rewritten for them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gitutil import commit, make_repo
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.filenames.outputs import STATE_NAME
from sitemill.jobs import _treehistory as treehistory
from sitemill.jobs import _treereads as treereads
from sitemill.lastmod.fingerprint.digest import reduce_file
from sitemill.lastmod.fingerprint.resemblance import sketch_text
from sitemill.lastmod.history import walk
from sitemill.report import Report
from sitemill.sinks import LocalDirSink
from sitemill.state.model import PageRecord, dump_state
from sitemill.state.parse import parse_state

BASE = "https://example.com/"
T1, T2, T3 = "2024-01-10 09:00:00", "2024-02-20 10:00:00", "2024-03-30 11:00:00"
WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi"


def page(n: int, footer: str = "2024", more: str = "") -> str:
    words = " ".join(f"{word}{n}" for word in WORDS.split())
    return (
        f"<!DOCTYPE html>\n<html><head><title>Page {n}</title></head><body><nav>Home</nav>\n"
        f"<main><h1>Page {n}</h1><p>{words} and {WORDS} again{more}.</p></main>\n"
        f"<footer>{footer}</footer></body></html>\n"
    )


SITE = {
    **{f"s/p{n}.html": page(n) for n in range(4)},
    "stub.html": "<!DOCTYPE html><html><head><title>Stub</title></head><body>Soon.</body></html>",
    "doc.pdf": "%PDF-1.4 not a page",
}


def build(repo: Path, out: Path, **values: Any) -> Report:
    config = load_config({"base_url": BASE, "lastmod": "git", "workers": 1, **values})
    return build_from_tree(config, repo, LocalDirSink(out), output_dir=out)


def records(out: Path) -> dict[str, PageRecord]:
    return parse_state((out / STATE_NAME).read_bytes()).pages


def sketch_of(repo: Path, path: str) -> str | None:
    """What a page's sketch must be: sketch_text of the reduction its fingerprint hashes."""
    return sketch_text(reduce_file(path, (repo / path).read_bytes(), base=BASE))


@pytest.fixture
def sketched(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Where each sketch was made, in this process (a build with workers = 1): "read" by the
    pages' reads, "walk" by the walk through git."""
    made: list[str] = []

    def counting(where: str) -> Callable[[str], str | None]:
        def count(text: str) -> str | None:
            made.append(where)
            return sketch_text(text)

        return count

    # (raising=False: a sitemill that made no sketch fails the tests' own assertions)
    monkeypatch.setattr(treereads, "sketch_text", counting("read"), raising=False)
    monkeypatch.setattr(walk, "sketch_text", counting("walk"), raising=False)
    return made


@pytest.fixture
def whole_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The pages read whole (for a fingerprint) rather than their head alone."""
    read: list[str] = []
    real: Callable[..., bytes | None] = treereads.read_file

    def counting(site: Any, path: str, limit: int) -> bytes | None:
        if limit > treereads.PAGE_FACTS_BYTES:
            read.append(path)
        return real(site, path, limit)

    monkeypatch.setattr(treereads, "read_file", counting)
    monkeypatch.setattr(treehistory, "read_whole", lambda site, path: counting(site, path, 1 << 30))
    return read


@pytest.mark.parametrize("walked", [False, True])
def test_each_listed_html_page_has_the_sketch_of_its_reduction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sketched: list[str], walked: bool
) -> None:
    if walked:  # the walk through git takes the pages' fingerprints (a site of big pages)
        monkeypatch.setattr(treehistory, "MIN_POOL_BYTES", 0)
        monkeypatch.setattr(treehistory, "DEFER_MEAN_BYTES", 0)
    repo = make_repo(tmp_path / "site")
    commit(repo, {name: text.replace("2024", "2023") for name, text in SITE.items()}, T1)
    commit(repo, SITE, T2)  # (two versions each: the walk has pages to take)
    out = tmp_path / "out"
    build(repo, out)
    found = records(out)
    html = [f"s/p{n}.html" for n in range(4)]
    assert {path: found[path].sketch for path in html} == {p: sketch_of(repo, p) for p in html}
    assert all(found[path].sketch for path in html)
    assert found["stub.html"].sketch is None  # (too little text to tell a near copy)
    assert found["doc.pdf"].fingerprint and found["doc.pdf"].sketch is None
    # One of each page's reduction, the stub's too; none of the PDF.
    assert sorted(sketched) == (["read"] + ["walk"] * 4 if walked else ["read"] * 5)


def test_a_second_run_with_nothing_new_reads_sketches_and_writes_nothing(
    tmp_path: Path, sketched: list[str], whole_reads: list[str]
) -> None:
    repo, out = make_repo(tmp_path / "site"), tmp_path / "out"
    commit(repo, SITE, T1)
    build(repo, out)
    state = (out / STATE_NAME).read_bytes()
    assert len(sketched) == 5 and len(whole_reads) == 6
    sketched.clear()
    whole_reads.clear()
    again = build(repo, out)
    assert sketched == [] and whole_reads == []
    assert again.result.written == [] and not again.state_written
    assert (out / STATE_NAME).read_bytes() == state


def test_a_page_whose_fingerprint_holds_keeps_its_sketch_without_a_read(
    tmp_path: Path, sketched: list[str], whole_reads: list[str]
) -> None:
    repo, out = make_repo(tmp_path / "site"), tmp_path / "out"
    commit(repo, SITE, T1)
    build(repo, out)
    before = records(out)
    commit(repo, {"s/p1.html": page(1, more=", and one more word")}, T2)  # an edit
    commit(repo, {"s/p2.html": page(2, footer="2025")}, T3)  # furniture: the same content
    sketched.clear()
    whole_reads.clear()
    build(repo, out)
    after = records(out)
    assert sorted(whole_reads) == ["s/p1.html", "s/p2.html"]  # (new blobs; the rest: heads)
    assert len(sketched) == 2
    assert after["s/p1.html"].sketch == sketch_of(repo, "s/p1.html") != before["s/p1.html"].sketch
    for path in ("s/p0.html", "s/p2.html", "s/p3.html"):
        assert after[path].sketch == before[path].sketch is not None


def test_a_state_without_sketches_is_not_rewritten_and_a_read_page_gets_one(
    tmp_path: Path, sketched: list[str], whole_reads: list[str]
) -> None:
    # A state of a sitemill before sketches: a run with nothing new reads no page again to
    # make them (and so rewrites nothing); a page gets its sketch the next time it is read.
    repo, out = make_repo(tmp_path / "site"), tmp_path / "out"
    commit(repo, SITE, T1)
    build(repo, out)
    state = parse_state((out / STATE_NAME).read_bytes())
    state.pages = {path: _unsketched(record) for path, record in state.pages.items()}
    (out / STATE_NAME).write_bytes(dump_state(state))
    older = (out / STATE_NAME).read_bytes()
    sketched.clear()
    whole_reads.clear()
    again = build(repo, out)
    assert sketched == [] and whole_reads == []
    assert again.result.written == [] and not again.state_written
    assert (out / STATE_NAME).read_bytes() == older
    commit(repo, {"s/p3.html": page(3, more=", edited")}, T2)
    build(repo, out)
    sketches = {path: record.sketch for path, record in records(out).items()}
    assert sketches["s/p3.html"] == sketch_of(repo, "s/p3.html") is not None
    assert [path for path, sketch in sketches.items() if sketch] == ["s/p3.html"]


def _unsketched(record: PageRecord) -> PageRecord:
    return PageRecord(
        record.version, record.facts, record.fingerprint, record.lastmod, record.proof, record.parts
    )
