"""A move of the site's host and base path is one edit (issue 79, cluster 7): a deploy that
re-points every internal absolute link, those to the page itself among them, moves no date.
Shaped like a meetup site whose posts each stand in a folder of their own (text our own)."""

from __future__ import annotations

from pathlib import Path

from gitutil import commit, make_repo, unix
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.lastmod.history._stopedits import own_path
from sitemill.protocol import Precision, lastmod_from_timestamp
from sitemill.sinks import MemorySink

BASE = "https://example.org/meetups/"
WHEN = ["2024-01-10 09:00:00", "2024-02-11 09:00:00"]
DAYS = ("2019-01-31", "2019-02-27", "2019-03-27", "2019-04-24", "2019-05-22", "2019-07-24")


def meetup(host: str, day: str, extra: str = "") -> str:
    """A meetup's page: its table of contents links to its own sections at ``host``, its
    text to the meetups before and after it."""
    at = DAYS.index(day)
    near = [DAYS[(at - 1) % len(DAYS)], DAYS[(at + 1) % len(DAYS)]]
    return (
        f'<html><head><title>Desert meetup {day}</title></head><body><header><a href="{host}">'
        f'Home</a></header><main><h1>Meetup {day}</h1><ul class="toc"><li><a href="{host}/'
        f'{day}/#talks">Talks</a></li><li><a href="{host}/{day}/#news">News</a></li></ul>'
        f'<h2 id="talks">Talks</h2><p>Talk number {at} on games, see <a href="{host}/{near[0]}/">'
        f'the last one</a> and <a href="{host}/{near[1]}/">the next one</a>.{extra}</p>'
        f'<h2 id="news">News</h2><p>Rust news of {day}.</p></main></body></html>\n'
    )


def build(host: str, edited: str = "") -> dict[str, str]:
    return {
        f"{day}/index.html": meetup(host, day, " A note." if day == edited else "") for day in DAYS
    }


def test_a_move_of_the_host_and_base_path_moves_no_page(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    commit(repo, build("https://rust.example.com"), WHEN[0])
    commit(repo, build("https://example.org/meetups", edited=DAYS[2]), WHEN[1])
    sink = MemorySink()
    build_from_tree(load_config({"base_url": BASE, "lastmod": "git"}), repo, sink)
    sitemap = sink.files["sitemap.xml"].decode()
    dates = [lastmod_from_timestamp(unix(when), Precision.DATETIME) for when in WHEN]
    for day in DAYS:
        block = sitemap.partition(f"<loc>{BASE}{day}/</loc>")[2].partition("</url>")[0]
        # (the page whose own note was added in the move's commit is dated by it)
        assert f"<lastmod>{dates[day == DAYS[2]]}</lastmod>" in block, (day, block)


def test_a_pages_own_path_is_spelled_as_its_reduction_spells_its_links() -> None:
    assert own_path(BASE, "2019-01-31/index.html") == "/meetups/2019-01-31"
    assert own_path("https://example.org/", "index.html") == "/"
    assert own_path("https://example.org/", "a/b.html") == "/a/b"
    assert own_path("", "a/index.html") == ""
