"""A stop is judged by the pages its commit changed, not by the stops left at it in the round
that reaches it (issue 79, read93b: mlxtend's MkDocs 1.0.4 deploy put the site's description
in on 193 of its 195 pages; the two pages whose walks reached it were judged by themselves
alone). Shaped like a MkDocs site whose guides later got descriptions of their own. Text our
own."""

from __future__ import annotations

from pathlib import Path

from treedates import at, dated

GUIDES = tuple(f"guide/{name}" for name in ("install", "usage", "api", "faq", "plots", "data"))
SITE = "A library of useful tools for everyday data work."


def page(path: str, description: str) -> str:
    name = path.rsplit("/", 1)[-1]
    meta = f"<meta name='description' content='{description}'>" if description else ""
    return (
        f"<html><head><title>{name} - Tools</title>{meta}</head><body><nav><a href='/'>Tools"
        f"</a></nav><main><h1>{name}</h1><p>What {name} holds, in words of its own.</p></main>"
        "</body></html>\n"
    )


def site(described: bool, own: bool) -> dict[str, str]:
    """The contributors page and the guides: no description, the site's on every page, or
    (``own``) the guides' own descriptions."""
    said = SITE if described else ""
    pages = {"contributors/index.html": page("contributors", said)}
    for path in GUIDES:
        pages[f"{path}/index.html"] = page(path, f"How {path} works." if own else said)
    return pages


def test_a_description_put_on_every_page_dates_no_page_whose_walk_reaches_it_alone(
    tmp_path: Path,
) -> None:
    # The second deploy put the site's description on all seven pages; the third gave each
    # guide a description of its own. Only the contributors page's walk reaches the second
    # deploy: one stop there, in a section of its own, but seven of the seven pages the deploy
    # changed made its edit.
    found = dated(tmp_path, [site(False, False), site(True, False), site(True, True)])
    expected = {path: at(2) for path in GUIDES} | {"contributors": at(0)}
    assert found == expected, found


def post(name: str, mended: bool, own: bool) -> str:
    typo = "structures" if mended else "structires"
    more = f"<p>A note {name} added later.</p>" if own else ""
    return (
        f"<html><head><title>{name} - This Month</title></head><body><main><h1>{name}</h1>"
        f"<p>News of the month on data {typo}, kernels and drivers.</p>"
        f"<p>What happened in {name}, in words of its own.</p>{more}</main></body></html>\n"
    )


def test_a_typo_mended_in_a_sentence_copied_onto_five_posts_dates_them(tmp_path: Path) -> None:
    # An author mended one typo in the sentence each monthly post opens with: the commit
    # changed those five posts alone, and two of them were edited later. Three pages stop
    # there, too few for a count of stops; its other pages are not read for an edit of words
    # (a few pages' own words are no template's by any count of them).
    months = ("april", "may", "july", "august", "september")
    later = months[3:]

    def posts(mended: bool, edited: tuple[str, ...] = ()) -> dict[str, str]:
        return {f"posts/{m}/index.html": post(m, mended, m in edited) for m in months}

    found = dated(tmp_path, [posts(False), posts(True), posts(True, later)])
    expected = {f"posts/{m}": at(2 if m in later else 1) for m in months}
    assert found == expected, sorted(found.items())
