"""The harness's own parts, on real git repositories with fixed dates. Run by hand, as the
harness is (not part of ``make test``):

    .venv/bin/python -m pytest -q -p no:cacheprovider -n 0 \
        benchmarks/sameoutputs/test_sameoutputs.py
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent / "tests"))

import sameoutputs  # noqa: E402
from gitutil import commit, git, make_repo  # noqa: E402

PAGES = {
    f"p{n}/index.html": f"<html><body><main><p>page {n}</p></main></body></html>" for n in range(6)
}


def site_repo(path: Path) -> sameoutputs.Site:
    make_repo(path)
    commit(path, {"index.html": "<html><body>home</body></html>", **PAGES}, "2024-01-01T10:00:00")
    return sameoutputs.Site("t", "https://example.org/", path)


def test_one_byte_is_a_difference_named_by_site_and_file(tmp_path: Path) -> None:
    for side in ("base", "head"):
        (tmp_path / side / "folder").mkdir(parents=True)
        (tmp_path / side / "folder" / "same.xml").write_bytes(b"<a>1</a>")
        state = json.dumps({"x": 1, "y": "z"}).encode()
        (tmp_path / side / "folder" / "state.json.gz").write_bytes(gzip.compress(state, mtime=0))
    assert sameoutputs.compare("t", tmp_path / "base", tmp_path / "head") == (2, [], [])
    other = gzip.compress(json.dumps({"x": 2, "y": "z"}).encode(), mtime=0)
    (tmp_path / "head" / "folder" / "state.json.gz").write_bytes(other)
    (tmp_path / "head" / "folder" / "new.txt").write_bytes(b"")
    count, problems, explained = sameoutputs.compare("t", tmp_path / "base", tmp_path / "head")
    assert count == 3 and explained == []
    assert problems[0] == "t: folder/new.txt: only HEAD has it"
    assert problems[1].startswith("t: folder/state.json.gz: differs\n")
    assert (
        '- "x": 1,' in problems[1] and '+ "x": 2,' in problems[1]
    )  # (decompressed, a line a value)


def test_the_change_is_the_same_commit_each_time_even_where_git_lacks_a_blob(
    tmp_path: Path,
) -> None:
    site = site_repo(tmp_path / "site")
    commit(site.pristine, {"big.bin": b"x" * 100}, "2024-01-02T10:00:00")
    blob = git(site.pristine, "rev-parse", "HEAD:big.bin").decode().strip()
    (site.pristine / ".git/objects" / blob[:2] / blob[2:]).unlink()  # (a mirror's lacking blob)
    facts = sameoutputs.site_facts(site)
    assert facts.change.removed == "p2/index.html" and facts.change.edited == "p3/index.html"
    assert facts.change.moved_to == "p4/moved-index.html"
    commits = []
    for copy in ("one", "two"):
        sameoutputs.copy_checkout(site.pristine, tmp_path / copy)
        sameoutputs.commit_change(tmp_path / copy, facts.change)
        commits.append(git(tmp_path / copy, "rev-parse", "HEAD").decode())
        status = git(tmp_path / copy, "status", "--porcelain", "--", "p*")
        assert status == b""  # (everything of the change committed)
    assert commits[0] == commits[1]
    edited = (tmp_path / "one/p3/index.html").read_bytes()
    assert edited == PAGES["p3/index.html"].encode().replace(
        b"</main>", sameoutputs.EDIT + b"</main>"
    )
    assert (site.pristine / "p2/index.html").exists()  # (the checkout itself untouched)


def test_a_snapshot_holds_what_a_run_wrote_and_lists_what_it_deleted(tmp_path: Path) -> None:
    site = site_repo(tmp_path / "site")
    (site.pristine / ".gitignore").write_text("*.md\n")
    (site.pristine / "sitemap.xml").write_bytes(b"<urlset/>")
    (site.pristine / "p0/index.html.md").write_bytes(b"# twin")
    (site.pristine / "p5/index.html").unlink()
    sameoutputs.snapshot_tree(site.pristine, tmp_path / "snap" / "files")
    files = {
        p.relative_to(tmp_path / "snap/files").as_posix()
        for p in (tmp_path / "snap/files").rglob("*")
        if p.is_file()
    }
    assert files == {".gitignore", "sitemap.xml", "p0/index.html.md"}
    assert (tmp_path / "snap" / "deleted").read_text() == "p5/index.html\n"


def test_a_state_differing_by_what_dated_its_pages_alone_is_told_apart(tmp_path: Path) -> None:
    state = {"history": {"inputs": "a", "seen": "c0ffee"}, "pages": {"x": 1}}
    for side, inputs in (("base", "a"), ("head", "b")):
        state["history"]["inputs"] = inputs
        (tmp_path / side).mkdir()
        (tmp_path / side / "s.json.gz").write_bytes(gzip.compress(json.dumps(state).encode()))
    count, problems, explained = sameoutputs.compare("t", tmp_path / "base", tmp_path / "head")
    assert (count, problems) == (1, [])
    assert explained == ["t: s.json.gz: only history.inputs (what dated the pages)"]
    state["pages"]["x"] = 2  # (and anything else besides: a difference)
    (tmp_path / "head" / "s.json.gz").write_bytes(gzip.compress(json.dumps(state).encode()))
    count, problems, explained = sameoutputs.compare("t", tmp_path / "base", tmp_path / "head")
    assert len(problems) == 1 and explained == []
