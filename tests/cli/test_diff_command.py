"""`sitemill diff`: the URLs a change adds, changes and removes, against the last build's state."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sitemill.cli.main import main

BASE = "https://example.org/docs/"
TEXT = " ".join(f"word{n}" for n in range(200))


def page(title: str, text: str = TEXT, head: str = "") -> str:
    head = f"<!doctype html><html><head><title>{title}</title>{head}</head>"
    return f"{head}<body><main><p>{text}</p></main></body></html>"


def write(site: Path, files: dict[str, str]) -> None:
    for name, body in files.items():
        path = site / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")


@pytest.fixture
def changed_site(tmp_path: Path) -> tuple[Path, Path]:
    """A site built once (its state in ``out``), then restructured in place."""
    site, out = tmp_path / "site", tmp_path / "out"
    write(site, {
        "index.html": page("Home", "welcome " * 40),
        "guide/install.html": page("Install", TEXT),
        "guide/old.html": page("Old", "old words " * 30),
        "guide/moved.html": page("Moved", "moved here " * 30),
        "kept.html": page("Kept", "kept " * 40),
    })  # fmt: skip
    assert main(["-q", "build", str(site), "--out", str(out), "--base-url", BASE]) == 0
    (site / "guide/install.html").unlink()
    (site / "guide/old.html").unlink()
    write(site, {
        "setup/install.html": page("Install", TEXT),  # the same content, a new URL
        "guide/moved.html": '<meta http-equiv="refresh" content="0; url=../moved/">',
        "moved/index.html": page("Moved", "moved here " * 30),
        "kept.html": page("Kept", "kept and changed " * 40),
    })  # fmt: skip
    return site, out


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().out


def test_the_report_as_json(
    changed_site: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    site, out = changed_site
    before = sorted(path.name for path in site.rglob("*"))
    state = out / "sitemill-state.json.gz"
    code, printed = run(
        ["diff", str(site), "--base-url", BASE, "--against", str(state), "--json"], capsys
    )
    assert code == 0
    report = json.loads(printed)
    assert report["added"] == [BASE + "moved/", BASE + "setup/install.html"]
    assert [item["url"] for item in report["changed"]] == [BASE + "kept.html"]
    removed = {item["url"]: (item["verdict"], item.get("target")) for item in report["removed"]}
    assert removed == {
        BASE + "guide/install.html": ("renamed", BASE + "setup/install.html"),
        BASE + "guide/moved.html": ("redirected", BASE + "moved/"),
        BASE + "guide/old.html": ("gone", None),
    }
    assert report["counts"]["gone"] == 1
    assert sorted(path.name for path in site.rglob("*")) == before  # (nothing written)


def test_the_table_and_fail_on_removed(
    changed_site: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    site, out = changed_site
    argv = ["diff", str(site), "--base-url", BASE, "--out", str(out)]  # (the state beside)
    code, printed = run(argv, capsys)
    assert code == 0
    lines = printed.splitlines()
    assert lines[0].startswith("2 added, 1 changed, 3 removed (1 redirected, 1 renamed, 1 gone)")
    assert "  gone        /guide/old.html  (no redirect, no page with its content)" in lines
    assert any(
        line.startswith("  renamed     /guide/install.html -> /setup/install.html")
        for line in lines
    )
    code, _ = run([*argv, "--fail-on-removed"], capsys)
    assert code == 1


def test_no_state_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, {"index.html": page("Home")})
    assert main(["diff", str(tmp_path), "--base-url", BASE]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no state to compare with" in err and "--against" in err


@pytest.mark.parametrize(
    ("against", "said"),
    [
        ("missing.json.gz", "cannot compare: no state at {dir}/missing.json.gz (no such file)"),
        ("plain.txt", "cannot compare: {dir}/plain.txt is not a sitemill state (not gzip)"),
    ],
)
def test_a_state_to_compare_with_that_is_no_state_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], against: str, said: str
) -> None:
    """Named with --against, a state not there or no state is one error line, no warning of
    "a first run" before it (issue 82)."""
    write(tmp_path, {"index.html": page("Home"), "plain.txt": "hello\n"})
    code = main(["diff", str(tmp_path), "--base-url", BASE, "--against", f"{tmp_path}/{against}"])
    err = capsys.readouterr().err
    assert code == 1
    assert err == f"sitemill: error: {said.format(dir=tmp_path)}\n"


def test_another_base_url_than_the_states_is_one_line_and_a_stop(
    changed_site: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """Every page would be "renamed" against another site's state: said so, exit 1 (issue 82)."""
    site, out = changed_site
    other = "https://other.example/"
    code = main(["diff", str(site), "--base-url", other, "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 1 and captured.out == ""
    assert captured.err == (
        f"sitemill: error: {out}/sitemill-state.json.gz is the state of {BASE}, not of {other}: "
        f"compare with --base-url {BASE}, or with a state of {other}\n"
    )


def test_an_unchanged_site_reports_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site, out = tmp_path / "site", tmp_path / "out"
    write(site, {"index.html": page("Home"), "a.html": page("A", "a " * 50)})
    assert main(["-q", "build", str(site), "--out", str(out), "--base-url", BASE]) == 0
    code, printed = run(
        ["diff", str(site), "--base-url", BASE, "--out", str(out), "--json"], capsys
    )
    report = json.loads(printed)
    assert code == 0 and report["added"] == report["changed"] == report["removed"] == []


def test_a_redirects_file_counts_and_the_suggestions_are_written(
    changed_site: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site, out = changed_site
    (site / "_redirects").write_text("/docs/guide/old.html /docs/ 301\n", encoding="utf-8")
    target = tmp_path / "suggested" / "_redirects"
    target.parent.mkdir()
    argv = ["diff", str(site), "--base-url", BASE, "--out", str(out), "--json"]
    code, printed = run([*argv, "--write-redirects", str(target)], capsys)
    report = json.loads(printed)
    removed = {item["url"]: item for item in report["removed"]}
    old = removed[BASE + "guide/old.html"]
    assert (old["verdict"], old["target"], old["detail"]) == (
        "redirected", BASE, "a _redirects rule (301)"
    )  # fmt: skip
    assert code == 0 and report["counts"]["gone"] == 0
    written = target.read_text(encoding="utf-8")
    assert "/docs/guide/install.html  /docs/setup/install.html  301" in written.splitlines()
    assert report["suggested_redirects"]["form"] == "netlify"
    assert report["suggested_redirects"]["text"] == written
    assert run([*argv, "--write-redirects", str(target)], capsys)[0] == 0  # (its own: replaced)


def test_a_file_sitemill_did_not_write_is_never_replaced(
    changed_site: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    site, out = changed_site
    users = site / "_redirects"
    users.write_text("/a /b 301\n", encoding="utf-8")
    argv = [
        "diff",
        str(site),
        "--base-url",
        BASE,
        "--out",
        str(out),
        "--write-redirects",
        str(users),
    ]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a file sitemill wrote" in err
    assert users.read_text(encoding="utf-8") == "/a /b 301\n"


@pytest.mark.parametrize("kind", ["link to a file", "dangling link", "linked folder", "FIFO"])
def test_redirects_are_never_written_through_a_link_nor_into_what_is_no_file(
    kind: str,
    changed_site: tuple[Path, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A committed `_redirects -> ~/.bashrc` (or a folder linked out of the site) must not let
    --write-redirects replace a file outside the site or create a link's target."""
    site, out = changed_site
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = outside / "victim"
    victim.write_bytes(b"# suggested by sitemill diff (a file sitemill may replace)\n")
    target = site / "_redirects"
    if kind == "link to a file":
        target.symlink_to(victim)
    elif kind == "dangling link":
        target.symlink_to(outside / "created")
    elif kind == "linked folder":
        (site / "static").symlink_to(outside, target_is_directory=True)
        target = site / "static" / "victim"
    else:
        os.mkfifo(target)
    # a reader on the FIFO: a write into it would not wait, it would be seen
    reader = os.open(target, os.O_RDONLY | os.O_NONBLOCK) if kind == "FIFO" else None
    argv = ["diff", str(site), "--base-url", BASE, "--out", str(out)]
    try:
        assert main([*argv, "--write-redirects", str(target)]) == 2
        assert reader is None or _drained(reader) == b""
    finally:
        if reader is not None:
            os.close(reader)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("sitemill: error: --write-redirects: ")
    assert "never through a link" in err
    assert victim.read_bytes() == b"# suggested by sitemill diff (a file sitemill may replace)\n"
    assert sorted(path.name for path in outside.iterdir()) == ["victim"]
    assert not [path for path in site.rglob(".sitemill-*")]  # no temporary file left


def _drained(descriptor: int) -> bytes:
    try:
        return os.read(descriptor, 1 << 20)
    except BlockingIOError:
        return b""


def test_redirects_replace_a_file_sitemill_wrote_by_a_rename_keeping_its_mode(
    changed_site: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    site, out = changed_site
    target = site / "_redirects"
    target.write_bytes(b"# suggested by sitemill diff\n")
    target.chmod(0o640)
    inode = target.stat().st_ino
    argv = ["diff", str(site), "--base-url", BASE, "--out", str(out), "--write-redirects"]
    assert main([*argv, str(target)]) == 0
    assert "wrote " in capsys.readouterr().out
    assert target.stat().st_ino != inode and target.stat().st_mode & 0o777 == 0o640
    assert "/docs/setup/install.html" in target.read_text(encoding="utf-8")


@pytest.mark.parametrize(("form", "line"), [
    ("hugo", '  aliases: ["/guide/install.html"]'),
    ("mkdocs", '        "guide/install.md": "setup/install.md"'),
])  # fmt: skip
def test_the_form_is_the_one_asked(
    form: str, line: str, changed_site: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    site, out = changed_site
    argv = ["diff", str(site), "--base-url", BASE, "--out", str(out), "--json"]
    _, printed = run([*argv, "--redirects-form", form], capsys)
    assert line in json.loads(printed)["suggested_redirects"]["text"].splitlines()


@pytest.mark.parametrize("flag", ["--no-content-dates", "--lastmod=none"])
def test_a_build_that_keeps_no_state_cannot_be_compared(
    flag: str, changed_site: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    site, out = changed_site
    assert main(["diff", str(site), "--base-url", BASE, "--out", str(out), flag]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "keeps none: turn content dates on" in err


def test_the_forms_offered_are_the_forms_there_are() -> None:
    from sitemill.cli._diff import REDIRECT_FORMS
    from sitemill.redirects import RedirectForm

    assert tuple(form.value for form in RedirectForm) == REDIRECT_FORMS
