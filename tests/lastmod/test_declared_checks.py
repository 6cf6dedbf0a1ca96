"""Rung 3 never dates a page earlier than its content changed: a modification date that only
repeats the page's publication date is no evidence, and a site whose declared dates are earlier
than the history the run has is not trusted (docs/lastmod.md, "Declared dates")."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from moto.core import DEFAULT_ACCOUNT_ID
from moto.s3.models import s3_backends
from test_first_run import BASE, bucket_urls, build, listed

from gitutil import commit, make_repo
from outputlist import build_from_tree, rebuild_bucket
from s3util import BUCKET, make_config, moto_bucket
from sitemill.config.model import load_config
from sitemill.jobs.bucket import BucketSite
from sitemill.lastmod.declared.checks import (
    BEHIND_HISTORY,
    NOT_AFTER_PUBLICATION,
    behind_history,
    check_declared,
    distrust_when_behind,
)
from sitemill.lastmod.declared.w3cdate import (
    ARTICLE_MODIFIED,
    ARTICLE_PUBLISHED,
    JSON_LD_PUBLISHED,
    LAST_UPDATED_LINE,
    REPLACED_SITEMAP,
    DeclaredDate,
    parse_declared,
)
from sitemill.sinks import LocalDirSink

RUN = datetime(2026, 11, 1, tzinfo=UTC)


def date(text: str, source: str = ARTICLE_MODIFIED) -> DeclaredDate:
    parsed = parse_declared(text, source)
    assert parsed is not None
    return parsed


@pytest.mark.parametrize(
    ("modified", "published"),
    [
        # Minimal Mistakes: "Updated:" is the post's date, to the instant, in another offset.
        (date("2021-05-09T04:00:00Z", LAST_UPDATED_LINE), "2021-05-09T00:00:00-04:00"),
        # Starlight's blog: a "Last updated" instant on the day the post declares.
        (date("2026-07-30T00:00:00Z", LAST_UPDATED_LINE), "2026-07-30"),
        (date("2026-07-30"), "2026-07-30T18:00:00+02:00"),  # a date and an instant of it
        (date("2020-01-01"), "2020-01-01"),
        (date("2019-12-01T00:00:00Z"), "2020-01-01T00:00:00Z"),  # "modified" before publication
        # Jekyll's sitemap falls back to the post's date.
        (date("2013-08-31T00:00:00-04:00", REPLACED_SITEMAP), "2013-08-31T04:00:00Z"),
    ],
)
def test_a_modification_date_not_after_the_publication_date_is_no_evidence(
    modified: DeclaredDate, published: str
) -> None:
    pages = {"post.html": [date(published, ARTICLE_PUBLISHED), modified]}
    check = check_declared(pages, RUN)
    assert check.accepted == {}
    assert check.refused == {"post.html": (modified, NOT_AFTER_PUBLICATION)}
    assert check.dropped == {NOT_AFTER_PUBLICATION: 1}


def test_a_modification_after_the_publication_date_is_kept() -> None:
    edited = date("2022-03-21T10:55:33Z")  # Docsy: the source's last commit, after 2018
    nextday = date("2020-01-02")
    pages = {
        "a.html": [date("2018-01-04T00:00:00Z", ARTICLE_PUBLISHED), edited],
        "b.html": [date("2020-01-01", JSON_LD_PUBLISHED), nextday],
        "c.html": [date("2020-01-01", JSON_LD_PUBLISHED)],  # a publication alone dates nothing
    }
    check = check_declared(pages, RUN)
    assert check.accepted == {"a.html": edited, "b.html": nextday}
    assert check.refused == {} and check.dropped == {}


def test_the_next_declaration_is_asked_when_the_first_repeats_the_publication() -> None:
    first, sitemap = date("2021-05-09T04:00:00Z"), date("2022-01-01", REPLACED_SITEMAP)
    pages = {"p.html": [date("2021-05-09T04:00:00Z", ARTICLE_PUBLISHED), first, sitemap]}
    assert check_declared(pages, RUN).accepted == {"p.html": sitemap}


def test_declared_dates_behind_the_history_distrust_the_site() -> None:
    history = {
        "old.html": datetime(2024, 5, 27, 12, tzinfo=UTC),
        "lag.html": datetime(2024, 5, 27, 12, tzinfo=UTC),
        "day.html": datetime(2024, 5, 27, 12, tzinfo=UTC),
    }
    known = {
        "old.html": date("2023-05-13T04:00:00Z"),  # a year before its content's last change
        "lag.html": date("2024-05-27T11:50:00Z"),  # a deploy's minutes: not behind
        "day.html": date("2024-05-26"),  # a date may end at 12:00 on the 27th: not behind
    }
    assert behind_history(known, history) == ["old.html"]
    assert behind_history({k: v for k, v in known.items() if k != "old.html"}, history) == []
    fresh = check_declared({"new.html": [date("2024-06-01T00:00:00Z")]}, RUN)
    check = distrust_when_behind(fresh, ["old.html"])
    assert check.accepted == {}
    assert check.refused == {"new.html": (date("2024-06-01T00:00:00Z"), BEHIND_HISTORY)}
    assert distrust_when_behind(fresh, []) == fresh


POST = (
    "<!DOCTYPE html><html><head><title>{name}</title>"
    '<meta property="article:published_time" content="{published}">{modified}</head>'
    "<body><main><h1>{name}</h1><p>What {name} says.</p>"
    '<p class="page__date"><strong>Updated:</strong> <time datetime="{updated}">x</time></p>'
    "</main></body></html>"
)
MODIFIED = '<meta property="article:modified_time" content="{0}">'
PUBLISHED = [f"2024-0{n + 1}-1{n}T00:00:00-04:00" for n in range(6)]  # months apart
JEKYLL_SITEMAP = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{0}</urlset>\n'
)


def jekyll_site(tmp_path: Path, edited: dict[int, str]) -> Path:
    """Minimal Mistakes posts as a CI build writes them: "Updated:" is the post's date unless
    ``edited`` gives the post a last_modified_at; jekyll-sitemap falls back the same way."""
    site = tmp_path / "public"
    site.mkdir()
    urls = ""
    for number, published in enumerate(PUBLISHED):
        changed = edited.get(number)
        modified = "" if changed is None else MODIFIED.format(changed)
        updated = changed or published
        name = f"p{number}"
        post = POST.format(name=name, published=published, modified=modified, updated=updated)
        (site / f"{name}.html").write_text(post)
        urls += f"<url><loc>{BASE}{name}.html</loc><lastmod>{updated}</lastmod></url>\n"
    (site / "sitemap.xml").write_text(JEKYLL_SITEMAP.format(urls))
    return site


def test_a_first_run_gives_no_date_where_updated_only_repeats_the_post_date(
    tmp_path: Path,
) -> None:
    site = jekyll_site(tmp_path, {0: "2025-02-03T10:00:00+00:00"})
    report = build(site)
    urls = listed((site / "sitemap.xml").read_bytes())
    assert urls[f"{BASE}p0.html"] == "2025-02-03T10:00:00+00:00"  # edited since: evidence
    # Before: each got its post date from the "Updated:" line (or the replaced sitemap).
    assert {urls[f"{BASE}p{n}.html"] for n in range(1, 6)} == {None}
    assert report.dates == {"declared": 1, "no date (file times are one build's)": 5}


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def test_a_bucket_first_rebuild_gives_no_date_where_updated_repeats_the_post_date(
    s3: Any,
) -> None:
    backend = s3_backends[DEFAULT_ACCOUNT_ID]["aws"]
    for number, published in enumerate(PUBLISHED[:5]):
        changed = "2025-02-03T10:00:00+00:00" if number == 0 else None
        body = POST.format(
            name=f"p{number}", published=published, updated=changed or published,
            modified="" if changed is None else MODIFIED.format(changed),
        )  # fmt: skip
        s3.put_object(Bucket=BUCKET, Key=f"p{number}.html", Body=body, ContentType="text/html")
        backend.get_object(BUCKET, f"p{number}.html").last_modified = datetime(2026, 5, 1, 9, 30)
    report = rebuild_bucket(make_config(), s3, BucketSite(BUCKET))
    urls = bucket_urls(s3)
    assert urls["https://example.com/p0.html"] == "2025-02-03T10:00:00+00:00"
    assert {urls[f"https://example.com/p{n}.html"] for n in range(1, 5)} == {None}
    assert report.dates == {"declared": 1, "no date (upload times are one sync's)": 4}


PAGE = (
    "<!DOCTYPE html><html><head><title>{0}</title>"
    '<meta property="article:modified_time" content="{1}"></head>'
    "<body><main><h1>{0}</h1><p>What {0} says.</p></main></body></html>"
)


def history_site(tmp_path: Path, declared: str) -> Path:
    """A committed site whose pages were last changed on 2024-05-27, each declaring
    ``declared``; one page built since, not committed, declares its own date."""
    repo = make_repo(tmp_path / "repo")
    pages = {f"p{n}.html": PAGE.format(f"p{n}", declared) for n in range(3)}
    commit(repo, pages, "2024-05-27 12:00:00")
    (repo / "fresh.html").write_text(PAGE.format("fresh", "2024-06-10T08:00:00+00:00"))
    return repo


def build_tree(repo: Path, tmp_path: Path) -> tuple[dict[str, str | None], dict[str, int]]:
    out = tmp_path / "out"
    report = build_from_tree(
        load_config({"base_url": BASE, "lastmod": "git"}), repo, LocalDirSink(out), output_dir=out
    )
    assert report.dates is not None
    return listed((out / "sitemap.xml").read_bytes()), dict(report.dates)


def test_declared_dates_behind_the_git_history_date_no_new_page(tmp_path: Path) -> None:
    # The pages say 2023-05-13; their content last changed a year later: the site's declared
    # dates lag its content, so the page git has not seen yet gets no date.
    urls, dates = build_tree(history_site(tmp_path, "2023-05-13T04:00:00+00:00"), tmp_path)
    assert urls[f"{BASE}fresh.html"] is None  # before: 2024-06-10, from its declaration
    assert urls[f"{BASE}p0.html"] == "2024-05-27T12:00:00+00:00"  # its history, as before
    assert dates == {"the last commit": 3, "no date (file times are one build's)": 1}


def test_declared_dates_that_agree_with_the_git_history_date_a_new_page(tmp_path: Path) -> None:
    urls, dates = build_tree(history_site(tmp_path, "2024-05-27T11:58:00+00:00"), tmp_path)
    assert urls[f"{BASE}fresh.html"] == "2024-06-10T08:00:00+00:00"
    assert dates == {"the last commit": 3, "declared": 1}
