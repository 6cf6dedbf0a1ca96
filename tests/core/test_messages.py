"""Messages as shown anywhere: no secret a URL carries, no character that steers a terminal."""

from __future__ import annotations

import json
import logging
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitemill.aws._logs import JsonFormatter
from sitemill.github.commands import workflow_command
from sitemill.github.summary import markdown_text
from sitemill.messages import printable, redact, shown

SECRETS = [
    ("https://user:hunter2@example.com/s.gz", "https://***@example.com/s.gz"),
    ("https://ghp_abc123@github.com/o/r.git", "https://***@github.com/o/r.git"),
    (
        "https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4&X-Amz-Credential=AKIA%2F1"
        "&X-Amz-Signature=0f1e2d&X-Amz-Security-Token=IQo",
        "https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4&X-Amz-Credential=***"
        "&X-Amz-Signature=***&X-Amz-Security-Token=***",
    ),
    ("http://h/s?token=t0k&page=2", "http://h/s?token=***&page=2"),
    ("http://h/s?access_token=a;sig=b#top", "http://h/s?access_token=***;sig=***#top"),
    ("http://h/s?API-KEY=k1&Password=p", "http://h/s?API-KEY=***&Password=***"),
    ("cannot fetch http://h/s?key=k: 404", "cannot fetch http://h/s?key=***: 404"),
]


@pytest.mark.parametrize(("text", "expected"), SECRETS)
def test_secrets_in_urls_are_redacted(text: str, expected: str) -> None:
    assert redact(text) == expected
    assert shown(f"no state at {text}; a first run") == f"no state at {expected}; a first run"


@pytest.mark.parametrize(
    "text",
    [
        "https://example.com/a?page=2&sort=asc",
        "skipped a/index.html: duplicate (https://example.com/a/ is already listed)",
        "mailto:someone@example.com",  # no "://": no user info to hide
        "a@b and c://d",
        "answered HTTP 503 for http://127.0.0.1:41659: try again",  # a port, then ":"
        "(like http://localhost:9000); see https://h:8080/a@b, http://[::1]:9000/.",
        "https://example.com/@someone/ and https://example.com:/",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert shown(text) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a\nsitemill: error: forged", "a\\x0asitemill: error: forged"),
        ("\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m"),
        ("\x1b]0;title\x07", "\\x1b]0;title\\x07"),
        ("a\rb\tc\x00d\x7fe\x9bf", "a\\x0db\\x09c\\x00d\\x7fe\\x9bf"),
        ("txt.\u202eexe", "txt.\\u202eexe"),  # right-to-left override
        ("a\u2066b\u2069c\u200fd\u061ce", "a\\u2066b\\u2069c\\u200fd\\u061ce"),
        ("line\u2028sep\u2029x", "line\\u2028sep\\u2029x"),
        ("zero\u200bwidth\ufeff", "zero\\u200bwidth\\ufeff"),
        ("café ☕ 東京", "café ☕ 東京"),
    ],
)
def test_control_and_bidi_characters_are_escaped(text: str, expected: str) -> None:
    assert printable(text) == expected


@given(st.text())
def test_what_is_shown_is_one_line_with_no_control_character(text: str) -> None:
    result = shown(text)
    steering = {"Cc", "Zl", "Zp"}
    assert not any(unicodedata.category(char) in steering for char in result)
    assert not any(unicodedata.bidirectional(char) in _BIDI_CONTROLS for char in result)


_BIDI_CONTROLS = {"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"}


HOSTILE = (
    "skipped a\x1b[2J\nsitemill: error: forged: duplicate "
    "(https://u:p@h/x?X-Amz-Signature=s3cr3t\u202e)"
)


def _assert_clean(text: str) -> None:
    assert "\x1b" not in text and "\u202e" not in text
    assert "s3cr3t" not in text and "u:p@" not in text
    assert "\nsitemill: error" not in text and "%0Asitemill: error" not in text


def test_every_edge_shows_a_hostile_message_safely() -> None:
    _assert_clean(workflow_command("warning", HOSTILE))
    _assert_clean(markdown_text(HOSTILE))
    record = logging.LogRecord("sitemill", logging.WARNING, __file__, 1, "%s", (HOSTILE,), None)
    line = JsonFormatter().format(record)
    assert "\n" not in line
    _assert_clean(json.loads(line)["message"])


def test_a_hostile_name_in_an_annotations_file_or_a_summarys_list_is_shown_safely() -> None:
    # Issue 46, item 9: a skipped page's file name reached the Action's log raw through the
    # annotation's file= property, and the Lambda's would_delete list through its log line.
    line = workflow_command("warning", "skipped", file=HOSTILE)
    _assert_clean(line)
    assert line.count("::") == 2  # (no forged command from the name)
    record = logging.LogRecord("sitemill", logging.INFO, __file__, 1, "summary", (), None)
    record.fields = {"would_delete": [HOSTILE], "bucket": HOSTILE, "urls": 3}
    logged = json.loads(JsonFormatter().format(record))
    _assert_clean(logged["would_delete"][0])
    _assert_clean(logged["bucket"])
    assert logged["urls"] == 3


def test_counts_are_singular_for_one_everywhere_a_report_says_them() -> None:
    # Issue 41: "1 sitemap files", "1 child(ren) rewritten", "1 page(s) name themselves".
    from sitemill.config.model import LastmodMode
    from sitemill.messages import counted
    from sitemill.report import Report, WriteResult, extensions_line
    from sitemill.urls import UrlStyle
    from sitemill.urlstyle import StyleDecision

    assert [counted(1, "file"), counted(3_119, "file")] == ["1 file", "3,119 files"]
    assert counted(1, "child", "children") + counted(2, "child", "children") == "1 child2 children"
    report = Report(WriteResult(), LastmodMode.MTIME)
    report.alternates, report.images, report.image_chrome = 1, 1, 1
    assert extensions_line(report) == (
        "extensions: 1 URL with hreflang alternates, 1 image, 1 site-chrome image left out"
    )
    one = StyleDecision(UrlStyle.DIRECTORY, votes=1, pages=1).line()
    assert "(1 page names itself as canonical, fewer than" in one
    none = StyleDecision(UrlStyle.DIRECTORY, votes=0, pages=0).line()
    assert "(0 pages name themselves as canonical, fewer than" in none


def test_install_hints_name_what_the_extras_hold_as_pyproject_says() -> None:
    # Issue 41: "pip install 'sitemill[s3]'" named a package no index has yet.
    import tomllib
    from pathlib import Path

    from sitemill.errors import EXTRAS, install_hint

    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    extras = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    held = extras["optional-dependencies"]
    assert {name: [package] for name, package in EXTRAS.items()} == {
        name: held[name] for name in EXTRAS
    }
    # every user-facing extra has its hint; dev, docs and realsites (benchmarks/realsites'
    # second reading, issue 79) are for working on sitemill itself
    assert set(held) - set(EXTRAS) == {"dev", "docs", "realsites"}
    assert install_hint("s3") == (
        "pip install 'boto3>=1.34' (the s3 extra; in a sitemill checkout: pip install -e '.[s3]')"
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ftp://KEY:SECRET@h/", "ftp://***@h/"),
        ("https://KEY:SECRET", "https://***"),  # no "@": the password reads as a port
        ("'https://KEY:SECRET' is not", "'https://***' is not"),
        ("`https://KEY:SEC/RET@h/` was", "`https://***@h/` was"),
        ("https://KEY:SEC#RET@h/", "https://***@h/"),
        ("https://KEY:SEC?RET@h/x", "https://***@h/x"),
        ("https://KEY:SEC@RET@h/", "https://***@h/"),  # (urlsplit: the last "@")
        ("--endpoint-url=KEY:SECRET@h", "--endpoint-url=***@h"),
        ("//KEY:SECRET@h/", "//***@h/"),
    ],
)
def test_user_info_is_hidden_however_the_password_is_spelt(text: str, expected: str) -> None:
    assert shown(text) == expected
