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


def test_one_url_repeated_in_a_gzip_child_is_a_few_lines_and_a_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A small gzip child that repeats one URL 50,000 times: five warnings, then one line that
    counts the rest (not 49,999 lines), and the summary counts every one."""
    import gzip

    (tmp_path / "sitemap.xml").write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="{SITEMAP_NS}">\n'
        "<sitemap><loc>https://example.com/sitemap-1.xml.gz</loc></sitemap>\n</sitemapindex>\n"
    )
    child = tmp_path / "sitemap-1.xml.gz"
    child.write_bytes(gzip.compress((HEAD + URL * 50_000 + "</urlset>\n").encode()))
    assert child.stat().st_size < 10_000  # (a bomb: tiny on disk)
    code, lines = validate(capsys, "validate", str(tmp_path))
    repeat = "warning: duplicate loc https://example.com/ (first at line 3)"
    assert code == 0
    assert lines == [
        *(f"{child}:{line}: {repeat}" for line in range(4, 9)),
        f"{child}:9: warning: … and 49,994 more duplicate loc (up to line 50,002)",
        f"valid: {tmp_path} (with 49,999 warnings)",
    ]


def test_repeats_are_counted_per_file_and_a_few_are_shown_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    few, many = tmp_path / "few.txt", tmp_path / "many.txt"
    few.write_text("https://example.com/\n" * 6)  # 5 repeats: all shown
    many.write_text("https://example.com/\n" * 8)  # 7 repeats: 5 shown and a count
    code, lines = validate(capsys, "validate", str(few), str(many))
    repeat = "warning: duplicate loc https://example.com/ (first at line 1)"
    assert code == 0
    assert lines == [
        *(f"{few}:{line}: {repeat}" for line in range(2, 7)),
        *(f"{many}:{line}: {repeat}" for line in range(2, 7)),
        f"{many}:7: warning: … and 2 more duplicate loc (up to line 8)",
        f"valid: {few}, {many} (with 12 warnings)",
    ]
