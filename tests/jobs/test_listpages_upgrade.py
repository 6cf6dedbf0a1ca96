"""Fingerprint version 9 (issue 79: a list page's content is which pages it lists): a state of
version 8, no longer computable (issue 80), takes the evidence ladder on the upgrade; then a listed
post's date re-dates its list page no more, in a tree and in a git history, while a post added,
removed or reordered still does."""

from __future__ import annotations

from pathlib import Path

from gitutil import commit, make_repo, unix
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.filenames.outputs import STATE_NAME
from sitemill.lastmod.fingerprint.digest import FINGERPRINT_VERSION, fingerprint_html
from sitemill.protocol import Precision, lastmod_from_timestamp
from sitemill.sinks import MemorySink
from sitemill.state.parse import parse_state
from upgrades import BASE, as_version, run
from upgrades import sitemap_lastmods as lastmods
from upgrades import write_pages as write

T1, T2, T3, T4 = 1_700_000_000, 1_710_000_000, 1_720_000_000, 1_730_000_000
POSTS = {
    "kelly": ("Optimal Betting and the Kelly Criterion", "2015-11-15 16:13"),
    "normal": ("Sampling from a Normal Distribution", "2015-11-28 21:57"),
    "mcmc": ("Markov Chain Monte Carlo Methods", "2015-12-13 15:05"),
}


def tag_page(listed: list[str], dates: dict[str, str] | None = None) -> bytes:
    """A Nikola category page listing the posts ``listed``, each with its date (``dates``:
    others than POSTS')."""
    entries = "".join(
        f'<li><time class="listdate">{(dates or {}).get(name, POSTS[name][1])}</time>'
        f'<a href="../../posts/{name}/" class="listtitle">{POSTS[name][0]}</a></li>'
        for name in listed
    )
    return (
        "<!DOCTYPE html><html><head><title>Blog | Posts about betting</title></head><body>"
        '<div role="main"><article class="tagpage"><header><h1>Posts about betting</h1></header>'
        f'<ul class="postlist">{entries}</ul></article></div></body></html>\n'
    ).encode()


def post(name: str) -> bytes:
    return (
        f"<!DOCTYPE html><html><head><title>Blog | {POSTS[name][0]}</title></head><body>"
        f"<main><article><h1>{POSTS[name][0]}</h1><p>What the post says about {name}.</p>"
        "</article></main></body></html>\n"
    ).encode()


def pages(listed: list[str], dates: dict[str, str] | None = None) -> dict[str, bytes]:
    return {
        "categories/betting/index.html": tag_page(listed, dates),
        **{f"posts/{name}/index.html": post(name) for name in POSTS},
    }


def at(stamp: int) -> str:
    return lastmod_from_timestamp(stamp, Precision.DATETIME)


def test_a_state_of_version_8_takes_the_ladder_then_a_listed_date_moves_nothing(
    tmp_path: Path,
) -> None:
    site, out = tmp_path / "public", tmp_path / "out"
    listed = ["kelly", "normal"]
    write(site, pages(listed), T1, spread=True)
    run(site, out)
    first = lastmods((out / "sitemap.xml").read_text())
    assert first["categories/betting/"] == at(T1)
    as_version(site, out, 8)
    data = (site / "categories/betting/index.html").read_bytes()
    url = BASE + "categories/betting/index.html"

    write(site, pages(listed), T2, spread=False)  # (a CI build: every page anew, none changed)
    report = run(site, out)
    assert lastmods((out / "sitemap.xml").read_text()) == {}
    assert report.dates == {"no date (file times are one build's)": 4}
    state = parse_state((out / STATE_NAME).read_bytes())
    assert state.fingerprint_version == FINGERPRINT_VERSION
    assert state.pages["categories/betting/index.html"].fingerprint == fingerprint_html(
        data, url=url
    )

    # A listed post re-dated: its date on the list page is the post's.
    write(site, pages(listed, {"kelly": "2016-01-02 10:00"}), T3, spread=False)
    report = run(site, out)
    assert lastmods((out / "sitemap.xml").read_text()) == {}
    assert report.dates == {"no date (unchanged, none remembered)": 4}

    # A post added to the list: what the page lists changed.
    write(site, pages([*listed, "mcmc"], {"kelly": "2016-01-02 10:00"}), T4, spread=False)
    report = run(site, out)
    assert lastmods((out / "sitemap.xml").read_text()) == {"categories/betting/": at(T4)}
    assert report.dates == {"no date (unchanged, none remembered)": 3, "content changed": 1}


def git_dates(repo: Path) -> dict[str, str]:
    sink = MemorySink()
    build_from_tree(load_config({"base_url": BASE, "lastmod": "git"}), repo, sink)
    return lastmods(sink.files["sitemap.xml"].decode())


def iso(when: str) -> str:
    return at(unix(when))


def test_in_a_git_history_a_listed_date_moves_nothing_and_the_list_itself_does(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "site")
    page = "categories/betting/index.html"
    files = {name: data.decode() for name, data in pages(["kelly", "normal"]).items()}
    commit(repo, files, "2024-01-10 09:00:00")
    # The posts re-dated (Nikola prints each post's date on its tag pages): the list is the same.
    moved = {"kelly": "2016-01-02 10:00", "normal": "2016-01-03 11:00"}
    commit(repo, {page: tag_page(["kelly", "normal"], moved).decode()}, "2024-02-20 10:00:00")
    assert git_dates(repo)["categories/betting/"] == iso("2024-01-10 09:00:00")
    # Reordered: the list's order is its content.
    commit(repo, {page: tag_page(["normal", "kelly"], moved).decode()}, "2024-03-30 11:00:00")
    assert git_dates(repo)["categories/betting/"] == iso("2024-03-30 11:00:00")
    # One removed.
    commit(repo, {page: tag_page(["kelly"], moved).decode()}, "2024-05-05 12:00:00")
    assert git_dates(repo)["categories/betting/"] == iso("2024-05-05 12:00:00")


def list_of_teasers(host: str, excerpt: str = "What the meetup was about.") -> str:
    """A Zola list page whose teasers link to the posts by the site's host (``host``)."""
    articles = "".join(
        f'<article class="post"><header><h1><a href="{host}posts/{name}/">{POSTS[name][0]}</a>'
        f"</h1><span>{POSTS[name][1][:10]}</span></header><p>{excerpt}</p>"
        f'<a href="{host}posts/{name}/">Read more...</a></article>'
        for name in ("kelly", "normal")
    )
    return (
        "<!DOCTYPE html><html><head><title>Desert Rust</title></head><body>"
        f'<nav><a href="{host}">Home</a></nav><main><div class="posts">{articles}</div></main>'
        "</body></html>\n"
    )


def meetup(name: str, host: str) -> str:
    """A post titled by a link to itself, whose text links to "mcmc" (itself, on that page)."""
    return (
        f"<!DOCTYPE html><html><head><title>{POSTS[name][0]}</title></head><body>"
        f'<nav><a href="{host}">Home</a></nav><main><article>'
        f'<h1><a href="{host}posts/{name}/">{POSTS[name][0]}</a></h1>'
        f'<p>What the post says about {name}, with <a href="{host}posts/mcmc/">a link</a>.</p>'
        "</article></main></body></html>\n"
    )


def meetups(host: str) -> dict[str, str]:
    return {
        "index.html": list_of_teasers(host),
        **{f"posts/{name}/index.html": meetup(name, host) for name in POSTS},
    }


def test_a_move_of_the_sites_host_moves_no_list_page(tmp_path: Path) -> None:
    # (desert-rustaceans: every absolute link re-pointed from its old host to its new one; the
    # list pages' teasers named the old host, which version 8 read as no teaser: the excerpts
    # counted before the move and not after it; "mcmc" links to itself twice at the old host, its
    # title and a sentence: both no link after the move)
    repo = make_repo(tmp_path / "site")
    commit(repo, meetups("https://rust.example.org/"), "2024-01-10 09:00:00")
    commit(repo, meetups(BASE), "2024-02-20 10:00:00")
    dates = git_dates(repo)
    assert dates[""] == iso("2024-01-10 09:00:00")
    assert set(dates.values()) == {iso("2024-01-10 09:00:00")}
    # What the list lists still moves it: a teaser retitled.
    edited = list_of_teasers(BASE).replace(POSTS["kelly"][0], "Kelly, retitled", 1)
    commit(repo, {"index.html": edited}, "2024-03-30 11:00:00")
    assert git_dates(repo)[""] == iso("2024-03-30 11:00:00")
