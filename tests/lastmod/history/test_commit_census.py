"""What an edit on most pages of a commit must not take for template (history.templateedits,
probes.template_edits): an edit on 3 pages, one page's edit in its copies, in a deploy that
renamed the stylesheet in every file. Shaped like a Jekyll Minimal Mistakes blog (posts under
life/, tech/ and research/ with a "Posted:" meta line, numbered list pages, tag and year
archives) and a Sphinx docs tree copied under version and language folders: text our own.
Counting the commit's pages by the pages whose reading it changed, not the files it wrote, was
tried and measured (branch readerchanged): it made ytlm's, hoodie's and lanrendev's edits of a
few pages template (23 pages dated earlier than their content) and fixed none of geekdude,
llccing or imroc-k8s; the copies case here is one it broke."""

from __future__ import annotations

from pathlib import Path

from treedates import at, dated

POSTS = (
    "life/sourdough",
    "life/racing-school",
    "life/demo-reel",
    "tech/ctags",
    "tech/new-site",
    "tech/reorder",
    "tech/moving",
    "research/review-paper",
    "research/thesis",
    "research/codesign",
)
PAGED = ("", "page/2", "page/3")
ARCHIVES = ("tags", "categories", "year-archive")
STATIC = ("about", "privacy", "publications", "cv", "research", "tech", "life", "search")
LISTS = (*PAGED, *ARCHIVES, *STATIC)
Build = dict[str, str]


def layout(title: str, body: str, css: str) -> str:
    return (
        f'<html><head><title>{title} - Blog</title><link rel="stylesheet" '
        f'href="/assets/css/main.{css}.css"></head><body><div class="masthead"><nav>'
        f'<a href="/">Blog</a></nav></div><div id="main" role="main">{body}</div>'
        '<div class="page__footer"><footer>Footer</footer></div></body></html>\n'
    )


def post(path: str, label: str, css: str) -> str:
    name = path.rsplit("/", 1)[-1].replace("-", " ")
    return layout(
        name,
        f'<article class="page"><div class="page__inner-wrap"><header><h1 class="page__title">'
        f'{name}</h1><p class="page__meta"><span class="page__meta-date">{label}: '
        f'<time datetime="2021-06-08">June 8, 2021</time></span></p></header>'
        f'<section class="page__content"><p>Notes on {name}.</p></section></div></article>',
        css,
    )


def listing(path: str, css: str) -> str:
    """A list page: the home page and its numbered pages show 3 entries each, newest first;
    the tag, category and year archives all of them; the STATIC pages none."""
    entries = POSTS
    if path in PAGED:
        start = 3 * PAGED.index(path)
        entries = entries[start : start + 3]
    elif path not in ARCHIVES:
        return layout(path, f"<h1>{path}</h1><p>About {path}.</p>", css)
    teasers = "".join(
        f'<div class="list__item"><article class="archive__item"><h2 class="archive__item-title">'
        f'<a href="/{entry}/">{entry.rsplit("/", 1)[-1]}</a></h2></article></div>'
        for entry in entries
    )
    return layout(path or "home", f'<h1 class="page__title">{path or "Recent"}</h1>{teasers}', css)


def site(label: str, css: str, edited: tuple[str, ...]) -> Build:
    """Every post (those of ``edited`` with ``label``, the rest "Posted"), every list page."""
    files = {
        f"{path}/index.html": post(path, label if path in edited else "Posted", css)
        for path in POSTS
    }
    for path in LISTS:
        files[f"{path}/index.html".lstrip("/")] = listing(path, css)
    return files


def test_a_label_on_three_posts_is_never_template(tmp_path: Path) -> None:
    # The same deploy where only 3 posts changed their label: fewer than 4 pages, each dated
    # by the commit, however few pages it changed for a reader.
    edited = POSTS[:3]
    found = dated(tmp_path, [site("Posted", "a1b2", ()), site("Updated", "c3d4", edited)])
    assert found == {path: at(1 if path in edited else 0) for path in found}, found


def docs(css: str, edited: bool = False) -> Build:
    """A docs tree copied under version and language folders (a Sphinx site's 5/, 5/en/,
    current/, current/en/ and their es/): five pages, the workshop's words edited or not."""
    pages = {}
    for folder in ("5", "5/en", "current", "current/en", "5/es", "current/es"):
        lang = "es" if folder.endswith("es") else "en"
        for name in ("index", "install", "faq", "panes", "workshop"):
            words = f"{name} {lang}" + (" with a new step" if edited and name == "workshop" else "")
            pages[f"{folder}/{name}.html"] = layout(name, f"<h1>{name}</h1><p>{words}.</p>", css)
    return pages


def test_one_page_s_edit_in_its_copies_keeps_the_commit_s_date(tmp_path: Path) -> None:
    # A deploy re-rendered every file (the stylesheet's name) and changed one page's words,
    # copied under six folders: six pages the commit changed for a reader, one edit on each,
    # one page's own (the copies are of two blobs: the English and the Spanish).
    found = dated(tmp_path, [docs("a1b2"), docs("c3d4", edited=True)])
    late = {path for path in found if path.endswith("workshop.html")}
    assert len(late) == 6
    assert found == {path: at(1 if path in late else 0) for path in found}, found
