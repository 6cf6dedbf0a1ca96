"""Template edits in a git history (history.templateedits): an edit made identically on most
pages of a section or a commit moves no page's date (test_template_principles: wave 6)."""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from gitutil import commit, make_repo, unix
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.git.run import Git
from sitemill.lastmod.fingerprint.digest import fingerprint_file, reduce_file
from sitemill.lastmod.history._probes import section_of
from sitemill.lastmod.history.contentdates import Reducing, date_by_content, read_file_versions
from sitemill.lastmod.history.edits import edit_of, is_site_wide, rewords
from sitemill.lastmod.history.sections import MIN_SECTION
from sitemill.protocol import Precision, lastmod_from_timestamp
from sitemill.sinks import MemorySink

BASE = "https://example.org/"
T1, T2, T3, T4 = (f"2024-0{month}-10 09:00:00" for month in (1, 2, 3, 4))
POSTS = ("alpha", "beta", "gamma", "delta", "epsilon")


def blog(
    more: str = "Read More", body: dict[str, str] | None = None, **theme: str
) -> dict[str, str]:
    """A blog section of five posts, each with its teaser list of the others."""
    body = body or {}
    link = theme.get("link", "/docs/readme/")
    deco = theme.get("deco", "")
    title = theme.get("title", "Field Notes 1.0")
    pages = {}
    for post in POSTS:
        teasers = "".join(
            f'<article><h2><a href="/blog/{other}/">{other}</a></h2><a href="/blog/{other}/">'
            f"{more}</a></article>"
            for other in POSTS
            if other != post
        )
        pages[f"blog/{post}/index.html"] = (
            f"<html><head><title>{post} - {title}</title></head><body><main><h1>{post}</h1>"
            f'<p>{body.get(post, f"The {post} post.")}{deco}</p><p><a href="{link}">Docs</a></p>'
            f"{teasers}</main></body></html>\n"
        )
    return pages


def sitemap(tmp_path: Path, *builds: dict[str, str]) -> str:
    """The sitemap built with git dates after one commit per build (at T1, T2, ...)."""
    repo = make_repo(tmp_path / "site")
    for build, when in zip(builds, (T1, T2, T3, T4), strict=False):
        commit(repo, build, when)
    sink = MemorySink()
    build_from_tree(load_config({"base_url": BASE, "lastmod": "git"}), repo, sink)
    return sink.files["sitemap.xml"].decode()


def dates(tmp_path: Path, *builds: dict[str, str]) -> dict[str, str]:
    """Each blog post's lastmod after one commit per build."""
    text = sitemap(tmp_path, *builds)
    found = re.findall(r"<loc>https://example\.org/blog/(\w+)/</loc><lastmod>(.*?)</lastmod>", text)
    return dict(found)


def at(when: str) -> str:
    return lastmod_from_timestamp(unix(when), Precision.DATETIME)


def test_a_case_change_in_every_teaser_moves_no_post(tmp_path: Path) -> None:
    # Docusaurus' "Read More" -> "Read more" on every list page; one post also edited.
    edited = blog("Read more", {"beta": "The beta post, edited."})
    found = dates(tmp_path, blog(), edited)
    assert found == {post: at(T2 if post == "beta" else T1) for post in POSTS}


def test_targets_changed_on_every_page_move_none(tmp_path: Path) -> None:
    found = dates(tmp_path, blog(), blog(link="/docs/intro/"))
    assert set(found.values()) == {at(T1)}


def test_a_release_number_in_every_title_moves_no_page(tmp_path: Path) -> None:
    found = dates(tmp_path, blog(), blog(title="Field Notes 1.1"))
    assert set(found.values()) == {at(T1)}


def test_words_added_to_every_page_move_none(tmp_path: Path) -> None:
    # An edit on most pages of a commit is the template, whatever it touches (wave 6): a
    # theme's new decoration of every post's text; a post edited beside it keeps its own date.
    found = dates(tmp_path, blog(), blog(deco=" *", body={"beta": "The beta post, edited."}))
    assert found == {post: at(T2 if post == "beta" else T1) for post in POSTS}


def test_template_edits_one_after_another_are_followed_back(tmp_path: Path) -> None:
    builds = (blog(), blog("Read more"), blog("Read more", link="/docs/intro/"))
    found = dates(tmp_path, *builds, blog("Read more", {"gamma": "New."}, link="/docs/intro/"))
    assert found == {post: at(T4 if post == "gamma" else T1) for post in POSTS}


def test_an_edit_on_few_pages_of_the_section_is_each_pages_own(tmp_path: Path) -> None:
    # Two of five posts get the same new link: not most of the section.
    second = blog()
    for post in POSTS[:2]:
        second[f"blog/{post}/index.html"] = second[f"blog/{post}/index.html"].replace(
            "/docs/readme/", "/docs/intro/"
        )
    found = dates(tmp_path, blog(), second)
    assert found == {post: at(T2 if post in POSTS[:2] else T1) for post in POSTS}


def test_a_section_of_fewer_pages_has_no_template(tmp_path: Path) -> None:
    small = {name: page for name, page in blog().items() if "alpha" in name or "beta" in name}
    changed = {name: page.replace("/docs/readme/", "/docs/intro/") for name, page in small.items()}
    assert len(small) < MIN_SECTION
    found = dates(tmp_path, small, changed)
    assert set(found.values()) == {at(T2)}


def test_an_edit_is_named_by_what_it_took_out_and_put_in() -> None:
    old, new = "T\x01T\x01Read More a \x01H/x\x01b", "T\x01T\x01Read more a \x01H/y\x01b"
    assert edit_of(new, old) == edit_of(new + " a", old + " a") != edit_of(old, new)
    # How many times a word was changed does not name the edit; rewording says so.
    assert edit_of("\x01T\x01more more", "\x01T\x01More More") == edit_of(
        "\x01T\x01more", "\x01T\x01More"
    )
    assert rewords(edit_of("\x01T\x01a b", "\x01T\x01a c"))
    # A title's words are the site's (a release number), the text's are read.
    assert is_site_wide(edit_of("Docs 1.1\x01T\x01x", "Docs 1.0\x01T\x01x"))
    assert rewords(edit_of("\x01T\x01Docs 1.1 x", "\x01T\x01Docs 1.0 x"))


def test_a_section_is_the_first_folder() -> None:
    assert section_of("blog/a/index.html") == "blog"
    assert section_of("index.html") == ""


def test_a_later_run_names_no_edit_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The edits are remembered with the blobs' fingerprints (a state's blob table): a second
    # build of an unchanged site reads no blob and starts no git for them.
    repo = make_repo(tmp_path / "site")
    commit(repo, blog(), T1)
    commit(repo, blog(title="Field Notes 1.1"), T2)  # (a teaser's words are no edit: version 6)
    paths = sorted(blog())
    fingerprint = partial(fingerprint_file, base=BASE)
    reduce = partial(reduce_file, base=BASE)
    current = {path: fingerprint(path, (repo / path).read_bytes()) for path in paths}
    first = date_by_content(
        read_file_versions(repo, paths), fingerprint, current, reducing=Reducing(reduce)
    )
    assert set(first.dates.values()) == {unix(T1)} and first.read > 0
    assert any(key.startswith("e") for key in first.blobs)
    started: list[tuple[str, ...]] = []
    batch = Git.batch

    def counted(self: Git, *args: str) -> Any:
        started.append(args)
        return batch(self, *args)

    monkeypatch.setattr(Git, "batch", counted)
    found = read_file_versions(repo, paths)
    second = date_by_content(found, fingerprint, current, first.blobs, reducing=Reducing(reduce))
    assert second.dates == first.dates and second.read == 0
    assert started == [("cat-file", "--batch")]  # the walk's own, none for the edits


def test_a_new_base_path_on_every_link_moves_no_page(tmp_path: Path) -> None:
    # The site moved under /notes/: each page's links (to other posts: different on every
    # page) moved the same way, and the page still says and links to what it did.
    moved = {name: page.replace('href="/', 'href="/notes/') for name, page in blog().items()}
    found = dates(tmp_path, blog(), moved)
    assert set(found.values()) == {at(T1)}


def gallery(sections: tuple[str, ...], pictured: int, extension: str) -> dict[str, str]:
    """Five posts in each section; the first ``pictured`` of each show two images."""
    pages = {}
    for section in sections:
        for index, post in enumerate(POSTS):
            images = "".join(
                f'<img src="/{section}/{post}/{n}.{extension}" alt="">' for n in (1, 2)
            )
            pages[f"{section}/{post}/index.html"] = (
                f"<html><head><title>{post}</title></head><body><main><h1>{post}</h1>"
                f"<p>The {post} post of {section}.</p>{images if index < pictured else ''}"
                "</main></body></html>\n"
            )
    return pages


def gallery_dates(tmp_path: Path, *builds: dict[str, str]) -> dict[str, str]:
    """Each page's lastmod (by its site path) after one commit per build."""
    text = sitemap(tmp_path, *builds)
    return dict(re.findall(r"<loc>https://example\.org/(\w+/\w+)/</loc><lastmod>(.*?)<", text))


def test_images_converted_on_a_few_pages_of_each_section_move_none(tmp_path: Path) -> None:
    # Every .png became a .webp: two pages of each of two sections (not most of either) carry
    # the same move in one commit, and a third section's page was edited beside it.
    sections = ("blog", "notes", "talks")
    before, after = gallery(sections, 2, "png"), gallery(sections, 2, "webp")
    after["talks/alpha/index.html"] = after["talks/alpha/index.html"].replace("The", "A")
    found = gallery_dates(tmp_path, before, after)
    assert found["talks/alpha"] == at(T2)
    others = {page: date for page, date in found.items() if page != "talks/alpha"}
    assert set(others.values()) == {at(T1)}


def test_a_move_on_fewer_pages_than_a_section_counts_is_each_pages_own(tmp_path: Path) -> None:
    before, after = gallery(("blog",), 2, "png"), gallery(("blog",), 2, "webp")
    found = gallery_dates(tmp_path, before, after)
    assert MIN_SECTION > 2
    assert {page for page, date in found.items() if date == at(T2)} == {"blog/alpha", "blog/beta"}


def test_a_page_that_changed_a_target_beside_the_move_keeps_its_date(tmp_path: Path) -> None:
    before, after = gallery(("blog", "notes"), 3, "png"), gallery(("blog", "notes"), 3, "webp")
    after["notes/beta/index.html"] = after["notes/beta/index.html"].replace("2.webp", "3.webp")
    found = gallery_dates(tmp_path, before, after)
    assert {page for page, date in found.items() if date == at(T2)} == {"notes/beta"}


def test_a_move_is_named_by_how_its_targets_moved() -> None:
    def edit(old: list[str], new: list[str]) -> str | None:
        def marks(targets: list[str]) -> str:
            return "\x01T\x01x" + "".join(f" \x01H{t}\x01 y" for t in targets)

        return edit_of(marks(new), marks(old))

    # A new base path: the root and a folder moved the same way, on two different pages.
    first = edit(["/", "/posts"], ["/notes", "/notes/posts"])
    assert first == edit(["/tags/a/", "/b.html"], ["/notes/tags/a/", "/notes/b.html"])
    assert first is not None and is_site_wide(first)
    # Another host for the same paths.
    assert is_site_wide(edit(["https://beta.example.org/a/"], ["/a"]) or "")
    # A query rewritten one way is a move too (issue 79: "via=X&" dropped before each page's
    # own title), named alike on two pages; the path moved beside it is named apart.
    query = edit(["https://x.example/s?via=A&t=a"], ["https://x.example/s?t=a"])
    assert query == edit(["https://x.example/s?via=A&t=b"], ["https://x.example/s?t=b"])
    assert is_site_wide(query or "")
    assert edit(["/a?v=1"], ["/notes/a?v=2"]) == edit(["/b?v=1"], ["/notes/b?v=2"])
    # Two ways of moving on one page (a base path, another library's version) are named by both
    # moves, alike on a page whose own targets around them differ, and apart from either alone.
    cdn = "https://cdn.example/lib/"
    both = edit(["/a.png", cdn + "v1/a.js"], ["/notes/a.png", cdn + "v2/a.js"])
    assert both == edit(["/b/c.png", cdn + "v1/d.js"], ["/notes/b/c.png", cdn + "v2/d.js"])
    assert is_site_wide(both or "")
    assert both != edit(["/a.png", cdn + "v1/a.js"], ["/notes/a.png", cdn + "v1/a.js"])
    # A target whose fragment changed with its path, or a reorder: no move.
    assert not is_site_wide(edit(["/a#one", "/b"], ["/c#two", "/notes/b"]) or "")
    assert not is_site_wide(edit(["/a", "/b"], ["/b", "/a"]) or "")


def test_a_site_renamed_in_the_titles_of_pages_in_small_sections_moves_none(
    tmp_path: Path,
) -> None:
    # An about page, an archive, a drafts list and two tag pages: sections of one or two pages.
    names = ("about", "archive", "drafts", "tags/backup", "tags/restore")

    def site(name: str) -> dict[str, str]:
        return {
            f"{page}/index.html": f"<html><head><title>{page.title()} | {name}</title><meta "
            f'name="description" content="Welcome to {name}"></head><body><main><h1>{page}'
            f"</h1><p>What {page} holds.</p></main></body></html>\n"
            for page in names
        }

    text = sitemap(tmp_path, site("Virtual Life"), site("Cloud Shelter"))
    found = re.findall(r"<lastmod>(.*?)</lastmod>", text)
    assert found == [at(T1)] * len(names)
    assert is_site_wide(edit_of("Tags | B\x01T\x01x", "Tags | A\x01T\x01x") or "")


def test_a_host_move_is_one_move_on_a_page_with_links_only(tmp_path: Path) -> None:
    # A site left its old host and base path: the posts' links and images moved, the home
    # page holds links only. One move, whatever kinds of target a page holds: no page moves.
    def site(base: str) -> dict[str, str]:
        pages = {
            f"posts/{name}/index.html": f"<html><head><title>{name}</title></head><body><main>"
            f'<h1>{name}</h1><p>On {name}.</p><img src="{base}images/{name}.png">'
            f'<a href="{base}posts/">All posts</a></main></body></html>\n'
            for name in ("alpha", "beta", "gamma", "delta", "epsilon")
        }
        pages["index.html"] = (
            "<html><head><title>Home</title></head><body><main><h1>Home</h1><p>Welcome.</p>"
            f'<a href="{base}about/">About</a></main></body></html>\n'
        )
        return pages

    text = sitemap(tmp_path, site("https://old.example.net/notes/"), site(BASE))
    assert re.findall(r"<lastmod>(.*?)</lastmod>", text) == [at(T1)] * 6
