"""validate: llms.txt files (llmstxt.org), by name and in a directory; every file sitemill writes
passes; each case the reference parser (llms-txt) cannot read is reported, one line each."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from outputlist import validate_paths
from sitemill.cli.main import main
from sitemill.llms._files import llms_files
from sitemill.llms._validation import MAX_LLMS_TXT_BYTES, check_llms_txt
from sitemill.llms.page import LlmsPage, LlmsSite
from sitemill.validate import Severity

HEAD = "# Site\n\n> A summary\n\nThe pages.\n\n"
GOOD = HEAD + "## Docs\n\n- [A](https://e.org/a/): about a\n- [B](https://e.org/b/)\n"


def problems(text: str | bytes) -> list[tuple[int | None, str, Severity]]:
    data = text.encode() if isinstance(text, str) else text
    return [(v.line, v.message, v.severity) for v in check_llms_txt(data, "llms.txt")]


def errors(text: str | bytes) -> list[tuple[int | None, str]]:
    return [
        (line, message) for line, message, severity in problems(text) if severity is Severity.ERROR
    ]


def test_a_good_file_passes() -> None:
    assert problems(GOOD) == []


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("Site\n\nThe pages.\n", 1, "no H1 first"),
        ("\n# Site\n\nThe pages.\n", 1, "no H1 first"),
        ("#Site\n\nThe pages.\n", 1, "no H1 first"),
        (GOOD + "\n# Again\n", 12, "a second H1"),
        (GOOD + "\n### Sub\n", 12, "a level-3 heading"),
        (GOOD + "\nSome prose.\n", 12, "not a '- [title](url)' item"),
        (GOOD + "  continued description\n", 11, "not a '- [title](url)' item"),
        (GOOD + "* [C](https://e.org/c/)\n", 11, "a '*' or '+' bullet"),
        (GOOD + "- just text\n", 11, "an item without a link"),
        (GOOD + "- [](https://e.org/c/)\n", 11, "has no title"),
        (GOOD + "- [a]b](https://e.org/c/)\n", 11, "cannot read"),
        (GOOD + "- [a](https://e.org/c_(d))\n", 11, "cannot read"),
        (GOOD + "- [a](/relative/)\n", 11, "not an absolute http(s) URL"),
        (GOOD + "- [a](ftp://e.org/)\n", 11, "not an absolute http(s) URL"),
        (GOOD + "- [a](https://[::1/)\n", 11, "not an absolute http(s) URL"),
        (GOOD + "- [a](https://e.org/) more\n", 11, "must follow ': '"),
        (
            GOOD + "\n## Docs\n\n- [C](https://e.org/c/)\n",
            12,
            "section 'Docs' again (first on line 7)",
        ),
        (GOOD + "\n##\n\n- [C](https://e.org/c/)\n", 12, "no name"),
        (GOOD + "\n##Bare\n", 12, "'#' with no space"),
        ("# Site\n\n## Docs\n\n- [A](https://e.org/a/)\n", 3, "no summary or paragraph"),
        ("# Site\n\nText\n===\n\n## D\n\n- [A](https://e.org/a/)\n", 4, "setext"),
        (
            "# Site\n\nThe pages.\n\n## D\n\n- [A](https://e.org/\xe9\n".encode("latin-1"),
            7,
            "not UTF-8",
        ),
        (b"\xef\xbb\xbf" + GOOD.encode(), 1, "byte-order mark"),
        (GOOD.replace("\n", "\r\n"), 1, "CR line endings"),
    ],
)
def test_a_violation(text: str | bytes, line: int, fragment: str) -> None:
    found = errors(text)
    assert [number for number, message in found if fragment in message] == [line], found


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("# Site\n\n> A summary\n\n## D\n\n- [A](https://e.org/a/)\n", 3, "reads it as the info"),
        ("# Site\n\n> One\n> two\n\nThe pages.\n", 4, "reads only the first"),
        (GOOD + "\n## Empty\n", 12, "holds no link"),
    ],
)
def test_a_warning(text: str, line: int, fragment: str) -> None:
    found = problems(text)
    assert errors(text) == []
    assert [(n, s) for n, m, s in found if fragment in m] == [(line, Severity.WARNING)], found


def test_too_big_is_not_read() -> None:
    found = errors(b"# x\n" + b"a" * MAX_LLMS_TXT_BYTES)
    assert len(found) == 1 and "bytes; not checked further" in found[0][1]


def test_a_flood_of_errors_stops() -> None:
    found = errors(GOOD + "x\n" * 5_000)
    assert len(found) == 1_001 and found[-1] == (None, "more errors; not checked further")


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_hostile_input_never_crashes(data: bytes) -> None:
    check_llms_txt(data, "llms.txt")
    check_llms_txt(b"# x\n\ny\n\n## s\n\n" + data, "llms.txt")


def test_what_sitemill_writes_passes() -> None:
    pages = [
        LlmsPage("https://e.org/", "Home [x] #", "a\nb", "en"),
        LlmsPage("https://e.org/a_(b)/", None, "None", "en"),
        LlmsPage("https://e.org/fr/", "Accueil", "> c", "fr"),
        LlmsPage("https://e.org/Optional/x", "`y", "z`", "en", group="g"),
    ]
    site = LlmsSite("https://e.org/", "https://e.org/sitemap.xml", "C#", "# s")
    for name, data in llms_files(pages, site, group_order=["g"]).files.items():
        assert check_llms_txt(data, name) == []


def test_validate_finds_llms_txt_by_name_and_in_a_directory(tmp_path: Path) -> None:
    (tmp_path / "llms.txt").write_text(GOOD + "- [C](/c/)\n", encoding="utf-8")
    (tmp_path / "fr").mkdir()
    (tmp_path / "fr" / "llms.txt").write_text("no heading\n", encoding="utf-8")
    (tmp_path / "deeper" / "still").mkdir(parents=True)
    (tmp_path / "deeper" / "still" / "llms.txt").write_text("not looked at\n", encoding="utf-8")
    by_name = validate_paths([tmp_path / "llms.txt"])
    assert [(Path(v.file).name, v.line) for v in by_name] == [("llms.txt", 11)]
    in_directory = [
        (str(Path(v.file).relative_to(tmp_path)), v.line) for v in validate_paths([tmp_path])
    ]
    assert in_directory == [(".", None), ("fr/llms.txt", 1), ("llms.txt", 11)]  # (".": no sitemap)


def test_the_command_reports_one_problem_a_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "llms.txt"
    path.write_text(GOOD + "* [C](https://e.org/c/)\n", encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    bullet = "a '*' or '+' bullet: the reference parser (llms-txt) reads only '- ' items"
    assert capsys.readouterr().out.splitlines() == [f"{path}:11: {bullet}"]
    path.write_text(GOOD, encoding="utf-8")
    assert main(["validate", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [f"valid: {path}"]


def test_long_values_are_cut_in_messages() -> None:
    name = "n" * 5_000
    text = f"{HEAD}## {name}\n\n- [a](ftp://{'x' * 5_000})\n\n## {name}\n"
    found = problems(text)
    assert len(found) == 3 and all(len(message) < 250 for _, message, _ in found)
