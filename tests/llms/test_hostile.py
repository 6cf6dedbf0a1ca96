"""Hostile page text through the three Markdown files (llms.txt, llms-full.txt, a twin): one
table of inputs, each file read by a CommonMark reader (mistletoe, raw HTML passed through as
a browser would get it) and held to one contract: page text stays text (no raw HTML, no link
or image it did not have as markup, no unsafe scheme, no invisible control), and shows."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

import mistletoe
import pytest

from sitemill.llms._blocks import RepeatedBlocks
from sitemill.llms._files import llms_files
from sitemill.llms._markdownfiles import twin_bytes
from sitemill.llms._sitename import site_name
from sitemill.llms.conversion import page_markdown
from sitemill.llms.full import llms_full_text
from sitemill.llms.page import LlmsPage, LlmsSite

BASE = "https://example.org/"
PAGE = BASE + "guide/"
# What a CommonMark reading of Markdown alone gives; raw HTML would add any other.
MARKDOWN_TAGS = frozenset(
    {
        "h1", "h2", "h3", "h4", "h5", "h6", "p", "a", "img", "ul", "ol", "li", "code", "pre",
        "em", "strong", "blockquote", "hr", "br", "del", "table", "thead", "tbody", "tr", "th",
        "td",
    }
)  # fmt: skip
INVISIBLE = re.compile(
    "[\x00-\x08\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]"
)
SAFE_TARGET = re.compile(r"(?:https?://(?:example\.org|other\.example)/|mailto:)")


@dataclass(frozen=True)
class Hostile:
    """One hostile input: the page's title, the site's name, the home page's description, the
    page's body; ``shown``: texts every file that carries that input shows as text."""

    title: str = "Guide"
    name: str = "Example"
    description: str = "About the site."
    body: str = "<p>Words.</p>"
    shown: tuple[str, ...] = ()
    absent: tuple[str, ...] = ()  # texts no file holds (hidden elements')


CASES = {
    "title: raw HTML": Hostile(title="<script>alert(1)</script> Guide", shown=("<script>",)),
    "title: an element with a handler": Hostile(title="<img src=x onerror=alert(1)>"),
    "title: a link to another host": Hostile(
        title="[click](https://evil.example/)", shown=("[click](https://evil.example/)",)
    ),
    "title: an image on another host": Hostile(title="![](https://evil.example/pixel.png) Go"),
    "title: an autolink": Hostile(title="<https://evil.example/> Guide"),
    "title: bidi controls and a BOM": Hostile(
        title="\ufeffGuide\u202eedoc\u202c \u2066x\u2069\u200f\u061c\x07", shown=("Guideedoc x",)
    ),
    "site name: HTML and a link": Hostile(
        name="<b>Example</b> [home](https://evil.example/)", shown=("<b>Example</b>",)
    ),
    "site name: bidi": Hostile(name="Ex\u202eelpma\u2069\ufeff", shown=("Exelpma",)),
    "description: raw HTML and a link": Hostile(
        description="<iframe src=https://evil.example/></iframe> [x](javascript:alert(1))",
        shown=("<iframe",),
    ),
    "body: text showing markup": Hostile(
        body="<p>&lt;script&gt;alert(1)&lt;/script&gt; and &lt;b&gt;bold&lt;/b&gt;</p>",
        shown=("<script>alert(1)</script>", "<b>bold</b>"),
    ),
    "body: link and image syntax as text": Hostile(
        body="<p>[click](javascript:alert(1)) ![i](https://evil.example/t.png)"
        " &lt;https://evil.example/&gt; [r]: https://evil.example/</p><p>[r]</p>",
        shown=("[click](javascript:alert(1))", "![i](https://evil.example/t.png)"),
    ),
    "body: unsafe schemes": Hostile(
        body="<p><a href='javascript:alert(1)'>j</a> <a href=' JaVa&#x09;script:x'>k</a>"
        " <a href='data:text/html,x'>d</a> <a href='vbscript:msgbox(1)'>v</a>"
        " <a href='file:///etc/passwd'>f</a> <img src='file:///x.png' alt='fa'>"
        " <img src='data:image/png;base64,AA' alt='[x](https://evil.example/)'>"
        " <video src='javascript:x' poster='data:x'>vid</video>"
        " <code><a href='vbscript:x'>Api</a></code> <a href='mailto:a@example.org'>m</a>"
        " <a href='https://other.example/'>other</a></p>",
        shown=("j", "d", "v", "f", "fa", "[x](https://evil.example/)", "Api"),
    ),
    "body: link text and titles breaking out": Hostile(
        body="<p><a href='/ok'>x](javascript:alert(1)</a>"
        " <a href='/t' title='a\\\" ) [y](javascript:z) \"'>t</a>"
        " <a href='https://example.org/a) [z](javascript:alert(1)'>u</a>"
        " <img src='/i.png' alt='a](javascript:x) ![b'></p>",
        shown=("x](javascript:alert(1)",),
    ),
    "body: code that closes its fence": Hostile(
        body="<pre><code>```\n&lt;script&gt;alert(1)&lt;/script&gt;\n```\n# in code</code></pre>"
        "<p><code>`</code></p>",
        shown=("# in code",),
    ),
    "body: hidden elements": Hostile(
        body="<p hidden>Secret one</p><div style='color: red; display : none'>Secret two</div>"
        "<p style='visibility:hidden'>Secret three</p><p>Shown</p>",
        shown=("Shown",),
        absent=("Secret",),
    ),
    "body: controls": Hostile(
        body="<p>a\u202eb&#x202E;c&#xFEFF;d&#x2066;e\u200f&#7;f</p>", shown=("abcdef",)
    ),
}


def outputs(case: Hostile) -> dict[str, str]:
    """llms.txt, llms-full.txt and the page's twin of a site of two pages: a home page named
    by ``case.name`` and described by ``case.description``, and ``case``'s page."""
    page_html = f"<html><head><title>x</title></head><body><main><h1>Guide</h1>{case.body}"
    pages = [LlmsPage(BASE, "Home", case.description), LlmsPage(PAGE, case.title)]
    site = LlmsSite(BASE, BASE + "sitemap.xml", case.name, case.description)
    converted = page_markdown(
        pages[1], f"{page_html}</main></body></html>".encode(), RepeatedBlocks()
    )
    full = llms_full_text(site, site_name(pages, site), [converted])
    return {
        "llms.txt": llms_files(pages, site).files["llms.txt"].decode(),
        "llms-full.txt": full.decode(),
        "twin": twin_bytes(converted).decode(),
    }


@dataclass
class Rendered(HTMLParser):
    """What a CommonMark reading of a file gives a browser: its elements, their link and image
    targets, and the text it shows."""

    tags: set[str] = field(default_factory=set)
    targets: list[str] = field(default_factory=list)
    handlers: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(convert_charrefs=True)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        for name, value in attrs:
            if name in ("href", "src", "poster"):
                self.targets.append(value or "")
            if name.startswith("on"):
                self.handlers.append(name)
            if name == "alt":
                self.texts.append(value or "")

    def handle_data(self, data: str) -> None:
        self.texts.append(data)


def rendered(markdown: str) -> Rendered:
    reading = Rendered()
    reading.feed(mistletoe.markdown(markdown))
    reading.close()
    return reading


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
@pytest.mark.parametrize("file", ["llms.txt", "llms-full.txt", "twin"])
def test_page_text_stays_text(case: Hostile, file: str) -> None:
    text = outputs(case)[file]
    reading = rendered(text)
    assert reading.tags <= MARKDOWN_TAGS, sorted(reading.tags - MARKDOWN_TAGS)
    assert not reading.handlers
    assert all(SAFE_TARGET.match(target) for target in reading.targets), reading.targets
    assert not INVISIBLE.search(text)
    shown = " ".join(reading.texts)
    for absent in case.absent:
        assert absent not in text
    carried = {
        "llms.txt": (case.title, case.name, case.description),
        "llms-full.txt": (case.title, case.name, case.description, case.body),
        "twin": (case.title, case.body),
    }[file]
    for words in case.shown:
        if any(_holds(source, words) for source in carried):
            assert words in shown, (words, shown)


def _holds(source: str, words: str) -> bool:
    """Whether the input ``source`` says ``words`` (as text: entities decoded, controls out)."""
    plain = INVISIBLE.sub("", html.unescape(re.sub(r"<[^>]*>", "", source)))
    return words in plain or words in INVISIBLE.sub("", html.unescape(source))


def test_a_link_off_the_site_and_a_mail_link_stay_links() -> None:
    # (the existing policy: a page's own links are kept, whatever their host)
    reading = rendered(outputs(CASES["body: unsafe schemes"])["twin"])
    assert reading.targets == ["mailto:a@example.org", "https://other.example/"]


def test_ordinary_text_keeps_its_backticks_and_reads_the_same() -> None:
    case = Hostile(body="<p>Run `make` in C:\\src, a_b * c [1] &amp; 1 &lt; 2.</p>")
    files = outputs(case)
    for file in ("llms-full.txt", "twin"):
        assert "Run `make` in C:\\src, a\\_b \\* c \\[1\\] & 1 \\< 2." in files[file]
        assert " in C:\\src, a_b * c [1] & 1 < 2." in "".join(rendered(files[file]).texts)
