"""Listing pages (a taxonomy's, pagination's, archives, search) are left out of llms.txt unless
llms_listings is set (issue 82: on a Hugo blog, 21 of llms.txt's 38 links were tag, category and
series listings); what a user sees of it: the bytes of llms.txt and the run's line."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from clirun import run_sitemill
from conftest import BASE_URL as BASE
from conftest import write_site
from sitemill.llms._listings import is_listing, without_listings
from sitemill.llms.page import LlmsPage

# Listings by their URL's marks, each generator's (and pages they must not take).
LISTINGS = (
    "tags/ tags/rust/ blog/tags/rust/ blog/category/news/ categories/index.html archives.html "
    "blog/archive/2024/ search.html series/go/ page/2/ posts/page/13/ page2/"
)
PAGES = "posts/ posts/tagging-in-git/ docs/page-layout/ guide/pages/ page/about/"


@pytest.mark.parametrize("path", LISTINGS.split())
def test_a_listing_by_its_urls_marks(path: str) -> None:
    assert is_listing(path)


@pytest.mark.parametrize("path", ["", *PAGES.split()])
def test_a_page_is_no_listing(path: str) -> None:
    assert not is_listing(path)  # ("posts/" alone: nothing says it pages anything)


def test_the_first_page_of_a_paginated_list_is_one_the_home_page_never() -> None:
    urls = ["", "page/2/", "posts/", "posts/page/2/", "posts/a/", "about/", "docs/index.html"]
    pages = [LlmsPage(BASE + url) for url in urls]
    kept, left_out = without_listings(pages, BASE)
    assert [page.url[len(BASE) :] for page in kept] == ["", "posts/a/", "about/", "docs/index.html"]
    assert left_out == 3


def test_a_site_of_listings_alone_keeps_them() -> None:
    pages = [LlmsPage(BASE + "tags/"), LlmsPage(BASE + "tags/a/")]
    assert without_listings(pages, BASE) == (pages, 0)


PAGE = (
    "<!doctype html><html lang='en'><head><title>{0} | Blog</title></head>"
    "<body><main><h1>{0}</h1>{1}</main></body></html>"
)
TEASER = "<article><h2><a href='/posts/go/'>Go</a></h2></article>"
BLOG = {
    path: PAGE.format(title, body)
    for path, title, body in (
        ("index.html", "Home", "<p>Welcome.</p>"),
        ("posts/index.html", "Posts", TEASER),
        ("posts/page/2/index.html", "Posts", TEASER),
        ("posts/go/index.html", "Go", "<p>Go is a language.</p>"),
        ("tags/index.html", "Tags", "<ul><li><a href='/tags/go/'>go</a></li></ul>"),
        ("tags/go/index.html", "Go", TEASER),
    )
}


def _build(site: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    done = run_sitemill("build", str(site), "--base-url", BASE, "--llms-txt", *flags)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def test_llms_txt_leaves_the_listings_out_and_says_so(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", BLOG)
    done = _build(site)
    assert (site / "llms.txt").read_text() == (
        "# Blog\n\n"
        f"The pages that the sitemap <{BASE}sitemap.xml> lists; written by sitemill.\n\n"
        "## /\n\n"
        f"- [Home]({BASE})\n"
        f"- [Go]({BASE}posts/go/)\n"
    )
    said = (
        "4 listing pages (tags, categories, pagination, archives, search) not linked "
        "(llms_listings = true links them)"
    )
    assert said in done.stdout + done.stderr


@pytest.mark.parametrize(
    ("flags", "env"),
    [(("--llms-listings",), {}), ((), {"SITEMILL_LLMS_LISTINGS": "true"})],
)
def test_llms_listings_puts_them_back(
    tmp_path: Path, flags: tuple[str, ...], env: dict[str, str]
) -> None:
    site = write_site(tmp_path / "site", BLOG)
    done = run_sitemill("build", str(site), "--base-url", BASE, "--llms-txt", *flags, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    text = (site / "llms.txt").read_text()
    assert f"- [Posts]({BASE}posts/page/2/)" in text and f"- [Go]({BASE}tags/go/)" in text
    assert text.count("\n- [") == len(BLOG)
    assert "listing page" not in done.stdout + done.stderr


def test_llms_full_and_twins_head_each_page_without_the_sites_name(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", BLOG)
    _build(site, "--llms-full", "--llms-pages")
    full = (site / "llms-full.txt").read_text()
    assert f"# [Go]({BASE}posts/go/)\n\n## Go\n\nGo is a language.\n" in full
    assert "| Blog" not in full
    assert (site / "posts/go/index.html.md").read_text().startswith("# Go\n")


def test_a_page_titled_with_the_sites_name_alone_is_headed_by_its_last_name(
    tmp_path: Path,
) -> None:
    pages = {**BLOG, "tags/rust/index.html": BLOG["index.html"].replace("Home | Blog", "Blog")}
    site = write_site(tmp_path / "site", pages)
    _build(site, "--llms-full")
    assert f"# [Rust]({BASE}tags/rust/)\n" in (site / "llms-full.txt").read_text()
