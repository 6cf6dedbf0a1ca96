"""Building from a URL list: parsing, checks, de-duplication, streaming."""

from __future__ import annotations

import functools
import io
import os

import pytest

from outputlist import build_from_url_list
from sitemill.bounded.repeatfinder import ForkedRepeats
from sitemill.config.model import load_config
from sitemill.entries import SkipReason
from sitemill.errors import SourceError
from sitemill.report import Report
from sitemill.sinks import MemorySink
from sitemill.sources.urlchunks import read_line_chunks
from xsd import assert_xsd_valid

BASE = "https://example.com/"


def build(lines: list[str], **values: object) -> tuple[MemorySink, object]:
    sink = MemorySink()
    report = build_from_url_list(
        load_config({"base_url": BASE, **values}), lines, sink, name="urls.txt"
    )
    return sink, report


def test_urls_with_lastmod_in_list_order() -> None:
    sink, _ = build(
        [
            "https://example.com/b\t2024-05-01T12:00:00+02:00\n",
            "# a comment\n",
            "\n",
            "https://example.com/a\n",
            "HTTPS://EXAMPLE.COM/c%20d\t2024-05-02\r\n",
        ]
    )
    text = sink.files["sitemap.xml"].decode()
    assert text.index("/b<") < text.index("/a<") < text.index("/c%20d<")
    assert "<loc>https://example.com/b</loc><lastmod>2024-05-01T10:00:00+00:00</lastmod>" in text
    assert "<loc>https://example.com/c%20d</loc><lastmod>2024-05-02</lastmod>" in text
    assert_xsd_valid(sink.files["sitemap.xml"])


def test_repeated_urls_are_dropped() -> None:
    sink, report = build([f"{BASE}x\n", f"{BASE}y\n", f"{BASE}x\n"])
    assert sink.files["sitemap.xml"].count(b"<url>") == 2
    assert report.skipped[SkipReason.DUPLICATE] == 1  # type: ignore[attr-defined]


def test_off_site_urls_are_skipped() -> None:
    sink, report = build([f"{BASE}x\n", "https://other.example/y\n", "http://example.com/z\n"])
    assert sink.files["sitemap.xml"].count(b"<url>") == 1
    assert report.skipped[SkipReason.OFF_SITE] == 2  # type: ignore[attr-defined]


def test_location_rule_under_the_base_path() -> None:
    sink = MemorySink()
    config = load_config({"base_url": "https://example.com/docs/"})
    build_from_url_list(
        config, ["https://example.com/docs/a\n", "https://example.com/blog/b\n"], sink
    )
    assert sink.files["sitemap.xml"].count(b"<url>") == 1


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("/relative/path", "urls.txt:2: '/relative/path' is not an absolute http(s) URL"),
        ("ftp://example.com/x", "not an absolute http(s) URL"),
        ("example.com/x", "not an absolute"),
        (f"{BASE}x\tyesterday", "urls.txt:2: lastmod 'yesterday' is not a W3C datetime"),
        ("http://[::1/x", "not a valid URL"),
    ],
)
def test_bad_lines_are_one_line_errors_and_write_nothing(line: str, message: str) -> None:
    sink = MemorySink()
    config = load_config({"base_url": BASE})
    with pytest.raises(SourceError) as info:
        build_from_url_list(config, [f"{BASE}ok\n", line + "\n"], sink, name="urls.txt")
    assert message in str(info.value)
    assert "\n" not in str(info.value)
    assert sink.files == {}


def test_special_characters_are_encoded_and_escaped() -> None:
    sink, _ = build([f"{BASE}a%20b/ü?x=1&y=<2>\n", f"{BASE}100%\n"])
    text = sink.files["sitemap.xml"].decode()
    assert "<loc>https://example.com/a%20b/%C3%BC?x=1&amp;y=%3C2%3E</loc>" in text
    assert "<loc>https://example.com/100%25</loc>" in text
    assert_xsd_valid(sink.files["sitemap.xml"])


def test_lastmod_none_drops_given_dates() -> None:
    sink, _ = build([f"{BASE}x\t2024-01-01\n"], lastmod="none")
    assert b"<lastmod>" not in sink.files["sitemap.xml"]


def test_include_and_rules_apply_when_set() -> None:
    lines = [f"{BASE}blog/a\n", f"{BASE}shop/b\n", f"{BASE}blog/private/c\n"]
    config = load_config(
        {"base_url": BASE, "include": ["blog/**"]},
        {},
        {
            "rules": [
                {"pattern": "blog/private/**", "exclude": True},
                {"pattern": "blog/*", "priority": 0.9},
            ]
        },
    )
    sink = MemorySink()
    build_from_url_list(config, lines, sink)
    text = sink.files["sitemap.xml"].decode()
    assert "<loc>https://example.com/blog/a</loc><priority>0.9</priority>" in text
    assert text.count("<url>") == 1


def test_list_is_consumed_lazily() -> None:
    consumed = 0

    def lines():  # type: ignore[no-untyped-def]
        nonlocal consumed
        for i in range(25):
            consumed += 1
            yield f"{BASE}p{i}\n"

    sink = MemorySink()
    build_from_url_list(load_config({"base_url": BASE, "max_urls": 10}), lines(), sink)
    assert consumed == 25
    assert sorted(sink.files) == ["sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml", "sitemap.xml"]


def test_a_byte_order_mark_is_not_part_of_the_first_url() -> None:
    sink, _ = build(["\ufeffhttps://example.com/a\n", "https://example.com/b\n"])
    assert b"<loc>https://example.com/a</loc>" in sink.files["sitemap.xml"]


def test_old_mac_line_endings_are_lines() -> None:
    import io

    text = io.StringIO("https://example.com/a\rhttps://example.com/b\r", newline="")
    sink, _ = build(list(text))
    assert sink.files["sitemap.xml"].count(b"<url>") == 2


@pytest.mark.parametrize(
    ("base", "line", "expected"),
    [
        # percent-encoding normal form: upper-case hex, unreserved characters decoded
        (BASE, f"{BASE}%7ea%2f%41", "https://example.com/~a%2FA"),
        # "[" and "]" after the host, and a second "#", are encoded
        (BASE, f"{BASE}a[1]#b#c", "https://example.com/a%5B1%5D#b%23c"),
        # dot segments are resolved, encoded ones too
        (BASE, f"{BASE}x/./y/../z", "https://example.com/x/z"),
        (BASE, f"{BASE}x/%2e%2E/z", "https://example.com/z"),
        # internationalised hosts and non-ASCII base paths match their encoded base
        ("http://bücher.example/", "http://BÜCHER.example/a", "http://xn--bcher-kva.example/a"),
        ("http://example.com/blög/", "http://example.com/blög/a", "http://example.com/bl%C3%B6g/a"),
    ],
)
def test_urls_are_normalized_before_the_location_rule(base: str, line: str, expected: str) -> None:
    sink = MemorySink()
    build_from_url_list(load_config({"base_url": base}), [line + "\n"], sink)
    assert f"<loc>{expected}</loc>".encode() in sink.files["sitemap.xml"]
    assert_xsd_valid(sink.files["sitemap.xml"])


def test_urls_that_differ_only_in_escapes_are_one_url() -> None:
    sink, report = build([f"{BASE}%7Ea\n", f"{BASE}%7ea\n", f"{BASE}~a\n"])
    assert sink.files["sitemap.xml"].count(b"<url>") == 1
    assert report.skipped[SkipReason.DUPLICATE] == 2  # type: ignore[attr-defined]


def test_encoded_dot_segments_cannot_leave_the_base() -> None:
    sink = MemorySink()
    config = load_config({"base_url": "http://example.com/blog/"})
    report = build_from_url_list(
        config, ["http://example.com/blog/a\n", "http://example.com/blog/%2e%2e/secret\n"], sink
    )
    assert sink.files["sitemap.xml"].count(b"<url>") == 1
    assert report.skipped[SkipReason.OFF_SITE] == 1


def test_the_duplicate_check_on_a_second_core_gives_the_same_files(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A long list's repeats are found by a forked helper a block behind the reader
    (sitemill.bounded.repeatfinder): the files and the report are those of one process, for plain
    chunks and chunks read line by line, repeats within a chunk and across chunks."""
    lines = []
    for n in range(3_000):
        url = f"{BASE}p/{n % 1_700}"
        if n % 500 < 40:  # some chunks not plain: read line by line
            url = url.replace("https://example.com", "HTTPS://Example.COM")
        lines.append(f"{url}\t2024-01-{n % 28 + 1:02d}T00:00:00+00:00\n")
    data = "".join(lines).encode()
    monkeypatch.setattr(
        "sitemill.sources.urlchunks.read_line_chunks",
        functools.partial(read_line_chunks, size=4096),
    )

    def run(workers: int) -> tuple[MemorySink, Report]:
        sink = MemorySink()
        config = load_config({"base_url": BASE, "workers": workers})
        return sink, build_from_url_list(config, io.BytesIO(data), sink, size_hint=len(data))

    alone_sink, alone = run(1)
    forks: list[int] = []
    started = ForkedRepeats.__init__

    def counted(self: ForkedRepeats, *args: object) -> None:
        started(self, *args)  # type: ignore[arg-type]
        forks.append(1)

    monkeypatch.setattr(ForkedRepeats, "__init__", counted)
    monkeypatch.setattr("sitemill.jobs.urllist.FORK_AT_BYTES", 4096)
    monkeypatch.setattr("sitemill.bounded.repeatfinder._can_fork", lambda: True)
    helped_sink, helped = run(2)
    assert forks == [1]
    assert helped_sink.files == alone_sink.files
    assert alone.skipped[SkipReason.DUPLICATE] == 3_000 - 1_700
    assert helped.skipped == alone.skipped and helped.skips == alone.skips


def test_an_error_after_the_helper_started_loses_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bad line far into a long list read from a pipe (no size known: a helper once the
    first chunk is full): the run stops with its error, nothing written, the helper gone."""
    data = "".join(f"{BASE}p/{n}\n" for n in range(2_000)).encode() + b"\xff\n"
    monkeypatch.setattr(
        "sitemill.sources.urlchunks.read_line_chunks",
        functools.partial(read_line_chunks, size=1024),
    )
    monkeypatch.setattr("sitemill.jobs.urllist.CHUNK_BYTES", 1024)
    monkeypatch.setattr("sitemill.bounded.repeatfinder._can_fork", lambda: True)
    helpers: list[int] = []
    started = ForkedRepeats.__init__

    def noted(self: ForkedRepeats, *args: object) -> None:
        started(self, *args)  # type: ignore[arg-type]
        helpers.append(self._pid or 0)

    monkeypatch.setattr(ForkedRepeats, "__init__", noted)
    sink = MemorySink()
    with pytest.raises(SourceError, match="not UTF-8"):
        build_from_url_list(load_config({"base_url": BASE}), io.BytesIO(data), sink)
    assert sink.files == {}
    assert len(helpers) == 1
    with pytest.raises(ChildProcessError):  # (the helper was waited for)
        os.waitpid(helpers[0], os.WNOHANG)


def test_a_list_for_another_site_warns_a_few_times_and_explain_empty_run_was_written(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A careless user's wrong --base-url: 5,000 off-site URLs give 20 warnings and one
    line saying the rest are counted, and the error names the reason and the count."""
    lines = [f"https://www.example.org/p/{n}\n" for n in range(5_000)]
    with caplog.at_level("WARNING", logger="sitemill"), pytest.raises(SourceError) as raised:
        build(lines)
    assert str(raised.value) == (
        "no pages to list: every page found was left out (off site 5,000); nothing was written"
    )
    warnings = [record.getMessage() for record in caplog.records]
    assert len(warnings) == 21
    assert warnings[0].startswith("skipped https://www.example.org/p/0: off site")
    assert warnings[-1] == "more skipped as off site are counted, not shown"


def test_a_few_skips_of_each_reason_are_each_shown(caplog: pytest.LogCaptureFixture) -> None:
    lines = [f"https://www.example.org/p/{n}\n" for n in range(3)]
    lines += [f"{BASE}{'x' * 2_100}{n}\n" for n in range(3)] + [f"{BASE}ok\n"]
    with caplog.at_level("WARNING", logger="sitemill"):
        sink, _ = build(lines)
    assert sink.files["sitemap.xml"].count(b"<url>") == 1
    assert len(caplog.records) == 6


def test_an_empty_list_says_nothing_was_found() -> None:
    with pytest.raises(SourceError, match="none found, or none matched include/exclude"):
        build(["# only a comment\n"])


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be"])
def test_a_utf16_list_is_named_as_such(encoding: str) -> None:
    """What Excel's "Unicode text" and PowerShell's Out-File write: said plainly."""
    data = "\ufeff" * (encoding == "utf-16-be") + f"{BASE}a\n{BASE}b\n"
    sink = MemorySink()
    config = load_config({"base_url": BASE})
    with pytest.raises(SourceError, match=r"^urls.txt: UTF-16 text; save the list as UTF-8$"):
        build_from_url_list(config, io.BytesIO(data.encode(encoding)), sink, name="urls.txt")
    assert sink.files == {}
