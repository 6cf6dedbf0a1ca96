"""An identical edit of the text's words on most pages of a section is the template (dating rules
9, history.sectioncensus), and an edit judged template at a commit is the template's on every
page that made it there (history.templateedits). Shaped like aea's Jekyll Minimal
Mistakes site (talks with a header line of facts, posts with an author sidebar inside the
content on some layouts and outside it on others, deploys that re-render every page); and the
case they must not swallow: an author's identical note on a few guides (Python-Markdown's).
Text our own."""

from __future__ import annotations

from pathlib import Path

from treedates import at, dated

Build = dict[str, str]
SIDEBAR = (
    '<div class="sidebar"><ul class="author__urls"><li><a href="https://github.example/aea">'
    "GitHub</a></li>{twitter}</ul></div>"
)
TWITTER = '<li><a href="https://twitter.example/AEAData">Twitter</a></li>'


def layout(title: str, body: str, css: str, *, aside: str = "", inside: str = "") -> str:
    """A page: ``aside`` stands before the content region (no reader's content), ``inside``
    within its article."""
    return (
        f'<html><head><title>{title} - AEA</title><link rel="stylesheet" '
        f'href="/css/main.{css}.css"></head><body><div class="masthead"><nav><a href="/">AEA'
        f"</a></nav></div>{aside}"
        f'<div id="main" role="main"><article class="page">{inside}<h1>{title}</h1>{body}'
        "</article></div><footer>Footer</footer></body></html>\n"
    )


def talk(n: int, css: str, facts: str = "", own: bool = False) -> str:
    abstract = f"<p>What talk {n} is about{', revised' if own else ''}.</p>"
    return layout(
        f"Talk {n}",
        f'<p class="page__meta">Presentation at Place {n}</p>{facts}'
        f'<section class="page__content">{abstract}</section>',
        css,
    )


def site(css: str, talks: dict[int, str], own: tuple[int, ...] = ()) -> Build:
    """20 talks (``talks``: the facts line of each, by number), 12 posts, 10 guides and a
    home page: a deploy writes them all (the stylesheet's name)."""
    pages = {f"talks/t{n}.html": talk(n, css, talks.get(n, ""), own=n in own) for n in range(20)}
    for n in range(12):
        pages[f"posts/p{n}.html"] = layout(f"Post {n}", f"<p>Post {n} says this.</p>", css)
    for n in range(10):
        pages[f"guidance/g{n}.html"] = layout(f"Guide {n}", f"<p>Do step {n}.</p>", css)
    pages["index.html"] = layout("Home", "<p>Welcome.</p>", css)
    return pages


def test_a_line_a_theme_put_on_most_talks_of_a_deploy_moves_none(tmp_path: Path) -> None:
    # aea's ca77970c62: "Mode: In-Person" put in the header of most talks, in a deploy that
    # re-rendered every page (a new stylesheet name: nothing a reader sees on the 23 others):
    # 18 of the 43 pages it changed, 18 of the section's 20. Two talks' own abstracts were
    # revised in that deploy: they take its date.
    mode = '<p class="page__meta"><strong>Mode:</strong> In-Person</p>'
    found = dated(
        tmp_path, [site("a1b2", {}), site("c3d4", dict.fromkeys(range(20), mode), own=(0, 1))]
    )
    late = {"talks/t0.html", "talks/t1.html"}
    assert found == {path: at(1 if path in late else 0) for path in found}, found
    assert len(found) == 43


def blog(twitter: bool, own: bool = False) -> Build:
    """10 posts and two pages of sections of their own with the author sidebar inside the
    content region, 30 talks with it outside: a reader of a talk's content never sees it."""
    bar = SIDEBAR.format(twitter=TWITTER if twitter else "")
    pages = {}
    for n in range(10):
        words = f"<p>Post {n} says this{' and that' if own and n == 0 else ''}.</p>"
        pages[f"posts/p{n}.html"] = layout(f"Post {n}", words, "a1", inside=bar)
    for name in ("categories", "portfolio"):
        pages[f"{name}/index.html"] = layout(name, f"<p>The {name}.</p>", "a1", inside=bar)
    for n in range(30):
        pages[f"talks/t{n}.html"] = layout(f"Talk {n}", f"<p>Talk {n}.</p>", "a1", aside=bar)
    return pages


def test_a_link_dropped_from_an_author_sidebar_moves_no_page_that_shows_it(
    tmp_path: Path,
) -> None:
    # aea's 20ada9ec9c: the sidebar's "Twitter" link dropped on every page; 12 of the 42 pages
    # it changed show it (the posts, and the one page of categories/ and of portfolio/), 9 of
    # the posts' 10 with nothing else. The first post's own words changed too: its date.
    found = dated(tmp_path, [blog(True), blog(False, own=True)])
    assert found == {path: at(1 if path == "posts/p0.html" else 0) for path in found}, found
    assert len(found) == 42


def languages(css: str, language: bool, kind: str, edited: tuple[int, ...]) -> Build:
    """7 talks and 6 posts; ``language``: each talk's header says its language; ``kind``: the
    label of the talks and posts of ``edited`` (the others keep "Presentation")."""
    line = "<p>· Language: English</p>" if language else ""
    pages = {}
    for n in range(7):
        label = kind if n in edited else "Presentation"
        body = f"<p>{label} at Place {n}</p>{line}<p>Talk {n}.</p>"
        pages[f"talks/t{n}.html"] = layout(f"Talk {n}", body, css)
    for n in range(6):
        label = kind if n in edited else "Presentation"
        pages[f"posts/p{n}.html"] = layout(
            f"Post {n}", f"<p>{label} at Place {n}</p><p>Post {n}.</p>", css
        )
    return pages


def test_a_template_edit_is_the_template_s_on_pages_that_reach_it_a_round_later(
    tmp_path: Path,
) -> None:
    # aea's bfbb319c95: a language line put on all 7 talks (template: the only edit of the
    # deploy); a later deploy relabelled 3 of the talks and 3 posts alike (template too), so
    # those 3 talks reach the language line a round after the 4 others, alone at it, in a
    # section too small for its census of words. It is still the template's edit there.
    found = dated(
        tmp_path,
        [
            languages("a1", False, "Presentation", ()),
            languages("a1", True, "Presentation", ()),
            languages("a1", True, "Talk", (0, 1, 2)),
        ],
    )
    assert found == {path: at(0) for path in found}, found
    assert len(found) == 13


def guides(release: str, noted: bool, section: int) -> Build:
    """Python-Markdown's shape: every page's title names the release; ``section`` guides, the
    first four of them given one identical note when ``noted``; 12 reference pages."""
    pages = {}
    note = "<p>This extension is kept, not grown.</p>"
    for n in range(section):
        body = f"{note if noted and n < 4 else ''}<p>How guide {n} works.</p>"
        pages[f"guide/g{n}.html"] = layout(f"Guide {n} — Tool {release}", body, "a1")
    for n in range(12):
        pages[f"ref/r{n}.html"] = layout(f"Ref {n} — Tool {release}", f"<p>r{n}()</p>", "a1")
    return pages


def test_an_author_s_note_on_four_guides_dates_them_in_a_section_of_four_or_more(
    tmp_path: Path,
) -> None:
    # A release bumped in every title, and one note the author copied onto four guides: the
    # whole section of four, or four of ten. Four pages made it: each is its own evidence.
    for section in (4, 10):
        found = dated(
            tmp_path / str(section), [guides("3.1", False, section), guides("3.2", True, section)]
        )
        noted = {f"guide/g{n}.html" for n in range(4)}
        assert found == {path: at(1 if path in noted else 0) for path in found}, found
        assert len(found) == 12 + section


def test_an_author_s_note_on_four_guides_of_a_re_rendered_site_dates_them(tmp_path: Path) -> None:
    # The same note in a deploy that re-rendered every page with nothing else a reader sees:
    # the four guides are all the pages it changed for a reader; still four pages.
    def build(css: str, noted: bool) -> Build:
        pages = guides("3.1", noted, 10)
        return {
            path: page.replace("main.a1.css", f"main.{css}.css") for path, page in pages.items()
        }

    found = dated(tmp_path, [build("a1", False), build("c3", True)])
    noted = {f"guide/g{n}.html" for n in range(4)}
    assert found == {path: at(1 if path in noted else 0) for path in found}, found
    assert len(found) == 22
