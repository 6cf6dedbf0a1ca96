"""The same links put in on every page of a commit are one edit, whether or not the page held
links before (issue 79, principle 1: bookdown's "Buy Book" and "Buy" buttons, put in the article
of all 58 chapters in one deploy, still dated the few chapters whose text had no link, their edit
named apart by a link's end that was new there and repeated on the others). Shaped like a
bookdown book whose chapters later got links of their own. Text our own."""

from __future__ import annotations

from pathlib import Path

from treedates import at, dated

LINKED = ("preface", "intro", "methods", "models", "results", "summary")
PLAIN = ("data", "glossary")  # (chapters whose text has no link)
BUTTONS = (
    "<p><a href='https://shop.example.com/book'>Buy Book</a> "
    "<a href='https://press.example.com/book'>Buy</a></p>"
)


def chapter(name: str, buttons: bool, own: str = "") -> str:
    cites = (
        "" if name in PLAIN else f"<p>See <a href='https://papers.example.net/{name}'>it</a>.</p>"
    )
    return (
        f"<html><head><title>{name} | A Book</title></head><body><nav><a href='index.html'>"
        f"A Book</a></nav><main><h1>{name}</h1>{BUTTONS if buttons else ''}"
        f"<p>What the {name} chapter says, in words of its own.</p>{cites}{own}</main>"
        "</body></html>\n"
    )


def book(buttons: bool, own: dict[str, str] | None = None) -> dict[str, str]:
    return {
        f"{name}.html": chapter(name, buttons, (own or {}).get(name, ""))
        for name in (*LINKED, *PLAIN)
    }


def test_buttons_put_in_on_every_chapter_date_none_with_no_link_before(tmp_path: Path) -> None:
    # The second deploy put the two buttons in every chapter: the template's, on the chapters
    # that had no link before too. Beside them, "methods" got a link of its own; the third
    # deploy gave "data" its first link of its own (a reader sees both).
    paper = "<p>Read <a href='https://papers.example.net/new'>the paper</a>.</p>"
    found = dated(
        tmp_path,
        [
            book(False),
            book(True, {"methods": paper}),
            book(True, {"methods": paper, "data": paper}),
        ],
    )
    expected = {f"{name}.html": at(0) for name in (*LINKED, *PLAIN)}
    expected |= {"methods.html": at(1), "data.html": at(2)}
    assert found == expected, sorted(found.items())


MENU = "<p><a href='/install.html'>Install</a> · <a href='/news.html'>News</a></p>"
PAGES = ("install", "news", "faq", "citing", "sponsors")


def site_page(name: str, menu: bool, own: str = "") -> str:
    """A page of a small project site whose main region opens with the site's menu; every page
    but the search results links to a paper of its own."""
    cites = (
        ""
        if name == "search"
        else f"<p>See <a href='https://papers.example.net/{name}'>it</a>.</p>"
    )
    return (
        f"<html><head><title>{name} | Project</title></head><body><main>{MENU if menu else ''}"
        f"<h1>{name}</h1><p>What the {name} page says, in words of its own.</p>{cites}{own}"
        "</main></body></html>\n"
    )


def test_the_menu_taken_out_of_every_page_dates_none_left_with_no_link(tmp_path: Path) -> None:
    # The second deploy took the menu out of every page: the template's, on the search page
    # too, whose only links were the menu's. The third gave "faq" a link of its own.
    link = "<p>Read <a href='https://papers.example.net/new'>the paper</a>.</p>"

    def pages(menu: bool, own: dict[str, str] | None = None) -> dict[str, str]:
        return {
            f"{name}.html": site_page(name, menu, (own or {}).get(name, ""))
            for name in (*PAGES, "search")
        }

    found = dated(tmp_path, [pages(True), pages(False), pages(False, {"faq": link})])
    expected = {f"{name}.html": at(0) for name in (*PAGES, "search")} | {"faq.html": at(2)}
    assert found == expected, sorted(found.items())
