"""A tree build keeps the URLs it removed in its state, for `sitemill check` (siteredirects)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemill.cli.main import main
from sitemill.state.parse import parse_state
from sitemill.state.removedurls import RemovedUrl

BASE = "https://example.org/"


def page(text: str, head: str = "") -> str:
    return (
        f"<html><head><title>{text[:9]}</title>{head}</head><body><main>{text}</main></body></html>"
    )


def build(site: Path, out: Path) -> None:
    assert main(["-q", "build", str(site), "--out", str(out), "--base-url", BASE]) == 0


def built_then_four_removed(site: Path, out: Path) -> dict[str, str]:
    """Five pages built once; then a.html gone, b.html renamed to new/b.html, c.html made a
    redirect stub, d.html noindex (still served). The pages' first texts."""
    site.mkdir()
    files = {
        "index.html": page("home " * 40),
        "a.html": page("alpha words " * 30),
        "b.html": page("beta words " * 30),
        "c.html": page("gamma words " * 30),
        "d.html": page("delta words " * 30),
    }
    for name, body in files.items():
        (site / name).write_text(body, encoding="utf-8")
    build(site, out)
    assert parse_state((out / "sitemill-state.json.gz").read_bytes()).removed == {}
    (site / "a.html").unlink()  # gone
    (site / "new").mkdir()
    (site / "new/b.html").write_text(files["b.html"], encoding="utf-8")
    (site / "b.html").unlink()  # renamed
    (site / "c.html").write_text('<meta http-equiv="refresh" content="0; url=/">', encoding="utf-8")
    hidden = '<meta name="robots" content="noindex">'
    (site / "d.html").write_text(page("delta words " * 30, hidden), encoding="utf-8")
    return files


def test_the_removed_urls_are_kept_until_a_later_build_removes_others(tmp_path: Path) -> None:
    site, out = tmp_path / "site", tmp_path / "out"
    files = built_then_four_removed(site, out)
    build(site, out)
    state = out / "sitemill-state.json.gz"
    assert parse_state(state.read_bytes()).removed == {
        BASE + "a.html": RemovedUrl("gone"),
        BASE + "b.html": RemovedUrl("renamed", BASE + "new/b.html"),
        BASE + "c.html": RemovedUrl("redirected", BASE),
    }  # (d.html is still served, noindex: a public state does not name it)
    written = state.read_bytes()
    build(site, out)
    assert state.read_bytes() == written  # (a run that removes nothing keeps them)
    (site / "a.html").write_text(files["a.html"], encoding="utf-8")  # listed again
    build(site, out)
    assert BASE + "a.html" not in parse_state(state.read_bytes()).removed


def test_a_build_that_removes_nothing_reads_no_redirect_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sitemill.jobs import siteredirects

    site, out = tmp_path / "site", tmp_path / "out"
    site.mkdir()
    (site / "index.html").write_text(page("home " * 40), encoding="utf-8")
    (site / "_redirects").write_text("/old /new 301\n", encoding="utf-8")
    build(site, out)
    reads = []
    real = siteredirects.host_rules
    monkeypatch.setattr(siteredirects, "host_rules", lambda root: reads.append(1) or real(root))
    build(site, out)
    (site / "a.html").write_text(page("alpha words " * 30), encoding="utf-8")
    build(site, out)
    assert reads == []  # (nothing removed: the rules are never asked)
    (site / "a.html").unlink()
    build(site, out)
    assert reads == [1]


def test_the_build_says_what_a_reader_will_miss_before_the_deploy(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A removed URL nothing redirects answers 404 once deployed, and one whose content a new
    page holds needs a redirect: the build says so (`sitemill check` only could, after the
    deploy); a redirected URL and a page left out but still served (noindex) need nothing."""
    site, out = tmp_path / "site", tmp_path / "out"
    built_then_four_removed(site, out)
    caplog.clear()

    assert main(["build", str(site), "--out", str(out), "--base-url", BASE]) == 0

    warned = [r.getMessage() for r in caplog.records if "removed" in r.getMessage()]
    assert warned == [
        "1 URL removed that nothing redirects: /a.html; once this build is deployed, it answers "
        "404: add a redirect to the page that takes its place, if one does",
        "1 URL removed whose content a new page holds: /b.html -> /new/b.html; add this "
        "redirect before this build is deployed, or the old URL answers 404",
    ]
    assert {r.levelname for r in caplog.records if "removed" in r.getMessage()} == {"WARNING"}
    caplog.clear()
    assert main(["build", str(site), "--out", str(out), "--base-url", BASE]) == 0
    assert [r for r in caplog.records if "removed" in r.getMessage()] == []  # (said once)


def test_the_first_line_of_the_report_counts_what_a_reader_will_miss(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """issue 82: the closing lines say first whether anything needs the user, counted: the
    removed URLs by what to do, the noindex page a user may not expect; the warnings that say
    the removed URLs are not counted again as other warnings."""
    site, out = tmp_path / "site", tmp_path / "out"
    built_then_four_removed(site, out)
    capsys.readouterr()

    assert main(["build", str(site), "--out", str(out), "--base-url", BASE]) == 0

    assert capsys.readouterr().out.splitlines()[0] == (
        "needs you: 1 removed URL nothing redirects, 1 removed URL to redirect, "
        "1 page left out (noindex 1)"
    )
    assert main(["build", str(site), "--out", str(out), "--base-url", BASE]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "needs you: 1 page left out (noindex 1)"
