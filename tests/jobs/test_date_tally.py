"""The date tally counts the pages listed: a copy the canonical gate leaves out is not dated in
the counts, on a first run or on a re-deploy (issue 82: 66 URLs counted as 71 dates)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sitemill.cli.main import main

BASE = "https://www.example.com/"


def page(title: str, head: str = "") -> str:
    return (
        f"<html><head><title>{title}</title>{head}</head>"
        f"<body><main><p>{title} words words words</p></main></body></html>"
    )


def report_lines(site: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    assert main(["build", str(site), "--base-url", BASE]) == 0
    return capsys.readouterr().out.splitlines()


def test_a_canonical_copy_is_in_no_date_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = tmp_path / "public"
    site.mkdir()
    for name in ("a", "b", "c"):
        (site / f"{name}.html").write_text(page(name), encoding="utf-8")
    copy = f'<link rel="canonical" href="{BASE}a.html">'
    (site / "a-copy.html").write_text(page("a", copy), encoding="utf-8")

    lines = report_lines(site, capsys)
    assert lines[:2] == ["nothing needs you", f"3 URLs in one sitemap in {site} (lastmod: none 3)"]
    assert "lastmod: 3 without a date: no evidence on a first run" in "\n".join(lines)
    assert "skipped: canonical 1" in lines

    state = (site / "sitemill-state.json.gz").read_bytes()
    for path in site.glob("*.html"):  # a re-deploy of the same build: new file times
        os.utime(path, (1_700_000_000, 1_700_000_000))
    lines = report_lines(site, capsys)
    assert lines[:2] == ["nothing needs you", f"3 URLs in one sitemap in {site} (lastmod: none 3)"]
    assert "new page" not in "\n".join(lines)
    assert "nothing changed" in lines
    assert (site / "sitemill-state.json.gz").read_bytes() == state
