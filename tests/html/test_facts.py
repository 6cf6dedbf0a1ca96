"""Page facts: meta refresh, rel=canonical, <base>, noindex and "not an HTML document"."""

from __future__ import annotations

import html
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_noindex import FRAGMENTS, NASTY, page

import timing
from sitemill.html.facts import (
    PAGE_FACTS_BYTES,
    PageFacts,
    read_page_facts,
    read_refresh,
    refresh_url,
)
from sitemill.html.meta import head_is_noindex


def head(markup: str, body: str = "<p>Hello</p>") -> bytes:
    return page(markup, body)


def refresh_page(content: str) -> bytes:
    return head(f'<meta http-equiv="refresh" content="{html.escape(content)}">')


# --- meta refresh ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "url"),
    [
        ("0; url=https://example.com/new/", "https://example.com/new/"),
        ("0;url=/new/", "/new/"),
        ("0;URL=/new/", "/new/"),
        ("0; Url=/new/", "/new/"),
        ("0; URL = /new/", "/new/"),
        ("0 ;url=/new/", "/new/"),  # white space after the time, then the separator
        ("0,url=/new/", "/new/"),  # a comma separates too
        ("0 url=/new/", "/new/"),  # and white space alone
        ("0;\turl=\n/new/", "/new/"),
        ("  5  ;  url='/new/'", "/new/"),
        ('5; url="/new/"', "/new/"),
        ("5; url='/new/' ignored", "/new/"),  # the quote ends the URL
        ("5; url='/a b/'", "/a b/"),
        ("5; url='/unclosed", "/unclosed"),
        ("5; '/new/'", "/new/"),  # quotes without url=
        ("0; /new/", "/new/"),  # a URL without url=
        ("0; urlx", "urlx"),  # "url" not followed by "=": all of it is the URL
        ("0; url", "url"),
        ("0; url /x", "url /x"),
        ("0; u", "u"),
        ("1.5; url=/new/", "/new/"),
        (".5; url=/new/", "/new/"),
        ("0.; url=/new/", "/new/"),
        ("3.1.4;url=/new/", "/new/"),  # digits and dots after the time are skipped
        ("0000; url=/new/", "/new/"),
        ("99999999999999999999; url=/new/", "/new/"),
        ("0; url=", None),  # an empty URL is the page itself
        ("0; url=''", None),
        ("0; url=  ", None),
        ("0", None),  # a time alone reloads the page
        ("30", None),
        ("30;", None),
        ("30; ", None),
        ("", None),
        ("   ", None),
        ("url=/new/", None),  # no time: not a refresh at all
        ("-1; url=/new/", None),
        ("+1; url=/new/", None),
        ("x; url=/new/", None),
        ("5x; url=/new/", None),  # the time runs into something else
        ("garbage", None),
        ("0;url=javascript:alert(1)", "javascript:alert(1)"),  # (the URL check is elsewhere)
    ],
)
def test_refresh_url(content: str, url: str | None) -> None:
    assert refresh_url(content) == url
    assert read_page_facts(refresh_page(content)).refresh == url


@pytest.mark.parametrize(
    ("content", "valid"),
    [("0", True), ("0; url=/x", True), ("", False), ("url=/x", False), ("5x", False)],
)
def test_read_refresh_tells_valid_from_invalid(content: str, valid: bool) -> None:
    assert read_refresh(content)[0] is valid


@pytest.mark.parametrize(
    ("metas", "url"),
    [
        (["0; url=/a/", "0; url=/b/"], "/a/"),  # the first counts
        (["garbage", "0; url=/b/"], "/b/"),  # an invalid one is as if it were not there
        (["", "0; url=/b/"], "/b/"),
        (["url=/a/", "0; url=/b/"], "/b/"),
        (["30", "0; url=/b/"], None),  # a reload is a valid refresh: the rest are ignored
    ],
)
def test_the_first_valid_refresh_counts(metas: list[str], url: str | None) -> None:
    markup = "".join(f'<meta http-equiv="refresh" content="{html.escape(m)}">' for m in metas)
    assert read_page_facts(head(markup)).refresh == url


@pytest.mark.parametrize(
    "markup",
    [
        '<META HTTP-EQUIV="Refresh" CONTENT="0; URL=/new/">',
        "<meta http-equiv=refresh content='0; url=/new/'>",
        '<meta content="0; url=/new/" http-equiv="refresh">',
        '<meta http-equiv=" refresh " content="0; url=/new/">',
        '<meta http-equiv="&#114;efresh" content="0; url=/new/">',
        '<meta http-equiv="refresh" content="0; url=&#x2F;new&#47;">',
        '<meta http-equiv="refresh" content="0; url=/new/" />',
    ],
)
def test_refresh_spellings(markup: str) -> None:
    assert read_page_facts(head(markup)).refresh == "/new/"


@pytest.mark.parametrize(
    ("markup", "body"),
    [
        ('<meta name="refresh" content="0; url=/new/">', ""),  # name, not http-equiv
        ('<meta http-equiv="refresh">', ""),
        ('<meta http-equiv="refresh-x" content="0; url=/new/">', ""),
        ("<!-- <meta http-equiv=refresh content='0;url=/new/'> -->", ""),
        ("<template><meta http-equiv=refresh content='0;url=/new/'></template>", ""),
        ("", "<meta http-equiv=refresh content='0;url=/new/'>"),  # in the body
    ],
)
def test_no_refresh(markup: str, body: str) -> None:
    assert read_page_facts(head(markup, body)).refresh is None


# mike's version stub (Material for MkDocs): a crawler that runs no script follows the refresh
# inside <noscript>, the others the script; either way the page is a redirect stub.
MIKE_STUB = """<!DOCTYPE html>
<html>
<head>
  <meta charset="utf-8">
  <title>Redirecting</title>
  <noscript>
    <meta http-equiv="refresh" content="1; url=latest/" />
  </noscript>
  <script>
    window.location.replace("latest/" + window.location.search + window.location.hash);
  </script>
</head>
<body>
  Redirecting to <a href="latest/">latest/</a>...
</body>
</html>
"""


NEW = "<meta http-equiv=refresh content='0;url=/new/'>"


def test_a_refresh_inside_the_heads_noscript_counts() -> None:
    assert read_page_facts(MIKE_STUB.encode()).refresh == "latest/"


@pytest.mark.parametrize(
    ("markup", "url"),
    [
        ("<noscript><meta http-equiv=refresh content='0;url=/new/'></noscript>", "/new/"),
        (f"<noscript><link rel=stylesheet href=/s.css>{NEW}</noscript>", "/new/"),
        # The head's own refresh comes first: it counts.
        (f"<meta http-equiv=refresh content='0;url=/a/'><noscript>{NEW}</noscript>", "/a/"),
        # In the noscript mode, anything but metadata ends the head: the meta is the body's.
        (f"<noscript><p>Enable JavaScript</p>{NEW}</noscript>", None),
        ("<noscript><!-- <meta http-equiv=refresh content='0;url=/new/'> --></noscript>", None),
        ("<noscript><meta name=refresh content='0;url=/new/'></noscript>", None),
    ],
)
def test_refresh_in_noscript(markup: str, url: str | None) -> None:
    assert read_page_facts(head(markup)).refresh == url


def test_a_noscript_refresh_outside_the_head_does_not_count() -> None:
    after_head = b"<html><head></head><noscript><meta http-equiv=refresh content='0;url=/x/'>"
    in_body = b"<html><head></head><body><noscript><meta http-equiv=refresh content='0;url=/x/'>"
    assert read_page_facts(after_head).refresh is None
    assert read_page_facts(in_body).refresh is None


# --- rel=canonical ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("markup", "canonical"),
    [
        ('<link rel="canonical" href="https://example.com/a/">', "https://example.com/a/"),
        ("<link rel=canonical href=/a/>", "/a/"),  # an unquoted value takes the slash
        ("<link rel=canonical href=/a/ >", "/a/"),
        ('<LINK REL="CANONICAL" HREF="/a/">', "/a/"),
        ('<link href="/a/" rel="canonical">', "/a/"),
        ('<link rel="Canonical foo" href="/a/">', "/a/"),  # rel is a list of tokens
        ('<link rel="alternate canonical" href="/a/">', "/a/"),
        ('<link rel="\tcanonical\n" href="/a/">', "/a/"),
        ('<link rel="&#99;anonical" href="/a/">', "/a/"),  # character references
        ('<link rel="canonical" href="&#x2F;a&#47;">', "/a/"),
        ('<link rel="canonical" href="/a/?x=1&amp;y=2">', "/a/?x=1&y=2"),
        ('<link rel="canonical" href="  /a/  ">', "/a/"),
        ('<link rel="canonical" href="/a/" href="/b/">', "/a/"),  # the first attribute wins
        ('<link rel="canonical" rel="x" href="/a/">', "/a/"),
        ('<link rel="canonical" href="/a/"><link rel="canonical" href="/a/">', "/a/"),  # same
        ('<link rel="canonical" href="/a/"><link rel="stylesheet" href="/s.css">', "/a/"),
        ('<link rel="canonical" href="/a/"></head><link rel="canonical" href="/a/">', "/a/"),
        # Several that differ: Google ignores them all.
        ('<link rel="canonical" href="/a/"><link rel="canonical" href="/b/">', None),
        ('<link rel="canonical" href="/a/"><link rel="canonical">', None),
        ('<link rel="canonical" href="">', None),
        ('<link rel="canonical" href="   ">', None),
        ('<link rel="canonical">', None),
        ('<link rel="canonicalx" href="/a/">', None),
        ('<link rel="canonical-x" href="/a/">', None),
        ('<link rel="canonical\xa0" href="/a/">', None),  # tokens split on ASCII space only
        ('<link rel="alternate" href="/a/">', None),
        ('<meta rel="canonical" href="/a/">', None),
        ('<a rel="canonical" href="/a/">', None),  # <a> opens the body
        ('<!-- <link rel="canonical" href="/a/"> -->', None),
        ('<noscript><link rel="canonical" href="/a/"></noscript>', None),
        ('<template><link rel="canonical" href="/a/"></template>', None),
        ('<script>"<link rel=canonical href=/a/>"</script>', None),
        ('<title><link rel="canonical" href="/a/"></title>', None),
    ],
)
def test_canonical(markup: str, canonical: str | None) -> None:
    assert read_page_facts(head(markup)).canonical == canonical


def test_a_canonical_in_the_body_is_ignored() -> None:
    assert read_page_facts(head("", body='<link rel="canonical" href="/a/">')).canonical is None
    late = b"<!doctype html><title>x</title><p>text</p><link rel=canonical href=/a/>"
    assert read_page_facts(late).canonical is None


def test_one_in_the_head_and_another_in_the_body_is_the_heads() -> None:
    facts = read_page_facts(head("<link rel=canonical href=/a/>", "<link rel=canonical href=/b/>"))
    assert facts.canonical == "/a/"


def test_a_canonical_cut_off_at_the_end_of_the_bytes_is_ignored() -> None:
    tag = b'<link rel="canonical" href="https://example.com/a/">'
    filler = b"<!doctype html><html><head><script>/*" + b"x" * PAGE_FACTS_BYTES + b"*/</script>"
    data = (filler[: PAGE_FACTS_BYTES - 20] + tag)[:PAGE_FACTS_BYTES]
    assert read_page_facts(data).canonical is None
    for cut in range(1, len(tag)):
        assert read_page_facts(b"<head>" + tag[:cut]).canonical is None, cut
    assert read_page_facts(b"<head>" + tag).canonical == "https://example.com/a/"


def test_a_canonical_past_the_first_64_kib_is_not_seen() -> None:
    long_script = "<script>/*" + "x" * PAGE_FACTS_BYTES + "*/</script>"
    whole = head(long_script + '<link rel="canonical" href="/a/">')
    assert read_page_facts(whole).canonical == "/a/"
    assert read_page_facts(whole[:PAGE_FACTS_BYTES]).canonical is None


# --- <base href>: read only when a relative URL needs it ------------------------------------


@pytest.mark.parametrize(
    ("markup", "base"),
    [
        ('<base href="/root/"><link rel="canonical" href="a/">', "/root/"),
        ('<link rel="canonical" href="a/"><base href="/root/">', "/root/"),  # base anywhere
        ('<base target=_top><base href="/root/"><link rel=canonical href=a/>', "/root/"),
        (
            '<base href=" https://cdn.example.org/ "><link rel=canonical href=a/>',
            "https://cdn.example.org/",
        ),
        ('<base href="/one/"><base href="/two/"><link rel=canonical href=a/>', "/one/"),
        ('<base href="/root/"><meta http-equiv=refresh content="0;url=a/">', "/root/"),
        ('<base href="/root/"><link rel="canonical" href="//host/a/">', "/root/"),
        ('<base href="/root/"><link rel="canonical" href="https://example.com/a/">', None),
        ('<base href="/root/"><meta http-equiv=refresh content="0;url=https://e.com/">', None),
        ('<base href="/root/">', None),  # nothing to resolve
        ("<link rel=canonical href=a/>", None),  # no base
        ("<link rel=canonical href=a/><!-- <base href=/x/> -->", None),
    ],
)
def test_base_href_only_when_needed(markup: str, base: str | None) -> None:
    assert read_page_facts(head(markup)).base == base


# --- noindex agrees with sitemill.html.meta ------------------------------------------------------


def _noindex_cases() -> list[bytes]:
    from test_noindex import test_head_is_noindex

    marks = test_head_is_noindex.pytestmark  # type: ignore[attr-defined]
    (parametrize,) = [mark for mark in marks if mark.name == "parametrize"]
    return [html for html, _ in parametrize.args[1]]


@pytest.mark.parametrize("html", _noindex_cases())
def test_noindex_agrees_with_head_is_noindex(html: bytes) -> None:
    facts = read_page_facts(html)
    assert facts.noindex is head_is_noindex(html)
    if html and not html.startswith(b"%PDF"):
        assert facts.document


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=12))
def test_noindex_agrees_on_generated_heads(fragments: list[str]) -> None:
    html = "".join(fragments).encode("latin-1")
    facts = read_page_facts(html)
    if facts.document:
        assert facts.noindex is head_is_noindex(html)
    else:
        assert facts == PageFacts(document=False)


# --- what is not a page, and what still is -------------------------------------------------

WEBPACK_MACROS = b"""<!--
  AUTO-GENERATED from webpack.config.js, do **NOT** edit by hand.
  These are re-used in layout.html
-->
{# Load FontAwesome icons #}
{% macro head_pre_icons() %}
  <link rel="stylesheet"
    href="{{ pathto('_static/vendor/fontawesome/6.5.2/css/all.min.css', 1) }}" />
{% endmacro %}
"""
HUGO_BASEOF = b"""<!DOCTYPE html>
<html lang="{{ site.Language.LanguageCode }}" dir="{{ or site.Language.LanguageDirection `ltr` }}">
<head>
  {{ partial "head.html" . }}
</head>
<body>
  <main>{{ block "main" . }}{{ end }}</main>
</body>
</html>
"""
JEKYLL_LAYOUT = b"""---
layout: default
---
<!DOCTYPE html>
<html lang="{{ site.lang | default: "en-US" }}">
<head><title>{{ page.title }}</title></head>
<body>{{ content }}</body>
</html>
"""
# As in the source trees of jekyll themes and hugo-tranquilpeak-theme (issue 82):
JEKYLL_DEFAULT = b"""<!DOCTYPE html>
<html>
  {% include head.html %}
  <body>{{ content }}</body>
</html>
"""
TRANQUILPEAK_META = b"""<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Hugo {{ hugo.Version }} with theme Tranquilpeak 0.5.3-BETA">
<meta name="author" content="{{ .Site.Author.name }}">
"""
JEKYLL_GA = b"""<script>
  var _gaq = _gaq || [];
  _gaq.push(['_setAccount', '{{ site.analytics.google.tracking_id }}']);
</script>
"""
SPHINX_LIKE = b"""<!DOCTYPE html>
<html{% if language %} lang="{{ language }}"{% endif %}>
<head><meta charset="utf-8"></head>
"""


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(WEBPACK_MACROS, id="jinja macros (pydata-sphinx-theme)"),
        pytest.param(HUGO_BASEOF, id="hugo baseof.html"),
        pytest.param(JEKYLL_LAYOUT, id="jekyll layout with front matter"),
        pytest.param(b"+++\ntitle = 'x'\n+++\n<p>x</p>", id="toml front matter"),
        pytest.param(SPHINX_LIKE, id="<html{% if %}>"),
        pytest.param(b'{{ define "main" }}\n<h1>{{ .Title }}</h1>\n{{ end }}', id="define"),
        pytest.param(b'{{- define "main" -}}<h1>x</h1>{{- end -}}', id="define, trimmed"),
        pytest.param(b"<footer>{{ .Site.Copyright }}</footer>\n", id="partial"),
        pytest.param(b"<nav>{% for item in nav %}<a>x</a>{% endfor %}</nav>", id="jinja partial"),
        pytest.param(b'{% extends "base.html" %}{% block body %}<p>x</p>{% endblock %}', id="ext"),
        pytest.param(b"{# a comment #}<p>x</p>", id="jinja comment"),
        pytest.param(b"<%= title %><p>x</p>", id="erb"),
        pytest.param(b"<?php echo 'x'; ?><html></html>", id="php"),
        pytest.param(b"<!DOCTYPE html>\n{% block head %}{% endblock %}", id="doctype, then jinja"),
        pytest.param(b"<!doctype html><!-- x --><html lang='{{ .Lang }}'>", id="doctype, comment"),
        pytest.param(b'<!DOCTYPE html>\n{{ partial "head" . }}', id="doctype, then go"),
        pytest.param(b"google-site-verification: google1234567890abcdef.html", id="verification"),
        pytest.param(b"", id="empty"),
        pytest.param(b"\xef\xbb\xbf \n\t\r\n ", id="bom and white space"),
        pytest.param(b"   \n", id="white space"),
        pytest.param(b"<!-- only a comment -->", id="a comment"),
        pytest.param(b"Just some text, no markup.", id="text"),
        pytest.param(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3", id="a PDF named .html"),
        pytest.param(b"\x00\x01\x02\xff", id="binary"),
        pytest.param(b'<?xml version="1.0"?>{{ x }}', id="xml declaration, then a template"),
        # A source tree's layouts and includes beside the built pages (issue 82):
        pytest.param(JEKYLL_DEFAULT, id="jekyll _layouts/default.html, an include first"),
        pytest.param(b'<html>\n<head>\n{{ partial "meta" . }}</head>', id="html, head, go"),
        pytest.param(TRANQUILPEAK_META, id="hugo partial of head tags"),
        pytest.param(JEKYLL_GA, id="jekyll include of a script"),
    ],
)
def test_not_a_page(data: bytes) -> None:
    assert read_page_facts(data) == PageFacts(document=False)


XHTML = b"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN"
  "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en">
<head><title>x</title><link rel="canonical" href="/x/" /></head>
<body><p>{{ a mustache in the text }}</p></body>
</html>
"""
MINIFIED_HUGO = (
    b"<!doctype html><html lang=en><head><meta charset=utf-8><meta name=viewport "
    b'content="width=device-width,initial-scale=1"><title>Post</title><link rel=canonical '
    b"href=https://example.com/post/><link rel=stylesheet href=/css/main.min.css></head>"
    b"<body><main><h1>Post</h1></main></body></html>"
)


@pytest.mark.parametrize(
    ("data", "canonical"),
    [
        pytest.param(b"<h1>Hi</h1><p>text</p>", None, id="hand-written fragment"),
        pytest.param(b"Hello <b>world</b>", None, id="text, then a tag"),
        pytest.param(
            b"<!doctype html><html><head><title>App</title></head>"
            b"<body ng-app><p>{{ value }}</p></body></html>",
            None,
            id="angular page",
        ),
        pytest.param(
            b"<!doctype html><p>{{ value }}</p>",
            None,
            id="doctype, then a body with braces",
        ),
        pytest.param(
            head('<meta name="description" content="use {{ }} in templates">'),
            None,
            id="braces in a meta description",
        ),
        pytest.param(
            head('<meta name="description" content="use {{ page.title }} in templates">'),
            None,
            id="a template in a meta description",
        ),
        pytest.param(head("<title>{{ x }} in Jinja</title>"), None, id="braces in the title"),
        pytest.param(MINIFIED_HUGO, "https://example.com/post/", id="minified hugo page"),
        pytest.param(XHTML, "/x/", id="xhtml with an xml declaration"),
        pytest.param(b"\xef\xbb\xbf<!DOCTYPE html><title>x</title>", None, id="bom"),
        pytest.param(b"<!-- c -->\n<!DOCTYPE html>\n<html></html>", None, id="comment first"),
        pytest.param(b"<html><body>x</body></html>", None, id="no doctype"),
        pytest.param(b"<head><title>x</title></head>", None, id="a head only"),
        pytest.param(b"<title>x</title>", None, id="a title only"),
        pytest.param(b"<meta charset=utf-8><p>x", None, id="a meta first"),
        pytest.param(b"<!DOCTYPE html><html{lang}>", None, id="a brace without template"),
        pytest.param(b"<!doctype html><html lang='{ en }'>", None, id="single braces"),
    ],
)
def test_real_pages_stay_documents(data: bytes, canonical: str | None) -> None:
    facts = read_page_facts(data)
    assert facts.document
    assert facts.canonical == canonical


def test_a_template_in_a_head_tag_makes_a_layout() -> None:
    assert not read_page_facts(head('<link rel="canonical" href="{{ .Permalink }}">')).document
    assert not read_page_facts(b'<html lang="{{ .Lang }}"><head></head>').document
    # In a meta's content a template is text that a page may show: still a page.
    assert read_page_facts(head('<meta property="og:title" content="{{ x }}">')).document


# --- robustness ------------------------------------------------------------------------------


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=2_000))
def test_never_raises_on_bytes(data: bytes) -> None:
    assert isinstance(read_page_facts(data), PageFacts)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                *FRAGMENTS,
                *NASTY,
                "{{",
                "}}",
                "{%",
                "%}",
                "{#",
                "---\n",
                "<?xml ?>",
                "<base href=",
                "<link rel=canonical href=",
                "<meta http-equiv=refresh content='0;url=",
                "url=",
                "&#99;",
                "\xa0",
            ]
        ),
        max_size=40,
    )
)
def test_never_raises_on_markup(fragments: list[str]) -> None:
    facts = read_page_facts("".join(fragments).encode("latin-1"))
    assert isinstance(facts, PageFacts)
    if not facts.document:
        assert facts == PageFacts(document=False)


ADVERSARIAL: dict[str, Callable[[int], bytes]] = {
    "refresh openers": lambda n: b"<head>" + b'<meta http-equiv=refresh content="' * (n // 34),
    "canonical openers": lambda n: b"<head>" + b"<link rel=canonical href='" * (n // 26),
    "canonicals": lambda n: b"<head>" + b"<link rel=canonical href=/a/>" * (n // 29),
    "differing canonicals": lambda n: (
        b"<head>" + b"<link rel=canonical href=a><link rel=canonical href=b>" * (n // 48)
    ),
    "refreshes": lambda n: b"<head>" + b"<meta http-equiv=refresh content='0;url=/x'>" * (n // 44),
    "braces": lambda n: b"{{" * (n // 2),
    "braces in a fragment": lambda n: b"<p>" + b"{{" * (n // 2),
    "percents in a fragment": lambda n: b"<p>" + b"{%" * (n // 2),
    "braces and text": lambda n: b"<p>" + b"{{ xxxxxxxxxxxxxxxxxxxx " * (n // 24),
    "braces in a head": lambda n: b"<!doctype html><head>" + b"<link title='{{'>" * (n // 17),
    "comments": lambda n: b"<!--" * (n // 4),
    "closed comments": lambda n: b"<!---->" * (n // 7),
    "xml declarations": lambda n: b"<?xml ?>" * (n // 8),
    "doctypes": lambda n: b"<!doctype html>" * (n // 15),
    "an html tag": lambda n: b"<!doctype html><html " + b"a " * (n // 2),
    "references": lambda n: b"<head><link rel=" + b"&#99;" * (n // 5),
    "bases": lambda n: b"<head><link rel=canonical href=a>" + b"<base " * (n // 6),
}


@pytest.mark.parametrize("shape", sorted(ADVERSARIAL))
def test_adversarial_pages_take_linear_time(shape: str) -> None:
    make = ADVERSARIAL[shape]
    # Eight times the bytes take about eight times as long, 64 times if quadratic.
    small, large = make(PAGE_FACTS_BYTES // 2), make(4 * PAGE_FACTS_BYTES)
    assert timing.linear(read_page_facts, small, large, 20)
