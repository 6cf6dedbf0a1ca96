"""validate's location rule: a child of an index, and a URL of a sitemap, lie in the directory the
file is served from or below it (https://www.sitemaps.org/protocol.html#location), as Hugo's
multilingual output has them (``/sitemap.xml`` naming ``/en/sitemap.xml``, ``/fr/sitemap.xml``);
never above, on another origin, or out through a dot segment however it is spelled.

The Hugo fixtures under ``hugo/`` are described in ``hugo/README.md``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import pytest
from hypothesis import given
from hypothesis import strategies as st

from outputlist import validate_paths
from sitemill.cli.main import main
from sitemill.protocol import SITEMAP_NS
from sitemill.validate._urls import server_path

HUGO = Path(__file__).resolve().parent / "hugo"
SUBDIR = HUGO / "lang_in_subdir" / "public"  # defaultContentLanguageInSubdir = true
AT_ROOT = HUGO / "default_lang_at_root" / "public"  # Hugo's default: English pages at /
OUTSIDE_EN = "is outside https://example.com/en/, the directory this sitemap is served from"
RULE = "(sitemaps.org location rule)"
ENGLISH_ONLY_LINE = 44  # the <loc> of /en/posts/english-only/ in the fixtures' en/sitemap.xml


def url(loc: str) -> str:
    return f"<url><loc>{escape(loc)}</loc></url>"


def urlset(*entries: str) -> str:
    """One entry per line, the first on line 3."""
    body = "".join(entry + "\n" for entry in entries)
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{SITEMAP_NS}">\n{body}</urlset>\n'
    )


def index(*locs: str) -> str:
    """One child per line, the first on line 3."""
    body = "".join(f"<sitemap><loc>{escape(loc)}</loc></sitemap>\n" for loc in locs)
    head = f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="{SITEMAP_NS}">\n'
    return f"{head}{body}</sitemapindex>\n"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def validate(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str]]:
    code = main(["validate", *args])
    out = capsys.readouterr()
    assert out.err == ""
    return code, out.out.splitlines()


def errors_only(lines: list[str]) -> list[str]:
    return [line for line in lines if ": warning: " not in line]


def copy_site(source: Path, folder: Path, site: str = "https://example.com/") -> Path:
    """A copy of a fixture's public/ folder, its URLs moved to ``site``."""
    target = folder / "public"
    shutil.copytree(source, target)
    for path in target.rglob("*.xml"):
        path.write_text(path.read_text().replace("https://example.com/", site))
    return target


def shown(loc: str, resolved: str | None) -> str:
    return loc if resolved is None else f"{loc} (resolved: {resolved})"


# --- Hugo's layout --------------------------------------------------------------------------------


@pytest.mark.parametrize("base_url", [None, "https://example.com/", "https://example.com"])
def test_hugo_multilingual_output_is_valid(
    capsys: pytest.CaptureFixture[str], base_url: str | None
) -> None:
    args = [str(SUBDIR)] + (["--base-url", base_url] if base_url else [])
    assert validate(capsys, *args) == (0, [f"valid: {SUBDIR}"])


def test_hugo_multilingual_output_has_no_finding_at_all() -> None:
    # Not even a warning: every alternate is listed and reciprocal across the two children.
    assert validate_paths([SUBDIR]) == []
    assert validate_paths([SUBDIR], "https://example.com/") == []


def test_hugo_children_are_read_from_their_own_folders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = copy_site(SUBDIR, tmp_path)
    french = site / "fr" / "sitemap.xml"
    french.write_text(french.read_text().replace("T08:00:00+02:00", "T08:00:00", 1))
    code, lines = validate(capsys, str(site))
    assert (code, lines) == (
        1,
        [
            f"{french}:6: lastmod '2024-05-03T08:00:00' has no time zone; W3C Datetime needs "
            "one (e.g. +00:00)"
        ],
    )
    (site / "en" / "sitemap.xml").unlink()
    code, lines = validate(capsys, str(site))
    assert code == 1
    assert errors_only(lines)[-1] == (
        f"{site / 'sitemap.xml'}:5: child https://example.com/en/sitemap.xml is missing: "
        f"no file {site / 'en' / 'sitemap.xml'}"
    )


@pytest.mark.parametrize("base_url", [None, "https://example.com/blog/"])
def test_hugo_site_served_below_the_host_root(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], base_url: str | None
) -> None:
    # A GitHub Pages project site: baseURL https://example.com/blog/, children /blog/en/, ...
    site = copy_site(SUBDIR, tmp_path, "https://example.com/blog/")
    args = [str(site)] + (["--base-url", base_url] if base_url else [])
    assert validate(capsys, *args) == (0, [f"valid: {site}"])


def test_hugo_default_language_at_root_lists_urls_above_its_sitemap(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Hugo's default (defaultContentLanguageInSubdir = false) serves the English pages from /
    # but still writes their sitemap to /en/sitemap.xml: those URLs are above it.
    english = AT_ROOT / "en" / "sitemap.xml"
    expected = [
        f"{english}:{line}: loc https://example.com/{path} {OUTSIDE_EN} {RULE}"
        for line, path in [
            (5, ""),
            (18, "posts/hello/"),
            (31, "posts/"),
            (ENGLISH_ONLY_LINE, "posts/english-only/"),
            (47, "about/"),
        ]
    ]
    assert validate(capsys, str(AT_ROOT)) == (1, expected)
    assert validate(capsys, str(AT_ROOT), "--base-url", "https://example.com/") == (1, expected)


# --- children above the index, or elsewhere -------------------------------------------------------


@pytest.mark.parametrize(
    ("loc", "resolved"),
    [
        ("https://example.com/sitemap.xml", None),
        ("https://example.com/fr/sitemap.xml", None),
        ("https://example.com/english/sitemap.xml", None),  # /en is a prefix, not a directory
        ("https://example.com/en", None),
        ("https://example.com", None),
        ("https://example.com/sitemap.xml?dir=/en/", None),  # a query is no directory
        ("https://example.com/?/en/sitemap.xml", None),
        ("https://example.com/#/en/sitemap.xml", None),
        ("https://example.com/en/../sitemap.xml", "https://example.com/sitemap.xml"),
        ("https://example.com/en/%2e%2e/sitemap.xml", "https://example.com/sitemap.xml"),
        ("https://example.com/en/%2E%2E/sitemap.xml", "https://example.com/sitemap.xml"),
        ("https://example.com/en/.%2e/sitemap.xml", "https://example.com/sitemap.xml"),
        ("https://example.com/en/%2e./sitemap.xml", "https://example.com/sitemap.xml"),
        ("https://example.com/en/a/../../sitemap.xml", "https://example.com/sitemap.xml"),
        ("https://example.com/en/./%2e%2e/fr/sitemap.xml", "https://example.com/fr/sitemap.xml"),
        ("https://example.com/en/%2e%2e", "https://example.com/"),
    ],
)
def test_a_child_above_the_index_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], loc: str, resolved: str | None
) -> None:
    # The index is served from /en/: its children must be there or below, whatever the spelling.
    folder = tmp_path / "en"
    folder.mkdir()
    write(folder, "sitemap.xml", index(loc))
    write(tmp_path, "sitemap.xml", "not XML: never read")  # what a way up would reach
    code, lines = validate(capsys, str(folder), "--base-url", "https://example.com/en/")
    assert (code, lines) == (
        1,
        [
            f"{folder / 'sitemap.xml'}:3: index child {shown(loc, resolved)} is outside "
            "https://example.com/en/, the directory this index is served from; a child must "
            f"be there or below it {RULE}"
        ],
    )


def test_a_relative_child_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, "sitemap.xml", index("../sitemap.xml"))
    code, lines = validate(capsys, str(tmp_path), "--base-url", "https://example.com/en/")
    assert (code, lines) == (
        1,
        [f"{tmp_path / 'sitemap.xml'}:3: loc '../sitemap.xml' is not an absolute http(s) URL"],
    )


@pytest.mark.parametrize("base_url", [None, "https://example.com/"])
def test_a_child_naming_the_index_itself_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], base_url: str | None
) -> None:
    # Without base_url the index's own URL is unknown; naming it still shows.
    site = copy_site(SUBDIR, tmp_path)
    entry = site / "sitemap.xml"
    entry.write_text(entry.read_text().replace("/fr/sitemap.xml", "/sitemap.xml"))
    args = [str(site)] + (["--base-url", base_url] if base_url else [])
    code, lines = validate(capsys, *args)
    assert code == 1
    assert errors_only(lines) == [
        f"{entry}:12: child https://example.com/sitemap.xml is this index itself; "
        "indexes cannot nest"
    ]


@pytest.mark.parametrize("base_url", [None, "https://example.com/"])
@pytest.mark.parametrize(
    ("child", "origin"),
    [
        ("https://other.example/fr/sitemap.xml", "https://other.example"),
        ("http://example.com/fr/sitemap.xml", "http://example.com"),
        ("https://example.com:8443/fr/sitemap.xml", "https://example.com:8443"),
        ("https://example.com.evil.example/fr/sitemap.xml", "https://example.com.evil.example"),
        ("https://example.com@evil.example/fr/sitemap.xml", "https://evil.example"),
    ],
)
def test_a_child_on_another_origin_is_an_error_and_is_not_read(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    child: str,
    origin: str,
    base_url: str | None,
) -> None:
    site = copy_site(SUBDIR, tmp_path)
    entry = site / "sitemap.xml"
    entry.write_text(entry.read_text().replace("https://example.com/fr/sitemap.xml", child))
    (site / "fr" / "sitemap.xml").write_text("not XML: never read")
    args = [str(site)] + (["--base-url", base_url] if base_url else [])
    code, lines = validate(capsys, *args)
    why = ", where this sitemap is served" if base_url else " like the first loc (line 5)"
    assert code == 1
    shown = child.replace("example.com@", "***@")  # (user info is never shown: docs/cli.md)
    assert errors_only(lines) == [
        f"{entry}:12: loc {shown} is on {origin}, not https://example.com{why}"
    ]


def test_a_lone_child_in_a_folder_is_found_without_base_url(tmp_path: Path) -> None:
    # The index names one child below it: the child is read from that folder, and its URLs
    # must lie in that child's own directory.
    write(tmp_path, "sitemap.xml", index("https://example.com/blog/sitemap.xml"))
    (tmp_path / "blog").mkdir()
    urls = urlset(url("https://example.com/blog/a"), url("https://example.com/b"))
    child = write(tmp_path / "blog", "sitemap.xml", urls)
    assert [str(v) for v in validate_paths([tmp_path])] == [
        f"{child}:4: loc https://example.com/b is outside https://example.com/blog/, the "
        f"directory this sitemap is served from {RULE}"
    ]


# --- URLs within a child --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("loc", "resolved"),
    [
        ("https://example.com/fr/posts/english-only/", None),
        ("https://example.com/english-only/", None),
        ("https://example.com/english/posts/english-only/", None),
        ("https://example.com/en?/en/posts/english-only/", None),
        ("https://example.com/en/../fr/english-only/", "https://example.com/fr/english-only/"),
        ("https://example.com/en/%2e%2e/fr/english-only/", "https://example.com/fr/english-only/"),
        ("https://example.com/en/posts/%2E%2e/%2e%2E/x", "https://example.com/x"),
    ],
)
def test_a_url_above_its_child_sitemap_is_an_error(
    tmp_path: Path, loc: str, resolved: str | None
) -> None:
    site = copy_site(SUBDIR, tmp_path)
    english = site / "en" / "sitemap.xml"
    text = english.read_text()
    english.write_text(text.replace("https://example.com/en/posts/english-only/", escape(loc)))
    found = [(v.file, v.line, v.message) for v in validate_paths([site])]
    assert found == [
        (str(english), ENGLISH_ONLY_LINE, f"loc {shown(loc, resolved)} {OUTSIDE_EN} {RULE}")
    ]


@pytest.mark.parametrize(
    "loc",
    [
        "https://example.com/en/./posts/x/",
        "https://example.com/en/posts/../x/",
        "https://example.com/en/%2e/y",
        "https://example.com/en/.well-known/z",
        "https://example.com/en/%2E%2Ehidden/",
        "https://example.com/en/x?next=/../../",
        "https://example.com/%65n/percent-encoded-e",
    ],
)
def test_dot_segments_that_stay_inside_are_fine(tmp_path: Path, loc: str) -> None:
    site = copy_site(SUBDIR, tmp_path)
    english = site / "en" / "sitemap.xml"
    text = english.read_text()
    english.write_text(text.replace("https://example.com/en/posts/english-only/", escape(loc)))
    assert validate_paths([site]) == []


def test_a_way_up_deep_in_a_large_file_is_found(tmp_path: Path) -> None:
    # Plain URLs are checked a batch at a time in C; a dot segment must leave that fast path.
    locs = [f"https://example.com/en/page-{number}" for number in range(5_000)]
    locs.insert(4_000, "https://example.com/en/%2e%2e/admin")
    path = write(tmp_path, "sitemap.xml", urlset(*(url(loc) for loc in locs)))
    assert path.stat().st_size > 3 * 64 * 1024  # several batches
    found = [(v.line, v.message) for v in validate_paths([path], "https://example.com/en/")]
    assert found == [
        (
            3 + 4_000,
            "loc https://example.com/en/%2e%2e/admin (resolved: https://example.com/admin) "
            f"{OUTSIDE_EN} {RULE}",
        )
    ]


# --- resolution and cost --------------------------------------------------------------------------


def remove_dot_segments(path: str) -> str:
    """RFC 3986 5.2.4, step by step: the reference the resolver is checked against."""
    output: list[str] = []
    while path:
        if path.startswith(("../", "./")):
            path = path.partition("/")[2]
        elif path.startswith("/./") or path == "/.":
            path = "/" + path[3:]
        elif path.startswith("/../") or path == "/..":
            path = "/" + path[4:]
            output = output[:-1]
        elif path in {".", ".."}:
            path = ""
        else:
            end = path.find("/", 1)
            end = len(path) if end < 0 else end
            output.append(path[:end])
            path = path[end:]
    return "".join(output) or "/"


SEGMENT = st.sampled_from(["a", "b", "", ".", "..", "%2e", "%2E", ".%2e", "%2E.", "%2e%2e", "%41"])


@given(st.lists(SEGMENT, max_size=10))
def test_resolution_follows_rfc_3986(segments: list[str]) -> None:
    path = "/" + "/".join(segments)
    dots = path.replace("%2e", ".").replace("%2E", ".")  # the same unreserved character
    assert server_path(path) == remove_dot_segments(dots).replace("%41", "A")
    assert server_path(server_path(path)) == server_path(path)


def test_deep_children_cost_one_look_per_level_and_per_child(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A thousand children a thousand folders deep, none there: one look per folder level for
    # the first child (to find where the index is), then one per child (a look per level per
    # child, as it once was, is a million).
    deep = "https://example.com/" + "a/" * 1_000
    write(tmp_path, "sitemap.xml", index(*(f"{deep}s-{n}.xml" for n in range(1, 1_001))))
    looks = 0
    stat = os.stat

    def counted(*args: Any, **kwargs: Any) -> os.stat_result:
        nonlocal looks
        looks += 1
        return stat(*args, **kwargs)

    monkeypatch.setattr(os, "stat", counted)
    violations = validate_paths([tmp_path])
    monkeypatch.undo()
    assert len(violations) == 1_000
    assert all("is missing: no file" in violation.message for violation in violations)
    assert 2_000 <= looks < 2_100  # here: 2,007
