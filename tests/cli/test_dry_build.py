"""`sitemill build --dry-run`: the whole build in memory; what it would write, delete and change
against the state, and nothing written (issue 82)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemill.cli.main import main

BASE = "https://example.org/docs/"


def page(title: str, words: str) -> str:
    return (
        f"<!doctype html><html><head><title>{title}</title></head>"
        f"<body><main><p>{words * 30}</p></main></body></html>"
    )


def write(site: Path, files: dict[str, str]) -> None:
    for name, body in files.items():
        path = site / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {
        path.relative_to(folder).as_posix(): (path.read_bytes(), path.stat().st_mtime_ns)
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def dry_run(site: Path, out: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    assert main(["build", str(site), "--out", str(out), "--base-url", BASE, "--dry-run"]) == 0
    return capsys.readouterr().out.splitlines()


def test_a_dry_build_says_what_it_would_write_and_change_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site, out = tmp_path / "site", tmp_path / "out"
    write(site, {"index.html": page("Home", "home "), "old.html": page("Old", "old ")})
    assert main(["-q", "build", str(site), "--out", str(out), "--base-url", BASE]) == 0
    (site / "old.html").unlink()
    write(site, {"new.html": page("New", "new "), "index.html": page("Home", "home again ")})
    before = snapshot(tmp_path)
    lines = dry_run(site, out, capsys)
    state = f"{out}/sitemill-state.json.gz"
    assert lines[:3] == [f"dry run: nothing was written to {out}", "2 URLs in 1 sitemap file",
                         "would write: sitemap.xml"]  # fmt: skip
    assert f"would write the state: {state}" in lines
    report = lines[lines.index(f"would write the state: {state}") + 1 :]
    assert report[:4] == [
        f"1 added, 1 changed, 1 removed (0 redirected, 0 renamed, 1 gone) against {state}",
        "removed:",
        "  gone        /old.html  (no redirect, no page with its content)",
        "changed:",
    ]
    assert report[4].startswith("  /  ") and report[4].endswith("from the deploy that changed it")
    assert report[5:] == ["added:", "  /new.html"]
    assert snapshot(tmp_path) == before
    capsys.readouterr()
    assert main(["-q", "build", str(site), "--out", str(out), "--base-url", BASE]) == 0
    lines = dry_run(site, out, capsys)  # (built: nothing left to do)
    assert "nothing would change" in lines
    assert (
        lines[-1]
        == f"0 added, 0 changed, 0 removed (0 redirected, 0 renamed, 0 gone) against {state}"
    )


def test_a_first_dry_build_says_there_is_no_state_yet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site, out = tmp_path / "site", tmp_path / "out"
    write(site, {"index.html": page("Home", "home ")})
    out.mkdir()
    lines = dry_run(site, out, capsys)
    assert lines[:3] == [f"dry run: nothing was written to {out}", "1 URL in 1 sitemap file",
                         "would write: sitemap.xml"]  # fmt: skip
    assert lines[-2:] == [
        f"would write the state: {out}/sitemill-state.json.gz",
        "no state yet: a first run (every page is new)",
    ]
    assert list(out.iterdir()) == []
    assert main(["-q", "build", str(site), "--base-url", BASE, "--dry-run"]) == 0
    assert capsys.readouterr().out == ""
    assert sorted(path.name for path in site.iterdir()) == ["index.html"]


def test_a_dry_build_with_llms_txt_says_what_llms_txt_would_hold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = tmp_path / "site"
    write(site, {"index.html": page("Home", "home "), "a.html": page("A", "a ")})
    argv = ["build", str(site), "--base-url", BASE, "--llms-txt", "on", "--dry-run"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2:5] == [
        "would write: sitemap.xml",
        "would write: llms.txt",
        "one llms.txt; no hreflang clusters (languages by folder are not guessed)",
    ]
    assert sorted(path.name for path in site.iterdir()) == ["a.html", "index.html"]
