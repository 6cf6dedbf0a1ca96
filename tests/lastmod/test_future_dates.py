"""No date after the run's time is published, and none raises on its way: a page declaring
9999-12-31, commits dated 2099, 5138 and past the year 9999 (docs/lastmod.md, "No date from
the future"), on the CLI's build of a tree."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from conftest import BASE_URL, FIXED_MTIME, write_site
from gitutil import commit, commit_at_seconds, make_repo
from sitemill.cli.main import main

URL = re.compile(r"<url><loc>(.*?)</loc>(?:<lastmod>(.*?)</lastmod>)?")
YEAR_2099 = 4_070_908_800  # 2099-01-01T00:00:00Z
YEAR_5138 = 99_999_999_999  # 5138-11-16T09:46:39Z
YEAR_10000 = 253_402_300_800  # 10000-01-01T00:00:00Z: no datetime holds it
FAR = 10**13  # the year 318857: git keeps it all the same


@pytest.fixture(autouse=True)
def _no_sitemill_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [name for name in os.environ if name.startswith("SITEMILL_")]:
        monkeypatch.delenv(name)


def html(title: str, head: str = "", body: str = "") -> str:
    return (
        f"<!doctype html><html><head><title>{title}</title>{head}</head>"
        f"<body><main><h1>{title}</h1><p>What {title} says.</p>{body}</main></body></html>"
    )


def build(capsys: pytest.CaptureFixture[str], site: Path, *flags: str) -> tuple[int, str]:
    code = main(["build", str(site), "--base-url", BASE_URL, *flags])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out


def listed(site: Path) -> dict[str, str | None]:
    text = (site / "sitemap.xml").read_text()
    return {loc.removeprefix(BASE_URL): lastmod or None for loc, lastmod in URL.findall(text)}


@pytest.mark.parametrize(
    ("head", "body"),
    [
        ('<meta property="article:modified_time" content="9999-12-31T23:59:59Z">', ""),
        (
            '<script type="application/ld+json">{"dateModified": "9999-12-31T23:59:00Z"}</script>',
            "",
        ),
        ("", '<p>Last updated on <time datetime="9999-12-31T23:55:00+00:00">then</time></p>'),
    ],
)
def test_a_page_declaring_the_calendar_s_last_minutes_is_a_normal_run_without_that_date(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], head: str, body: str
) -> None:
    # Spread file times: each page's time is evidence, so the page is dated by its own and
    # never by what it declares (before: OverflowError in the build-stamp check).
    pages = {f"p{n}.html": html(f"P{n}") for n in range(4)} | {"end.html": html("End", head, body)}
    site = write_site(tmp_path / "site", pages)
    for number, name in enumerate(sorted(pages)):
        os.utime(site / name, (FIXED_MTIME - number * 86_400 * 40,) * 2)
    code, out = build(capsys, site)
    assert code == 0
    dates = listed(site)
    assert dates["end.html"] == "2024-03-01T12:00:00+00:00"  # its file time (sorted first)
    assert not any(date and date.startswith("9999") for date in dates.values())
    assert "file time 5" in out


def commits_at(repo: Path, times: dict[str, int]) -> None:
    """One commit per page, at its time (seconds since 1970), after an ordinary one."""
    commit(repo, {"old.html": html("Old")}, "2024-01-05T10:00:00", "an ordinary page")
    for name, seconds in times.items():
        commit_at_seconds(repo, {name: html(name)}, seconds, f"{name} from the future")


def test_commits_dated_2099_and_5138_date_no_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo(tmp_path / "repo")
    commits_at(repo, {"a.html": YEAR_2099, "b.html": YEAR_5138})
    code, out = build(capsys, repo)
    assert code == 0
    # The checkout's file times are one build's: the two pages have no evidence left.
    assert listed(repo) == {"old.html": "2024-01-05T10:00:00+00:00", "a.html": None, "b.html": None}
    assert "lastmod: git 1, none 2" in out


def test_commits_dated_past_the_year_9999_are_a_normal_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo(tmp_path / "repo")
    commits_at(repo, {"c.html": YEAR_10000, "d.html": FAR})  # (before: ValueError)
    code, _ = build(capsys, repo)
    assert code == 0
    assert listed(repo) == {"old.html": "2024-01-05T10:00:00+00:00", "c.html": None, "d.html": None}


def test_with_content_dates_off_no_commit_or_file_time_after_the_run_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo(tmp_path / "repo")
    commits_at(repo, {"a.html": YEAR_2099, "c.html": YEAR_10000})
    code, _ = build(capsys, repo, "--no-content-dates")
    assert code == 0
    dates = listed(repo)
    assert dates.pop("old.html") == "2024-01-05T10:00:00+00:00"
    # The commits are no evidence: the plain date falls back to the file's time (the checkout's).
    run = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S+00:00")
    assert sorted(dates) == ["a.html", "c.html"] and all(d and d <= run for d in dates.values())
    site = write_site(tmp_path / "site", {"now.html": html("Now"), "later.html": html("Later")})
    os.utime(site / "later.html", (YEAR_2099, YEAR_2099))
    code, _ = build(capsys, site, "--no-content-dates", "--lastmod", "mtime")
    assert code == 0
    assert listed(site) == {"later.html": None, "now.html": "2024-03-01T12:00:00+00:00"}


def test_a_replaced_sitemap_dating_pages_9999_12_31_is_a_normal_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pages = {f"p{n}.html": html(f"P{n}") for n in range(3)}
    urls = "".join(
        f"<url><loc>{BASE_URL}{name}</loc><lastmod>9999-12-31T23:59:59+00:00</lastmod></url>"
        for name in pages
    )
    generator = f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urls}</urlset>'
    site = write_site(tmp_path / "site", pages | {"sitemap.xml": generator})
    code, out = build(capsys, site)  # (before: OverflowError)
    assert code == 0
    assert listed(site) == dict.fromkeys(pages)  # one build's file times: no evidence left
    assert "9999" not in out
