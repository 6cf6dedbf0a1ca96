"""Robots meta noindex: the head as a parser sees it, from a bounded prefix, in linear time."""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser
from unittest import mock

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import timing
from sitemill.html import head as head_module
from sitemill.html.head import HEAD_TAGS, HTML_SPACE, RAW_TEXT_TAGS, head_start_tags
from sitemill.html.meta import PAGE_FACTS_BYTES, head_is_noindex

NOINDEX = '<meta name="robots" content="noindex">'
MARKS = ((b"robots", b"&#"), (b"name",))  # (any marks: they only let tags be skipped)
BIG_SCRIPT = "<script>/*" + "x" * 20_000 + "*/</script>"  # longer than the first look (8 KiB)


def page(head: str, body: str = "<p>Hello</p>") -> bytes:
    return f"<!DOCTYPE html>\n<html><head>\n{head}\n</head>\n<body>{body}</body></html>\n".encode()


class _Verdict(Exception):
    def __init__(self, noindex: bool) -> None:
        super().__init__(noindex)
        self.noindex = noindex


class ReferenceHead(HTMLParser):
    """An independent reading of the same rules on the standard library's html.parser
    (slow, and quadratic or crashing on some malformed input: a test oracle only)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.template_depth = 0
        self.after_head = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in RAW_TEXT_TAGS:
            self.set_cdata_mode(tag)
        if self.template_depth:
            self.template_depth += tag == "template"
            return
        if tag not in HEAD_TAGS or (self.after_head and tag == "noscript"):
            raise _Verdict(noindex=False)
        if tag == "template":
            self.template_depth = 1
        elif tag == "meta":
            values: dict[str, str] = {}
            for key, value in attrs:
                values.setdefault(key, value or "")
            name = values.get("name", "").strip(HTML_SPACE).rstrip("/").lower()
            rules = re.split(r"[\s,]+", values.get("content", "").lower())
            if name in ("robots", "googlebot") and {"noindex", "none"} & {
                rule.rstrip("/") for rule in rules
            }:
                raise _Verdict(noindex=True)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in RAW_TEXT_TAGS or tag == "script":
            self.set_cdata_mode(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.template_depth:
            self.template_depth -= tag == "template"
        elif tag in {"body", "html", "br"}:
            raise _Verdict(noindex=False)
        elif tag == "head":
            self.after_head = True

    def handle_data(self, data: str) -> None:
        if self.cdata_elem is None and not self.template_depth and data.strip(HTML_SPACE):
            raise _Verdict(noindex=False)


def reference_noindex(html: bytes) -> bool:
    parser = ReferenceHead()
    try:
        parser.feed(html.decode("latin-1").removeprefix("ï»¿"))
        parser.close()
    except _Verdict as verdict:
        return verdict.noindex
    return False


# Decisions worth knowing:
# - names: "robots" and "googlebot" (Google web search); other crawlers' names do not count.
# - rules: "noindex" or "none" as a whole comma/space separated token, any case.
# - <noscript> content is text, as for Googlebot, which renders with scripting on.
# - a meta between </head> and <body> is in the head, as HTML parsers put it there.
@pytest.mark.parametrize(
    ("html", "noindex"),
    [
        (page(NOINDEX), True),
        (page("<meta name='robots' content='noindex'>"), True),
        (page("<meta name=robots content=noindex>"), True),
        (page('<meta content="noindex" name="robots">'), True),
        (page('<META NAME="ROBOTS" CONTENT="NOINDEX">'), True),
        (page('<Meta Name="Robots" Content="NoIndex, NoFollow">'), True),
        (page('<meta\n  name = "robots"\n  content = " follow ,  noindex " >'), True),
        (page('<meta name="robots" content="noindex" />'), True),
        (page("<meta name=robots content=noindex/>"), True),
        (page('<meta name="robots" content="nofollow noindex">'), True),
        (page('<meta name="robots" content="noindex,nofollow">'), True),
        (page('<meta name="robots" content="index, noindex">'), True),  # the stricter rule wins
        (page('<meta name="robots" content="none">'), True),
        (page('<meta name="googlebot" content="noindex">'), True),
        (page('<meta name="GoogleBot" content="NONE">'), True),
        (page('<meta name="robots" content="noindex&#44;nofollow">'), True),
        (page('<meta name="&#114;obots" content="&#x6E;oindex">'), True),  # references spell it
        (page('<meta name="robots" content="index"><meta name="robots" content="noindex">'), True),
        (page('<meta name="robots" content="noindex" name="bingbot">'), True),  # first name wins
        (page("<title>Robots &amp; none</title><style>.a{display:none}</style>" + NOINDEX), True),
        (page("<!-- </head><body> -->" + NOINDEX), True),
        (page("<script>document.write('</head><body>')</script>" + NOINDEX), True),
        (page("<style>/* <body> */</style>" + NOINDEX), True),
        (page("<template><div></div></template>" + NOINDEX), True),
        (page(BIG_SCRIPT + NOINDEX), True),  # the head goes on past the first look
        (page("<script><!-- x --></script>" + NOINDEX), True),
        (page("<script><!--></script>" + NOINDEX), True),  # "<!-->" escapes and unescapes
        (page("<![CDATA[ x ]]>" + NOINDEX), True),  # a bogus comment, up to the first ">"
        (page('<meta name="description" content="x </head> <body>">' + NOINDEX), True),
        (page('<meta name="description" content="a > </head> <body>">' + NOINDEX), True),
        (page('<meta name="description" content="<b>x</b> </head> <body>">' + NOINDEX), True),
        (page("<link rel=x title='robots\"noindex'>" + NOINDEX), True),
        ((NOINDEX + "<title>No head tag</title><p>body").encode(), True),  # implied head
        (b"<!doctype html><title>x</title>" + NOINDEX.encode() + b"<p>text", True),
        (b"\xef\xbb\xbf<!DOCTYPE html><head>" + NOINDEX.encode(), True),
        (b"<html><head></head>" + NOINDEX.encode() + b"<body>", True),  # after </head>
        (b"<html><head></head></head> &#32;" + NOINDEX.encode(), True),  # a space, spelled
        (page('<meta name="robots" content="nofollow">'), False),
        (page('<meta name="robots" content="index, follow">'), False),
        (page('<meta name="robots" content="max-image-preview:none">'), False),
        (page('<meta name="robots" content="noindexed, nonesuch">'), False),
        (page('<meta name="bingbot" content="noindex">'), False),
        (page('<meta name="googlebot-news" content="noindex">'), False),
        (page('<meta name="robots-x" content="noindex">'), False),
        (page('<meta name="description" content="noindex none">'), False),
        (page('<meta property="robots" content="noindex">'), False),
        (page('<meta name="robots">'), False),
        (page('<meta content="noindex">'), False),
        (page("<!-- " + NOINDEX + " -->"), False),
        (page("<!--\n" + NOINDEX + "\n--!>-->"), False),
        (page(f"<script>var tag = '{NOINDEX}';</script>"), False),
        (page(f"<style>/* {NOINDEX} */</style>"), False),
        (page(f"<title>{NOINDEX}</title>"), False),
        (page(f"<noscript>{NOINDEX}</noscript>"), False),
        (page(f"<template>{NOINDEX}</template>"), False),
        (page(f"<template><textarea></template>{NOINDEX}</textarea></template>"), False),
        (page(f"<textarea>{NOINDEX}</textarea>"), False),  # a textarea opens the body
        (page("", body=NOINDEX), False),
        (page("<style>.hidden{display:none}</style>", body=NOINDEX), False),
        (b"<html><head></head><body>" + NOINDEX.encode(), False),
        (b"<!doctype html><title>x</title><div></div>" + NOINDEX.encode(), False),
        (b"<title>x</title>Some text" + NOINDEX.encode(), False),  # text opens the body
        (b"<title>x</title>&nbsp;" + NOINDEX.encode(), False),  # so does a spelled non-space
        (b"<head><noscript></noscript></head><noscript></noscript>" + NOINDEX.encode(), False),
        (page(BIG_SCRIPT), False),
        (b"", False),
        (b"%PDF-1.7 noindex none robots", False),
    ],
)
def test_head_is_noindex(html: bytes, noindex: bool) -> None:
    assert head_is_noindex(html) is noindex
    assert reference_noindex(html) is noindex


# Where html.parser strays from the HTML standard (and from browsers and Googlebot).
@pytest.mark.parametrize(
    ("html", "noindex"),
    [
        (page("<!-->" + NOINDEX), True),  # an empty comment, closed at once
        (page("<!--->" + NOINDEX), True),
        (page("<!-- x --!>" + NOINDEX), True),  # "--!>" closes a comment
        (page("<!-- x -- >" + NOINDEX + "-->"), False),  # "-- >" does not
        (page("<script>x</script foo='>'>" + NOINDEX), True),  # an end tag's attributes
        (page("<script><!--<script></script>" + NOINDEX + "--></script>"), False),
        (page("<script><!--<script></script>--></script>" + NOINDEX), True),
        (
            page("<![" + NOINDEX),
            False,
        ),  # a bogus comment, up to the meta's ">" (html.parser: raises)
    ],
)
def test_the_html_standard_where_html_parser_differs(html: bytes, noindex: bool) -> None:
    assert head_is_noindex(html) is noindex


def test_a_tag_cut_off_by_the_prefix_does_not_count() -> None:
    head = b"<!doctype html><html><head><title>x</title>" + b"<link rel=x>" * 100
    for cut in range(len(NOINDEX)):
        assert head_is_noindex(head + NOINDEX.encode()[:cut]) is False, cut
    assert head_is_noindex(head + NOINDEX.encode()) is True


def test_a_head_longer_than_the_prefix_is_judged_on_what_the_prefix_holds() -> None:
    long_script = "<script>/*" + "x" * PAGE_FACTS_BYTES + "*/</script>"
    late = page(long_script + NOINDEX)
    assert head_is_noindex(late[:PAGE_FACTS_BYTES]) is False  # the meta is past the prefix
    assert head_is_noindex(late) is True  # (the whole page would say noindex)
    early = page(NOINDEX + long_script)
    assert head_is_noindex(early[:PAGE_FACTS_BYTES]) is True


@pytest.mark.parametrize("shift", range(-48, 48, 3))
def test_where_the_first_look_ends_changes_nothing(shift: int) -> None:
    # The first 8 KiB are scanned first, the rest only if the head goes on: a tag, a
    # comment or a script crossing that line must read the same.
    def crossing(markup: str) -> bytes:  # markup that begins ``shift`` bytes from the line
        opening = "<html><head><!--"
        filler = "x" * (8 * 1024 + shift - len(opening) - len("-->"))
        return f"{opening}{filler}-->{markup}".encode()

    assert head_is_noindex(crossing(NOINDEX)) is True
    assert head_is_noindex(crossing("<p>" + NOINDEX)) is False
    assert head_is_noindex(crossing("<script>/* </head><body> */</script>" + NOINDEX)) is True
    assert head_is_noindex(crossing("<!--" + NOINDEX + "-->")) is False
    assert head_is_noindex(crossing("text" + NOINDEX)) is False
    assert head_is_noindex(crossing("&#32;" * 20 + NOINDEX)) is True


FRAGMENTS = [
    "<!DOCTYPE html>",
    "<html lang=en>",
    "<head>",
    "</head>",
    "<body>",
    "<BODY class=x>",
    "</body>",
    "<br>",
    "</br>",
    "<title>t</title>",
    "<title>",
    "</title>",
    "<meta charset=utf-8>",
    '<meta name="robots" content="index, follow">',
    '<meta name="robots" content="noindex">',
    "<META NAME=ROBOTS CONTENT=NONE>",
    "<meta name=googlebot content='nofollow'>",
    "<meta name=bingbot content=noindex>",
    "<meta name='&#103;ooglebot' content=&#78;ONE>",
    '<meta name="description" content="a > b <body> c">',
    "<link rel=stylesheet href=/a.css>",
    "<!-- <meta name=robots content=noindex> -->",
    "<!-- </head><body> -->",
    "<!--",
    "-->",
    "<script>var a = '</head><body>'; if (a<b) {}</script>",
    "<script>",
    "</script>",
    "<style>.x{display:none}</style>",
    "<noscript>",
    "</noscript>",
    "<template>",
    "</template>",
    "<textarea>",
    "<div>",
    "<p>text none</p>",
    "hello",
    " \n ",
    "&#32;",
    "<?xml version='1.0'?>",
    BIG_SCRIPT,
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=12))
def test_agrees_with_the_reference_parser(fragments: list[str]) -> None:
    html = "".join(fragments).encode("latin-1")
    # A script holding "<!--" has escaped states that html.parser does not know (above),
    # and where a comment is left open, html.parser reads on after the next ">" as text.
    assume(not re.search(rb"<script>(?:(?!</script>).)*<!--", html, re.DOTALL))
    assume(html.rfind(b"<!--") < html.rfind(b"-->") or b"<!--" not in html)
    assert head_is_noindex(html) is reference_noindex(html)


# Markup that parsers get wrong or slow on, besides the fragments above.
NASTY = [
    "<",
    "</",
    "<!",
    "<![CDATA[",
    "<![",
    "]]>",
    "<?",
    "<!-->",
    "--!>",
    '"',
    "'",
    "=",
    "&",
    "&#",
    "&#x",
    "/",
    ">",
    "<meta ",
    "<meta name=robots content=noindex",
    "<meta name='robots",
    "<script><!--<script>",
    "<plaintext>",
    "<xmp>",
    "robots ",
    "googlebot",
    "\x00",
    "\xef\xbb\xbf",
    "\xe9t\xe9",
]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(FRAGMENTS + NASTY), min_size=1, max_size=30),
    st.integers(min_value=1, max_value=3_000),
    st.floats(min_value=0, max_value=1),
)
def test_any_prefix_of_any_page_is_decided(fragments: list[str], repeat: int, cut: float) -> None:
    html = ("".join(fragments) * repeat).encode("latin-1")[:PAGE_FACTS_BYTES]
    prefix = html[: round(len(html) * cut)]
    # (its time grows with its size alone: test_adversarial_heads_take_linear_time)
    assert head_is_noindex(prefix) in (True, False)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(FRAGMENTS + NASTY), min_size=1, max_size=40),
    st.integers(min_value=1, max_value=64),
)
def test_a_short_first_look_changes_no_verdict(fragments: list[str], first_look: int) -> None:
    # Lower-casing a few bytes first and the rest on demand must read as all at once.
    html = "".join(fragments).encode("latin-1")
    tags, noindex = list(head_start_tags(html, HEAD_TAGS, MARKS)), head_is_noindex(html)
    with mock.patch.object(head_module, "_FIRST_LOOK", first_look):
        assert list(head_start_tags(html, HEAD_TAGS, MARKS)) == tags
        assert head_is_noindex(html) is noindex


# Shapes of a head that never ends, each filled to the size asked for: they made the earlier
# byte-level checks and html.parser rescan their input once per occurrence.
ADVERSARIAL: dict[str, Callable[[int], bytes]] = {
    "many attributes": lambda n: b"<head><meta " + b'a="b" ' * (n // 6),
    "many tags": lambda n: b"<head>" + b'<meta name="x" content="y">' * (n // 27),
    "many robots metas": lambda n: b"<head>" + b'<meta name="robots" content="index">' * (n // 36),
    "robots words in a title": lambda n: b"<head><title>" + b"robots " * (n // 7),
    "robots words in a tag": lambda n: b"<head><meta " + b"robots " * (n // 7),
    "robots words in a quote": lambda n: b'<head><meta content="' + b"robots " * (n // 7),
    "metas in a tag": lambda n: b"<head>" + b"<meta robots " * (n // 13),
    "many <": lambda n: b"<head>" + b"<" * n,
    "many <meta": lambda n: b"<head>" + b"<meta" * (n // 5),
    "an unterminated quote": lambda n: b'<head><meta name="' + b"x" * n,
    "a long comment": lambda n: b"<head><!--" + b"-" * n,
    "many unclosed comments": lambda n: b"<head>" + b"<!--" * (n // 4),
    "many comments": lambda n: b"<head>" + b"<!-- robots -->" * (n // 15),
    "marked sections": lambda n: b"<head>" + b"<![" * (n // 3),
    "script openers": lambda n: b"<head>" + b"<script>" * (n // 8),
    "escaped scripts": lambda n: b"<head><script><!--" + b"<script></script>" * (n // 17),
    "raw text openers": lambda n: b"<head>" + b"<style><title><noscript>" * (n // 24),
    "nested templates": lambda n: b"<head>" + b"<template>" * (n // 10),
    "raw text in a template": lambda n: b"<head><template>" + b"<xmp></xmp>" * (n // 11),
    "end tags": lambda n: b"<head>" + b"</x" * (n // 3),
    "many </head>": lambda n: b"<head>" + b"</head>" * (n // 7),
    "spelled spaces": lambda n: b"<head>" + b"&#32;<link>" * (n // 11),
    "references in metas": lambda n: b"<head>" + b"<meta name&#>" * (n // 14),
    "robots metas, no rule": lambda n: b"<head>" + b"<meta name=robots content=nonex>" * (n // 32),
    "quotes": lambda n: b"<head><meta " + b"'\"" * (n // 2),
}


@pytest.mark.parametrize("shape", sorted(ADVERSARIAL))
def test_adversarial_heads_take_linear_time(shape: str) -> None:
    make = ADVERSARIAL[shape]
    assert head_is_noindex(make(PAGE_FACTS_BYTES)) is False
    # Eight times the input takes about eight times as long (64 times if it were quadratic).
    small, large = make(PAGE_FACTS_BYTES // 2), make(4 * PAGE_FACTS_BYTES)
    assert timing.linear(head_is_noindex, small, large, 20)
