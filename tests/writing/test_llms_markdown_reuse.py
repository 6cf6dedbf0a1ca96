"""llms-full.txt and the Markdown twins are made again only when what they are made from
changed: a run whose listed pages read as before converts no page (a Lambda rewrites the files
on every deploy; an unchanged site costs no conversion)."""

from __future__ import annotations

from pathlib import Path

import pytest

import sitemill.llms._markdownfiles as llmsmarkdown
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.report import Report
from sitemill.sinks import LocalDirSink

BASE = "https://example.org/"


def page(title: str, text: str) -> str:
    return (
        f"<!doctype html><html><head><title>{title} | Ex</title></head>"
        f"<body><nav>Menu</nav><main><h1>{title}</h1><p>{text}</p></main></body></html>"
    )


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    for name, title in (("index.html", "Home"), ("a/index.html", "A"), ("b/index.html", "B")):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(page(title, f"The words of {title}."))
    return root


def build(root: Path) -> Report:
    config = load_config(
        {"base_url": BASE, "llms_txt": "true", "llms_full": "true", "llms_pages": "true"},
        {},
        {"lastmod": "mtime"},
    )
    return build_from_tree(config, root, LocalDirSink(root))


@pytest.fixture
def conversions(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many pages each run converts (the second pass of llms.conversion)."""
    counted: list[int] = []
    convert = llmsmarkdown.site_markdowns

    def counting(pages, pool=None, budget=None):  # type: ignore[no-untyped-def]
        counted.append(len(pages))
        return convert(pages, pool, budget)

    monkeypatch.setattr(llmsmarkdown, "site_markdowns", counting)
    return counted


def test_an_unchanged_site_converts_no_page(site: Path, conversions: list[int]) -> None:
    first = build(site)
    assert conversions == [3] and "llms-full.txt" in first.result.written
    full = (site / "llms-full.txt").read_bytes()
    second = build(site)
    assert conversions == [3]  # (none this time)
    assert not second.result.changed and (site / "llms-full.txt").read_bytes() == full
    assert (site / "a" / "index.html.md").exists()  # (kept, not deleted as unwritten)
    third = build(site)
    assert conversions == [3] and not third.result.changed


def test_a_changed_page_makes_them_again(site: Path, conversions: list[int]) -> None:
    build(site)
    (site / "b" / "index.html").write_text(page("B", "New words of B."))
    report = build(site)
    assert conversions == [3, 3]
    assert b"New words of B." in (site / "llms-full.txt").read_bytes()
    assert b"New words of B." in (site / "b" / "index.html.md").read_bytes()
    assert "llms-full.txt" in report.result.written


def test_a_deleted_llms_full_is_written_again(site: Path, conversions: list[int]) -> None:
    build(site)
    full = (site / "llms-full.txt").read_bytes()
    (site / "llms-full.txt").unlink()
    build(site)
    assert conversions == [3, 3] and (site / "llms-full.txt").read_bytes() == full


def test_markup_that_moves_no_date_still_makes_them_again(
    site: Path, conversions: list[int]
) -> None:
    # A heading made a smaller one leaves the content fingerprint as it was (no date moves),
    # but the Markdown shows it: what they are made from holds the page's bytes too.
    build(site)
    old = (site / "a" / "index.html").read_text()
    (site / "a" / "index.html").write_text(old.replace("<h1>A</h1>", "<h3>A</h3>"))
    build(site)
    assert conversions == [3, 3]
    assert b"### A" in (site / "a" / "index.html.md").read_bytes()


def test_deleted_twins_are_written_again(site: Path, conversions: list[int]) -> None:
    build(site)
    twin = (site / "a" / "index.html.md").read_bytes()
    (site / "a" / "index.html.md").unlink()
    build(site)
    assert conversions == [3, 3] and (site / "a" / "index.html.md").read_bytes() == twin
