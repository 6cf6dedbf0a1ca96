"""`sitemill check` against a live site on loopback: each problem a deploy can leave, reported
once at the right URL with its fix; a clean deploy reports none."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from checkstand import PAGES, QUICK, build, built_site, check, page, publish, write_site

from enginestand import Stand
from sitemill.check.problems import CANONICAL, PAGE, SITEMAP, STALE
from sitemill.web.livesite import Limits


@pytest.fixture
def site(tmp_path: Path, stand: Stand) -> tuple[Path, str]:
    return built_site(tmp_path, stand)


def kinds_at(checked: object) -> list[tuple[str, str]]:
    report = checked.report  # type: ignore[attr-defined]
    return [(problem.url, problem.kind) for problem in report.sorted_problems()]


def test_a_clean_deploy_reports_no_problem(site: tuple[Path, str]) -> None:
    root, base = site
    checked = check(root, base)
    assert kinds_at(checked) == []
    report = checked.report
    assert report.pages == report.listed == len(PAGES)
    assert report.passed == {
        base + u
        for u in (
            "",
            "about.html",
            "docs/",
            "docs/guide.html",
            "blog/first.html",
            "blog/second.html",
        )
    }
    assert report.sitemaps == 1 and report.summary().endswith("no problem")


def test_a_host_that_adds_a_trailing_slash_is_a_redirect_named_with_its_fix(
    site: tuple[Path, str], stand: Stand, tmp_path: Path
) -> None:
    root, base = site
    build(root, base, "--url-style", "clean")
    publish(stand, root, clean=True)
    stand.files["/blog/first"] = (301, b"", {"Location": "/blog/first/"})
    stand.files["/blog/first/"] = stand.files["/blog/first.html"]
    checked = check(root, base, url_style="clean")
    assert kinds_at(checked) == [(base + "blog/first", PAGE)]
    problem = checked.report.problems[0]
    assert "answers 301, a redirect to " + base + "blog/first/" in problem.what
    assert 'url_style = "directory"' in problem.fix


def test_a_redirect_to_a_url_that_is_not_live_serves_the_page_nowhere(
    site: tuple[Path, str], stand: Stand
) -> None:
    root, base = site
    stand.files["/about.html"] = (301, b"", {"Location": "/about.html/"})
    checked = check(root, base)
    (problem,) = checked.report.problems
    assert "leads to " + base + "about.html/, which answers 404" in problem.fix
    assert "served at neither URL" in problem.fix


def test_a_renamed_page_answers_404(site: tuple[Path, str], stand: Stand) -> None:
    root, base = site
    del stand.files["/about.html"]
    checked = check(root, base)
    assert kinds_at(checked) == [(base + "about.html", PAGE)]
    assert "answers 404" in checked.report.problems[0].what
    assert base + "about.html" not in checked.report.passed


@pytest.mark.parametrize("how", ["meta", "header"])
def test_a_page_that_turned_noindex(site: tuple[Path, str], stand: Stand, how: str) -> None:
    root, base = site
    status, body, headers = stand.files["/docs/guide.html"]
    if how == "meta":
        body = page("Guide", "How to use it.", '<meta name="robots" content="noindex">').encode()
    else:
        headers = {**headers, "X-Robots-Tag": "googlebot: noindex, nofollow"}
    stand.files["/docs/guide.html"] = (status, body, headers)
    checked = check(root, base)
    url = base + "docs/guide.html"
    assert (url, PAGE) in kinds_at(checked)
    assert any("noindex" in p.what for p in checked.report.problems if p.url == url)


def test_a_canonical_that_moved(site: tuple[Path, str], stand: Stand) -> None:
    root, base = site
    moved = page("About", "Who we are and what we do.", '<link rel="canonical" href="/team/">')
    stand.files["/about.html"] = (200, moved.encode(), {"Content-Type": "text/html"})
    checked = check(root, base)
    assert (base + "about.html", CANONICAL) in kinds_at(checked)
    canonical = [p for p in checked.report.problems if p.kind == CANONICAL]
    assert len(canonical) == 1 and base + "team/" in canonical[0].what


def test_a_cache_that_serves_the_previous_version_of_two_pages_and_of_the_sitemap(
    site: tuple[Path, str], stand: Stand
) -> None:
    root, base = site
    before = dict(stand.files)
    write_site(root, {
        "blog/first.html": page("First post", "Hello, world, again."),
        "docs/guide.html": page("Guide", "How to use it, in three steps."),
        "blog/second.html": page("Second post", "More words, edited."),
    })  # fmt: skip
    build(root, base)
    publish(stand, root)
    for path in ("/blog/first.html", "/docs/guide.html", "/sitemap.xml"):
        status, body, headers = before[path]
        stand.files[path] = (
            status,
            body,
            {**headers, "Age": "3600", "Via": "1.1 x.cloudfront.net"},
        )
    checked = check(root, base, every=False)
    assert kinds_at(checked) == [
        (base + "blog/first.html", STALE),
        (base + "docs/guide.html", STALE),
        (base + "sitemap.xml", SITEMAP),
    ]
    sitemap = next(p for p in checked.report.problems if p.kind == SITEMAP)
    assert "3,600 s old" in sitemap.what
    assert "create-invalidation" in sitemap.fix and "'/sitemap.xml'" in sitemap.fix
    assert checked.report.changed == 3  # (the run's changes are asked without --all)
    assert base + "blog/second.html" in checked.report.passed


def test_a_gzip_sitemap_served_with_content_encoding_gzip_is_gzip_twice(
    tmp_path: Path, stand: Stand
) -> None:
    root, base = tmp_path / "site", stand.origin + "/"
    write_site(root, PAGES)
    build(root, base, "--gzip", "--max-urls", "3")
    stand.files.clear()
    publish(stand, root)
    children = [path for path in stand.files if path.endswith(".xml.gz")]
    assert children
    for path in children:
        status, body, headers = stand.files[path]
        stand.files[path] = (status, body, {**headers, "Content-Encoding": "gzip"})
    checked = check(root, base, gzip="true", max_urls=3)
    assert kinds_at(checked) == [(base + path[1:], SITEMAP) for path in sorted(children)]
    assert all("gzip twice" in p.what for p in checked.report.problems)
    assert gzip.decompress(stand.files[children[0]][1]).startswith(b"<?xml")


def test_a_slow_host_does_not_hold_the_check_past_its_deadline(
    site: tuple[Path, str], stand: Stand
) -> None:
    root, base = site
    stand.slow["/about.html"] = 60.0  # (released when the test ends)
    limits = Limits(concurrency=4, timeout=0.5, request_deadline=0.8, run_deadline=30.0)
    checked = check(root, base, limits=limits)
    assert kinds_at(checked) == [(base + "about.html", PAGE)]
    assert "no answer" in checked.report.problems[0].what


def test_a_redirect_to_another_host_is_reported_and_not_followed(
    site: tuple[Path, str], stands: list[Stand]
) -> None:
    root, base = site
    stand, other = stands
    stand.files["/blog/second.html"] = (302, b"", {"Location": other.origin + "/elsewhere"})
    checked = check(root, base)
    assert kinds_at(checked) == [(base + "blog/second.html", PAGE)]
    assert "another host" in checked.report.problems[0].fix
    assert other.requests == []


def test_the_run_deadline_leaves_the_rest_unchecked(site: tuple[Path, str], stand: Stand) -> None:
    root, base = site
    limits = Limits(concurrency=1, timeout=5.0, request_deadline=5.0, run_deadline=0.0001)
    checked = check(root, base, limits=limits)
    assert checked.report.passed == set()
    assert {p.kind for p in checked.report.problems} == {SITEMAP, "unchecked"}
    assert stand.requests == []


def test_hreflang_alternates_must_name_each_other(tmp_path: Path, stand: Stand) -> None:
    root, base = tmp_path / "site", stand.origin + "/"
    links = '<link rel="alternate" hreflang="{0}" href="/{0}/">'
    both = links.format("en") + links.format("fr")
    write_site(root, {
        "en/index.html": page("Hello", "English words.", both),
        "fr/index.html": page("Bonjour", "Des mots.", links.format("fr")),
    })  # fmt: skip
    build(root, base)
    stand.files.clear()
    publish(stand, root)
    checked = check(root, base)
    assert kinds_at(checked) == [(base + "en/", "alternates")]
    assert "does not name it back" in checked.report.problems[0].what
    assert checked.report.passed == {base + "en/", base + "fr/"}


def test_output_lines_carry_no_control_character(site: tuple[Path, str], stand: Stand) -> None:
    root, base = site
    stand.files["/about.html"] = (301, b"", {"Location": "/x\x1b[31m"})
    checked = check(root, base, limits=QUICK)
    assert "\x1b" not in "".join(p.line() for p in checked.report.problems)


def test_an_href_no_url_parser_reads_is_no_crash(site: tuple[Path, str], stand: Stand) -> None:
    root, base = site
    head = '<link rel="canonical" href="http://[oops">'
    head += '<link rel="alternate" hreflang="x" href="http://[x">'
    stand.files["/about.html"] = (200, page("About", "Who we are and what we do.", head).encode(),
                                  {"Content-Type": "text/html"})  # fmt: skip
    checked = check(root, base)
    assert checked.report.problems == []  # (no canonical read, the same text)


@pytest.mark.parametrize(
    ("answer", "what", "fix"),
    [
        ((301, b"", {"Location": "/about.html"}), "which redirects to this one", "trailing-slash"),
        ((200, b"<title>t</title>", {"Content-Type": "text/html"}), "which is live", "list that"),
        (None, "which answers 404", "fix the page's canonical"),
    ],
)
def test_a_canonical_is_explained_by_what_it_answers(
    site: tuple[Path, str],
    stand: Stand,
    answer: tuple[int, bytes, dict[str, str]] | None,
    what: str,
    fix: str,
) -> None:
    root, base = site
    moved = page("About", "Who we are and what we do.", '<link rel="canonical" href="/about">')
    stand.files["/about.html"] = (200, moved.encode(), {"Content-Type": "text/html"})
    if answer is not None:
        stand.files["/about"] = answer
    checked = check(root, base)
    (problem,) = checked.report.problems
    assert problem.kind == CANONICAL and what in problem.what and fix in problem.fix
    assert base + "about.html" not in checked.report.passed


@pytest.mark.parametrize(
    ("href", "what"),
    [
        ("http://localhost:1313/about/", "a local address"),
        ("https://elsewhere.example/about/", "on another host"),
    ],
)
def test_a_canonical_on_another_host_is_not_asked(
    site: tuple[Path, str], stand: Stand, href: str, what: str
) -> None:
    root, base = site
    head = f'<link rel="canonical" href="{href}">'
    moved = page("About", "Who we are and what we do.", head)
    stand.files["/about.html"] = (200, moved.encode(), {"Content-Type": "text/html"})
    checked = check(root, base)
    (problem,) = checked.report.problems
    assert problem.kind == CANONICAL and what in problem.what
