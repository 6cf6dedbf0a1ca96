"""url_style = "auto", the default: the style most of the pages' own canonicals are written in
(10 pages or more, else directory), decided once and kept in the state; a style the
configuration sets always wins (docs/pages.md, URL style)."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest

from conftest import write_site
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.filenames.outputs import STATE_NAME
from sitemill.github.summary import render_summary
from sitemill.html.facts import PageFacts
from sitemill.report import Report
from sitemill.robots.rules import RobotsRules
from sitemill.rules import reads_page
from sitemill.sinks import MemorySink
from sitemill.state.model import State, dump_state
from sitemill.state.parse import parse_state
from sitemill.urls import UrlStyle
from sitemill.urlstyle import MIN_VOTES, StyleDecision, StyleVotes

BASE = "https://example.com/"
CLEAN, DIRECTORY, FILE = UrlStyle.CLEAN, UrlStyle.DIRECTORY, UrlStyle.FILE


def page(canonical: str | None, title: str = "t") -> str:
    link = "" if canonical is None else f'<link rel="canonical" href="{canonical}">'
    return (
        f"<!doctype html><html><head>{link}<title>{title}</title></head><body>{title}</body></html>"
    )


def jekyll(count: int) -> dict[str, str]:
    """Jekyll (and Next.js's export) writes x.html and declares x."""
    return {f"posts/p{n}.html": page(f"{BASE}posts/p{n}") for n in range(count)}


def docusaurus(count: int) -> dict[str, str]:
    """Docusaurus writes x/index.html and declares /x, without the final slash."""
    return {f"docs/d{n}/index.html": page(f"/docs/d{n}") for n in range(count)}


def build(site: Path, sink: MemorySink, **values: Any) -> Report:
    config = load_config({"base_url": BASE, "lastmod": "mtime", **values})
    return build_from_tree(config, site, sink)


def locs(sink: MemorySink) -> list[str]:
    return re.findall(r"<loc>(.*?)</loc>", sink.files["sitemap.xml"].decode())


def kept(sink: MemorySink) -> Any:
    return json.loads(gzip.decompress(sink.files[STATE_NAME])).get("url_style")


@pytest.mark.parametrize(
    ("path", "canonical", "styles"),
    [
        ("a/b.html", "https://example.com/a/b", (CLEAN,)),
        ("a/b.html", "b", (CLEAN,)),  # relative, resolved against the page
        ("a/b.html", "https://example.com/a/b.html", (DIRECTORY, FILE)),
        ("a/index.html", "https://example.com/a/", (DIRECTORY, CLEAN)),
        ("a/index.html", "https://example.com/a", (CLEAN,)),  # no final slash
        ("a/index.html", "https://example.com/a/index.html", (FILE,)),
        ("index.html", "https://example.com/", (DIRECTORY, CLEAN)),
        ("index.html", "https://example.com", (DIRECTORY, CLEAN)),
        ("a/caf%C3%A9.html", "/a/caf%25C3%25A9", (CLEAN,)),  # a file named with a "%"
        ("a/café.html", "/a/caf%C3%A9", (CLEAN,)),
        ("a/b.html", "https://example.com/a/c", ()),  # another page
        ("a/b.html", "https://example.com/a/b?x=1", ()),
        ("a/b.html", "https://other.example/a/b", ()),
        ("a/b.html", "mailto:a@example.com", ()),
        ("a/b.htm", "https://example.com/a/b", ()),  # clean drops .html only
    ],
)
def test_a_page_votes_for_the_styles_its_canonical_is_written_in(
    path: str, canonical: str, styles: tuple[UrlStyle, ...]
) -> None:
    votes = StyleVotes(BASE)
    assert votes.styles_of(path, PageFacts(canonical=canonical)) == styles


def test_a_site_below_a_folder_root() -> None:
    votes = StyleVotes("https://example.com/docs/")
    assert votes.styles_of("index.html", PageFacts(canonical="https://example.com/docs")) == (
        DIRECTORY,
        CLEAN,
    )
    assert votes.styles_of("a.html", PageFacts(canonical="https://example.com/a")) == ()


def test_ties_go_to_directory_then_clean() -> None:
    votes = StyleVotes(BASE)
    for n in range(MIN_VOTES):
        votes.see(f"d{n}/index.html", PageFacts(canonical=f"/d{n}/"))  # directory and clean
    assert votes.decision() == StyleDecision(DIRECTORY, MIN_VOTES, MIN_VOTES)
    votes.see("x.html", PageFacts(canonical="/x"))
    assert votes.decision() == StyleDecision(CLEAN, MIN_VOTES + 1, MIN_VOTES + 1)


def test_a_jekyll_tree_gets_clean_urls(tmp_path: Path) -> None:
    sink = MemorySink()
    site = write_site(tmp_path / "site", {**jekyll(12), "index.html": page("/")})
    report = build(site, sink)
    assert report.url_style == StyleDecision(CLEAN, 13, 13)
    assert "https://example.com/posts/p0" in locs(sink)
    assert not any(loc.endswith(".html") for loc in locs(sink))
    assert report.url_style.line() == "url style: clean (13 of 13 pages' own canonicals say so)"
    assert not [line for line in report.warnings if "url_style" in line]
    assert kept(sink) == {"style": "clean", "votes": 13, "pages": 13}


def test_a_docusaurus_tree_gets_clean(tmp_path: Path) -> None:
    sink = MemorySink()
    report = build(write_site(tmp_path / "site", docusaurus(11)), sink)
    assert report.url_style == StyleDecision(CLEAN, 11, 11, unslashed=11)
    assert "https://example.com/docs/d0/" in locs(sink)  # (served at /x/: hosts redirect /x)


def test_fewer_than_ten_votes_give_directory_until_ten_decide(tmp_path: Path) -> None:
    sink = MemorySink()
    files = {**jekyll(MIN_VOTES - 1), **{f"plain{n}.html": page(None) for n in range(20)}}
    site = write_site(tmp_path / "site", files)
    report = build(site, sink)
    assert report.url_style == StyleDecision(DIRECTORY, 0, MIN_VOTES - 1)
    assert "https://example.com/posts/p0.html" in locs(sink)
    assert "fewer than the 10 auto needs to decide" in report.url_style.line()
    # kept as it is (a shard's run renders by it), but the next whole run decides again
    assert kept(sink) == {"style": "directory", "votes": 0, "pages": MIN_VOTES - 1}
    write_site(site, jekyll(MIN_VOTES))
    assert build(site, sink).url_style == StyleDecision(CLEAN, MIN_VOTES, MIN_VOTES)
    assert "https://example.com/posts/p0" in locs(sink)


def test_the_decision_is_kept_when_most_pages_go(tmp_path: Path) -> None:
    sink = MemorySink()
    site = write_site(tmp_path / "site", jekyll(12))
    assert build(site, sink).url_style == StyleDecision(CLEAN, 12, 12)
    for n in range(2, 12):
        (site / f"posts/p{n}.html").unlink()
    write_site(site, {f"old{n}.html": page(f"/old{n}.html") for n in range(5)})
    report = build(site, sink)  # 2 pages vote clean, 5 directory and file: too few to decide
    assert report.url_style == StyleDecision(CLEAN, 12, 12, kept=True)
    assert "https://example.com/old0" in locs(sink)
    assert report.url_style.line().startswith("url style: clean (kept from an earlier run")
    assert kept(sink) == {"style": "clean", "votes": 12, "pages": 12}


def test_a_style_set_wins_and_warns_when_the_pages_disagree(tmp_path: Path) -> None:
    sink = MemorySink()
    report = build(write_site(tmp_path / "site", jekyll(12)), sink, url_style="directory")
    assert report.url_style is None
    assert "https://example.com/posts/p0.html" in locs(sink)
    assert [line for line in report.warnings if 'set url_style = "clean"' in line]
    assert kept(sink) is None  # (nothing decided)
    # a state that kept another decision does not move a style the configuration sets
    state = parse_state(sink.files[STATE_NAME])
    state.url_style = StyleDecision(FILE, 12, 12)
    sink.files[STATE_NAME] = dump_state(state)
    build(tmp_path / "site", sink, url_style="clean")
    assert "https://example.com/posts/p0" in locs(sink)


def test_without_a_state_each_run_decides(tmp_path: Path) -> None:
    sink = MemorySink()
    report = build(write_site(tmp_path / "site", jekyll(12)), sink, lastmod="none")
    assert report.url_style == StyleDecision(CLEAN, 12, 12)
    assert STATE_NAME not in sink.files


def test_the_state_keeps_a_decision_and_refuses_anything_else() -> None:
    for decision in (StyleDecision(CLEAN, 142, 150), StyleDecision(DIRECTORY, 0, 3)):
        assert parse_state(dump_state(State(url_style=decision))).url_style == decision
    for value in (
        {"style": "auto", "votes": 12, "pages": 12},
        {"style": "pretty", "votes": 12, "pages": 12},
        {"style": "clean", "votes": True, "pages": 12},
        {"style": "clean", "votes": 13, "pages": 12},
        {"style": "clean", "votes": -1, "pages": 12},
        "clean",
    ):
        document = {"format": "sitemill-state", "version": 1, "pages": {}, "url_style": value}
        data = gzip.compress(json.dumps(document).encode())
        assert parse_state(data).url_style is None, value


def test_robots_txt_lets_auto_read_a_page_allowed_in_any_style() -> None:
    robots = RobotsRules.parse("User-agent: *\nDisallow: /*.html$\n")
    auto = load_config({"base_url": BASE})
    assert reads_page(auto, robots, "a/b.html")  # /a/b is allowed: read, then decided
    assert not reads_page(load_config({"base_url": BASE, "url_style": "file"}), robots, "a/b.html")


def test_the_action_summary_says_which_style_and_why(tmp_path: Path) -> None:
    sink = MemorySink()
    report = build(write_site(tmp_path / "site", jekyll(12)), sink)
    text = render_summary(report, ["sitemap.xml"], None, "commit is false", [])
    assert "- url style: clean (12 of 12 pages' own canonicals say so)" in text.splitlines()
