"""textoracle.py's reading (trafilatura's main text, its targets, JSON-LD less dates) and run.py's
site folder, on real git repositories with fixed dates. Run by hand, as the oracle is (not part
of ``make test``; trafilatura is the realsites extra):

    .venv/bin/python -m pytest -q -p no:cacheprovider -n 0 benchmarks/realsites/test_textoracle.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent / "tests"))

pytest.importorskip("trafilatura")

import textoracle  # noqa: E402

import run  # noqa: E402
from gitutil import commit, make_repo, unix  # noqa: E402

DAY1, DAY2 = "2024-01-01T10:00:00", "2024-02-01T10:00:00"
BASE = "https://example.org/"
SITEMILL = str(Path(sys.executable).with_name("sitemill"))
TEXT = " ".join(
    f"Sentence {n} of the article says something a reader would read closely." for n in range(12)
)


def page(
    text: str = TEXT, menu: str = "Home", link: str = "/a/", ld: str = "", footer: str = "2024"
) -> str:
    script = f'<script type="application/ld+json">{ld}</script>' if ld else ""
    return (
        f"<!doctype html><html><head><title>Page</title>{script}</head><body>"
        f'<nav><ul><li><a href="/">{menu}</a></li><li><a href="/b/">Blog</a></li></ul></nav>'
        f'<main><article><h1>A page</h1><p>{text}</p><p>See <a href="{link}">the other'
        " page</a> for more of what this paragraph is about, in more words.</p></article></main>"
        f"<footer><p>Copyright {footer}</p></footer></body></html>"
    )


def dates(repo: Path) -> dict[str, int | None]:
    return {path: d.time for path, d in textoracle.date_pages(repo, BASE).items()}


def test_a_menu_or_footer_edit_is_no_change(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    commit(repo, {"p.html": page()}, DAY1)
    commit(repo, {"p.html": page(menu="Start", footer="2025")}, DAY2)
    assert dates(repo)["p.html"] == unix(DAY1)


def test_an_article_edit_is_a_change(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    commit(repo, {"p.html": page()}, DAY1)
    commit(repo, {"p.html": page(text=TEXT.replace("closely", "twice"))}, DAY2)
    assert dates(repo)["p.html"] == unix(DAY2)


def test_a_target_in_the_text_is_content(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    commit(repo, {"p.html": page()}, DAY1)
    commit(repo, {"p.html": page(link="/c/")}, DAY2)
    assert dates(repo)["p.html"] == unix(DAY2)
    # one target however spelled: a folder and its index.html
    assert textoracle.one_target("a/index.html", BASE) == textoracle.one_target("/a/", BASE)


def test_json_ld_counts_less_its_dates(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    old = '{"@type": "Article", "headline": "A page", "dateModified": "2024-01-01"}'
    new = '{"headline": "A page", "@type": "Article", "dateModified": "2024-02-01"}'
    commit(repo, {"p.html": page(ld=old), "q.html": page(ld=old)}, DAY1)
    other = new.replace("A page", "Another page")
    commit(repo, {"p.html": page(ld=new), "q.html": page(ld=other)}, DAY2)
    assert dates(repo) == {"p.html": unix(DAY1), "q.html": unix(DAY2)}


def test_run_measures_a_site_in_a_folder_of_its_branch(tmp_path: Path) -> None:
    # eleventy (dat-ecosystem/blog): the site is built into docs/ of main, the source beside it
    repo = make_repo(tmp_path / "data" / "blog")
    commit(repo, {"docs/p.html": page(), "src/p.md": "# A page"}, DAY1)
    commit(repo, {"docs/p.html": page(footer="2025"), "src/p.md": "# A page!"}, DAY2)
    site = {"name": "blog", "repo": "x/blog", "commit": "", "base_url": BASE, "subdir": "docs"}
    results, not_measured = run.measure_sites(
        [site], tmp_path / "data", SITEMILL, readings=("v6", "text")
    )
    assert not_measured == {}
    assert results[0]["readings"]["text"]["pages"] == 1  # type: ignore[index]
    assert results[0]["readings"]["text"]["same"] == 1  # type: ignore[index]
    assert results[0]["readings"]["v6"]["same"] == 1  # type: ignore[index]


def test_a_cached_reading_is_read_back_and_a_new_commit_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # --oracle-cache: the readings made ahead of a count (--warm-cache) are what the count uses,
    # the same figures; a commit the cache has not seen is read
    repo = make_repo(tmp_path / "data" / "blog")
    commit(repo, {"p.html": page(), "q.html": page(menu="Start")}, DAY1)
    commit(repo, {"p.html": page(text=TEXT + " One more."), "q.html": page(menu="Go")}, DAY2)
    site = {"name": "blog", "repo": "x/blog", "commit": "", "base_url": BASE}
    cache, readings = tmp_path / "cache", ("v6", "text")
    fresh, _ = run.measure_sites([site], tmp_path / "data", SITEMILL, readings=readings)
    assert run.warm_cache([site], tmp_path / "data", readings, cache) == 0
    assert sorted(path.name.split("-")[1] for path in cache.iterdir()) == ["text", "v6"]
    read: list[str] = []
    monkeypatch.setattr(run, "date_with", lambda reading, *_: read.append(reading))
    cached, not_measured = run.measure_sites(
        [site], tmp_path / "data", SITEMILL, readings=readings, cache=cache
    )
    assert not_measured == {} and read == []
    for result in (fresh[0], cached[0]):
        for reading in readings:
            assert result["readings"][reading]["later"] == 0  # type: ignore[index]
            assert result["readings"][reading]["same"] == 2  # type: ignore[index]
        result["readings"] = {  # type: ignore[index]
            reading: {key: value for key, value in figures.items() if key != "seconds"}
            for reading, figures in result["readings"].items()  # type: ignore[attr-defined]
        }
    timing = ("sitemill_seconds", "sitemill_cpu_seconds", "oracle_seconds", "sitemill_said")
    assert {k: v for k, v in fresh[0].items() if k not in timing} == {
        k: v for k, v in cached[0].items() if k not in timing
    }
    commit(repo, {"p.html": page(text=TEXT + " And another.")}, "2024-03-01T10:00:00")
    run.measure_sites([site], tmp_path / "data", SITEMILL, readings=("v6",), cache=cache)
    assert read == ["v6"]  # (the new head: read again, stubbed here)


def test_a_page_moved_into_the_site_folder_keeps_its_history(tmp_path: Path) -> None:
    # eleventy (dat-ecosystem/blog): "_site -> docs" moved every page into the folder GitHub
    # Pages serves; a reading of docs/ alone saw 76 pages added by that commit
    repo = make_repo(tmp_path / "data" / "blog")
    commit(repo, {"_site/p.html": page()}, DAY1)
    commit(repo, {"_site/p.html": None, "docs/p.html": page(footer="2025")}, DAY2)
    site = {"name": "blog", "repo": "x/blog", "commit": "", "base_url": BASE, "subdir": "docs"}
    results, not_measured = run.measure_sites(
        [site], tmp_path / "data", SITEMILL, readings=("v6", "text")
    )
    assert not_measured == {}
    for reading in ("v6", "text"):
        assert results[0]["readings"][reading]["same"] == 1  # type: ignore[index]
    folder = tmp_path / "data" / "blog" / "docs"
    assert textoracle.date_pages(folder, BASE)["p.html"].time == unix(DAY1)


def test_targets_resolve_against_the_page_and_a_permalink_is_none() -> None:
    # metro: trafilatura given the URL read a heading's "#a" as the site's root and "../x/"
    # from the root; the page's own address is what a browser resolves them against
    html = page(link="../x/").replace(
        "<h1>A page</h1>", '<h1 id="a">A page <a href="#a">#</a></h1>'
    )
    key = textoracle.text_key(html.encode(), "https://example.org/p/q/")
    assert key.split("\n")[1].split("\x1f") == ["https://example.org/p/x/"]
