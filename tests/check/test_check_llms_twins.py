"""`sitemill check` and llms.txt: the Markdown twins of the pages a check asks anyway (each 200
itself, as text), and what a check asks when a build published no llms file: nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from checkstand import QUICK, built_site, check, config

from enginestand import Stand
from llmsrecord import keep_llms_digests, md5
from outputlist import CheckOptions
from sitemill.check.problems import LLMS
from sitemill.check.published import published_from
from sitemill.commands.check import check_tree
from sitemill.filenames.outputs import twin_url
from sitemill.state.model import PageRecord, State

PLAIN = "text/plain; charset=utf-8"
MARKDOWN = "text/markdown; charset=utf-8"
LLMS_TXT = b"# Example\n\n- [About](/about.html)\n"
TWINS = (
    "/index.html.md",
    "/about.html.md",
    "/docs/index.html.md",
    "/docs/guide.html.md",
    "/blog/first.html.md",
    "/blog/second.html.md",
)


@pytest.fixture
def site(tmp_path: Path, stand: Stand, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str]:
    """The example site with its llms.txt and a twin of each page, published and recorded."""
    root, base = built_site(tmp_path, stand)
    stand.files["/llms.txt"] = (200, LLMS_TXT, {"Content-Type": PLAIN})
    for path in TWINS:
        stand.files[path] = (200, b"# Page\n", {"Content-Type": MARKDOWN})
    keep_llms_digests(monkeypatch, {"llms.txt": LLMS_TXT})
    return root, base


def asked(stand: Stand, suffix: str) -> list[str]:
    return sorted(path for _, path in stand.requests if path.endswith(suffix))


@pytest.mark.parametrize(
    ("url", "twin"),
    [
        ("https://e.org/", "https://e.org/index.html.md"),
        ("https://e.org/guide/", "https://e.org/guide/index.html.md"),
        ("https://e.org/guide.html", "https://e.org/guide.html.md"),
        ("https://e.org/guide", "https://e.org/guide.md"),
    ],
)
def test_a_twin_is_the_url_plus_md(url: str, twin: str) -> None:
    assert twin_url(url) == twin


def test_each_twin_of_the_pages_asked_answers_200_as_text(
    site: tuple[Path, str], stand: Stand
) -> None:
    root, base = site
    del stand.files["/about.html.md"]
    stand.files["/blog/first.html.md"] = (200, b"<!doctype html>", {"Content-Type": "text/html"})
    stand.files["/docs/guide.html.md"] = (302, b"", {"Location": "/docs/guide.html"})
    checked = check(root, base, llms_txt="true", llms_pages="true")
    found = [(p.url, p.kind, p.what) for p in checked.report.sorted_problems()]
    assert found == [
        (base + "about.html.md", LLMS, "answers 404 (not found)"),
        (base + "blog/first.html.md", LLMS, "is served as text/html, not text/markdown"),
        (
            base + "docs/guide.html.md",
            LLMS,
            f"answers 302, a redirect to {base}docs/guide.html (not followed)",
        ),
    ]
    assert checked.report.twins == 6 and asked(stand, ".md") == sorted(TWINS)
    assert "6 Markdown twin(s)" in checked.report.summary()


def test_the_twins_asked_are_those_of_the_pages_the_check_samples(
    site: tuple[Path, str], stand: Stand
) -> None:
    root, base = site
    options = CheckOptions(every=False, sample=2)
    checked = check_tree(config(base, llms_txt="true", llms_pages="true"), root, root, None,
                         options, QUICK)  # fmt: skip
    pages = sorted(path for _, path in stand.requests if path.endswith((".html", "/")))
    assert checked.report.pages == 2 and checked.report.twins == 2
    assert asked(stand, ".md") == sorted(twin_url(path) for path in pages)


def test_no_twin_is_asked_without_llms_pages(site: tuple[Path, str], stand: Stand) -> None:
    root, base = site
    checked = check(root, base, llms_txt="true")
    assert checked.report.ok and checked.report.llms == 1
    assert checked.report.twins == 0 and asked(stand, ".md") == []


def test_a_build_that_recorded_no_llms_file_is_asked_none(tmp_path: Path, stand: Stand) -> None:
    """An older state (no digest of an llms file): no false alarm, no request."""
    root, base = built_site(tmp_path, stand)
    checked = check(root, base, llms_txt="true", llms_pages="true")
    assert checked.report.ok and checked.report.llms == checked.report.twins == 0
    assert asked(stand, "llms.txt") == asked(stand, ".md") == []


def test_llms_off_asks_nothing(site: tuple[Path, str], stand: Stand) -> None:
    root, base = site
    stand.files.pop("/llms.txt")
    checked = check(root, base)
    assert checked.report.ok and asked(stand, "llms.txt") == asked(stand, ".md") == []


def test_a_one_file_build_with_llms_files_checks_its_sitemap_from_the_folder(
    tmp_path: Path, stand: Stand, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build of one sitemap file keeps no digest of it: its sitemap is the folder's."""
    root, base = built_site(tmp_path, stand)
    stand.files["/llms.txt"] = (200, LLMS_TXT, {"Content-Type": PLAIN})
    keep_llms_digests(monkeypatch, {"llms.txt": LLMS_TXT})
    stand.files["/sitemap.xml"] = (200, b"<urlset/>", {"Content-Type": "application/xml"})
    checked = check(root, base, llms_txt="true")
    assert checked.report.sitemaps == 1 and checked.report.llms == 1
    ((url, what),) = [(p.url, p.what) for p in checked.report.problems]
    assert url == base + "sitemap.xml" and what.startswith("is not the file this build published")


def test_the_sitemaps_published_leave_the_llms_files_apart() -> None:
    state = State(pages={"a.html": PageRecord(None, fingerprint="1")})
    state.digests = {"sitemap.xml": md5(b"x")}
    state.llms = {"llms.txt": md5(b"y"), "fr/llms.txt": md5(b"z"), "a.html.md": md5(b"t")}
    base = "https://e.org/"
    published = published_from(config(base, llms_txt="true"), state, state.digests, {})
    assert published.sitemaps == {"sitemap.xml": md5(b"x")}
    assert published.llms == {"llms.txt": md5(b"y"), "fr/llms.txt": md5(b"z")}
    assert not published.twins
    assert published_from(config(base), state, state.digests, {}).llms == {}


def test_llms_full_alone_is_asked() -> None:
    state = State(pages={"a.html": PageRecord(None, fingerprint="1")})
    state.llms = {"llms-full.txt": md5(b"y")}
    published = published_from(config("https://e.org/", llms_full="true"), state, {}, {})
    assert published.llms == {"llms-full.txt": md5(b"y")}
