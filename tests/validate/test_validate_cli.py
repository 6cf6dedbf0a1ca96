"""`sitemill validate` as a user runs it: warnings pass, errors fail, one line each."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemill.cli.main import main
from sitemill.protocol import SITEMAP_NS

HEAD = f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{SITEMAP_NS}">\n'
URL = "<url><loc>https://example.com/</loc></url>\n"


def validate(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str]]:
    code = main([*args])
    out = capsys.readouterr()
    assert out.err == ""
    return code, out.out.splitlines()


def test_warnings_pass_and_are_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(HEAD + URL + URL + URL + "</urlset>\n")
    code, lines = validate(capsys, "validate", str(path))
    assert code == 0
    assert lines == [
        f"{path}:4: warning: duplicate loc https://example.com/ (first at line 3)",
        f"{path}:5: warning: duplicate loc https://example.com/ (first at line 3)",
        f"valid: {path} (with 2 warnings)",
    ]
    assert validate(capsys, "-q", "validate", str(path)) == (0, [])


def test_errors_fail_and_quiet_keeps_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(HEAD + URL + URL + "<url><loc>https://example.com/a b</loc></url>\n</urlset>\n")
    error = (
        f"{path}:5: loc 'https://example.com/a b' has characters that must be percent-encoded: ' '"
    )
    code, lines = validate(capsys, "validate", str(path))
    assert code == 1
    assert lines == [
        f"{path}:4: warning: duplicate loc https://example.com/ (first at line 3)",
        error,
    ]
    assert validate(capsys, "-q", "validate", str(path)) == (1, [error])


def test_valid_without_warnings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(HEAD + URL + "</urlset>\n")
    assert validate(capsys, "validate", str(path)) == (0, [f"valid: {path}"])
