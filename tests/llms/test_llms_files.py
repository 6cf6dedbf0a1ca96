"""llms.txt as sitemill writes it: the grammar both readings agree on, and the edge cases of the
reference parser (llms-txt) that the writer must never meet."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llmsreadings import Reading, commonmark_reading, reference_reading
from sitemill.llms._files import has_llms_txt_mark, llms_files, path_name
from sitemill.llms._sitename import common_title_part, own_title, site_name
from sitemill.llms._text import one_line
from sitemill.llms.page import LlmsPage, LlmsSite

BASE = "https://example.org/"
SITE = LlmsSite(BASE, BASE + "sitemap.xml")


def write(pages: list[LlmsPage], site: LlmsSite = SITE, **kwargs: object) -> str:
    result = llms_files(pages, site, **kwargs)  # type: ignore[arg-type]
    assert list(result.files) == ["llms.txt"]
    return result.files["llms.txt"].decode("utf-8")


def both(text: str) -> Reading:
    """The reading both readers give (they must agree)."""
    reference = reference_reading(text)
    assert commonmark_reading(text) == reference
    return reference


def assert_grammar(data: bytes) -> None:
    text = data.decode("utf-8")
    assert not data.startswith(b"\xef\xbb\xbf") and b"\r" not in data
    assert text.endswith("\n") and not text.endswith("\n\n")
    assert not re.search(r"[ \t]$", text, re.MULTILINE)
    assert not re.search(r"^#{3,}", text, re.MULTILINE)
    assert text.count("\n# ") == 0 and text.startswith("# ")


def test_a_small_site_reads_the_same_both_ways() -> None:
    pages = [
        LlmsPage(BASE, "Home | Example", "The example site."),
        LlmsPage(BASE + "docs/intro/", "Intro | Example", "How to start."),
        LlmsPage(BASE + "docs/more/", "More | Example"),
        LlmsPage(BASE + "blog/first/", "First | Example", "A post."),
    ]
    text = write(pages, LlmsSite(BASE, BASE + "sitemap.xml", summary="An example."))
    # (titles less the part most share; a folder of one page is a page of the top)
    assert both(text) == Reading(
        "Example",
        "An example.",
        (
            (
                "/",
                (
                    ("Home", BASE, "The example site."),
                    ("First", BASE + "blog/first/", "A post."),
                ),
            ),
            (
                "docs",
                (
                    ("Intro", BASE + "docs/intro/", "How to start."),
                    ("More", BASE + "docs/more/", None),
                ),
            ),
        ),
    )
    assert text.splitlines()[4] == (
        "The pages that the sitemap <https://example.org/sitemap.xml> lists; written by sitemill."
    )
    assert_grammar(text.encode())


@pytest.mark.parametrize(
    ("title", "url", "description", "line"),
    [
        ("A [x] b", BASE + "a/", None, "- [A &#91;x&#93; b](https://example.org/a/)"),
        ("a", BASE + "a_(b)/", None, "- [a](https://example.org/a_%28b%29/)"),
        ("a", BASE + "a/", "one\ntwo\n\n three ", "- [a](https://example.org/a/): one two three"),
        ("a", BASE + "a/", "", "- [a](https://example.org/a/)"),
        ("a", BASE + "a/", "None", "- [a](https://example.org/a/)"),  # MkDocs' literal
        # a page without a title goes by its URL's last name, never a path (issue 82)
        (None, BASE + "a%20b/", None, "- [A b](https://example.org/a%20b/)"),
        ("  ", BASE + "a/", None, "- [A](https://example.org/a/)"),
        (
            None,
            BASE + "tags/rust-lang/",
            None,
            "- [Rust lang](https://example.org/tags/rust-lang/)",
        ),
        (
            None,
            BASE + "guide/set_up.html",
            None,
            "- [Set up](https://example.org/guide/set_up.html)",
        ),
        (None, BASE + "posts/page/2/", None, "- [Page 2](https://example.org/posts/page/2/)"),
        (None, BASE + "docs/index.html", None, "- [Docs](https://example.org/docs/index.html)"),
        ("x", BASE + "a/", "see [y](z)", "- [x](https://example.org/a/): see &#91;y&#93;(z)"),
        ("a`b", BASE + "a/", "c`d", "- [a&#96;b](https://example.org/a/): c&#96;d"),
        # a code span that closes within its text is a code span (issue 82)
        (
            "Use `x`",
            BASE + "a/",
            "Set `y` `z",
            "- [Use `x`](https://example.org/a/): Set `y` &#96;z",
        ),
        ("a `b`", BASE + "a/", "``c`d``", "- [a `b`](https://example.org/a/): ``c`d``"),
        (
            "`[x]`",
            BASE + "a/",
            "` `",
            "- [&#96;&#91;x&#93;&#96;](https://example.org/a/): &#96; &#96;",
        ),
        ("`a` b`", BASE + "a/", "c`", "- [`a` b&#96;](https://example.org/a/): c&#96;"),
        (
            "&#91;",
            BASE + "a/",
            "&amp; & AT&T",
            "- [&amp;#91;](https://example.org/a/): &amp;amp; & AT&T",
        ),
        ('<a title="', BASE + "a/", '">', '- [&lt;a title="](https://example.org/a/): ">'),
        ("\\[", BASE + "a/", None, "- [&#92;&#91;](https://example.org/a/)"),
    ],
)
def test_an_item(title: str | None, url: str, description: str | None, line: str) -> None:
    text = write([LlmsPage(url, title, description)])
    assert line in text.splitlines()
    reading = both(text)
    ((_, ((read_title, read_url, read_description),)),) = reading.sections
    assert read_title == (one_line(title) or read_title)
    assert read_url.replace("%28", "(").replace("%29", ")") == url
    assert read_description == (
        one_line(description) if description not in {None, "", "None"} else None
    )


@pytest.mark.parametrize(
    ("summary", "line"),
    [
        ("# not a heading", "> &#35; not a heading"),
        ("> nested", "> &#62; nested"),
        ("- a list", "> &#45; a list"),
        ("1. a list", "> 1&#46; a list"),
        ("two\nlines", "> two lines"),
    ],
)
def test_a_summary_that_would_open_another_block(summary: str, line: str) -> None:
    text = write([LlmsPage(BASE)], LlmsSite(BASE, BASE + "sitemap.xml", summary=summary))
    assert text.splitlines()[2] == line
    assert both(text).summary == one_line(summary)


@pytest.mark.parametrize("summary", [None, "", "  \n ", "None"])
def test_no_summary_line_without_a_real_description(summary: str | None) -> None:
    text = write([LlmsPage(BASE, "Home")], LlmsSite(BASE, BASE + "sitemap.xml", summary=summary))
    assert "\n> " not in text
    assert both(text).summary is None  # and the info paragraph is always there


@pytest.mark.parametrize("name", ["C#", "Site #", "#", "a [b]", "x\ny"])
def test_a_name(name: str) -> None:
    text = write([LlmsPage(BASE)], LlmsSite(BASE, BASE + "sitemap.xml", name=name))
    assert both(text).name == one_line(name)


def test_folders_named_like_another_section_or_optional() -> None:
    pages = [  # (two pages a folder: a folder of one page is a page of the top)
        *(LlmsPage(BASE + f"Optional/{n}/", n) for n in "aA"),
        *(LlmsPage(BASE + f"optional/{n}/", n) for n in "bB"),
        LlmsPage(BASE + "guide/c/", "c", group="guide"),
        *(LlmsPage(BASE + f"guide/{n}/", n) for n in "dD"),
        *(LlmsPage(BASE + f"caf%C3%A9/{n}/", n) for n in "eE"),
    ]
    names = [name for name, _ in both(write(pages, group_order=["guide"])).sections]
    assert names == ["guide", "Optional/", "optional/", "guide/", "café"]
    assert not any(name.casefold() == "optional" for name in names)


def test_groups_in_config_order_then_folders_in_page_order() -> None:
    pages = [
        LlmsPage(BASE + "z/1/", "1"),
        LlmsPage(BASE + "a/2/", "2", group="second"),
        LlmsPage(BASE + "a/3/", "3", group="first"),
        LlmsPage(BASE + "y/4/", "4"),
        LlmsPage(BASE + "a/5/", "5", group="second"),
    ]
    sections = both(write(pages, group_order=["first", "second"])).sections
    assert [(name, [link[0] for link in links]) for name, links in sections] == [
        ("first", ["3"]),
        ("second", ["2", "5"]),
        ("/", ["4", "1"]),  # (z/ and y/ hold one page each: pages of the top, y/ first)
    ]


def test_root_pages_and_clean_urls_of_folders() -> None:
    pages = [
        LlmsPage(BASE + "blog", "Blog"),  # Docusaurus: the index of blog/ without a slash
        LlmsPage(BASE + "blog/first", "First"),
        LlmsPage(BASE + "about", "About"),  # no page below about/: at the root
        LlmsPage(BASE + "index.html", "Home"),
    ]
    sections = both(write(pages)).sections
    assert [(name, [link[0] for link in links]) for name, links in sections] == [
        ("/", ["About", "Home"]),  # (the top first: the home page's section)
        ("blog", ["Blog", "First"]),
    ]


def test_a_base_url_in_a_subfolder() -> None:
    base = "https://example.org/book/"
    pages = [LlmsPage(base, "Home"), LlmsPage(base + "ch1/a/", "A"), LlmsPage(base + "ch1/b/", "B")]
    text = write(pages, LlmsSite(base, base + "sitemap.xml"))
    assert [name for name, _ in both(text).sections] == ["/", "ch1"]


def test_no_pages_gives_a_head_only() -> None:
    text = write([])
    assert text == (
        "# example.org\n\n"
        "The pages that the sitemap <https://example.org/sitemap.xml> lists; written by sitemill.\n"
    )
    assert has_llms_txt_mark(text.encode())


def test_the_bytes_are_deterministic() -> None:
    pages = [
        LlmsPage(BASE + f"{folder}/{n}/", f"P{n} — Site", hreflang=lang)
        for n, (folder, lang) in enumerate([("a", "en"), ("fr", "fr"), ("b", "en"), ("fr", "fr")])
    ]
    first = llms_files(pages, SITE)
    assert llms_files(list(pages), SITE) == first
    assert set(first.files) == {"llms.txt", "fr/llms.txt"}


@pytest.mark.parametrize(
    ("data", "ours"),
    [
        (b"# Site\n\nThe pages that the sitemap <x> lists; written by sitemill.\n", True),
        (
            b"# Site\n\n> A summary\n\nThe pages; written by sitemill.\n\n## a\n\n- [a](https://e.org/)\n",
            True,
        ),
        (b"# Site\n\n> A summary; written by sitemill.\n\n## a\n", False),  # a summary is no mark
        (b"# Site\n\nMy own list.\n\n## a\n\n- [a](https://e.org/)\n", False),
        (b"# Site\r\n\r\nThe pages; written by sitemill.\r\n", False),
        (b"\xef\xbb\xbf# Site\n\nThe pages; written by sitemill.\n", False),
        (b"", False),
        (b"\xff\xfe# x", False),
        (b"# Site\n\nThe pages; written by sitemill. And more text of mine.\n", False),
    ],
)
def test_written_by_sitemill(data: bytes, ours: bool) -> None:
    assert has_llms_txt_mark(data) is ours


# Text with what either reading could take for structure (brackets, parentheses, "#", ">", "`",
# "<", "&", "\", newlines); "*" and "_" are written as they are (docs/llms.md) and left out here.
TEXT = st.text(alphabet="ab é中 \n\t[]()#>:-+.!&;`<\"'/\\19~=|", max_size=40)
TEXT_WITH_EMPHASIS = st.text(alphabet="ab *_*_ [](`\\", max_size=30)
PATH = st.text(alphabet="abz09-.~()[]!$'+,;=:@/", max_size=20)


def _own(page: LlmsPage, pages: list[LlmsPage], site: LlmsSite = SITE) -> str:
    """The title an item shows: the page's less the part most of the titles share; its URL's
    last name when that is the site's name alone."""
    shared = common_title_part([title for p in pages if (title := one_line(p.title))])
    title = own_title(one_line(page.title), shared)
    if title == site_name(pages, site) and page.url != site.base_url:
        return path_name(page.url, site.base_url) or site_name(pages, site)
    return title


@settings(max_examples=300, deadline=None)
@given(
    name=TEXT.filter(lambda text: one_line(text) != ""),
    summary=TEXT,
    items=st.lists(
        st.tuples(TEXT.filter(lambda text: one_line(text) != ""), PATH, TEXT, TEXT),
        min_size=1,
        max_size=5,
    ),
)
def test_both_readings_give_back_the_inputs(
    name: str, summary: str, items: list[tuple[str, str, str, str]]
) -> None:
    pages = [
        LlmsPage(f"{BASE}p{number}/{path}", title, description, group=group or None)
        for number, (title, path, description, group) in enumerate(items)
    ]
    groups = list(dict.fromkeys(one_line(group) for *_, group in items if one_line(group)))
    site = LlmsSite(BASE, BASE + "sitemap.xml", name=name, summary=summary)
    data = llms_files(pages, site, group_order=groups).files["llms.txt"]
    assert_grammar(data)
    assert has_llms_txt_mark(data)
    reading = both(data.decode("utf-8"))
    assert reading.name == one_line(name)
    assert reading.summary == (one_line(summary) if one_line(summary) not in {"", "None"} else None)
    links = [link for _, section in reading.sections for link in section]
    assert [(title, url.replace("%28", "(").replace("%29", ")")) for title, url, _ in links] == [
        (_own(page, pages, site), page.url) for page in _in_section_order(pages, reading)
    ]
    for (_, _, read), page in zip(links, _in_section_order(pages, reading), strict=True):
        assert read == (
            one_line(page.description) if one_line(page.description) not in {"", "None"} else None
        )


@settings(max_examples=300, deadline=None)
@given(
    titles=st.lists(
        TEXT_WITH_EMPHASIS.filter(lambda text: one_line(text) != ""), min_size=1, max_size=5
    ),
    descriptions=st.lists(TEXT_WITH_EMPHASIS, min_size=5, max_size=5),
)
def test_emphasis_markers_are_text_and_never_structure(
    titles: list[str], descriptions: list[str]
) -> None:
    # "*" and "_" are written as they are: the reference parser gives them back, and a CommonMark
    # reading finds the same sections and links (its text shows emphasis without the markers).
    pages = [
        LlmsPage(f"{BASE}d{n % 2}/{n}/", title, descriptions[n]) for n, title in enumerate(titles)
    ]
    text = llms_files(pages, SITE).files["llms.txt"].decode("utf-8")
    reference = reference_reading(text)
    links = [link for _, section in reference.sections for link in section]
    assert [(title, description) for title, _, description in links] == [
        (_own(page, pages), one_line(page.description) or None)
        for page in _in_section_order(pages, reference)
    ]
    commonmark = commonmark_reading(text)
    assert [(name, [url for _, url, _ in section]) for name, section in commonmark.sections] == [
        (name, [url for _, url, _ in section]) for name, section in reference.sections
    ]


def _in_section_order(pages: list[LlmsPage], reading: Reading) -> list[LlmsPage]:
    by_url = {page.url.replace("(", "%28").replace(")", "%29"): page for page in pages}
    return [by_url[url] for _, section in reading.sections for _, url, _ in section]


def test_urls_under_the_base_are_not_parsed_one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # Counting work: a URL that starts with the base URL needs no urlsplit (the one parse per
    # page had made 50,000 pages cost three times as much).

    import sitemill.llms._paths as paths

    calls = []
    monkeypatch.setattr(paths, "urlsplit", lambda url: calls.append(url) or urlsplit(url))
    pages = [
        LlmsPage(f"{BASE}{['', 'fr/'][n % 2]}d{n % 7}/{n}/", f"P{n}", hreflang=["en", "fr"][n % 2])
        for n in range(1_000)
    ]
    assert len(llms_files(pages, SITE).files) == 2
    assert len(calls) <= 4


def test_a_section_of_a_versioned_site_takes_off_its_own_shared_part() -> None:
    # spyder-docs: each version's titles end in their own "Spyder N documentation", none of
    # which most of the site's titles share; a section of two titles keeps them whole.
    pages = [
        *(LlmsPage(BASE + f"3/{n}.html", f"{n} — Spyder 3 documentation") for n in "abcd"),
        *(LlmsPage(BASE + f"4/{n}.html", f"{n} — Spyder 4 documentation") for n in "abcd"),
        *(LlmsPage(BASE + f"x/{n}/", f"Foo: Part {n}") for n in "12"),
    ]
    sections = both(write(pages)).sections
    assert [(name, [link[0] for link in links]) for name, links in sections] == [
        ("3", ["a", "b", "c", "d"]),
        ("4", ["a", "b", "c", "d"]),
        ("x", ["Foo: Part 1", "Foo: Part 2"]),
    ]


def test_a_page_titled_with_the_sites_name_alone_is_named_by_its_last_name() -> None:
    # dazwilkin (Hugo Ananke): its tag and pager pages' <title> is the site's name alone.
    site = LlmsSite(BASE, BASE + "sitemap.xml", name="(p)retired")
    pages = [
        LlmsPage(BASE, "(p)retired"),
        *(LlmsPage(BASE + f"posts/{n}/", f"Post {n} | (p)retired") for n in range(3)),
        *(LlmsPage(BASE + f"tags/{tag}/", "(p)retired") for tag in ("go", "rust")),
    ]
    sections = both(write(pages, site)).sections
    titles = [link[0] for _, links in sections for link in links]
    assert titles == ["(p)retired", "Post 0", "Post 1", "Post 2", "Go", "Rust"]  # never a path


LONG = (
    "TL;DR Enable ScrapeConfig to use proxies. I have developed a companion daemon for Ackal "
    "that provides a functionally close version of the service. One way to deploy it is to use "
    "Kubernetes and it would be convenient if the metrics were scrapeable: `kubectl apply -f x`"
)


@pytest.mark.parametrize(
    ("description", "said"),
    [
        # a Hugo summary (the post's first paragraphs): its sentences that fit in 200 characters
        (
            LONG,
            "TL;DR Enable ScrapeConfig to use proxies. I have developed a companion daemon for "
            "Ackal that provides a functionally close version of the service.",
        ),
        # no sentence ends within them: the words that fit, and an ellipsis
        ("word " * 60, ("word " * 39).strip() + "\u2026"),
        ("A short one. Kept whole.", "A short one. Kept whole."),
    ],
)
def test_a_description_is_cut_where_a_sentence_ends(description: str, said: str) -> None:
    text = write([LlmsPage(BASE + "a/", "A", description)])
    assert f"- [A](https://example.org/a/): {said}" in text.splitlines()
    assert len(said) <= 200


def test_a_title_whose_own_part_ends_in_a_separator_still_loses_the_sites_part() -> None:
    # archcraft's French tag pages (Docusaurus): "Un article tagués avec « gtk » | Archcraft"
    assert own_title("Un article tagués avec « gtk » | Archcraft", "Archcraft") == (
        "Un article tagués avec « gtk »"
    )
    assert own_title("Archcraft | « x » y", "Archcraft") == "« x » y"
    assert own_title("Archcraft2 | x", "Archcraft") == "Archcraft2 | x"
