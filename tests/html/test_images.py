"""Images for the image sitemap extension: read from a page, resolved, filtered, bounded."""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser
from xml.etree import ElementTree
from xml.sax.saxutils import escape

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import timing
from sitemill.errors import ConfigError
from sitemill.html.images import (
    MAX_IMAGE_TAGS,
    MAX_IMAGES_PER_PAGE,
    page_images,
    read_image_sources,
    site_hosts,
)
from sitemill.html.links import resolve_url

PAGE = "https://example.com/blog/post/"
HOSTS = frozenset({"example.com", "cdn.example.net", "xn--bcher-kva.example"})
# An absolute URL as a sitemap may write it: http(s), a host, a path; only URI characters and
# valid escapes (RFC 3986), no fragment.
SAFE_URL = re.compile(
    r"https?://[a-z0-9.\-\[\]:]+(?::[0-9]+)?/(?:[A-Za-z0-9\-._~:/?@!$&'()*+,;=]|%[0-9A-F]{2})*"
)


def read(html: str | bytes) -> tuple[str, ...]:
    return read_image_sources(html.encode("utf-8") if isinstance(html, str) else html)


# ---------------------------------------------------------------- reading a page's sources

READ_CASES: dict[str, tuple[str | bytes, tuple[str, ...]]] = {
    # which attribute is read
    "src, double quotes": ('<img src="a.png">', ("a.png",)),
    "src, single quotes": ("<img src='a.png'>", ("a.png",)),
    "src, unquoted": ("<img src=a.png>", ("a.png",)),
    "src, spaces around =": ('<img src = "a.png" >', ("a.png",)),
    "upper-case names": ('<IMG SRC="A.PNG"><Img Src=b.png>', ("A.PNG", "b.png")),
    "img followed by /": ('<img/src="a.png"/>', ("a.png",)),
    "self-closing": ('<img src="a.png" />', ("a.png",)),
    "attributes on new lines": ('<img\n  alt="x"\n  src="a.png"\n>', ("a.png",)),
    "> inside a quoted value": ('<img alt="a > b" src="a.png">', ("a.png",)),
    "> inside a single-quoted value": ("<img alt='>' src=a.png>", ("a.png",)),
    "src named in another value": ('<img alt="src=bad.png" src="a.png">', ("a.png",)),
    "data-src alone": ('<img data-src="lazy.png">', ("lazy.png",)),
    "data-src before src": ('<img data-src="lazy.png" src="a.png">', ("a.png",)),
    "srcset is not src": ('<img srcset="a.png" src="b.png">', ("b.png",)),
    "xsrc, src-x are not src": ('<img xsrc="x.png" src-x="y.png">', ()),
    "the first of repeated src": ('<img src="a.png" src="b.png">', ("a.png",)),
    "a src without value is empty": ('<img src src="b.png">', ()),
    "a src without value, a srcset": ("<img src srcset=b.png>", ("b.png",)),
    "no space between attributes": ('<img alt="x"src="a.png">', ("a.png",)),
    "= in an unquoted value": ("<img src=a.png?w=1&h=2>", ("a.png?w=1&h=2",)),
    "quote inside an unquoted value": ("<img src=a'b.png>", ("a'b.png",)),
    "white space stripped": ('<img src="\n\t a.png \r\n">', ("a.png",)),
    "empty src": ('<img src="">', ()),
    "white space src": ('<img src="  ">', ()),
    # other tags are not images
    "<a src>": ('<a src="a.png">x</a>', ()),
    "<iframe src> and its content": ('<iframe src="a.png"><img src="b.png"></iframe>', ()),
    "<video src> and its sources": (
        '<video src="v.png" poster="p.png"><source src="s.mp4" srcset="s.png">'
        '<img src="fallback.png"></video><img src="a.png">',
        ("a.png",),
    ),
    "<audio> sources": ('<audio><source srcset="s.png"></audio>', ()),
    "<input type=image>, <embed>, <script src>": (
        '<input type="image" src="i.png"><embed src="e.png"><script src="s.png"></script>',
        (),
    ),
    "<imgx>, <image>": ('<imgx src="x.png"><image src="y.png">', ()),
    "img in another tag's value": ('<p title="<img src=bad.png>">x</p>', ()),
    "img in an unquoted value": ("<a href=<img src=bad.png>x</a>", ()),
    # srcset: the first candidate, as the standard splits it
    "srcset with descriptors": ('<img srcset="a.png 1x, b.png 2x">', ("a.png",)),
    "srcset with widths": ('<img srcset="a.png 480w,b.png 800w" sizes="50vw">', ("a.png",)),
    "srcset, leading commas and spaces": ('<img srcset=" ,, \n a.png 1x">', ("a.png",)),
    "srcset, trailing commas": ('<img srcset="a.png,, b.png">', ("a.png",)),
    "srcset, no space after a comma": ('<img srcset="a.png,b.png">', ("a.png,b.png",)),
    "srcset of commas only": ('<img srcset=" , ,">', ()),
    "empty src, srcset": ('<img src="" srcset="a.png 2x">', ("a.png",)),
    "src and srcset: src": ('<img src="a.png" srcset="b.png 1x, c.png 2x">', ("a.png",)),
    "data: placeholder, srcset": (
        '<img src="data:image/gif;base64,R0lG" srcset="a.png">',
        ("a.png",),
    ),
    # <picture>
    "picture": (
        '<picture><source srcset="a.avif 1x, a2.avif 2x" type="image/avif">'
        '<source srcset="a.webp" type="image/webp"><img src="a.jpg"></picture>',
        ("a.avif", "a.webp", "a.jpg"),
    ),
    "picture, source without srcset": (
        '<picture><source src="x.png"><img src="a.jpg">',
        ("a.jpg",),
    ),
    # hidden content
    "comment": ('<!-- <img src="c.png"> --><img src="a.png">', ("a.png",)),
    "comment with > inside": ('<!-- a > <img src="c.png"> --><img src="a.png">', ("a.png",)),
    "comment closed by --!>": ('<!-- <img src="c.png"> --!><img src="a.png">', ("a.png",)),
    "empty comments": ('<!--><img src="a.png"><!---><img src="b.png">', ("a.png", "b.png")),
    "unclosed comment": ('<img src="a.png"><!-- <img src="c.png">', ("a.png",)),
    "script": ("<script>document.write('<img src=\"s.png\">')</script><img src=a.png>", ("a.png",)),
    "script with attributes": ('<script type="text/template"><img src="s.png"></script>', ()),
    "script closed by upper case": ("<script><img src=s.png></SCRIPT ><img src=a.png>", ("a.png",)),
    "</scripty> does not close": ("<script></scripty><img src=s.png></script>", ()),
    "unclosed script": ('<script><img src="s.png">', ()),
    "upper-case hidden elements": (
        "<SCRIPT><img src=s.png></SCRIPT><NoScript><img src=n.png></noscript>"
        "<TITLE><img src=t.png></title><Template><img src=t.png></TEMPLATE><img src=a.png>",
        ("n.png", "a.png"),  # (<noscript> content is read: see LAZY_CASES)
    ),
    "style": ('<style>.x{background:url("<img src=s.png>")}</style><img src=a.png>', ("a.png",)),
    "template": ('<template><img src="t.png"></template><img src="a.png">', ("a.png",)),
    "textarea and title": (
        "<title><img src=t.png></title><textarea><img src=x.png></textarea>",
        (),
    ),
    "a declaration and an instruction": ('<!DOCTYPE html><?xml x?><img src="a.png">', ("a.png",)),
    "an end tag with attributes": ('</p title="<img src=x.png>"><img src="a.png">', ("a.png",)),
    "< that starts nothing": ('a < b <3 <<img src="a.png">', ("a.png",)),
    # left out
    "data: URI": ('<img src="data:image/png;base64,iVBOR">', ()),
    "DATA: URI, upper case": ('<img src="DATA:image/png;base64,iVBOR">', ()),
    "data: URI after white space": ('<img src=" data:image/png,x">', ()),
    "data: URI in srcset": ('<img srcset="data:image/png,x 1x, b.png 2x">', ()),
    "pixel": ('<img src="p.gif" width="1" height="1">', ()),
    "pixel, unquoted": ("<img src=p.gif width=1 height=1>", ()),
    "pixel, px and spaces": ("<img src=p.gif width='1px' height=\" 0PX \">", ()),
    "pixel, upper case": ("<IMG SRC=p.gif WIDTH=0 HEIGHT=1>", ()),
    "pixel, size first": ('<img height="1" width="1" src="p.gif">', ()),
    "width 1 only": ('<img src="a.png" width="1">', ("a.png",)),
    "1 by 10": ('<img src="a.png" width="1" height="10">', ("a.png",)),
    "width 1.5": ('<img src="a.png" width="1.5" height="1">', ("a.png",)),
    "a pixel's first width counts": (
        '<img src="a.png" width="100" width="1" height="1">',
        ("a.png",),
    ),
    "favicon": ('<img src="/favicon.ico"><img src="favicon-32x32.png?v=2">', ()),
    "apple-touch-icon": ('<img src="/icons/Apple-Touch-Icon-180x180.png">', ()),
    "FAVICON upper case": ('<img src="https://cdn.example.net/FAVICON.PNG">', ()),
    "icon names elsewhere": (
        '<img src="/favicons/logo.png"><img src="my-favicon.png"><img src="a.png?favicon">',
        ("/favicons/logo.png", "my-favicon.png", "a.png?favicon"),
    ),
    # each once
    "duplicates": ('<img src="a.png"><img src="b.png"><img src="a.png">', ("a.png", "b.png")),
    "duplicate in a srcset": ('<img src="a.png"><img srcset="a.png 2x">', ("a.png",)),
    "same tag repeated": ('<img src="a.png">' * 100, ("a.png",)),
    # character references (as in attribute values)
    "&amp;": ('<img src="a.png?x=1&amp;y=2">', ("a.png?x=1&y=2",)),
    "numeric references": ('<img src="a&#32;b&#x2F;c.png">', ("a b/c.png",)),
    "&quot; and &lt;": ('<img src="&quot;a&lt;b&gt;.png&quot;">', ('"a<b>.png"',)),
    "&copy= is not decoded": ('<img src="a.png?a=1&copy=2">', ("a.png?a=1&copy=2",)),
    "&copyx is not decoded": ('<img src="a.png?x&copyx">', ("a.png?x&copyx",)),
    "&copy is decoded at the end": ('<img src="a.png?x&copy">', ("a.png?x©",)),
    "unknown reference": ('<img src="a&foo;.png">', ("a&foo;.png",)),
    "&#0;": ('<img src="a&#0;.png">', ("a\ufffd.png",)),
    "reference in srcset": ('<img srcset="a&amp;b.png&#32;2x">', ("a&b.png",)),
    # encodings and cut-off pages
    "BOM": (b'\xef\xbb\xbf<img src="a.png">', ("a.png",)),
    "non-ASCII name": ('<img src="/bilder/größe 1.png">', ("/bilder/größe 1.png",)),
    "invalid UTF-8": (b'<img src="a\xffb.png">', ("a\ufffdb.png",)),
    "NUL in a value": ('<img src="a\x00b.png">', ("a\ufffdb.png",)),
    "cut in a value": ('<img src="a.png"><img src="b.pn', ("a.png",)),
    "cut after a value": ('<img src="a.png"><img src="b.png" alt="x', ("a.png",)),
    "cut after a quote": ('<img src="a.png"><img src="b.png"', ("a.png",)),
    "cut in a name": ('<img src="a.png"><im', ("a.png",)),
    "cut after <img": ('<img src="a.png"><img', ("a.png",)),
    "cut in an unquoted value": ("<img src=a.png><img src=b.png", ("a.png",)),
    "empty page": ("", ()),
}


@pytest.mark.parametrize("name", list(READ_CASES))
def test_read_image_sources(name: str) -> None:
    html, expected = READ_CASES[name]
    assert read(html) == expected


# Lazy-loaded images, in the shapes real themes and plugins write them: a Hugo theme's
# lazysizes images listed 2 images where its pages showed 128.
GIF = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"
SVG = (
    "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20"
    "viewBox='0%200%20800%20600'%3E%3C/svg%3E"
)
PHOTO = "https://example.com/wp-content/uploads/2023/05/photo-1024x768.jpg"
LAZY_CASES: dict[str, tuple[str, tuple[str, ...]]] = {
    # lazysizes (https://github.com/aFarkas/lazysizes): class="lazyload" and data-src
    "lazysizes data-src": (
        '<img class="lazyload" data-src="/posts/trip/cover.jpg" alt="Cover">',
        ("/posts/trip/cover.jpg",),
    ),
    "lazysizes data-srcset with a GIF placeholder": (
        f'<img src="{GIF}" data-srcset="/img/a-480.jpg 480w, /img/a-800.jpg 800w"'
        ' data-sizes="auto" class="lazyload" alt="">',
        ("/img/a-480.jpg",),
    ),
    "lazysizes <picture>": (
        '<picture><source type="image/webp" data-srcset="/img/b.webp 1x, /img/b@2x.webp 2x">'
        '<img class="lazyload" data-src="/img/b.jpg" alt=""></picture>',
        ("/img/b.webp", "/img/b.jpg"),
    ),
    # WordPress (WP Rocket and other plugins): an SVG placeholder, data-lazy-src, and the
    # real image again in <noscript>
    "WordPress data-lazy-src": (
        f'<img width="800" height="600" src="{SVG}" data-lazy-src="{PHOTO}" alt="">'
        f'<noscript><img width="800" height="600" src="{PHOTO}" alt=""></noscript>',
        (PHOTO,),
    ),
    # A Hugo theme: a lazy image, and its <noscript> fallback of the same URL
    "Hugo <noscript> fallback": (
        '<img class="lazyload" data-src="/images/algo.png" alt="algo">'
        '<noscript><img src="/images/algo.png" alt="algo"></noscript>',
        ("/images/algo.png",),
    ),
    "<noscript> fallback only": (
        '<img class="lazy"><noscript><img src="/images/only.png"></noscript>',
        ("/images/only.png",),
    ),
    # which attribute wins
    "src beats data-src": ('<img src="a.png" data-src="b.png">', ("a.png",)),
    "data-src beats data-lazy-src": ('<img data-lazy-src="l.png" data-src="d.png">', ("d.png",)),
    "data-src beats srcset": ('<img srcset="s.png 2x" data-src="d.png">', ("d.png",)),
    "data-lazy-src beats srcset": ('<img srcset="s.png" data-lazy-src="l.png">', ("l.png",)),
    "srcset beats data-srcset": ('<img data-srcset="ds.png" srcset="s.png 1x">', ("s.png",)),
    "placeholders everywhere but data-srcset": (
        f'<img src="{GIF}" data-src="data:," data-lazy-src="{SVG}" srcset="{GIF} 1x"'
        ' data-srcset="real.png 1x, real2.png 2x">',
        ("real.png",),
    ),
    "empty data-src": ('<img data-src="" data-srcset="b.png">', ("b.png",)),
    "the first of repeated data-src": ('<img data-src="a.png" data-src="b.png">', ("a.png",)),
    "a data-src without value is empty": ('<img data-src data-src="b.png">', ()),
    "upper case": ("<IMG DATA-SRC=a.png><Img Data-Lazy-Src=b.png>", ("a.png", "b.png")),
    "references in data-src": ('<img data-src="a.png?x=1&amp;y=2">', ("a.png?x=1&y=2",)),
    "a placeholder that is a file wins": (  # (site chrome, shown everywhere, goes later)
        '<img src="/img/blank.gif" data-src="/img/real.jpg">',
        ("/img/blank.gif",),
    ),
    # names that are not lazy sources
    "data-src-retina, data-srcx, x-data-src": (
        '<img data-src-retina="r.png" data-srcx="x.png" x-data-src="y.png">',
        (),
    ),
    "data-original, data-lazy": ('<img data-original="o.png" data-lazy="l.png">', ()),
    "data-src in another value": ('<img alt="data-src=x.png" data-src="a.png">', ("a.png",)),
    "data-src on a <source>": ('<picture><source data-src="x.webp"><img src="a.jpg">', ("a.jpg",)),
    "data-src on another tag": ('<div data-src="d.png" data-bg="e.png"></div>', ()),
    # left out as before
    "a lazy pixel": ('<img data-src="p.gif" width="1" height="1">', ()),
    "a lazy icon": ('<img data-src="/favicon-32x32.png">', ()),
    "a data: URI only": (f'<img data-src="{GIF}">', ()),
    "lazy in a comment, a script, a template": (
        '<!-- <img data-src="c.png"> --><script>x = "<img data-src=s.png>"</script>'
        '<template><img data-src="t.png"></template>',
        (),
    ),
    # <noscript>: read as markup
    "noscript": ('<noscript><img src="n.png"></noscript><img src="a.png">', ("n.png", "a.png")),
    "a tracking pixel in noscript": (
        '<noscript><img height="1" width="1" style="display:none"'
        ' src="https://www.facebook.com/tr?id=1&amp;ev=PageView&amp;noscript=1"/></noscript>',
        (),
    ),
    "unclosed noscript": ('<noscript><img src="n.png">', ("n.png",)),
    "a script in noscript still hides": (
        "<noscript><script><img src=s.png></script><img src=n.png></noscript>",
        ("n.png",),
    ),
    "noscript in a template": ("<template><noscript><img src=t.png></noscript></template>", ()),
    "noscript in a comment": ("<!-- <noscript><img src=c.png></noscript> -->", ()),
    "noscript attributes": ('<noscript class="x" data-src="no.png"><img src=n.png>', ("n.png",)),
    "</noscript> in a value": ('<noscript><p title="</noscript>"><img src=n.png>', ("n.png",)),
}


@pytest.mark.parametrize("name", list(LAZY_CASES))
def test_lazy_loaded_images_are_read(name: str) -> None:
    html, expected = LAZY_CASES[name]
    assert read(html) == expected


def test_a_lazy_image_and_its_noscript_fallback_are_one_image_once_resolved() -> None:
    html = (
        '<img class="lazyload" data-src="cover.png">'
        '<noscript><img src="/blog/post/cover.png"></noscript>'
    )
    assert read(html) == ("cover.png", "/blog/post/cover.png")
    assert page_images(read(html), PAGE, None, HOSTS) == (f"{PAGE}cover.png",)


def test_sources_are_in_document_order() -> None:
    html = (
        '<header><img src="/logo.svg"></header><main><picture><source srcset="1.webp">'
        '<img src="1.jpg"></picture><p>text</p><img srcset="2.jpg 1x"><img src="3.jpg"></main>'
    )
    assert read(html) == ("/logo.svg", "1.webp", "1.jpg", "2.jpg", "3.jpg")


def test_at_most_max_images_are_read() -> None:
    html = "".join(f'<img src="/img/{i}.png">' for i in range(1_500))
    found = read(html)
    assert MAX_IMAGES_PER_PAGE == 1_000
    assert found == tuple(f"/img/{i}.png" for i in range(1_000))


def test_at_most_max_image_tags_are_read() -> None:
    junk = "".join(f'<img src="/favicon-{i}.png">' for i in range(MAX_IMAGE_TAGS - 1))
    pixels = '<img src="p.gif" width=1 height=1>' * MAX_IMAGE_TAGS  # no tags to read
    assert read(junk + pixels + '<img src="a.png">') == ("a.png",)
    assert read(junk + '<img src="/favicon.png"><img src="a.png">') == ()


def test_duplicates_do_not_count_toward_the_bound() -> None:
    html = '<img src="a.png">' * 2_000 + '<img src="b.png">'
    assert read(html) == ("a.png", "b.png")


# ------------------------------------------------------ against a reference HTML parser


class _Reference(HTMLParser):
    """The same rules over the standard library's tokenizer (fine for well-formed pages)."""

    HIDDEN = frozenset({"template", "textarea", "title", "iframe", "video", "audio"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: dict[str, None] = {}
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.HIDDEN:
            self.hidden += 1
        if self.hidden or tag not in ("img", "source"):
            return
        values: dict[str, str] = {}
        for key, value in attrs:
            values.setdefault(key, (value or "").strip(" \t\n\f\r"))
        pixel = re.compile(r"[01](px)?", re.IGNORECASE)
        if tag == "img" and all(
            pixel.fullmatch(values.get(key, "")) for key in ("width", "height")
        ):
            return
        names = ["src", "data-src", "data-lazy-src"] if tag == "img" else []
        source = ""
        for name in [*names, "srcset", "data-srcset"]:
            value = values.get(name, "")
            if name.endswith("srcset"):
                candidates = value.replace(",", " ").split()
                value = candidates[0] if candidates else ""
            if value and not value.lower().startswith("data:"):
                source = value
                break
        name = source.split("?")[0].rsplit("/", 1)[-1].lower()
        icon = name.startswith(("favicon", "apple-touch-icon"))
        if source and not source.lower().startswith("data:") and not icon:
            self.found.setdefault(source, None)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.HIDDEN:
            self.hidden = max(self.hidden - 1, 0)


def reference(html: str) -> tuple[str, ...]:
    parser = _Reference()
    parser.feed(html)
    parser.close()
    return tuple(parser.found)


_NAMES = st.sampled_from(
    [
        *("src", "srcset", "data-src", "data-srcset", "data-lazy-src", "DATA-SRC", "data-srcx"),
        *("alt", "width", "height", "SRC", "class"),
    ]
)
_VALUES = st.sampled_from(
    [
        *("a.png", "b.png", "c.png 1x, d.png 2x", "", "1", "1px", "0", "x y", "a>b"),
        *("e&amp;f.png", "data:x", "favicon.ico", "/i/g.png?v=1", "src=h.png", "<img src=i>"),
    ]
)


@st.composite
def _attributes(draw: st.DrawFn) -> str:
    parts = []
    for _ in range(draw(st.integers(0, 4))):
        name, value = draw(_NAMES), draw(_VALUES)
        quote = draw(st.sampled_from(['"', "'", ""]))
        if not quote and (not value or re.search("[ >\"'=<`]", value)):
            quote = '"'
        parts.append(f" {name}={quote}{value}{quote}")
    return "".join(parts)


@st.composite
def _pages(draw: st.DrawFn) -> str:
    pieces = []
    for _ in range(draw(st.integers(0, 12))):
        attributes = draw(_attributes())
        pieces.append(
            draw(
                st.sampled_from(
                    [
                        f"<img{attributes}>",
                        f"<IMG{attributes}>",
                        f"<picture><source{attributes}><img{attributes}></picture>",
                        f"<a href=x{attributes}>text</a>",
                        f"<p{attributes}>words &amp; more</p>",
                        f"<!-- <img{attributes}> -->",
                        f"<script>var s = '<img{attributes}>';</script>",
                        f"<SCRIPT>var s = '<img{attributes}>';</Script>",
                        f"<noscript><img{attributes}></noscript>",
                        f"<NoScript><Img{attributes}></NOSCRIPT>",
                        f"<Template><img{attributes}></template>",
                        f"<video{attributes}><source{attributes}></video>",
                        f"<PICTURE><SOURCE{attributes}></PICTURE>",
                        "<br>",
                        "text",
                    ]
                )
            )
        )
    return "".join(pieces)


@given(_pages())
@settings(max_examples=300, deadline=None)
def test_agrees_with_a_reference_parser_on_well_formed_pages(html: str) -> None:
    assert read(html) == reference(html)


@given(st.binary(max_size=2_000))
@settings(max_examples=300, deadline=None)
def test_any_bytes_give_distinct_sources(data: bytes) -> None:
    found = read_image_sources(data)
    assert len(set(found)) == len(found) <= MAX_IMAGES_PER_PAGE
    assert all(source and not source.lower().startswith("data:") for source in found)


# ------------------------------------------------------------ resolving against the page

PAGE_CASES: dict[str, tuple[list[str], str | None, tuple[str, ...]]] = {
    "relative": (["a.png"], None, ("https://example.com/blog/post/a.png",)),
    "dot relative": (["./a.png"], None, ("https://example.com/blog/post/a.png",)),
    "parent": (["../a.png"], None, ("https://example.com/blog/a.png",)),
    "above the root": (["../../../../a.png"], None, ("https://example.com/a.png",)),
    "root-relative": (["/img/a.png"], None, ("https://example.com/img/a.png",)),
    "scheme-relative": (["//example.com/a.png"], None, ("https://example.com/a.png",)),
    "absolute, same host": (["https://example.com/a.png"], None, ("https://example.com/a.png",)),
    "absolute, http": (["http://example.com/a.png"], None, ("http://example.com/a.png",)),
    "host in upper case": (["HTTPS://EXAMPLE.COM/A.png"], None, ("https://example.com/A.png",)),
    "other host": (["https://other.org/a.png", "https://example.org/b.png"], None, ()),
    "subdomain is another host": (["https://img.example.com/a.png"], None, ()),
    "CDN host listed": (
        ["https://cdn.example.net/a.png", "//cdn.example.net/b.png"],
        None,
        ("https://cdn.example.net/a.png", "https://cdn.example.net/b.png"),
    ),
    "IDNA host": (
        ["https://bücher.example/a.png", "https://XN--BCHER-KVA.example/b.png"],
        None,
        ("https://xn--bcher-kva.example/a.png", "https://xn--bcher-kva.example/b.png"),
    ),
    "default port dropped": (
        ["https://example.com:443/a.png"],
        None,
        ("https://example.com/a.png",),
    ),
    "other port kept": (
        ["https://example.com:8443/a.png"],
        None,
        ("https://example.com:8443/a.png",),
    ),
    "fragment dropped": (["a.png#x", "b.png?v=1#y"], None, (f"{PAGE}a.png", f"{PAGE}b.png?v=1")),
    "query kept": (["a.png?w=1&h=2"], None, (f"{PAGE}a.png?w=1&h=2",)),
    "dot segments": (
        ["https://example.com/a/./b/../c.png", "https://example.com/a/%2e%2E/d.png"],
        None,
        ("https://example.com/a/c.png", "https://example.com/d.png"),
    ),
    "duplicates after resolution": (
        ["a.png", "./a.png", "/blog/post/a.png", "https://EXAMPLE.com/blog/post/a.png#top"],
        None,
        (f"{PAGE}a.png",),
    ),
    "duplicates after encoding": (["a b.png", "a%20b.png"], None, (f"{PAGE}a%20b.png",)),
    "order kept": (["c.png", "a.png", "b.png"], None, tuple(f"{PAGE}{x}.png" for x in "cab")),
    "space": (["my photo.png"], None, (f"{PAGE}my%20photo.png",)),
    "non-ASCII": (["größe.png"], None, (f"{PAGE}gr%C3%B6%C3%9Fe.png",)),
    "ampersand": (["a&b.png"], None, (f"{PAGE}a&b.png",)),  # escaped as &amp; in the XML
    "XML-breaking characters": (["a\"<b>'.png"], None, (f"{PAGE}a%22%3Cb%3E'.png",)),
    "escapes normalized": (["a%2fb%7e.png"], None, (f"{PAGE}a%2Fb~.png",)),
    "a lone %": (["100%.png"], None, (f"{PAGE}100%25.png",)),
    "control characters": (["a\x01b\x7f.png"], None, (f"{PAGE}a%01b%7F.png",)),
    "tabs and newlines removed": (["a\n\tb.png"], None, (f"{PAGE}ab.png",)),
    "surrounding white space and controls": ([" \t\x00a.png\x1f "], None, (f"{PAGE}a.png",)),
    "<base href>, root-relative": (["a.png"], "/static/", ("https://example.com/static/a.png",)),
    "<base href>, CDN": (
        ["a.png"],
        "https://cdn.example.net/x/",
        ("https://cdn.example.net/x/a.png",),
    ),
    "<base href>, relative": (["a.png"], "../", ("https://example.com/blog/a.png",)),
    "<base href>, other host": (["a.png", "/b.png"], "https://other.org/", ()),
    "<base href>, absolute source": (
        ["https://example.com/a.png"],
        "https://other.org/",
        ("https://example.com/a.png",),
    ),
    "not http(s)": (
        ["javascript:alert(1)", "mailto:a@example.com", "ftp://example.com/a"],
        None,
        (),
    ),
    "data:": (["data:image/png;base64,AAAA"], None, ()),
    "empty": (["", "   ", "\t"], None, ()),
    "bad IPv6 host": (["http://[::1/a.png"], None, ()),
    "bad port": (["https://example.com:99999/a.png", "https://example.com:x/a.png"], None, ()),
    "credentials": (["https://user:pw@example.com/a.png", "https://u@example.com/b"], None, ()),
    "bad IDNA host": (["https://" + "x" * 64 + ".example.com/a.png", "https://a..b/"], None, ()),
    "lone surrogate": (["a\udc80.png"], None, ()),
}


@pytest.mark.parametrize("name", list(PAGE_CASES))
def test_page_images(name: str) -> None:
    sources, base_href, expected = PAGE_CASES[name]
    assert page_images(sources, PAGE, base_href, HOSTS) == expected


def test_page_images_are_capped() -> None:
    sources = [f"/img/{i}.png" for i in range(1_500)]
    found = page_images(sources, PAGE, None, HOSTS)
    assert found == tuple(f"https://example.com/img/{i}.png" for i in range(1_000))


def test_sources_left_out_do_not_count_toward_the_cap() -> None:
    sources = [f"https://other.org/{i}.png" for i in range(1_500)] + ["/a.png"]
    assert page_images(sources, PAGE, None, HOSTS) == ("https://example.com/a.png",)


def test_page_images_takes_any_iterable() -> None:
    assert page_images(iter(["a.png"]), PAGE, None, HOSTS) == (f"{PAGE}a.png",)


def test_from_a_page_to_sitemap_urls() -> None:
    html = (
        '<base href="/blog/"><img src="post/a.png"><img src="https://other.org/x.png">'
        '<img srcset="//cdn.example.net/b.png 1x"><img src="post/a.png#again">'
    )
    sources = read(html)
    assert page_images(sources, PAGE, "/blog/", HOSTS) == (
        "https://example.com/blog/post/a.png",
        "https://cdn.example.net/b.png",
    )


def assert_xml_safe(urls: tuple[str, ...]) -> None:
    for url in urls:
        assert SAFE_URL.fullmatch(url), url
    body = "".join(f"<loc>{escape(url)}</loc>" for url in urls)
    parsed = ElementTree.fromstring(f"<urlset>{body}</urlset>")
    assert tuple(loc.text for loc in parsed) == urls


def test_urls_are_safe_in_xml() -> None:
    sources = ['a"b.png', "a<b>.png", "a&amp;b.png", "a'b.png", "\x0b\x0c.png", "é\u2028.png"]
    found = page_images(sources, PAGE, None, HOSTS)
    assert len(found) == len(sources)
    assert_xml_safe(found)


@given(st.lists(st.text(max_size=40), max_size=8), st.sampled_from([None, "/x/", "../"]))
@settings(max_examples=300, deadline=None)
def test_any_sources_give_urls_safe_in_xml(sources: list[str], base_href: str | None) -> None:
    found = page_images(sources, PAGE, base_href, HOSTS)
    assert len(set(found)) == len(found)
    assert_xml_safe(found)


# -------------------------------------------------------------------------- site hosts


@pytest.mark.parametrize(
    ("base_url", "image_hosts", "expected"),
    [
        ("https://Example.COM/", [], {"example.com"}),
        ("https://example.com:8080/docs/", (), {"example.com"}),
        ("https://example.com/", ["CDN.Example.net"], {"example.com", "cdn.example.net"}),
        ("https://example.com/", ["https://img.example.org/"], {"example.com", "img.example.org"}),
        ("https://example.com/", ["cdn.example.net:8443"], {"example.com", "cdn.example.net"}),
        ("https://example.com/", ["bücher.example"], {"example.com", "xn--bcher-kva.example"}),
        ("https://bücher.example/", [], {"xn--bcher-kva.example"}),
        (
            "https://example.com/",
            ["", "  ", " cdn.example.net "],
            {"example.com", "cdn.example.net"},
        ),
        ("https://example.com/", ["example.com"], {"example.com"}),
        ("http://[::1]:8000/", [], {"[::1]"}),
    ],
)
def test_site_hosts(base_url: str, image_hosts: list[str], expected: set[str]) -> None:
    hosts = site_hosts(base_url, image_hosts)
    assert hosts == frozenset(expected)
    assert isinstance(hosts, frozenset)


@pytest.mark.parametrize(
    ("base_url", "image_hosts", "key"),
    [
        ("", [], "base_url"),
        ("https://", [], "base_url"),
        ("http://[::1/", [], "base_url"),
        ("https://example.com/", ["a..b"], "image_hosts"),
        ("https://example.com/", ["x" * 64 + ".com"], "image_hosts"),
        ("https://example.com/", ["https://"], "image_hosts"),
    ],
)
def test_site_hosts_refuses_hosts_that_are_not(
    base_url: str, image_hosts: list[str], key: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        site_hosts(base_url, image_hosts)
    assert key in str(caught.value)


def test_the_hosts_match_what_page_images_compares() -> None:
    hosts = site_hosts("https://BÜCHER.example/", ["CDN.example.net"])
    sources = ["https://bücher.example/a.png", "https://cdn.EXAMPLE.net/b.png"]
    assert page_images(sources, "https://xn--bcher-kva.example/", None, hosts) == (
        "https://xn--bcher-kva.example/a.png",
        "https://cdn.example.net/b.png",
    )


# ---------------------------------------------------------------------- hostile input

MB = 1_000_000


def repeat(unit: bytes) -> Callable[[int], bytes]:
    return lambda size: unit * (size // len(unit))


def numbered(pattern: str) -> Callable[[int], bytes]:
    """Distinct tags (none alike, so none is read only once) up to ``size`` bytes."""

    def make(size: int) -> bytes:
        parts, length, i = [], 0, 0
        while length < size:
            part = (pattern % i).encode()
            parts.append(part)
            length += len(part)
            i += 1
        return b"".join(parts)

    return make


HOSTILE: dict[str, Callable[[int], bytes]] = {
    '<img src=" unclosed': repeat(b'<img src="'),
    "<img src=' unclosed": repeat(b"<img src='"),
    "<img unclosed": repeat(b"<img "),
    "<img src= unclosed": repeat(b"<img src="),
    "<img alt=x, one tag": repeat(b"<img alt=x "),
    "<img srcset= unclosed": repeat(b'<img srcset=" ,'),
    "<picture><source srcset=": repeat(b'<picture><source srcset="'),
    "<": repeat(b"<"),
    "<!-- unclosed": repeat(b"<!--"),
    "<script unclosed": repeat(b"<script>"),
    "<p title=<img": repeat(b'<p title="<img src=a>">'),
    "<img> without source": repeat(b"<img>"),
    "<img src> alike": repeat(b"<img src=a.png>"),
    "pixels alike": repeat(b"<img width=1 height=1 src=a>"),
    "distinct pixels": numbered("<img width=1 height=1 src=%d>"),
    "distinct favicons": numbered("<img src=favicon%d.ico>"),
    "distinct data: URIs": numbered("<img src=data:%d>"),
    "distinct images": numbered("<img src=%d.png>"),
    "references": repeat(b'<img src="&amp;&#'),
    # lazy-loaded images and <noscript>
    '<img data-src=" unclosed': repeat(b'<img data-src="'),
    "<img data-srcset= unclosed": repeat(b"<img data-srcset="),
    "<img data-lazy-src=' unclosed": repeat(b"<img data-lazy-src='"),
    "many data- attributes, one tag": lambda size: b"<img" + b" data-srcs=1" * (size // 11),
    "many near-source names, one tag": lambda size: (
        b"<img" + b" data-src-x data-lazy-srcx=1 data-srcsetx data-=x" * (size // 48)
    ),
    "many data-src=, one unclosed tag": lambda size: b"<img" + b" data-src=" * (size // 10),
    "distinct lazy images": numbered("<img data-src=%d.png>"),
    "distinct placeholders only": numbered(
        '<img src="data:%d" data-src="data:" data-lazy-src="data:," srcset="data:" '
        'data-srcset="data:">'
    ),
    "<noscript> unclosed": repeat(b"<noscript>"),
    "<noscript><img unclosed": repeat(b"<noscript><img data-src="),
    "distinct noscript images": numbered("<noscript><img src=%d.png></noscript>"),
    "invalid UTF-8": repeat(b"\xff\xfe<\x80\xc3"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_pages_take_linear_time(name: str) -> None:
    make = HOSTILE[name]
    # 8x if linear, 64x if quadratic
    assert timing.linear(read_image_sources, make(MB // 8), make(MB), 20)


# What a browser's URL parser (WHATWG; Node's URL gave these) makes of odd sources on
# https://example.com/p/q.html: a backslash before the query is a slash, tabs and newlines
# vanish, C0 controls and spaces around go. An image that loads from another host is never
# listed as one of the site's.
BROWSER_READS = [
    ("/\\evil.org/f.png", "https://evil.org/f.png"),
    ("\\\\evil.org/f.png", "https://evil.org/f.png"),
    ("http:\\\\evil.org\\f.png", "http://evil.org/f.png"),
    ("https:/\\evil.org/x.png", "https://evil.org/x.png"),
    ("\\/evil.org/x.png", "https://evil.org/x.png"),
    (" \t/\n/evil.org/x.png", "https://evil.org/x.png"),
    ("https:\\/example.com/y.png", "https://example.com/y.png"),
    ("https://example.com\\x.png", "https://example.com/x.png"),
    ("a\\b.png", "https://example.com/p/a/b.png"),
    ("/a/..\\..\\b.png", "https://example.com/b.png"),
    ("\x01 /a/b.png \x1f", "https://example.com/a/b.png"),
    ("https:evil.org/x.png", "https://example.com/p/evil.org/x.png"),
    ("/i/a.png?x=\\y", "https://example.com/i/a.png?x=\\y"),
]


@pytest.mark.parametrize(("source", "browser"), BROWSER_READS)
def test_sources_resolve_as_a_browser_resolves_them(source: str, browser: str) -> None:
    assert resolve_url(source, "https://example.com/p/q.html") == browser
    listed = page_images([source], "https://example.com/p/q.html", None, HOSTS)
    if browser.startswith("https://example.com/"):
        assert listed == (browser.replace("\\", "%5C"),)
    else:
        assert listed == ()  # it would load from evil.org
    with_base = page_images([source], "https://example.com/p/q.html", "/p/", HOSTS)
    assert with_base == listed


def test_a_base_with_a_backslash_is_read_as_a_browser_reads_it() -> None:
    assert page_images(["f.png"], "https://example.com/p/q.html", "/\\evil.org/", HOSTS) == ()
    cdn = site_hosts("https://example.com/", ["evil.org"])
    assert page_images(["f.png"], "https://example.com/q.html", "/\\evil.org/i/", cdn) == (
        "https://evil.org/i/f.png",
    )
