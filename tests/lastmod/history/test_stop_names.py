"""The walk names the edits at its stops where it reduced their versions (history.stopnames):
the template pass reads and reduces none of them again; counted on real git repositories with
fixed dates."""

from __future__ import annotations

from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from gitutil import commit, make_repo, unix
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.git.run import Git
from sitemill.lastmod.fingerprint import digest
from sitemill.lastmod.history import _stopedits as stopedits
from sitemill.lastmod.history.contentdates import Reducing, date_by_content, read_file_versions
from sitemill.protocol import Precision, lastmod_from_timestamp
from sitemill.sinks import MemorySink
from sitemill.workers.workpool import WorkPool

BASE = "https://example.org/"
T1, T2, T3 = "2024-01-10 09:00:00", "2024-02-10 09:00:00", "2024-03-10 09:00:00"
POSTS = ("alpha", "beta", "gamma", "delta", "epsilon")


def blog(title: str = "Notes 1.0", edited: str = "", build: int = 0) -> dict[str, str]:
    """Five posts, each with teasers of the others, the site's ``title`` in theirs;
    ``edited``: a post whose text changed; ``build``: a build's number, in a comment."""
    pages = {}
    for post in POSTS:
        teasers = "".join(
            f'<article><h2><a href="/blog/{other}/">{other}</a></h2><a href="/blog/{other}/">'
            "Read more</a></article>"
            for other in POSTS
            if other != post
        )
        text = f"The {post} post{', edited' if post == edited else ''}."
        pages[f"blog/{post}/index.html"] = (
            f"<html><head><title>{post} - {title}</title></head><body><main><h1>{post}</h1>"
            f"<p>{text}</p>{teasers}</main><!-- build {build} --></body></html>\n"
        )
    return pages


def dated(repo: Path, pool: WorkPool | None = None) -> tuple[dict[str, int], dict[str, str]]:
    """The posts' content dates and the blob table of a first run, as jobs.treehistory dates."""
    paths = sorted(blog())
    fingerprint = partial(digest.fingerprint_reduced, base=BASE, memo=digest.PageMemo())
    current = {path: fingerprint(path, (repo / path).read_bytes())[0] for path in paths}
    reduce = partial(digest.reduce_file, base=BASE)
    found = read_file_versions(repo, paths)
    history = date_by_content(found, fingerprint, current, pool=pool, reducing=Reducing(reduce))
    return history.dates, history.blobs


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "site")
    commit(repo, blog(), T1)
    commit(repo, blog("Notes 1.1", edited="beta"), T2)  # (the theme's release, one post's)
    commit(repo, blog("Notes 1.1", edited="beta", build=3), T3)  # (no content)
    return repo


def test_the_template_pass_reads_and_reduces_no_version_the_walk_did(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each post's walk stops at T2, whose version it read, as the one before: the walk names
    # the edits there (a theme's on all, one post's own words). Before: the template pass
    # started a git of its own, read both versions around each stop again and reduced them a
    # second time.
    started: list[tuple[str, ...]] = []
    batch = Git.batch

    def counted_batch(self: Git, *args: str) -> Any:
        started.append(args)
        return batch(self, *args)

    reduced: Counter[bytes] = Counter()
    reduce_html = digest.reduce_html

    def counted(data: bytes, *args: Any, **kwargs: Any) -> str:
        reduced[data] += 1
        return reduce_html(data, *args, **kwargs)

    monkeypatch.setattr(Git, "batch", counted_batch)
    monkeypatch.setattr(digest, "reduce_html", counted)
    sink = MemorySink()
    build_from_tree(load_config({"base_url": BASE, "lastmod": "git", "workers": 1}), repo, sink)

    sitemap = sink.files["sitemap.xml"].decode()
    for post in POSTS:
        when = lastmod_from_timestamp(unix(T2 if post == "beta" else T1), Precision.DATETIME)
        assert f"<loc>{BASE}blog/{post}/</loc><lastmod>{when}</lastmod>" in sitemap
    assert [args for args in started if args[0] == "cat-file"] == [("cat-file", "--batch")]
    versions = {*blog().values(), *blog("Notes 1.1", edited="beta").values()}
    older = [count for data, count in reduced.items() if data.decode() in versions]
    assert len(older) == 2 * len(POSTS) and set(older) == {1}


def test_a_pool_names_the_same_edits(repo: Path) -> None:
    # The workers' names are those the parent would give: the same dates and blob table.
    alone = dated(repo)
    with WorkPool(2) as pool:
        assert dated(repo, pool) == alone


def test_a_page_edited_in_a_commit_of_its_own_is_named_nowhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A stop at a commit that changed fewer than BUSY pages is worth no name (history.probes):
    # the walk names none there either.
    repo = make_repo(tmp_path / "site")
    commit(repo, blog(), T1)
    commit(repo, blog(edited="beta"), T2)
    gamma = "blog/gamma/index.html"
    commit(repo, {gamma: blog(edited="gamma")[gamma]}, T3)
    named: list[str] = []
    names_of = stopedits.names_of

    def counted(newer: str, older: str, own: str = "") -> Any:
        named.append(own)
        return names_of(newer, older, own)

    monkeypatch.setattr(stopedits, "names_of", counted)
    dates, _ = dated(repo)
    assert dates["blog/beta/index.html"] == unix(T2) and dates[gamma] == unix(T3)
    assert named == []


def test_with_a_pool_the_stops_the_walk_left_are_named_by_its_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each post stops at its tip, whose reduction the walk did not make (the work tree's
    # fingerprints were given): the template pass names those stops in the pool's workers, with
    # the older versions' reductions the walk handed back. Before: the parent read and reduced
    # both versions of each stop, after the pool, and named them one by one.
    repo = make_repo(tmp_path / "site")
    commit(repo, blog(), T1)
    commit(repo, blog("Notes 1.1", edited="beta"), T2)
    alone = dated(repo)
    started: list[tuple[str, ...]] = []
    batch = Git.batch

    def counted_batch(self: Git, *args: str) -> Any:
        started.append(args)
        return batch(self, *args)

    with WorkPool(2) as pool:
        pool.map(len, ["started", "now"])  # (its workers forked before the count begins)
        monkeypatch.setattr(Git, "batch", counted_batch)
        assert dated(repo, pool) == alone
    assert alone[0] == {path: unix(T2 if "beta" in path else T1) for path in blog()}
    assert started == []  # (in this process; the workers read the blobs)


def test_a_first_run_reduces_no_version_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The theme's release renames every post's title at T2; beta's own words change at T3, a
    # commit of its own. beta's walk reduces its T2 version (the one before its tip) and stops
    # at T3, a stop worth no name there; the others stop at T2, a site-wide edit whose commit's
    # census names beta's edit at T2 too. Before: the walk handed back only the older version
    # of a stop it named, and the census reduced beta's T2 version a second time.
    repo = make_repo(tmp_path / "site")
    commit(repo, blog(), T1)
    commit(repo, blog("Notes 1.1"), T2)
    commit(repo, blog("Notes 1.1", edited="beta"), T3)
    paths = sorted(blog())
    fingerprint = partial(digest.fingerprint_reduced, base=BASE, memo=digest.PageMemo())
    current = {path: fingerprint(path, (repo / path).read_bytes())[0] for path in paths}
    reduced: Counter[tuple[bytes, str]] = Counter()
    reduce_html = digest.reduce_html

    def counted(data: bytes, *args: Any, **kwargs: Any) -> str:
        reduced[data, kwargs.get("url", "")] += 1
        return reduce_html(data, *args, **kwargs)

    monkeypatch.setattr(digest, "reduce_html", counted)
    reduce = partial(digest.reduce_file, base=BASE)
    found = read_file_versions(repo, paths)
    dates = date_by_content(found, fingerprint, current, reducing=Reducing(reduce)).dates

    assert dates == {path: unix(T3 if "beta" in path else T1) for path in paths}
    beta = blog("Notes 1.1")["blog/beta/index.html"].encode()
    assert reduced[beta, f"{BASE}blog/beta/index.html"] == 1  # (the walk's, named by the census)
    assert set(reduced.values()) == {1}, reduced.most_common(3)


def test_a_first_run_reduces_the_work_tree_s_pages_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each post stops at its tip (the theme's release, beta's own words), a commit the
    # template pass names in this process: the tip's blob is the work tree's page, which the
    # run read and reduced for its fingerprint. Before: the template pass reduced each tip a
    # second time (digest.PageMemo: the run's pages reduced, by their bytes).
    repo = make_repo(tmp_path / "site")
    commit(repo, blog(), T1)
    commit(repo, blog("Notes 1.1", edited="beta"), T2)
    reduced: Counter[tuple[bytes, str]] = Counter()
    reduce_markup = digest.reduction.reduce_markup

    def counted(data: bytes, *args: Any, **kwargs: Any) -> str:
        reduced[data, kwargs.get("url", "")] += 1
        return reduce_markup(data, *args, **kwargs)

    monkeypatch.setattr(digest.reduction, "reduce_markup", counted)
    sink = MemorySink()
    build_from_tree(load_config({"base_url": BASE, "lastmod": "git", "workers": 1}), repo, sink)

    sitemap = sink.files["sitemap.xml"].decode()
    for post in POSTS:
        when = lastmod_from_timestamp(unix(T2 if post == "beta" else T1), Precision.DATETIME)
        assert f"<loc>{BASE}blog/{post}/</loc><lastmod>{when}</lastmod>" in sitemap
    tips = {data.encode() for data in blog("Notes 1.1", edited="beta").values()}
    assert sum(count for (data, _), count in reduced.items() if data in tips) == len(POSTS)
    assert set(reduced.values()) == {1}, reduced.most_common(3)
