"""What the CLI prints of values it was handed: no forged line, no escape sequence, no secret."""

from __future__ import annotations

import subprocess
from pathlib import Path

from clirun import SITEMILL, run_sitemill
from conftest import BASE_URL, SiteMaker, page
from livesite import serve_folder

NO_PROXY = {"no_proxy": "*", "NO_PROXY": "*"}
FORGED = "x\x1b[2J\x1b]0;owned\x07\nsitemill: error: forged\u202e"


def _assert_safe(stderr: str) -> None:
    lines = stderr.splitlines()
    assert lines, "nothing printed"
    assert all(line.startswith("sitemill: warning: ") for line in lines), lines
    assert "\x1b" not in stderr and "\x07" not in stderr and "\u202e" not in stderr


def test_a_hostile_file_name_cannot_forge_a_line_or_steer_the_terminal(
    make_site: SiteMaker, tmp_path: Path
) -> None:
    # Two files of one URL: the second is skipped with a warning that names it; a name with a
    # control character names no page (issue 78): one warning names it.
    bidi = "forged\u202e\u2028"
    site = make_site(
        {f"{bidi}/index.htm": page("a"), f"{bidi}/index.html": page("b"), f"{FORGED}.html": page()}
    )
    result = run_sitemill("build", str(site), "--base-url", BASE_URL, "--out", str(tmp_path / "o"))
    assert result.returncode == 0, result.stderr
    _assert_safe(result.stderr)
    assert result.stderr.count("\n") == 2
    assert "forged\\u202e\\u2028/index.html: dup" in result.stderr
    assert "e.g. 'x\\x1b[2J\\x1b]0;owned\\x07\\nsitemill: error: forged\\u202e.html'" in (
        result.stderr
    )


def test_a_hostile_error_is_one_escaped_line(make_site: SiteMaker, tmp_path: Path) -> None:
    site = make_site({"index.html": page()})
    result = run_sitemill("build", str(site), "--base-url", f"ftp://{FORGED}")
    assert result.returncode != 0
    assert result.stderr.startswith("sitemill: error: ")
    assert result.stderr.count("\n") == 1
    assert "\x1b" not in result.stderr and "\u202e" not in result.stderr


def test_a_previous_state_url_is_shown_without_its_secrets(
    make_site: SiteMaker, tmp_path: Path
) -> None:
    site = make_site({"index.html": page()})
    (tmp_path / "live").mkdir()
    with serve_folder(tmp_path / "live") as url:
        host = url.removeprefix("http://")
        named = (
            f"http://{host}state.json.gz"  # a presigned URL of a state in a private bucket
            "?X-Amz-Signature=0f1e2d3c&X-Amz-Security-Token=IQoJb3&part=1"
        )
        args = ["build", str(site), "--base-url", BASE_URL, "--out", str(tmp_path / "out")]
        result = run_sitemill(*args, "--previous-state", named, env=NO_PROXY)
        assert result.returncode == 0, result.stderr
        _assert_safe(result.stderr)
        for secret in ("0f1e2d3c", "IQoJb3"):
            assert secret not in result.stderr + result.stdout
        assert (
            f"no previous state at http://{host}state.json.gz"
            "?X-Amz-Signature=***&X-Amz-Security-Token=***&part=1 (HTTP 404 or 410)"
        ) in result.stderr
        # User info would be taken for a host name: refused, without showing it.
        named = f"http://deploy:hunter2@{host}state.json.gz"
        result = run_sitemill(*args, "--previous-state", named, env=NO_PROXY)
    assert result.returncode == 2
    assert result.stderr.startswith("sitemill: error: previous_state: 'http://***@127.0.0.1:")
    assert "carries user info" in result.stderr and "hunter2" not in result.stderr


def test_validate_shows_a_hostile_sitemap_safely(tmp_path: Path) -> None:
    sitemap = tmp_path / "sitemap.xml"
    sitemap.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<url><loc>https://e.com/a&#x1b;[31m&#x202e;\nsitemill: error: forged</loc></url>"
        "</urlset>\n",
        encoding="utf-8",
    )
    result = run_sitemill("validate", str(sitemap))
    assert result.returncode == 1
    assert result.stdout, result.stderr
    assert "\x1b" not in result.stdout and "\u202e" not in result.stdout
    assert not any(line.startswith("sitemill: error") for line in result.stdout.splitlines())


def test_a_reader_that_leaves_early_gets_no_traceback(tmp_path: Path) -> None:
    """`sitemill urls list | head -0`: the report cannot be printed; the sitemaps are written,
    and the run ends with status 1 and no traceback."""
    listed = tmp_path / "urls.txt"
    listed.write_text("".join(f"https://example.com/p{n}\n" for n in range(10)))
    command = [SITEMILL, "urls", str(listed), "--base-url", "https://example.com/"]
    process = subprocess.Popen(
        [*command, "--out", str(tmp_path / "out")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # before the command writes a line
    with process.stderr:
        errors = process.stderr.read().decode()
    assert process.wait(timeout=60) == 1
    assert "Traceback" not in errors and "BrokenPipe" not in errors
    assert (tmp_path / "out" / "sitemap.xml").exists()
