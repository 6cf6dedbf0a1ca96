"""An edit is counted over every page its commit changed, not only over the pages whose walk
stops there (history.templateedits' commit census, issue 79 clusters 1 and 6). Shaped like a
Jekyll blog whose deploy put a language line on every talk, and whose next deploy edited most
talks in their own words (the talks left stopping at the first deploy were too few of its
pages), and like a bookdown book whose deploy re-rendered every chapter and re-encoded some
chapters' own figures (.png made .jpeg: those chapters' own images). Text our own."""

from __future__ import annotations

from pathlib import Path

from treedates import at, dated

TALKS = tuple(f"talks/talk-{name}" for name in "abcdefghij")
CHAPTERS = ("intro", "data", "pdp", "ice", "rules", "global", "cite", "future")
FIGURES = ("pdp", "ice", "rules", "global")
Build = dict[str, str]


def talk(path: str, *, language: bool, note: str = "", own: str = "") -> str:
    name = path.rsplit("/", 1)[-1].replace("-", " ")
    said = " · Language: English" if language else ""
    return (
        f"<html><head><title>{name} - Talks</title></head><body><nav><a href='/'>Talks</a></nav>"
        f"<main><h1>{name}</h1><p class='meta'>Online{said}</p><p>Slides on {name}{own}.</p>"
        f"{note}</main><footer>Footer</footer></body></html>\n"
    )


def talks(*, language: bool, noted: tuple[str, ...] = (), own: tuple[str, ...] = ()) -> Build:
    """Every talk (those of ``noted`` with a note of their own, those of ``own`` with their
    own words changed), with the language line or without."""
    return {
        f"{path}/index.html": talk(
            path,
            language=language,
            note=f"<p>Recording of {path[-1]} added.</p>" if path in noted else "",
            own=", revised" if path in own else "",
        )
        for path in TALKS
    }


def test_a_line_put_on_every_page_is_template_though_most_pages_stop_later(
    tmp_path: Path,
) -> None:
    # The second deploy put the language line on all ten talks; the third gave six of them a
    # note of their own. The four left stop at the second deploy: 4 of its 10 pages, but the
    # other six made the same edit there too. One of the four also changed its own words beside
    # the line (its own edit, dated by the deploy).
    noted = TALKS[:6]
    found = dated(
        tmp_path,
        [
            talks(language=False),
            talks(language=True, own=(TALKS[6],)),
            talks(language=True, noted=noted, own=(TALKS[6],)),
        ],
    )
    late = {path: 2 for path in noted} | {TALKS[6]: 1}
    assert found == {path: at(late.get(path, 0)) for path in found}, found
    assert len(found) == len(TALKS)


def chapter(name: str, css: str, image: str) -> str:
    figure = f"<img src='images/{name}-1.{image}' alt='Figure'>" if name in FIGURES else ""
    return (
        f"<html><head><title>{name} | The Book</title><link rel='stylesheet' "
        f"href='style.{css}.css'></head><body><nav><a href='index.html'>The Book</a></nav>"
        f"<main><h1>{name}</h1><p>The chapter on {name}.</p>{figure}</main></body></html>\n"
    )


def book(css: str, image: str) -> Build:
    return {f"{name}.html": chapter(name, css, image) for name in CHAPTERS}


def test_own_figures_re_encoded_beside_a_re_render_date_their_chapters(tmp_path: Path) -> None:
    # The second deploy re-rendered all eight chapters (a new stylesheet name, which no reader
    # reads) and moved the four figured chapters' own images from .png to .jpeg: a move made
    # the same way, but on 4 of the 8 pages the commit changed, each its own images.
    found = dated(tmp_path, [book("a1b2", "png"), book("c3d4", "jpeg")])
    figured = {f"{name}.html" for name in FIGURES}
    assert found == {path: at(1 if path in figured else 0) for path in found}, found
    assert len(found) == len(CHAPTERS)


def test_a_move_on_every_page_the_commit_changed_stays_template(tmp_path: Path) -> None:
    # The same .png made .jpeg, in a deploy that wrote only the four figured chapters: the move
    # is all that commit did, on every page it changed (a site's images re-encoded).
    found = dated(tmp_path, [book("a1b2", "png"), book("a1b2", "jpeg")])
    assert found == {path: at(0) for path in found}, found
    assert len(found) == len(CHAPTERS)
