"""A part of links to the site's pages taken out or put in whole is named by its kind, and a
page's exact moves are its own only where no other page of its commit made them (issue 79,
read97a F1 and F2: a Frog blog's upgrade moved each post's previous/next pager, a ``ul.pager``
with no ``rel`` in the article's footer, into a ``<nav>``, furniture: each post's edit was its own
pager taken out, no two posts alike, and 17 posts were dated by the upgrade; a later deploy
re-pointed Racket's documentation links on 9 of its 17 pages, 5 moving one function's link, 2
another's, 2 both, and the 2 that moved the second alone were dated by it)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from sitemill.lastmod.fingerprint.digest import reduce_html
from sitemill.lastmod.history._sitelinks import LINKS_IN, LINKS_OUT, links_by_kind
from sitemill.lastmod.history.edits import edit_of, exact_of
from treedates import BASE, at, dated

TITLES = [
    "Bike Trainer",
    "Quantifying Fatigue",
    "Marathon Training Statistics",
    "Arduino Inclinometer",
    "Workout Editor",
    "Racket Data Frame",
    "Map Widget",
    "Chess Game",
    "Password Generator",
    "Timezone Lookup",
]


def slug(index: int) -> str:
    return "posts/" + TITLES[index].lower().replace(" ", "-") + ".html"


def post(index: int, *, nav: bool, words: str = "", pager: bool = True) -> str:
    """Post ``index`` of TITLES, its pager in the article's footer (``nav``: inside a <nav>);
    ``words``: a sentence of its own added; ``pager``: False for none."""
    links = []
    if index > 0:
        links.append(
            f'<li><a href="/{slug(index - 1)}">&larr; <em>{TITLES[index - 1]}</em></a></li>'
        )
    if index + 1 < len(TITLES):
        links.append(
            f'<li><a href="/{slug(index + 1)}"><em>{TITLES[index + 1]}</em> &rarr;</a></li>'
        )
    items = "".join(links)
    footer = f"<nav><ul class=pager>{items}</ul></nav>" if nav else f"<ul class=pager>{items}</ul>"
    body = f"<p>What I learned about {TITLES[index].lower()} this season.{words}</p>"
    return (
        f"<html><head><title>{TITLES[index]}</title></head><body><div class=container>"
        f"<article><header><h1>{TITLES[index]}</h1></header>{body}"
        f"<p>More about it at length, with numbers and pictures.</p>"
        f"<footer>{footer if pager else ''}</footer></article></div></body></html>\n"
    )


def listing(name: str, listed: Iterable[int]) -> str:
    """A list page titled ``name`` of the posts ``listed`` (indexes of TITLES), each a link."""
    entries = "".join(f'<li><a href="/{slug(at_)}">{TITLES[at_]}</a></li>' for at_ in listed)
    return (
        f"<html><head><title>{name}</title></head><body><main><h1>{name}</h1>"
        f"<ul>{entries}</ul></main></body></html>\n"
    )


def index(count: int) -> str:
    return listing("All posts", range(count))


def blog(*, nav: bool, own: int = -1, without: frozenset[int] = frozenset()) -> dict[str, str]:
    """Every post and the index; ``own``: the post given words of its own; ``without``: the
    posts with no pager."""
    pages = {
        slug(at_): post(
            at_, nav=nav, words=" It rained." if at_ == own else "", pager=at_ not in without
        )
        for at_ in range(len(TITLES))
    }
    return pages | {"index.html": index(len(TITLES))}


def test_a_pager_moved_into_a_nav_on_every_post_moves_no_date(tmp_path: Path) -> None:
    found = dated(tmp_path, [blog(nav=False), blog(nav=True, own=3)])
    expected = {slug(at_): at(0) for at_ in range(len(TITLES))} | {"": at(0)}
    expected[slug(3)] = at(1)  # (its own sentence beside the pager's move)
    # The first and the last post lost one link each: one link alone is a page's own.
    expected[slug(0)] = expected[slug(len(TITLES) - 1)] = at(1)
    assert found == expected, found


def test_a_pager_taken_out_of_a_few_posts_is_their_own_edit(tmp_path: Path) -> None:
    # Two posts of ten lost their pager, nothing else changed: each its own edit.
    found = dated(tmp_path, [blog(nav=False), blog(nav=False, without=frozenset({2, 5}))])
    expected = {slug(at_): at(1 if at_ in (2, 5) else 0) for at_ in range(len(TITLES))}
    assert found == expected | {"": at(0)}, found


def test_an_entry_taken_out_of_a_list_alone_dates_it(tmp_path: Path) -> None:
    # The index lost its last entry: an edit named by its kind is an edit all the same.
    builds = [blog(nav=True), blog(nav=True)]
    builds[1]["index.html"] = index(len(TITLES) - 1)
    found = dated(tmp_path, builds)
    assert found == {slug(at_): at(0) for at_ in range(len(TITLES))} | {"": at(1)}, found


def test_a_list_s_entries_put_in_on_most_pages_of_a_commit_are_each_list_s_own(
    tmp_path: Path,
) -> None:
    # Six category pages given their posts' entries in one deploy (a Jigsaw blog, issue 79):
    # what a list lists is its own, however many lists made such an edit.
    listed = {f"Topic {at_}": (at_, at_ + 1, at_ + 2) for at_ in range(6)}
    builds = [
        {f"categories/{at_}.html": listing(name, ()) for at_, name in enumerate(listed)},
        {
            f"categories/{at_}.html": listing(name, ats)
            for at_, (name, ats) in enumerate(listed.items())
        },
    ]
    found = dated(tmp_path, builds)
    assert found == {f"categories/{at_}.html": at(1) for at_ in range(6)}, found


def tokens(*parts: str) -> list[str]:
    return [token for part in parts for token in part.split()]


def test_links_by_kind_names_a_whole_part_of_site_links_only() -> None:
    text = "w1 wpost's wown wwords, wmore wthan wits wlinks'"  # (a post: see _a_post)
    older = tokens(text, "H/a w← wAlpha E H/b wBeta w→ E")
    assert links_by_kind(older, tokens(text)) == LINKS_OUT
    assert links_by_kind(tokens(text), older) == LINKS_IN
    # A glyph beside the links is no word; a word outside them is.
    assert links_by_kind(tokens(text, "w| H/a wAlpha E w| H/b wB E"), tokens(text)) == LINKS_OUT
    assert links_by_kind(tokens(text, "wsee H/a wAlpha E H/b wB E"), tokens(text)) is None
    # One link alone is a page's own (a list's entry, a post's category).
    assert links_by_kind(tokens(text, "H/a wAlpha E"), tokens(text)) is None
    # Another site's link, a link left open, a title's word: no part of the site's links.
    assert links_by_kind(tokens(text, "H/b wB E Hhttps://x.org/a wAlpha E"), tokens(text)) is None
    assert links_by_kind(tokens(text, "H/b wB E H/a wAlpha"), tokens(text)) is None
    assert links_by_kind(tokens("tT H/b wB E", text), tokens(text)) is None
    # Taken out in two places, or taken out beside a word put in: no one part.
    assert links_by_kind(tokens("H/a wA E", text, "H/b wB E H/c wC E"), tokens(text)) is None
    assert links_by_kind(tokens(text, "H/a wA E H/b wB E"), tokens(text, "w2")) is None
    # On a list page (most of its words its links'), links put in are what it lists.
    entries = "H/a wAlpha wPost E H/b wBeta wPost E H/c wGamma wPost E"
    assert links_by_kind(tokens("wTopic wAll", entries), tokens("wTopic wAll")) is None


def test_each_post_s_pager_taken_out_has_one_name() -> None:
    names = set()
    for at_ in range(1, len(TITLES) - 1):  # (the first and the last: one neighbour each)
        url = BASE + slug(at_)
        older = reduce_html(post(at_, nav=False).encode(), url=url)
        newer = reduce_html(post(at_, nav=True).encode(), url=url)
        names.add((edit_of(newer, older, "/" + slug(at_)[:-5]), exact_of(newer, older)))
    assert names == {(LINKS_OUT, LINKS_OUT)}


DOCS = "https://docs.example.org/reference/{page}.html#{name}"


def doc_page(
    number: int, names: tuple[str, ...], moved: tuple[str, ...], *, repair: bool = False
) -> str:
    """Guide ``number``, linking Racket's documentation of ``names``, those of ``moved`` at
    the new page; ``repair``: a link of its own to another site repaired beside the move."""
    pages = {name: "Equality" if name in moved else "booleans" for name in names}
    links = "".join(
        f'<p>Compare with <a href="{DOCS.format(page=pages[name], name=name)}">{name}</a>.</p>'
        for name in names
    )
    own = "https://old.example.net/x" if not repair else "https://new.example.net/x"
    return (
        f"<html><head><title>Guide {number}</title></head><body><main><h1>Guide {number}</h1>"
        f"<p>Guide {number} on equality in Racket, with its own words.</p>{links}"
        f'<p>See <a href="{own}">the notes</a>.</p></main></body></html>\n'
    )


def guides(*, moved: bool, repair: int = -1) -> dict[str, str]:
    """Nine guides: five link ``equal?`` alone, two ``eq?`` alone, two both; ``moved``: each
    link at Equality.html; ``repair``: the guide with a repair of its own."""
    names = [("equal?",)] * 5 + [("eq?",)] * 2 + [("eq?", "equal?")] * 2
    return {
        f"guides/guide-{at_}.html": doc_page(
            at_, linked, linked if moved else (), repair=at_ == repair
        )
        for at_, linked in enumerate(names)
    }


def test_a_page_that_made_part_of_the_commit_s_moves_is_no_edit_of_its_own(tmp_path: Path) -> None:
    found = dated(tmp_path, [guides(moved=False), guides(moved=True)])
    assert found == {f"guides/guide-{at_}.html": at(0) for at_ in range(9)}, found


def test_a_page_with_a_move_no_other_page_made_is_dated_by_it(tmp_path: Path) -> None:
    # Guide 0 repaired a link of its own beside the move: no other page made its exact edit.
    found = dated(tmp_path, [guides(moved=False), guides(moved=True, repair=0)])
    expected = {f"guides/guide-{at_}.html": at(1 if at_ == 0 else 0) for at_ in range(9)}
    assert found == expected, found
