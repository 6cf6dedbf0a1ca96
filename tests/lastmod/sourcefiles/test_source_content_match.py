"""Where no convention answers, a built page's source is the one file whose text holds the
page's article text, clearly more than any other; a near tie, a weak match or a list page is
(): no source (docs/lastmod.md, rung 2)."""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from srcmaputil import build_site, prose, repo_view

from sitemill.lastmod.sourcefiles._contentmatch import TextIndex, page_words, source_words
from sitemill.lastmod.sourcefiles.conventions.base import RepoView
from sitemill.lastmod.sourcefiles.sourcemap import source_map

ALPHA, BETA, GAMMA = prose("alpha"), prose("beta"), prose("gamma")
SOURCES = {
    "build.py": "print('a generator no convention knows')",
    "notes/alpha.md": f"---\ntitle: Alpha\ntags: [x]\n---\n# Alpha\n\n{ALPHA[:200]} "
    f"[a link](https://example.org/alpha) **{ALPHA[200:300]}** {ALPHA[300:]}\n",
    "notes/beta.rst": f"Beta\n====\n\n.. note::\n\n   {BETA}\n",
    "notes/gamma.md": f"# Gamma\n\n{GAMMA}\n",
    "notes/gamma-copy.md": f"# Gamma (copy)\n\n{GAMMA} and one more line\n",
}


def test_a_page_no_convention_knows_is_found_by_its_text(tmp_path: Path) -> None:
    site = build_site(
        tmp_path / "out",
        {"2024/a-post.html": f"Alpha {ALPHA}", "b/index.html": f"<em>Beta</em> Note {BETA}"},
    )
    found = source_map(repo_view(SOURCES), "out", site)
    assert found.sources("2024/a-post.html") == ("notes/alpha.md",)
    assert found.sources("b/index.html") == ("notes/beta.rst",)


def test_a_near_tie_or_a_weak_match_names_no_source(tmp_path: Path) -> None:
    site = build_site(
        tmp_path / "out",
        {
            "gamma.html": GAMMA,  # in two sources alike
            "unrelated.html": prose("delta"),  # in none
            "short.html": ALPHA[:60],  # too few words to tell
        },
    )
    found = source_map(repo_view(SOURCES), "out", site)
    assert [found.sources(p) for p in ("gamma.html", "unrelated.html", "short.html")] == [
        (),
        (),
        (),
    ]


def test_list_pages_have_no_source_of_their_own(tmp_path: Path) -> None:
    pages = ["tags/alpha/index.html", "page/2/index.html", "blog/page/3/index.html"]
    pages += ["search.html", "404.html", "categories/x.html", "archives/index.html"]
    site = build_site(tmp_path / "out", dict.fromkeys(pages, ALPHA))
    found = source_map(repo_view(SOURCES), "out", site)
    assert {page: found.sources(page) for page in pages} == dict.fromkeys(pages, ())
    assert found.sources("alpha-itself.html") == ()  # not built: nothing to read


def test_the_site_root_is_a_wall(tmp_path: Path) -> None:
    outside = build_site(tmp_path / "elsewhere", {"alpha.html": ALPHA})
    site = tmp_path / "out"
    site.mkdir()
    (site / "linked.html").symlink_to(outside / "alpha.html")
    os.mkfifo(site / "fifo.html")
    found = source_map(repo_view(SOURCES), "out", site)
    assert found.sources("linked.html") == ()
    assert found.sources("fifo.html") == ()  # refused, never opened: no hang


def test_the_candidates_are_read_and_indexed_once(tmp_path: Path) -> None:
    reads: list[str] = []

    def read_text(path: str) -> str | None:
        reads.append(path)
        return SOURCES.get(path)

    pages = {f"p{n}.html": (ALPHA if n % 2 else BETA) for n in range(6)}
    site = build_site(tmp_path / "out", pages)
    found = source_map(RepoView(tuple(sorted(SOURCES)), read_text), "out", site)
    results = {found.sources(page) for page in pages}
    assert results == {("notes/alpha.md",), ("notes/beta.rst",)}
    assert sorted(reads) == sorted(set(reads))  # each file once, for all six pages


def test_markup_is_taken_off_both_sides() -> None:
    source = (
        "---\ntitle: Hidden front matter\n---\n<!-- a comment -->\n# Head *line*\n\n"
        "See [the docs](https://example.org/docs 'title') and {{ site.name }}.\n\n"
        "[ref]: https://example.org/ref\n"
    )
    assert source_words(source) == ["head", "line", "see", "the", "docs", "and"]
    page = (
        b"<html><head><title>T</title></head><body><nav>menu</nav><main><h1>Head "
        b"<em>line</em></h1><p>See <a href='/docs'>the docs</a> and.</p></main></body></html>"
    )
    assert page_words(page) == ["t", "head", "line", "see", "the", "docs", "and"]


@pytest.mark.parametrize("runner_up", [0.55, 0.7])
def test_a_clear_margin_is_needed(runner_up: float) -> None:
    page = prose("page", 400).split()
    share = int(len(page) * runner_up)
    index = TextIndex([("best.md", page), ("second.md", page[:share])])
    assert index.best(page) == ("best.md" if runner_up < 0.6 else None)


def test_pages_asked_from_several_threads_share_one_index(tmp_path: Path) -> None:
    reads: list[str] = []

    def read_text(path: str) -> str | None:
        reads.append(path)
        time.sleep(0.01)  # a slow reader (git cat-file): the threads meet while indexing
        return SOURCES.get(path)

    pages = {f"p{n}.html": ALPHA for n in range(8)}
    site = build_site(tmp_path / "out", pages)
    found = source_map(RepoView(tuple(sorted(SOURCES)), read_text), "out", site)
    with ThreadPoolExecutor(8) as pool:
        results = set(pool.map(found.sources, pages))
    assert results == {("notes/alpha.md",)}
    assert sorted(reads) == sorted(set(reads))


def test_a_page_showing_a_source_that_has_its_own_page_names_no_source(tmp_path: Path) -> None:
    # A blog's archive or home page shows the newest post in full and lists the others: the
    # post's history is not the list's. Only where the post's own page is built.
    files = {
        "mkdocs.yml": "site_name: S\n",
        "docs/alpha.md": f"# Alpha\n\n{ALPHA}\n",
        "docs/beta.md": f"# Beta\n\n{BETA}\n",
    }
    site = build_site(
        tmp_path / "site",
        {
            "alpha/index.html": f"Alpha {ALPHA}",
            "news/2024/index.html": f"Alpha {ALPHA} Beta Gamma",
            "moved/beta.html": f"Beta {BETA}",  # beta's own page is not where mkdocs puts it
        },
    )
    found = source_map(repo_view(files), "site", site)
    assert found.sources("alpha/index.html") == ("docs/alpha.md",)
    assert found.sources("news/2024/index.html") == ()
    assert found.sources("moved/beta.html") == ("docs/beta.md",)
