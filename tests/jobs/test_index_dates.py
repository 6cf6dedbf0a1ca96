"""An index child's <lastmod> is when its bytes last changed (docs/output.md, the protocol's
rule), not its newest page's: a tree in git dates a child that changed by HEAD's commit, keeps
the date of one whose bytes the state remembers, and a second run writes nothing."""

from __future__ import annotations

import gzip
import json
import re
import shutil
from pathlib import Path

from conftest import BASE_URL
from gitutil import commit, git, make_repo
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.filenames.outputs import STATE_NAME
from sitemill.report import Report
from sitemill.sinks import LocalDirSink
from xsd import assert_valid_sitemaps

OLD, ONE, TWO, THREE = (
    "2019-05-01T00:00:00+00:00",
    "2020-01-01T00:00:00+00:00",
    "2021-06-01T00:00:00+00:00",
    "2022-09-01T00:00:00+00:00",
)
NOINDEX = '<meta name="robots" content="noindex">'


def page(title: str, head: str = "") -> str:
    body = f"<main><p>{title} words only here</p></main>"
    return f"<!doctype html><html><head><title>{title}</title>{head}</head><body>{body}</body>"


def sections(*names: str, count: int = 4) -> dict[str | bytes, str | bytes | None]:
    return {f"{name}/p{n}.html": page(f"{name} {n}") for name in names for n in range(count)}


def build(site: Path, out: Path) -> Report:
    config = load_config({"base_url": BASE_URL, "max_urls": 5, "shard_fill": 4})
    return build_from_tree(config, site, LocalDirSink(out))


def twice(site: Path, out: Path) -> dict[str, str]:
    """A run, then a second one that writes nothing; the index's dates by child URL."""
    build(site, out)
    before = {path.name: path.read_bytes() for path in out.iterdir() if path.is_file()}
    again = build(site, out)
    assert again.result.written == [] and not again.state_written
    assert {path.name: path.read_bytes() for path in out.iterdir() if path.is_file()} == before
    assert_valid_sitemaps(out, BASE_URL)
    return index_dates(out)


def index_dates(out: Path) -> dict[str, str]:
    text = (out / "sitemap.xml").read_text()
    return dict(re.findall(r"<loc>(.*?)</loc><lastmod>(.*?)</lastmod>", text))


def child_of(out: Path, url: str) -> str:
    """The child URL of the index whose sitemap lists ``url``."""
    for child in index_dates(out):
        if f"<loc>{url}</loc>" in (out / child.rsplit("/", 1)[1]).read_text():
            return child
    raise AssertionError(f"{url} is in no child")


def test_a_removal_moves_its_childs_date_forward_never_back(tmp_path: Path) -> None:
    repo, out = make_repo(tmp_path / "repo"), tmp_path / "out"
    commit(repo, sections("a", "b", "c"), ONE)
    commit(repo, {"b/p1.html": page("b 1, newer")}, TWO)  # the newest page of its child
    first = twice(repo, out)
    child = child_of(out, f"{BASE_URL}b/p1.html")
    assert first == dict.fromkeys(first, TWO)  # a first run: HEAD's date for every child
    commit(repo, {"b/p1.html": None}, THREE)
    second = twice(repo, out)
    # Today's rule gave the newest page left: ONE, a date that moved back.
    assert second == first | {child: THREE}


def test_a_page_added_with_old_evidence_moves_its_childs_date(tmp_path: Path) -> None:
    repo, out = make_repo(tmp_path / "repo"), tmp_path / "out"
    commit(repo, sections("a", "b", count=3) | {"a/p9.html": page("a 9", NOINDEX)}, OLD)
    commit(repo, {"a/p0.html": page("a 0, newer")}, ONE)
    first = twice(repo, out)
    commit(repo, {"a/p9.html": page("a 9")}, TWO)  # no longer noindex: its text is of OLD
    second = twice(repo, out)
    child = child_of(out, f"{BASE_URL}a/p9.html")
    assert (
        f"<loc>{BASE_URL}a/p9.html</loc><lastmod>{OLD}</lastmod>"
        in (out / child.rsplit("/", 1)[1]).read_text()
    )
    # Today's rule kept ONE, the newest page's: a crawler never fetched the child again.
    assert second == first | {child: TWO}


def test_a_rewrite_with_the_same_bytes_keeps_every_date(tmp_path: Path) -> None:
    repo, out = make_repo(tmp_path / "repo"), tmp_path / "out"
    commit(repo, sections("a", "b", "c"), ONE)
    first = twice(repo, out)
    # A theme change: every page's bytes, no reader's text; the output folder built anew.
    themed = {
        name: str(text).replace("<main>", '<main class="v2">')
        for name, text in sections("a", "b", "c").items()
    }
    commit(repo, themed, TWO)
    for name in [path.name for path in out.iterdir() if path.name != STATE_NAME]:
        (out / name).unlink()
    assert twice(repo, out) == first
    state = json.loads(gzip.decompress((out / STATE_NAME).read_bytes()))
    assert {BASE_URL + name: date for name, date in state["written"].items()} == first


def test_a_fresh_clone_with_the_committed_state_keeps_the_dates(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    commit(repo, sections("a", "b", "c"), ONE)
    twice(repo, repo)  # the Action: the sitemaps and the state beside the pages, committed
    commit(repo, {"a/p2.html": None}, TWO)
    dated = twice(repo, repo)
    commit(repo, {}, TWO.replace("06-01", "06-02"), "the sitemaps")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    shutil.rmtree(repo)
    commit(clone, {"b/p1.html": page("b 1, edited")}, THREE)
    edited = child_of(clone, f"{BASE_URL}b/p1.html")
    # The child that lost a/p2 keeps TWO (its newest page is of ONE: today's rule said ONE).
    assert twice(clone, clone) == dated | {edited: THREE}
    assert TWO in dated.values() and ONE in dated.values()


def test_the_state_of_an_earlier_sitemill_moves_no_date_of_a_child_the_folder_holds(
    tmp_path: Path,
) -> None:
    repo, out = make_repo(tmp_path / "repo"), tmp_path / "out"
    commit(repo, sections("a", "b", "c"), ONE)
    commit(repo, {"b/p1.html": page("b 1, newer")}, TWO)
    commit(repo, {}, THREE)
    build(repo, out)
    # An earlier sitemill kept no digest and no date: its index said each child's newest page,
    # and the folder holds the children it wrote.
    state = json.loads(gzip.decompress((out / STATE_NAME).read_bytes()))
    del state["digests"], state["written"]
    (out / STATE_NAME).write_bytes(gzip.compress(json.dumps(state).encode()))
    dates = twice(repo, out)
    newer = child_of(out, f"{BASE_URL}b/p1.html")
    assert dates == dict.fromkeys(dates, ONE) | {newer: TWO}  # (not THREE: HEAD's, once)
