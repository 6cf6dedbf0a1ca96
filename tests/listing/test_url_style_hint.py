"""Pages whose canonicals are written in another url_style than the one the configuration
sets: the summary says which style matches (a site with clean canonicals, /a/b, built with
url_style = "directory" lists /a/b.html, a URL that differs from every canonical). With
"auto", the default, the canonicals choose the style: nothing to say."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import write_site
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.listing.checks import MIN_STYLE_PAGES, StyleHint
from sitemill.sinks import MemorySink
from sitemill.urls import UrlStyle

BASE = "https://example.com/"


def page(canonical: str) -> str:
    return (
        f'<!doctype html><html><head><link rel="canonical" href="{canonical}">'
        "<title>t</title></head><body>t</body></html>"
    )


def hints(tmp_path: Path, files: dict[str, str], **values: Any) -> list[str]:
    config = load_config({"base_url": BASE, "lastmod": "none", "url_style": "directory", **values})
    report = build_from_tree(config, write_site(tmp_path / "site", files), MemorySink())
    return [line for line in report.warnings if "url_style" in line]


CLEAN_CANONICALS = {
    f"posts/post-{n}.html": page(f"https://example.com/posts/post-{n}") for n in range(12)
}


def test_clean_canonicals_on_a_directory_build_suggest_clean(tmp_path: Path) -> None:
    (line,) = hints(tmp_path, CLEAN_CANONICALS)
    assert line.startswith('12 of 12 listed pages declare their own URL in the "clean" url_style')
    assert "(only 0 as listed)" in line
    assert "posts/post-0.html declares https://example.com/posts/post-0, listed as " in line
    assert 'set url_style = "clean"' in line


def test_auto_says_nothing_it_lists_what_the_canonicals_say(tmp_path: Path) -> None:
    config = load_config({"base_url": BASE, "lastmod": "none"})
    sink = MemorySink()
    report = build_from_tree(config, write_site(tmp_path / "site", CLEAN_CANONICALS), sink)
    assert [line for line in report.warnings if "url_style" in line] == []
    assert "<loc>https://example.com/posts/post-0</loc>" in sink.files["sitemap.xml"].decode()


def test_the_matching_style_says_nothing(tmp_path: Path) -> None:
    assert hints(tmp_path, CLEAN_CANONICALS, url_style="clean") == []
    html_canonicals = {
        f"p{n}.html": page(f"https://example.com/p{n}.html") for n in range(MIN_STYLE_PAGES + 2)
    }
    assert hints(tmp_path / "b", html_canonicals) == []
    folders = {f"d{n}/index.html": page(f"/d{n}/") for n in range(MIN_STYLE_PAGES + 2)}
    assert hints(tmp_path / "c", folders) == []  # directory and clean agree on /d/


def test_a_few_pages_or_a_mixed_site_say_nothing(tmp_path: Path) -> None:
    few = dict(list(CLEAN_CANONICALS.items())[: MIN_STYLE_PAGES - 1])
    assert hints(tmp_path, few) == []
    mixed = {
        **{f"a{n}.html": page(f"/a{n}") for n in range(6)},
        **{f"b{n}.html": page(f"/b{n}.html") for n in range(6)},
    }
    assert hints(tmp_path / "m", mixed) == []  # half is no majority


def test_folder_canonicals_on_a_file_build_suggest_directory() -> None:
    hint = StyleHint(UrlStyle.FILE)
    for n in range(MIN_STYLE_PAGES):
        loc = f"https://example.com/d{n}/index.html"
        hint.saw(f"d{n}/index.html", loc, f"https://example.com/d{n}/")
    message = hint.message()
    assert message is not None and 'set url_style = "directory"' in message


@pytest.mark.parametrize("canonical", ["/posts/caf%C3%A9", "/posts/café"])
def test_escapes_do_not_matter(canonical: str) -> None:
    hint = StyleHint(UrlStyle.DIRECTORY)
    for _ in range(MIN_STYLE_PAGES):
        hint.saw("posts/café.html", "https://example.com/posts/caf%C3%A9.html", canonical)
    message = hint.message()
    assert message is not None and '"clean"' in message
