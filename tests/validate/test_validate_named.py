"""`sitemill validate` of an output folder reads the user's sitemaps sitemill's index names, as
it reads sitemill's own children: each found in the folder is checked (XSD, location rule)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemill.cli.main import main

BASE = "https://example.com/"
NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
PAGE = "<!doctype html><title>home</title><main><p>Hello</p></main>"


def user_sitemap(loc: str) -> str:
    head = '<?xml version="1.0" encoding="UTF-8"?>\n'
    return f"{head}<urlset {NS}><url><loc>{loc}</loc></url></urlset>\n"


def test_the_named_sitemaps_found_in_the_folder_are_validated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "index.html").write_text(PAGE)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "sitemap.xml").write_text(user_sitemap(f"{BASE}blog/"))  # above it
    argv = ["build", str(tmp_path), "--base-url", BASE, "--sitemap", "docs/sitemap.xml", "-q"]
    assert main([*argv, "--lastmod", "mtime"]) == 0
    assert f"<loc>{BASE}docs/sitemap.xml</loc>" in (tmp_path / "sitemap.xml").read_text()
    capsys.readouterr()
    assert main(["validate", str(tmp_path), "--base-url", BASE]) == 1
    out = capsys.readouterr()
    assert f"{tmp_path / 'docs' / 'sitemap.xml'}:2: loc {BASE}blog/ is outside" in out.out + out.err
    (tmp_path / "docs" / "sitemap.xml").write_text(user_sitemap(f"{BASE}docs/a/"))
    assert main(["validate", str(tmp_path), "--base-url", BASE]) == 0
