"""A wrong --base-url is asked about: when most pages' canonicals place the site under another
base URL (https for http, a project site's path left out), one warning names it."""

from __future__ import annotations

from pathlib import Path

import pytest

from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.report import Report
from sitemill.sinks import LocalDirSink

PAGES = ("index.html", "a.html", "b/index.html", "c.html", "d.html")


def make_site(root: Path, canonical: str | None, pages: tuple[str, ...] = PAGES) -> Path:
    """``pages``, each declaring its canonical under ``canonical`` (a base URL; None: none)."""
    site = root / "site"
    for name in pages:
        url = name.removesuffix("index.html")
        head = "" if canonical is None else f'<link rel="canonical" href="{canonical}{url}">'
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(
            f"<html><head><title>{name}</title>{head}</head><body><p>{name}</p></body></html>",
            encoding="utf-8",
        )
    return site


def build(site: Path, base_url: str, **values: object) -> Report:
    config = load_config({"base_url": base_url, "lastmod": "mtime", **values})
    out = site.parent / "out"
    return build_from_tree(config, site, LocalDirSink(out), output_dir=out)


def canonical_warnings(report: Report) -> list[str]:
    return [line for line in report.warnings if "canonical" in line]


def test_https_canonicals_with_an_http_base_url_ask_naming_https(tmp_path: Path) -> None:
    site = make_site(tmp_path, "https://user.github.io/")
    report = build(site, "http://user.github.io/")
    assert canonical_warnings(report) == [
        "all 5 pages with a canonical URL declare it under https://user.github.io/, not under "
        "the base URL http://user.github.io/, e.g. a.html names https://user.github.io/a.html: "
        "is --base-url right? If it is, fix the generator's site URL setting (site_url, "
        "baseURL, html_baseurl, url)"
    ]  # (one warning: it stands for "5 listed page(s) declare a canonical URL off this site")
    assert report.result.url_count == 5  # (every page stays listed)


def test_a_project_site_built_without_its_path_asks_naming_the_path(tmp_path: Path) -> None:
    site = make_site(tmp_path, "https://user.github.io/project/")
    report = build(site, "https://user.github.io/")
    (line,) = canonical_warnings(report)  # not also "declare a canonical URL ... not list"
    assert line.startswith(
        "all 5 pages with a canonical URL declare it under https://user.github.io/project/, "
        "not under the base URL https://user.github.io/"
    )
    assert "is --base-url right?" in line


def test_most_is_counted_among_the_pages_with_a_canonical(tmp_path: Path) -> None:
    site = make_site(tmp_path, "https://www.example.org/docs/")
    make_site(tmp_path, "https://example.org/", ("e.html",))  # one that agrees
    make_site(tmp_path, None, ("f.html", "g.html"))  # and two that declare none
    (line,) = canonical_warnings(build(site, "https://example.org/", respect_canonical=False))
    assert line.startswith(
        "most pages (5 of 6 with a canonical URL) declare it under https://www.example.org/docs/"
    )


def test_right_base_url_or_a_few_stray_canonicals_ask_nothing(tmp_path: Path) -> None:
    site = make_site(tmp_path, "https://example.org/")
    assert canonical_warnings(build(site, "https://example.org/")) == []
    strays = make_site(tmp_path / "strays", "https://old.example/", ("a.html", "b.html"))
    make_site(tmp_path / "strays", "https://example.org/", ("c.html", "d.html", "e.html"))
    (line,) = canonical_warnings(build(strays, "https://example.org/"))
    assert line.startswith("2 listed page(s) declare a canonical URL off this site")


@pytest.mark.parametrize("declared", ["https://example.org/other/", "https://example.org/"])
def test_half_is_not_most(tmp_path: Path, declared: str) -> None:
    site = make_site(tmp_path, "https://elsewhere.example/", PAGES[:3])
    make_site(tmp_path, declared, ("e.html", "f.html", "g.html"))
    assert not any("--base-url" in line for line in build(site, "https://example.org/").warnings)
