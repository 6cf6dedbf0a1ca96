"""The oracle's version 6 reading (the dates issue, decision 3), on real git repositories with
fixed dates. Run by hand, as the oracle is (not part of ``make test``):

    .venv/bin/python -m pytest -q -p no:cacheprovider -n 0 benchmarks/realsites/test_oracle.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import lxml.html

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent / "tests"))

import blocks  # noqa: E402
import oracle  # noqa: E402
import selfdates  # noqa: E402
import template  # noqa: E402

from gitutil import commit, make_repo, unix  # noqa: E402

DAY1, DAY2, DAY3 = "2024-01-01T10:00:00", "2024-02-01T10:00:00", "2024-03-01T10:00:00"


def page(article: str, nav: str = "") -> str:
    return (
        f"<!doctype html><html><head><title>Site</title></head><body><nav>{nav}</nav>"
        f"<main><article>{article}</article></main></body></html>"
    )


def site(count: int, article: str, nav: str = "") -> dict[str, str | bytes | None]:
    """``count`` pages, each with its own paragraph and ``article`` (``{n}``: the page's number)."""
    return {
        f"p{n}/index.html": page(
            f"<h1>Page {n}</h1><p>Own text {n}.</p>" + article.format(n=n), nav
        )
        for n in range(count)
    }


def dated(repo: Path, reading: str = "v6") -> dict[str, int | None]:
    return {path: verdict.time for path, verdict in oracle.date_pages(repo, None, reading).items()}


def test_a_block_repeated_on_most_pages_is_left_out(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    promo = '<div class="promo"><p>Subscribe to the {word} letter</p></div>'
    commit(repo, site(6, promo.replace("{word}", "weekly")), DAY1)
    commit(repo, site(6, promo.replace("{word}", "monthly")), DAY2)  # the template's block
    assert set(dated(repo).values()) == {unix(DAY1)}
    assert set(dated(repo, "v5").values()) == {unix(DAY2)}  # (the old reading: "later")


def test_a_block_on_few_pages_is_content(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    files = site(6, "")
    commit(repo, files, DAY1)
    # The same new block on 3 of 6 pages (half, not most): each page's own change.
    for n in range(3):
        files[f"p{n}/index.html"] = page(f"<h1>Page {n}</h1><p>Own text {n}.</p><p>Errata.</p>")
    commit(repo, files, DAY2)
    dates = dated(repo)
    assert [dates[f"p{n}/index.html"] for n in range(6)] == [unix(DAY2)] * 3 + [unix(DAY1)] * 3


def test_a_page_own_text_still_counts_beside_a_repeated_block(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    promo = '<div class="promo"><p>Subscribe {word}</p></div>'
    commit(repo, site(6, promo.replace("{word}", "now")), DAY1)
    files = site(6, promo.replace("{word}", "today"))
    files["p2/index.html"] = page("<h1>Page 2</h1><p>Own text 2, rewritten.</p>" + promo)
    commit(repo, files, DAY2)
    dates = dated(repo)
    assert dates["p2/index.html"] == unix(DAY2)
    assert dates["p0/index.html"] == unix(DAY1)


def test_repeated_blocks_are_read_only_where_an_article_changed(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    for when, nav in ((DAY1, "a"), (DAY2, "b"), (DAY3, "c")):
        commit(repo, site(6, "", nav=nav), when)  # furniture alone changes
    histories = oracle.file_histories(repo)
    reader = oracle.BlobReader(repo)
    versions = template.SiteVersions(repo, reader, None, histories)
    try:
        chain = oracle.chained(histories, "p0/index.html")
        assert not versions.changed(chain[1], "p0/index.html", chain[0], "p0/index.html")
    finally:
        reader.close()
    assert versions.repeated_at == {}  # no version of the site was read whole
    assert set(dated(repo).values()) == {unix(DAY1)}


def test_a_self_date_apart_from_its_label_is_left_out(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    kinds = [
        "<dl><dt>Author</dt><dd>Ann</dd><dt>Last updated</dt><dd>{date}</dd></dl>",
        "<p>By Ann. <span>Updated:</span> <time>{date}</time></p>",
        '<p><i class="fa fa-calendar"></i> {date}</p>',
        '<div><span class="md-icon"><svg><path d="M0"/></svg></span><span>{date}</span></div>',
        "<p>\U0001f4c5 {date}</p>",
    ]
    files = {f"k{n}.html": page(f"<p>Body {n}</p>" + kind) for n, kind in enumerate(kinds)}
    commit(repo, {k: v.replace("{date}", "January 5, 2024") for k, v in files.items()}, DAY1)
    commit(repo, {k: v.replace("{date}", "2024-02-01") for k, v in files.items()}, DAY2)
    assert dated(repo) == {name: unix(DAY1) for name in files}
    assert dated(repo, "v5") == {name: unix(DAY2) for name in files}  # (read as content)


def test_a_date_that_is_no_self_date_stays() -> None:
    for html in (
        "<p>Version 2 released on</p><p>2024-01-05</p>",  # no label: the article's own words
        '<p><i class="fa fa-user"></i> 2024-01-05</p>',  # an icon, but not of a date
        "<p>Updated: see the 2024-01-05 release notes for more</p>",  # no date alone
    ):
        article = lxml.html.fragment_fromstring(html, create_parent="div")
        selfdates.strip_apart(article)
        assert "2024-01-05" in article.text_content(), html


def test_an_own_target_change_is_content(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    files = site(6, '<p>See <a href="https://a.example/{n}">the spec</a>.</p>')
    commit(repo, files, DAY1)
    files["p1/index.html"] = str(files["p1/index.html"]).replace("a.example", "b.example")
    commit(repo, files, DAY2)
    dates = dated(repo)
    assert dates["p1/index.html"] == unix(DAY2)
    assert dates["p0/index.html"] == unix(DAY1)
    assert dated(repo, "v5")["p1/index.html"] == unix(DAY1)  # (the old reading saw no change)


def test_a_target_edit_made_alike_on_most_changed_pages_is_template(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    link = '<p>Page {n} reads <a href="/{where}/">the guide</a>.</p>'
    commit(repo, site(6, link.replace("{where}", "docs")), DAY1)
    commit(repo, site(6, link.replace("{where}", "guide")), DAY2)  # every page, alike
    assert set(dated(repo).values()) == {unix(DAY1)}


def test_one_spelling_of_a_target_is_no_change(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    files = {"a/b.html": page('<p>Read <a href="x/">it</a> <img src="/a/p.png"></p>')}
    commit(repo, files, DAY1)
    commit(
        repo,
        {"a/b.html": page('<p>Read <a href="./x/index.html">it</a> <img src="p.png"></p>')},
        DAY2,
    )
    commit(
        repo, {"a/b.html": page('<p>Read <a href="/a/x#top">it</a> <img src="p.png"></p>')}, DAY3
    )
    assert dated(repo) == {"a/b.html": unix(DAY1)}


def test_a_moved_page_keeps_its_relative_targets(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    text = "<p>" + " ".join(f"Word{n}" for n in range(60)) + ' <a href="../other.html">x</a></p>'
    commit(repo, {"latest/api/page.html": page(text)}, DAY1)
    commit(repo, {"latest/api/page.html": None, "api/page.html": page(text)}, DAY2)
    assert dated(repo) == {"api/page.html": unix(DAY1)}


def test_targets_resolve_and_spell_one_way() -> None:
    base = blocks.SITE + "a/b.html"
    spelled = {blocks.spell(t, base) for t in ("x", "x/", "x/index.html", "./x/", "/a/x#s")}
    assert spelled == {"https://site.invalid/a/x"}
    assert blocks.spell("#top", base) is None


def test_a_percent_encoded_target_is_one_spelling(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    commit(repo, {"a.html": page('<p>A chart <img src="/img/golang%E5%88%86.png"></p>')}, DAY1)
    commit(repo, {"a.html": page('<p>A chart <img src="/img/golang分.png"></p>')}, DAY2)
    assert dated(repo) == {"a.html": unix(DAY1)}


def test_a_link_to_the_page_itself_is_no_target(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    commit(repo, {"a/b.html": page("<h2>Part</h2><p>Text.</p>")}, DAY1)
    permalink = '<h2>Part<a href="/a/b.html#part">#</a></h2><p>Text.</p>'  # (its text too)
    commit(repo, {"a/b.html": page(permalink.replace(">#<", "><"))}, DAY2)
    clean = permalink.replace(">#<", "><").replace("b.html#", "b#")  # (served without .html)
    commit(repo, {"a/b.html": page(clean)}, DAY3)
    assert dated(repo) == {"a/b.html": unix(DAY1)}


def test_a_target_edit_made_the_same_way_on_most_changed_pages_is_template(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    source = '<p>Page {n}: <a href="https://git.example/blob/{ref}/p{n}.md">source</a></p>'
    commit(repo, site(6, source.replace("{ref}", "v2.1.2")), DAY1)
    files = site(6, source.replace("{ref}", "main"))  # each page its own target, one way
    files["p3/index.html"] = str(files["p3/index.html"]).replace("p3.md", "p3-new.md")
    commit(repo, files, DAY2)
    dates = dated(repo)
    assert dates["p3/index.html"] == unix(DAY2)  # (also its own edit, made no other way)
    assert {dates[f"p{n}/index.html"] for n in (0, 1, 2, 4, 5)} == {unix(DAY1)}


def share(n: int, host: str = "https://blog.example") -> str:
    """A share button, as Hugo's Ananke theme writes it: the post's own URL in the query."""
    return (
        '<div class="mt3 socials" id="sharing"><a class="social-link linkedin" href="'
        f"https://www.linkedin.com/shareArticle?mini=true&amp;url={host}/posts/{n}/"
        f'&amp;title=Post%20{n}"><span class="icon"><svg><path d="M0"/></svg></span></a></div>'
    )


def posts(count: int, extra: str = "", shared: bool = True) -> dict[str, str | bytes | None]:
    return {
        f"posts/{n}/index.html": page(
            (share(n) if shared else "") + f"<h1>Post {n}</h1><p>Own words {n}.</p>{extra}"
        )
        for n in range(count)
    }


def test_a_link_carrying_the_page_own_url_is_no_target(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    commit(repo, posts(6), DAY1)
    files = posts(6, shared=False)  # (every post's share button gone, each its own target)
    files["posts/1/index.html"] = page(share(1) + "<h1>Post 1</h1><p>Own words 1.</p>")
    commit(repo, files, DAY2)
    # One post's button back, on another host's spelling and in percent-encoding: still no link.
    files["posts/1/index.html"] = page(
        share(1, "http%3A%2F%2FBLOG.example").replace("/&amp;", "%2F&amp;")
        + "<h1>Post 1</h1><p>Own words 1.</p>"
    )
    commit(repo, files, DAY3)
    dates = {
        path: verdict.time
        for path, verdict in oracle.date_pages(repo, None, "v6", "https://blog.example/").items()
    }
    assert set(dates.values()) == {unix(DAY1)}


def test_a_link_carrying_another_page_url_is_a_target(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    saved = (
        '<p><a href="https://archive.example/save?url=https://blog.example/posts/{to}/">x</a></p>'
    )
    commit(repo, posts(6, saved.replace("{to}", "0"), shared=False), DAY1)
    files = posts(6, saved.replace("{to}", "0"), shared=False)
    files["posts/2/index.html"] = page(
        "<h1>Post 2</h1><p>Own words 2.</p>" + saved.replace("{to}", "20")
    )
    commit(repo, files, DAY2)
    dates = {
        path: verdict.time
        for path, verdict in oracle.date_pages(repo, None, "v6", "https://blog.example/").items()
    }
    assert dates["posts/2/index.html"] == unix(DAY2)  # (posts/0 is not posts/20)
    assert dates["posts/3/index.html"] == unix(DAY1)


def test_a_base_path_moved_on_most_pages_is_template_for_the_root_link_too(
    tmp_path: Path,
) -> None:
    # Just the Docs (circuitverse-book): every chapter's "Previous" and "Next" links and its
    # section list move from /pages/org/book/ to /; the first chapter's "Previous" is the root.
    repo = make_repo(tmp_path / "site")

    def book(base: str) -> dict[str, str | bytes | None]:
        host = "https://book.example/"
        files: dict[str, str | bytes | None] = {}
        for n in range(6):
            back = f"{host}{base}" if n == 0 else f"{host}{base}docs/c{n - 1}/"
            files[f"docs/c{n}/index.html"] = page(
                f"<h1>Chapter {n}</h1><ul><li><a href='{host}{base}docs/c{n}/s1.html'>One</a></li>"
                f"</ul><p>Own text {n}.</p><div><a href='{back}'>Previous</a></div>"
                f"<div><a href='{host}{base}docs/c{n + 1}/'>Next</a></div>"
            )
        return files

    commit(repo, book("pages/org/book/"), DAY1)
    commit(repo, book(""), DAY2)
    assert set(dated(repo).values()) == {unix(DAY1)}


def test_a_block_on_most_pages_is_repeated_also_where_few_articles_hold_it(
    tmp_path: Path,
) -> None:
    # Octopress (dblohm7): the blog's masthead stands on every page, outside each post's one
    # <article> but inside a category page's reading (its nested teaser articles make the
    # body its article); a new subtitle on every page is the template's, not the categories'.
    repo = make_repo(tmp_path / "site")

    def octopress(subtitle: str, heading: str = "Category") -> dict[str, str | bytes | None]:
        head = (
            '<!doctype html><html><head><title>Blog</title></head><body><header role="banner">'
            f'<hgroup><h1><a href="/">A Blog</a></h1><h2>Notes from the {subtitle} team</h2>'
            '</hgroup></header><nav role="navigation"><a href="/">Blog</a></nav>'
            '<div id="main"><div id="content">'
        )
        files: dict[str, str | bytes | None] = {}
        for n in range(4):
            files[f"blog/post{n}/index.html"] = (
                head + f"<article><h1>Post {n}</h1><p>Words of post {n}.</p></article>"
                "</div></div></body></html>"
            )
        for name in ("tools", "news"):
            teasers = "".join(
                f'<article><h1><a href="/blog/post{n}/">Post {n}</a></h1></article>'
                for n in range(2)
            )
            files[f"blog/categories/{name}/index.html"] = (
                head + f'<article role="article"><header><h1>{heading}: {name}</h1></header>'
                f"<div>{teasers}</div></article></div></div></body></html>"
            )
        return files

    commit(repo, octopress("platform"), DAY1)
    commit(repo, octopress("browser"), DAY2)
    files = octopress("browser")
    files["blog/categories/news/index.html"] = octopress("browser", "Topic")[
        "blog/categories/news/index.html"
    ]
    commit(repo, files, DAY3)  # (one category's own heading: its own change)
    dates = dated(repo)
    assert dates["blog/categories/tools/index.html"] == unix(DAY1)
    assert dates["blog/categories/news/index.html"] == unix(DAY3)
    assert {dates[f"blog/post{n}/index.html"] for n in range(4)} == {unix(DAY1)}


def test_a_title_part_that_stands_in_the_article_only_inside_a_word_is_not_its_own(
    tmp_path: Path,
) -> None:
    # Sphinx (spyder-docs): "Perfilador — documentación de Spyder - 5" became "... - 6" on
    # every page of the version; the article holds "5" and "6" only inside "2015" and "x86".
    repo = make_repo(tmp_path / "site")

    def docs(release: str) -> dict[str, str | bytes | None]:
        return {
            f"es/p{n}.html": (
                f"<!doctype html><html><head><title>Tema {n} — documentación - {release}</title>"
                f"</head><body><main><h1>Tema {n}</h1><p>Desde 2015, en x86.</p></main></body>"
                "</html>"
            )
            for n in range(2)
        }

    commit(repo, docs("5"), DAY1)
    commit(repo, docs("6"), DAY2)
    assert set(dated(repo).values()) == {unix(DAY1)}
    assert oracle.own_title("Tema 1 — documentación - 6", "Tema 1 Desde 2015, en x86.") == (
        "6 | Tema 1"  # (version 5's reading, kept: a part inside a word counts there)
    )


def test_a_title_edit_made_alike_on_most_changed_pages_is_template(tmp_path: Path) -> None:
    # Sphinx (spyder-docs): "... — Spyder 5 documentation" and "... — documentación de Spyder
    # - 5" made "6" on every page of the version, in one deploy; the article says "precision=5"
    # and "6%", so the release number stands in it as a word.
    repo = make_repo(tmp_path / "site")

    def docs(release: str, own: str = "Tema") -> dict[str, str | bytes | None]:
        files: dict[str, str | bytes | None] = {}
        for n in range(6):
            title = f"{own} {n} — Spyder {release} documentation"
            if n % 2:
                title = f"{own} {n} — documentación de Spyder - {release}"
            files[f"current/p{n}.html"] = (
                f"<!doctype html><html><head><title>{title}</title></head><body><main>"
                f"<h1>{own} {n}</h1><p>{n}: precision=5; it grew 6%.</p></main></body></html>"
            )
        return files

    commit(repo, docs("5"), DAY1)
    commit(repo, docs("6"), DAY2)
    files = docs("6")
    files["current/p1.html"] = docs("5")["current/p1.html"]  # (on one page: its own edit)
    commit(repo, files, DAY3)
    dates = dated(repo)
    assert dates["current/p1.html"] == unix(DAY3)
    assert {dates[f"current/p{n}.html"] for n in (0, 2, 3, 4, 5)} == {unix(DAY1)}
