"""Two template edits on one page are the template's: a page's edit at a commit whose every
token (each word, mark or move it took out or put in) is one most of the commit's pages took out
or put in alike, or, for a move of another site's links, most of the pages that moved that
site's links, moves no date, while a page with one token of its own keeps the commit's date
(history.tokencensus.token_templates, issue 79: read92's fault 1). Shaped like Haddock's API
reference (a release swapped in the index pages' titles and in every page's caption, the
generator's version in every footer, most module pages edited beside it) and like Dokka's (the
footer's year on every page, the Kotlin library's links re-pointed on the pages that hold one,
each page its own set). Text our own."""

from __future__ import annotations

from pathlib import Path

from treedates import at, dated

Build = dict[str, str]
# Words a module page's own edit puts in: more than an edit's sketch holds (editparts).
OWN = " ".join(f"entry{n}" for n in range(45))


def haddock(release: str, generator: str, *, edited: bool, own: int = -1) -> Build:
    """Four index pages whose title holds the release, twelve module pages whose title is the
    module's name; every caption holds the release and every footer the generator's version.
    ``edited``: eight module pages also list entries of their own; ``own``: the index page that
    also gets a word of its own."""
    caption = f'<p class="caption">{release}: Lenses, Folds and Traversals</p>'
    footer = f'<p id="footer">Produced by Haddock version {generator}</p>'
    titles = [f"{release}: Index {n}" for n in range(4)] + [
        f"Control.Lens.M{n}" for n in range(4, 16)
    ]
    pages = {}
    for n, title in enumerate(titles):
        said = [f"Entries of page {n}", " deprecated" if n == own else "", "."]
        said += [" " + OWN] if edited and n >= 8 else []
        main = f"{caption}<h1>{title}</h1><p>{''.join(said)}</p>{footer}"
        pages[f"docs/p{n:02}.html"] = (
            f"<html><head><title>{title}</title></head><body><main>{main}</main></body></html>\n"
        )
    return pages


def test_a_release_in_the_index_titles_and_captions_beside_the_footer_moves_no_page(
    tmp_path: Path,
) -> None:
    # The release swapped on all 16 pages (in the index pages' titles too: a title's word is
    # the word it is) and the generator's version on all 16: the index pages' edit is both,
    # on 4 of the commit's pages whole; the module pages' edits beside their own entries are
    # too large to hold it (a sketch of more than 40 tokens holds nothing). Only the 8 module
    # pages whose entries changed are dated by the release.
    first = haddock("lens-4.11", "2.15.1", edited=False)
    found = dated(tmp_path, [first, haddock("lens-4.11.1", "2.16.0", edited=True)])
    late = {f"docs/p{n:02}.html" for n in range(8, 16)}
    assert found == {path: at(1 if path in late else 0) for path in found}, found
    assert len(found) == 16


def test_a_word_of_its_own_beside_the_template_tokens_dates_the_page(tmp_path: Path) -> None:
    # The same release, and index page 2 also says "deprecated": a token no other page made.
    first = haddock("lens-4.11", "2.15.1", edited=False)
    found = dated(tmp_path, [first, haddock("lens-4.11.1", "2.16.0", edited=True, own=2)])
    late = {f"docs/p{n:02}.html" for n in (2, *range(8, 16))}
    assert found == {path: at(1 if path in late else 0) for path in found}, found
    assert len(found) == 16


# Each API page's links to the Kotlin library's types (five of twelve pages hold some).
TYPES = {
    0: ("-boolean",),
    1: ("-int", "-string"),
    2: ("-unit",),
    3: ("-any", "-long"),
    4: ("-float",),
}


def dokka(year: str, library: str, *, retargeted: int = -1) -> Build:
    """Twelve API pages whose footer (inside the content) says the year; the pages of TYPES link
    the library's types at ``library`` (``retargeted``: that page's first link leads to
    another type)."""
    pages = {}
    for n in range(12):
        kinds = list(TYPES.get(n, ()))
        if n == retargeted:
            kinds[0] = "-char"
        links = "".join(
            f'<a href="https://kotlinlang.example/api/latest/jvm/{library}/{kind}/">{kind}</a> '
            for kind in kinds
        )
        pages[f"api/page-{n:02}.html"] = (
            f"<html><head><title>Page {n}</title></head><body><main><h1>Page {n}</h1>"
            f"<p>What page {n} does.</p>{links}<p class='footer'>© {year} Copyright</p>"
            "</main></body></html>\n"
        )
    return pages


def test_a_year_bumped_beside_the_library_links_re_pointed_moves_no_page(tmp_path: Path) -> None:
    # The year on all 12 pages; the library's links re-pointed (stdlib/kotlin/ made
    # stdlib/kotlin-stdlib/kotlin/) on the 5 pages that hold one, each its own types: one move
    # of the other site's links, made by every page that moved one of them.
    first = dokka("2024", "stdlib/kotlin")
    found = dated(tmp_path, [first, dokka("2025", "stdlib/kotlin-stdlib/kotlin")])
    assert found == {path: at(0) for path in found}, found
    assert len(found) == 12


def test_a_library_link_of_its_own_retargeted_beside_the_move_dates_the_page(
    tmp_path: Path,
) -> None:
    # The same deploy, and page 1's first link now leads to another type: not a move.
    first = dokka("2024", "stdlib/kotlin")
    found = dated(tmp_path, [first, dokka("2025", "stdlib/kotlin-stdlib/kotlin", retargeted=1)])
    assert found == {path: at(1 if path == "api/page-01.html" else 0) for path in found}, found
    assert len(found) == 12
