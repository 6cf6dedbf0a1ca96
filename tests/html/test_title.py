"""A page's title as document.title reads it, bounded; and sitemill's generator mark."""

from __future__ import annotations

import pytest

import timing
from sitemill.html.facts import PAGE_FACTS_BYTES, read_page_facts
from sitemill.html.meta import made_by_sitemill, page_generator
from sitemill.html.title import ELLIPSIS, MAX_TITLE_CHARS, clean_title, read_title


def title_of(head: str | bytes) -> str | None:
    data = head.encode() if isinstance(head, str) else head
    return read_page_facts(data, titles=True).title


@pytest.mark.parametrize(
    ("head", "title"),
    [
        ("<!doctype html><title>Plain</title>", "Plain"),
        ("<!doctype html><title>  two\n\t\f lines  </title>", "two lines"),
        # RCDATA: references decoded, tags are text, a missing ";" as the tokenizer allows.
        ("<!doctype html><title>Tom &amp; Jerry &lt;3 &copy 2024</title>", "Tom & Jerry <3 © 2024"),
        ("<!doctype html><title><b>bold</b> &#x3C;i&#62;</title>", "<b>bold</b> <i>"),
        ("<!doctype html><title>a&nbsp;b</title>", "a\xa0b"),  # no ASCII space: kept
        ("<!doctype html><title>&#0;&#x1;x\x07y\x85</title>", "\ufffdxy"),  # controls go
        (
            "<!doctype html><title>Caf\u00e9 \u65e5\u672c \U0001f600</title>",
            "Caf\u00e9 \u65e5\u672c \U0001f600",
        ),
        ("<!doctype html><title>\u202eevil</title>", "\u202eevil"),  # the page isolates it
        ("<!doctype html><title>\"quotes\" 'and' `ticks`</title>", "\"quotes\" 'and' `ticks`"),
        # The first <title> of the head counts, even an empty one.
        ("<!doctype html><title></title><title>second</title>", ""),
        ("<!doctype html><title> \n </title>", ""),
        ("<!doctype html><meta charset=utf-8>", ""),  # no title: the page shows the path
        # Not the head's: in a comment, a script, a template, the body.
        ("<!doctype html><!-- <title>no</title> --><title>yes</title>", "yes"),
        ("<!doctype html><script>'<title>no</title>'</script><title>yes</title>", "yes"),
        ("<!doctype html><template><title>no</title></template><title>yes</title>", "yes"),
        ("<!doctype html><body><h1>x</h1><title>no</title>", ""),
        # Cut off by the end of the bytes: the rest is its text, as a parser takes it.
        ("<!doctype html><title>unclosed to the end", "unclosed to the end"),
        (b"<!doctype html><title>caf\xe9 \xff</title>", "caf\ufffd \ufffd"),  # not UTF-8
    ],
)
def test_titles(head: str | bytes, title: str) -> None:
    assert title_of(head) == title


def test_no_title_is_read_unless_asked_for() -> None:
    assert read_page_facts(b"<!doctype html><title>x</title>").title is None
    assert read_page_facts(b"{{ define }}<title>x</title>", titles=True).title is None


@pytest.mark.parametrize("size", [MAX_TITLE_CHARS + 1, 5_000, 60_000])
def test_a_long_title_is_cut_with_an_ellipsis(size: int) -> None:
    title = title_of("<!doctype html><title>" + "word " * size + "</title>")
    assert title is not None
    assert len(title) == MAX_TITLE_CHARS
    assert title.endswith(ELLIPSIS)
    assert not title.endswith(" " + ELLIPSIS)


def test_a_title_of_exactly_the_limit_is_kept_whole() -> None:
    text = "x" * MAX_TITLE_CHARS
    assert title_of(f"<!doctype html><title>{text}</title>") == text
    assert clean_title(text) == text


def test_a_huge_reference_soup_is_read_in_linear_time() -> None:
    data = b"<!doctype html><title>" + b"&amp;&#x41;&unknown;" * 100_000
    title = read_page_facts(data[:PAGE_FACTS_BYTES], titles=True).title
    small, large = data[: PAGE_FACTS_BYTES // 8], data[:PAGE_FACTS_BYTES]
    assert timing.linear(lambda head: read_page_facts(head, titles=True), small, large, 20)
    assert title is not None and title.startswith("&A&unknown;&A")
    assert read_title(data) == read_title(data[:20_000])  # only the first bytes count


@pytest.mark.parametrize(
    "head",
    [
        b"<!doctype html><title>" + b"<" * 60_000,
        b"<!doctype html>" + b"<title>" * 8_000,
        b"<!doctype html>" + b"<title></title>" * 4_000,
        b"<!doctype html><title>" + b"</titl" * 10_000,
    ],
)
def test_hostile_titles_take_linear_time(head: bytes) -> None:
    # Eight times the bytes take about eight times as long, 64 times if quadratic.
    small, large = head[: PAGE_FACTS_BYTES // 8], head[:PAGE_FACTS_BYTES]
    assert timing.linear(lambda data: read_page_facts(data, titles=True), small, large, 20)


@pytest.mark.parametrize(
    ("head", "generator", "ours"),
    [
        (b'<!doctype html><meta name="generator" content="sitemill">', "sitemill", True),
        (b"<!doctype html><meta content='sitemill 2.0' NAME=Generator>", "sitemill 2.0", True),
        (b'<!doctype html><meta name="generator" content="sitemills">', "sitemills", False),
        (b'<!doctype html><meta name="generator" content="Hugo 0.123">', "Hugo 0.123", False),
        (b"<!doctype html><title>x</title>", None, False),
        (b"<!doctype html><!-- <meta name=generator content=sitemill> -->", None, False),
        (b"<!doctype html><body><meta name=generator content=sitemill>", None, False),
        (b"", None, False),
    ],
)
def test_the_generator_mark(head: bytes, generator: str | None, ours: bool) -> None:
    assert page_generator(head) == generator
    assert made_by_sitemill(head) is ours
