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


def test_a_navigation_tree_whose_entries_stand_on_most_pages_is_the_sites(tmp_path: Path) -> None:
    # Lektor's docs: a sidebar tree (no <nav>, beside the article in <body>) lists the
    # site's sections on every page and opens the page's own; a new page of one section adds
    # its entry there, on few of the site's pages (it is no block most pages repeat).
    def tree(section: str, extra: str) -> str:
        top = "".join(f'<li><a href="/docs/{name}/">{name}</a></li>' for name in TOPICS)
        inner = f'<ul><li><a href="/docs/{section}/a/">A</a></li>{extra}</ul>'
        open_ = f'<li><a href="/docs/{section}/">{section}</a>{inner}</li>'
        return f'<div class="col-3"><ul class="tree-nav">{top}{open_}</ul></div>'

    def docs(extra: str, own: str = "") -> dict[str, str | bytes | None]:
        files: dict[str, str | bytes | None] = {}
        for n in range(12):
            section = "db" if n < 5 else "cli"
            text = f"<h1>Page {n}</h1><p>Own text {n}.{own if n == 0 else ''}</p>"
            body = (
                tree(section, extra if section == "db" else "") + f'<div class="col-9">{text}</div>'
            )
            files[f"docs/{section}/p{n}/index.html"] = (
                f"<!doctype html><html><head><title>P{n}</title></head><body>{body}</body></html>"
            )
        return files

    repo = make_repo(tmp_path / "site")
    commit(repo, docs(""), DAY1)
    files = docs('<li><a href="/docs/db/asset/">Asset</a></li>', own=" Amended")
    files["docs/cli/p5/index.html"] = str(files["docs/cli/p5/index.html"]).replace("5.", "5!")
    commit(repo, files, DAY2)  # the entry on the 5 pages of db/ (one with its own words too)
    dates = dated(repo)
    assert {dates[f"docs/db/p{n}/index.html"] for n in range(1, 5)} == {unix(DAY1)}
    assert dates["docs/db/p0/index.html"] == unix(DAY2)  # (its own words beside the entry)
    assert dates["docs/cli/p5/index.html"] == unix(DAY2)
    assert dates["docs/cli/p6/index.html"] == unix(DAY1)


TOPICS = ("welcome", "install", "quickstart", "project", "content")


def test_a_list_of_own_entries_stays_content(tmp_path: Path) -> None:
    # Nikola's category pages: each lists its posts, an entry on a few pages only; a new
    # post listed is content (decision 2), though most pages the commit changed list it.
    def listing(posts: int) -> dict[str, str | bytes | None]:
        entries = "".join(f'<li><a href="/posts/p{n}/">Post {n}</a></li>' for n in range(posts))
        files = {
            f"categories/c{n}/index.html": page(f"<h1>C{n}</h1><ul>{entries}</ul>")
            for n in range(4)
        }
        files.update({f"tags/t{n}/index.html": page(f"<h1>Tag {n}</h1>") for n in range(6)})
        return files

    repo = make_repo(tmp_path / "site")
    commit(repo, listing(5), DAY1)
    commit(repo, listing(6), DAY2)
    dates = dated(repo)
    assert {dates[f"categories/c{n}/index.html"] for n in range(4)} == {unix(DAY2)}
    assert {dates[f"tags/t{n}/index.html"] for n in range(6)} == {unix(DAY1)}


def test_a_release_number_bumped_in_every_title_and_in_some_source_links_is_template(
    tmp_path: Path,
) -> None:
    # Python-Markdown: "Update documentation" bumps 3.10.2 to 3.10.3 in every page's title and
    # breadcrumb, and in the source links (tree/3.10.2/...) of the API reference pages only,
    # a few of the pages it changed.
    def docs(release: str, own: str = "") -> dict[str, str | bytes | None]:
        files: dict[str, str | bytes | None] = {}
        for n in range(8):
            link = f"https://git.example/proj/tree/{release}/proj/m{n}{own if n == 2 else ''}.py"
            source = f'<a class="doc-source-link" href="{link}">src</a>' if n < 3 else ""
            files[f"p{n}/index.html"] = (
                f"<!doctype html><html><head><title>Page {n} — Proj {release} documentation"
                f'</title></head><body><div class="related" role="navigation"><a href="/">Proj '
                f'{release} documentation</a></div><div class="body" role="main"><h1>Page {n}'
                f"{source}</h1>"
                f"<p>Own text {n}.</p></div></body></html>"
            )
        return files

    repo = make_repo(tmp_path / "site")
    commit(repo, docs("3.10.2"), DAY1)
    commit(repo, docs("3.10.3", own="_new"), DAY2)  # p2's link also points elsewhere
    dates = dated(repo)
    assert {dates[f"p{n}/index.html"] for n in (0, 1, 3, 4, 5, 6, 7)} == {unix(DAY1)}
    assert dates["p2/index.html"] == unix(DAY2)


def test_a_word_replaced_alike_in_most_changed_pages_articles_is_template(tmp_path: Path) -> None:
    # Nikola: every post's closing "...PIP!" made "...SQUEAK!" in one commit (the posts and
    # the index listing them: every page the commit changed).
    def post(n: int, word: str, own: str = "") -> str:
        return (
            f'<div class="e-content entry-content"><p>Post {n} text.{own}</p>'
            f"<p>...<strong>{word}</strong>!</p></div>"
        )

    repo = make_repo(tmp_path / "site")
    tags = {f"tags/t{n}/index.html": page(f"<h1>Tag {n}</h1>") for n in range(8)}  # (unchanged)
    posts = {f"posts/p{n}/index.html": page(post(n, "PIP")) for n in range(6)}
    commit(repo, {**tags, **posts}, DAY1)  # (the closing line: on 6 of the 14 pages)
    files = {f"posts/p{n}/index.html": page(post(n, "SQUEAK")) for n in range(6)}
    files["posts/p5/index.html"] = page(post(5, "SQUEAK", own=" Fixed."))
    commit(repo, files, DAY2)
    dates = dated(repo)
    assert {dates[f"posts/p{n}/index.html"] for n in range(5)} == {unix(DAY1)}
    assert dates["posts/p5/index.html"] == unix(DAY2)


def test_a_block_added_to_most_pages_a_commit_changed_is_template(tmp_path: Path) -> None:
    # Nikola: a comments section (a heading, a link to the page's own thread, the service's
    # credit) added to every post, the posts few of the site's pages (no block most repeat).
    def post(n: int, comments: bool, own: str = "") -> str:
        thread = f'<p class="commentline"><a href="/posts/p{n}/#thread">Comments</a></p>'
        section = '<section><h2>Comments</h2><a href="https://talk.example/">Powered by Talk</a>'
        return f"<h1>Post {n}</h1>{thread if comments else ''}<p>Text {n}.{own}</p>" + (
            f"{section}</section>" if comments else ""
        )

    repo = make_repo(tmp_path / "site")
    tags = {f"tags/t{n}/index.html": page(f"<h1>Tag {n}</h1>") for n in range(8)}  # (unchanged)
    commit(
        repo, {**tags, **{f"posts/p{n}/index.html": page(post(n, False)) for n in range(5)}}, DAY1
    )
    files = {f"posts/p{n}/index.html": page(post(n, True)) for n in range(5)}
    files["posts/p4/index.html"] = page(post(4, True, own=" Fixed."))
    commit(repo, files, DAY2)
    dates = dated(repo)
    assert {dates[f"posts/p{n}/index.html"] for n in range(4)} == {unix(DAY1)}
    assert dates["posts/p4/index.html"] == unix(DAY2)


def test_targets_in_a_new_order_are_content(tmp_path: Path) -> None:
    # Lektor's showcase: each page's slides (images, no text) in a new order, on every page
    # the commit changed: a reorder names no edit, and it is never the template's.
    def shows(order: list[int]) -> dict[str, str | bytes | None]:
        files: dict[str, str | bytes | None] = {
            f"tags/t{n}/index.html": page(f"<h1>Tag {n}</h1>") for n in range(8)
        }
        for n in range(5):
            slides = "".join(f'<div><img src="s{n}-{k}.png"></div>' for k in order)
            files[f"showcase/s{n}/index.html"] = page(f"<h1>Show {n}</h1>{slides}")
        return files

    repo = make_repo(tmp_path / "site")
    commit(repo, shows([0, 1, 2]), DAY1)
    commit(repo, shows([2, 0, 1]), DAY2)
    dates = dated(repo)
    assert {dates[f"showcase/s{n}/index.html"] for n in range(5)} == {unix(DAY2)}


def test_a_post_renamed_on_the_lists_that_link_to_it_is_content(tmp_path: Path) -> None:
    # Hexo: a post's title changed; its commit re-renders the post and the four lists that
    # link to it under that title (most of the pages it changed): the post and the lists
    # changed (decision 2: a list's content is which pages it lists under which titles).
    def build(title: str) -> dict[str, str | bytes | None]:
        entry = f'<li><a href="/2018/post/">{title}</a></li>'
        files: dict[str, str | bytes | None] = {
            f"{name}/index.html": page(f"<h1>{name}</h1><ul>{entry}<li>Other</li></ul>")
            for name in ("archives", "categories/pay", "tags/pay", "home")
        }
        files["2018/post/index.html"] = page(f"<h1>{title}</h1><p>Text.</p>")
        files.update({f"about/a{n}/index.html": page(f"<h1>About {n}</h1>") for n in range(6)})
        return files

    repo = make_repo(tmp_path / "site")
    commit(repo, build("Payments-notes"), DAY1)
    commit(repo, build("Payments-and-H5-notes"), DAY2)
    dates = dated(repo)
    assert dates["2018/post/index.html"] == unix(DAY2)
    assert dates["archives/index.html"] == unix(DAY2)
    assert dates["about/a0/index.html"] == unix(DAY1)


def list_page(rank: int, posts: list[str]) -> str:
    """A Hexo NexT archive page: one teaser per post, its title in its article's header, in
    an ``<h{rank}>``, beside its date."""
    teasers = "".join(
        f"<article><header><h{rank}><a href='/{post}/'>{post}</a></h{rank}>"
        f"<div class=meta><time>01-0{n}</time></div></header></article>"
        for n, post in enumerate(posts)
    )
    return (
        "<!doctype html><html><head><title>Archive</title></head><body>"
        f"<main><section><h1>Archive</h1>{teasers}</section></main></body></html>"
    )


def test_a_teasers_headline_block_is_content_whatever_its_heading(tmp_path: Path) -> None:
    # Which pages a list page lists, under which titles, is content (decision 2); the rank of
    # the heading that says so is no text a reader sees (Hexo NexT: <h1> made an <h2>).
    repo = make_repo(tmp_path)
    commit(repo, {"a/index.html": list_page(1, ["one"])}, DAY1, "one")
    commit(repo, {"a/index.html": list_page(2, ["one"])}, DAY2, "h2")
    commit(repo, {"b/index.html": list_page(2, ["one"])}, DAY2, "b")
    commit(repo, {"b/index.html": list_page(2, ["one", "two"])}, DAY3, "two")
    assert dated(repo) == {"a/index.html": unix(DAY1), "b/index.html": unix(DAY3)}


# Teasers (the dates issue, decision 2), shaped like Hugo PaperMod's home page and posts: the
# entries link by absolute addresses on the host the canonical names.
HOST = "https://blog.example/"
POSTS = {
    "alpha": "Gradient descent walks downhill one small step at a time until the slope is flat.",
    "beta": "A bigram model counts which letter follows which and samples from those counts.",
    "gamma": "Attention lets every token look at every other token before it speaks.",
}


def post(name: str, text: str, related: str = "") -> str:
    return (
        f'<!doctype html><html><head><title>{name} | Blog</title><link rel="canonical" '
        f'href="{HOST}posts/{name}/"></head><body><main><article class="post-single">'
        f'<header class="post-header"><h1>{name}</h1><div class="post-meta">March 13, 2023'
        f'&nbsp;·&nbsp;2 min</div></header><div class="post-content"><p>{text}</p>'
        f"<p>More of {name}'s own words, which the excerpt does not reach, and then some more "
        "of them to make a post longer than its excerpt.</p></div></article>"
        f"{related}</main></body></html>"
    )


def entry(name: str, text: str) -> str:
    return (
        f'<article class="post-entry"><header class="entry-header"><h2>{name}</h2></header>'
        f'<div class="entry-content"><p>{text[:50]}...</p></div><footer class="entry-footer">'
        f'<span>March 13, 2023</span>&nbsp;·&nbsp;2 min</footer><a class="entry-link" '
        f'aria-label="post link to {name}" href="{HOST}posts/{name}/"></a></article>'
    )


def home(posts: dict[str, str], intro: str = "Welcome to my notes.") -> str:
    entries = "".join(entry(name, text) for name, text in posts.items())
    return (
        f'<!doctype html><html><head><title>Blog</title><link rel="canonical" href="{HOST}">'
        '</head><body><main><article class="first-entry home-info"><header class="entry-header">'
        f'<h1>Hi</h1></header><div class="entry-content">{intro}</div></article>{entries}'
        "</main></body></html>"
    )


def blog(
    posts: dict[str, str], intro: str = "Welcome to my notes."
) -> dict[str, str | bytes | None]:
    files: dict[str, str | bytes | None] = {"index.html": home(posts, intro)}
    files.update({f"posts/{n}/index.html": post(n, text) for n, text in posts.items()})
    return files


def test_a_teaser_excerpt_changed_with_its_post_keeps_the_list_page_date(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    commit(repo, blog(POSTS), DAY1)
    edited = POSTS | {"beta": "A trigram model counts which two letters come before the next."}
    commit(repo, blog(edited), DAY2)  # the post changed, and so did its excerpt on the home page
    dates = dated(repo)
    assert dates["posts/beta/index.html"] == unix(DAY2)
    assert dates["index.html"] == unix(DAY1)  # (the excerpt is the post's, dated by the post)


def test_a_list_page_that_lists_one_more_page_moves(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    two = {name: POSTS[name] for name in ("alpha", "beta")}
    commit(repo, blog(two), DAY1)
    commit(repo, blog(POSTS), DAY2)  # gamma is new, and listed
    dates = dated(repo)
    assert dates["index.html"] == unix(DAY2)
    assert dates["posts/alpha/index.html"] == unix(DAY1)


def test_a_list_page_own_intro_moves_it(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    commit(repo, blog(POSTS), DAY1)
    commit(repo, blog(POSTS, intro="Welcome to my notes on machine learning."), DAY2)
    assert dated(repo)["index.html"] == unix(DAY2)


def related(*names: str) -> str:
    teasers = "".join(
        f'<article class="teaser"><h3><a href="/posts/{n}/">{n}</a></h3>'
        f"<p>{POSTS[n][:40]}…</p><time>2023-03-13</time></article>"
        for n in names
    )
    return f'<section class="related"><h2>Related</h2>{teasers}</section>'


def test_a_related_posts_panel_beside_a_post_is_furniture(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    files = blog(POSTS)
    files["posts/alpha/index.html"] = post("alpha", POSTS["alpha"], related("beta"))
    commit(repo, files, DAY1)
    files["posts/alpha/index.html"] = post("alpha", POSTS["alpha"], related("gamma", "beta"))
    commit(repo, files, DAY2)  # the panel lists another post: the post says nothing new
    assert dated(repo)["posts/alpha/index.html"] == unix(DAY1)


def test_a_list_page_that_lists_its_pages_in_another_order_moves(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    commit(repo, blog(POSTS), DAY1)
    files = blog(POSTS)
    files["index.html"] = home(dict(reversed(POSTS.items())))  # (a post's date was corrected)
    commit(repo, files, DAY2)
    assert dated(repo)["index.html"] == unix(DAY2)


def series(posts: dict[str, str]) -> str:
    """A section's list page (PaperMod's): its headline in a header, then its entries."""
    entries = "".join(entry(name, text) for name, text in posts.items())
    return (
        f'<!doctype html><html><head><title>Series</title><link rel="canonical" href="{HOST}'
        'series/"></head><body><main><header class="page-header"><h1>Series</h1></header>'
        f"{entries}</main></body></html>"
    )


def test_a_list_of_one_teaser_is_read_as_a_teaser(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    one = {"beta": POSTS["beta"]}
    files = blog(POSTS)
    files["series/index.html"] = series(one)
    commit(repo, files, DAY1)
    edited = {"beta": "A trigram model counts which two letters come before the next."}
    files = blog(POSTS | edited)
    files["series/index.html"] = series(edited)
    commit(repo, files, DAY2)  # its only entry (the page's one <article>) changed with its post
    assert dated(repo)["series/index.html"] == unix(DAY1)


# Minimal Mistakes: the site's article is ``.page__content``; a post's reading time stands in
# its header, outside it, and a list's entry repeats it beside the post's description.
CONTENT = "//*[contains(concat(' ', normalize-space(@class), ' '), ' page__content ')]"


def mm_post(name: str, text: str, minutes: int) -> str:
    return (
        f'<!doctype html><html><head><title>{name}</title><meta name="description" '
        f'content="{text}"></head><body><div id="main"><article class="page"><header>'
        f'<h1 class="page__title">{name}</h1><p class="page__meta"><span>{minutes} minute read'
        f'</span></p></header><section class="page__content"><p>{text} And more besides.</p>'
        "</section></article></div></body></html>"
    )


def mm_list(posts: dict[str, tuple[str, int]]) -> str:
    items = "".join(
        f'<div class="list__item"><article class="archive__item"><h2 class="archive__item-title">'
        f'<a href="/{n}/">{n}</a></h2><p class="page__meta"><span>{minutes} minute read</span>'
        f'</p><p class="archive__item-excerpt">{text}</p></article></div>'
        for n, (text, minutes) in posts.items()
    )
    return (
        "<!doctype html><html><head><title>Blog</title></head><body><div id='main'>"
        f'<section class="page__content"><h3>Recent posts</h3>{items}</section></div></body></html>'
    )


def test_a_teaser_metadata_may_stand_outside_the_teased_page_article(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    posts = {name: (text, 2) for name, text in POSTS.items()}
    files = {f"{n}/index.html": mm_post(n, text, m) for n, (text, m) in posts.items()}
    commit(repo, files | {"blog/index.html": mm_list(posts)}, DAY1)
    posts["beta"] = ("A bigram model, now with smoothing, counts letter pairs.", 3)
    files = {f"{n}/index.html": mm_post(n, text, m) for n, (text, m) in posts.items()}
    commit(repo, files | {"blog/index.html": mm_list(posts)}, DAY2)
    dates = {p: v.time for p, v in oracle.date_pages(repo, CONTENT, "v6").items()}
    assert dates["beta/index.html"] == unix(DAY2)
    assert dates["blog/index.html"] == unix(DAY1)  # (its excerpt and reading time are beta's)


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


def described(article: str, *descriptions: str) -> str:
    """A page whose head holds ``descriptions`` (each a meta tag's content)."""
    metas = "".join(f'<meta name="description" content="{text}">' for text in descriptions)
    return page(article).replace("<title>", f"{metas}<title>", 1)


def test_a_description_changed_alone_is_content(tmp_path: Path) -> None:
    # The issue measures a page against the last commit that changed "its article's visible
    # text, its description or its own link targets" (qingwave: descriptions given to 7 posts).
    repo = make_repo(tmp_path / "site")
    files = {f"p{n}/index.html": described(f"<p>Text {n}.</p>", f"About {n}") for n in range(6)}
    commit(repo, files, DAY1)
    commit(repo, {"p0/index.html": described("<p>Text 0.</p>", "All about zero")}, DAY2)
    dates = dated(repo)
    assert dates["p0/index.html"] == unix(DAY2)
    assert dates["p1/index.html"] == unix(DAY1)


def test_a_description_written_twice_says_nothing_new(tmp_path: Path) -> None:
    # A theme upgrade that drops a second, identical description (or adds Open Graph's copy).
    repo = make_repo(tmp_path / "site")
    commit(repo, {"p0/index.html": described("<p>Text.</p>", "About", "About")}, DAY1)
    og = described("<p>Text.</p>", "About").replace(
        "<title>", '<meta property="og:description" content="About"><title>', 1
    )
    commit(repo, {"p0/index.html": og}, DAY2)
    assert dated(repo)["p0/index.html"] == unix(DAY1)


def test_a_description_changed_alike_on_most_changed_pages_is_template(tmp_path: Path) -> None:
    # The site's own description, on every page without one of its own, rewritten in one
    # commit; one page also given its own text.
    repo = make_repo(tmp_path / "site")
    commit(
        repo, {f"p{n}/index.html": described(f"<p>T {n}.</p>", "My site") for n in range(6)}, DAY1
    )
    files = {f"p{n}/index.html": described(f"<p>T {n}.</p>", "My notes") for n in range(6)}
    files["p5/index.html"] = described("<p>T 5, fixed.</p>", "My notes")
    commit(repo, files, DAY2)
    dates = dated(repo)
    assert {dates[f"p{n}/index.html"] for n in range(5)} == {unix(DAY1)}
    assert dates["p5/index.html"] == unix(DAY2)


# Previous/next links (the dates issue, decision 2: teasers beside a post are furniture), shaped
# like Hexo Redefine's post foot: the link holds the neighbour's title and a "previous" word,
# its rel names it; a neighbour published later adds the link to a post that says nothing new.
def neighbour_link(rel: str, name: str, word: str) -> str:
    return (
        f'<div class="post-{rel}"><a class="{rel}" rel="{rel}" href="/posts/{name}/"><span '
        f'class="icon"><i class="fa-solid fa-chevron-left"></i> </span><span class="title"><span>'
        f"{name}</span> <span>{word}</span></span></a></div>"
    )


def sequence_post(name: str, before: str | None, after: str | None) -> str:
    links = "".join(
        neighbour_link(rel, other, word)
        for rel, other, word in (("prev", after, "Newer"), ("next", before, "Older"))
        if other is not None
    )
    return (
        f"<!doctype html><html><head><title>{name} | Notes</title></head><body><main><article>"
        f"<h1>{name}</h1><p>{POSTS.get(name, 'A note on ' + name)}</p>"
        f'<div class="post-nav">{links}</div></article></main></body></html>'
    )


def test_a_neighbour_link_named_by_its_rel_is_furniture(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    names = ["alpha", "beta", "gamma"]
    files: dict[str, str | bytes | None] = {
        f"posts/{n}/index.html": sequence_post(n, names[i - 1] if i else None, None)
        for i, n in enumerate(names[:2])
    }
    commit(repo, files, DAY1)
    files = {
        f"posts/{n}/index.html": sequence_post(
            n, names[i - 1] if i else None, names[i + 1] if i < 2 else None
        )
        for i, n in enumerate(names)
    }
    commit(repo, files, DAY2)  # gamma published: beta's foot now names it as its neighbour
    dates = dated(repo)
    assert dates["posts/beta/index.html"] == unix(DAY1)
    assert dates["posts/gamma/index.html"] == unix(DAY2)


def test_an_edit_of_words_moved_about_made_alike_on_most_changed_pages_is_template(
    tmp_path: Path,
) -> None:
    # Hakyll: a post's summary (front matter, shown on the archive and tag lists only, nowhere
    # in the post) reworded in one commit; the lists are every page it changed. The same edit
    # (the words it took out and put in) on each: the template's, however its words moved;
    # a list whose own edit stands beside it changed. ("contents" stood in each list before:
    # no word is replaced by one other; the entry stands on fewer than half of the pages.)
    def build(summary: str, own: str = "") -> dict[str, str | bytes | None]:
        entry = (
            '<li><a href="/posts/rose-trees.html">Writing rose trees</a> - <em>May 23, 2014'
            f"</em><br />{summary}</li><li>{{name}}: the list's contents{{own}}</li>"
        )
        files: dict[str, str | bytes | None] = {
            f"{name}.html": page(
                f"<h1>{name}</h1><ul>"
                + entry.format(name=name, own=own if name == "tags/tree" else "")
                + "</ul>"
            )
            for name in ("archive", "tags/dsl", "tags/haskell", "tags/tree", "tags/data")
        }
        files["posts/rose-trees.html"] = page("<h1>Writing rose trees</h1><p>Code.</p>")
        files.update({f"posts/p{n}.html": page(f"<h1>Post {n}</h1>") for n in range(6)})
        return files

    repo = make_repo(tmp_path / "site")
    commit(repo, build("Showing two syntaxes to write rose tree data"), DAY1)
    commit(repo, build("Showing two ways to write contents of rose tree", own=" (fixed)"), DAY2)
    dates = dated(repo)
    assert dates["archive.html"] == unix(DAY1)
    assert dates["tags/dsl.html"] == unix(DAY1)
    assert dates["tags/tree.html"] == unix(DAY2)


def test_a_date_equal_to_its_commit_date_is_a_stamp(tmp_path: Path) -> None:
    # bookdown: the book's home page says which CI build made it, "built ... on <the deploy's
    # date>"; what the commit knows of itself is no content (the dates issue's principle),
    # wherever it stands and whatever its label. A date that is not the commit's stays.
    def build(when: str, edition: str) -> dict[str, str | bytes | None]:
        files = site(6, "")
        files["index.html"] = page(
            f"<h1>Welcome</h1><p>The online version of this book was built by CI on {when}. "
            f"It is the {edition} edition.</p>"
        )
        return files

    repo = make_repo(tmp_path / "site")
    commit(repo, build("2024-01-01", "second, of 2023-12-02"), DAY1)
    commit(repo, build("2024-02-01", "second, of 2023-12-02"), DAY2)  # the stamp alone
    assert dated(repo)["index.html"] == unix(DAY1)
    commit(repo, build("2024-03-01", "second, of 2023-12-03"), DAY3)  # and a date of its own
    assert dated(repo)["index.html"] == unix(DAY3)


def test_a_generator_footer_of_its_deploy_time_and_release_is_no_edit(tmp_path: Path) -> None:
    # YARD (octokit.rb, heldout91): every page ends "Generated on <the deploy's time, C's
    # asctime, each page its own second> by yard 0.9.9 (ruby-2.4.1)."; a deploy made it
    # "... 0.9.16 (ruby-2.5.1)." on every page: the stamps and the template's release swap at
    # once, on a page whose own words did not change, moved 62 of 104 pages' dates (issue 79).
    # The stamp's parts swapped alike on most pages ("Jun 15" made "Aug 30") are the stamp's,
    # not replaced inside another page's words (a listing's line numbers "14 15 16").
    def build(when: str, step: int, release: str, own: str) -> dict[str, str | bytes | None]:
        clock, year = when.rsplit(" ", 1)  # (the seconds, each page its own, go between)
        return {
            f"p{n}.html": (
                f"<!doctype html><html><head><title>P{n}</title></head><body>"
                f"<h1>Class P{n}</h1><p>Raised when {n} {own if n == 0 else 'fails'}.</p>"
                + ("<pre>14 15 16 def p1</pre>" if n == 1 else "")
                + f'<div id="footer">Generated on {clock}:{10 + step * n:02d} {year} by '
                f'<a href="http://yardoc.org">yard</a> {release}.</div></body></html>'
            )
            for n in range(6)
        }

    first, second = "2017-06-15T10:37:00", "2018-08-30T11:17:00"
    repo = make_repo(tmp_path / "site")
    commit(repo, build("Thu Jun 15 10:37 2017", 1, "0.9.9 (ruby-2.4.1)", "fails"), first)
    commit(repo, build("Thu Aug 30 11:17 2018", 7, "0.9.16 (ruby-2.5.1)", "fails."), second)
    dates = dated(repo)
    assert dates["p1.html"] == unix(first)  # the footer alone: the deploy's and the template's
    assert dates["p2.html"] == unix(first)
    assert dates["p0.html"] == unix(second)  # and its own words beside it


def test_a_block_the_template_added_that_a_page_had_before_is_no_edit_of_it(
    tmp_path: Path,
) -> None:
    # Octopress: a deploy gave most of the category pages it re-rendered a year heading
    # ("2015") above their first post, and bumped every footer's year; one category page had
    # that heading already. Its heading is neither removed nor added: the page did not change.
    def build(year: int, headed: range) -> dict[str, str | bytes | None]:
        return {
            f"categories/c{n}/index.html": page(
                f"<h1>Category {n}</h1>{'<h2>2015</h2>' if n in headed else ''}"
                f'<p>Post {n} of the year, in the category.</p><p class="copy">© {year} Me</p>'
            )
            for n in range(14)
        }

    repo = make_repo(tmp_path / "site")
    commit(repo, build(2016, range(5, 6)), DAY1)
    files = build(2017, range(6))
    commit(repo, {path: files[path] for path in list(files)[:6]}, DAY2)  # re-renders c0..c5
    dates = dated(repo)
    assert dates["categories/c5/index.html"] == unix(DAY1)
    assert dates["categories/c0/index.html"] == unix(DAY1)


def test_a_year_over_a_list_of_one_post_is_that_post_date(tmp_path: Path) -> None:
    # Octopress: a category page lists its one post under the year heading of its date; the
    # post began showing that date only later. The year is the post's date, read alike in the
    # version before and after (a deploy that changed the masthead's tagline on every page,
    # and the list's sidebar: the list's body, no single <article>, is its article).
    def octopress(tagline: str, body: str) -> str:
        return (
            "<!doctype html><html><head><title>Notes</title></head><body><header "
            f'role="banner"><hgroup><h1><a href="/">Notes</a></h1><h2>{tagline}</h2></hgroup>'
            f'</header><div id="main"><article role="article">{body}</article></div></body></html>'
        )

    def build(dated_post: bool, tagline: str, recent: str) -> dict[str, str | bytes | None]:
        when = "<p class='meta'><time>Mar 12th, 2015</time></p>" if dated_post else ""
        files: dict[str, str | bytes | None] = {
            "blog/categories/win32/index.html": octopress(
                tagline,
                "<header><h1>Category: Win32</h1></header><div class='archives'><h2>2015</h2>"
                "<article><h1><a href='/blog/2015/03/12/wait/'>Waiting Considered Harmful</a>"
                "</h1><time><span>Mar</span> <span>12</span> <span>2015</span></time>"
                f"</article></div><aside><a href='/blog/p0/'>{recent}</a></aside>",
            ),
            "blog/2015/03/12/wait/index.html": octopress(
                tagline,
                f"<header><h1>Waiting Considered Harmful</h1>{when}</header>"
                "<p>Why a message loop should not wait that way.</p>",
            ),
        }
        files.update(
            {f"blog/p{n}/index.html": octopress(tagline, f"<h1>Post {n}</h1>") for n in range(6)}
        )
        return files

    repo = make_repo(tmp_path / "site")
    commit(repo, build(False, "Notes of a desktop team", "Older notes"), DAY1)
    commit(repo, build(True, "Notes of a platform team", "Newer notes"), DAY2)  # (its sidebar)
    assert dated(repo)["blog/categories/win32/index.html"] == unix(DAY1)


def test_whether_a_page_has_its_own_text_beside_its_teasers_leaves_out_what_the_site_repeats(
    tmp_path: Path,
) -> None:
    # Octopress: a category page's body (its article) holds the site's masthead, its headline
    # and two teasers; a deploy shortened the masthead on every page. The list's own text
    # never outweighed its teasers: the masthead is the site's, not the page's.
    def octopress(masthead: str, body: str) -> str:
        return (
            "<!doctype html><html><head><title>Notes</title></head><body><header "
            f'role="banner"><hgroup><h1><a href="/">{masthead}</a></h1></hgroup></header>'
            f'<div id="main"><article role="article">{body}</article></div></body></html>'
        )

    def teaser(slug: str, title: str) -> str:
        return (
            f"<article><h1><a href='/blog/{slug}/'>{title}</a></h1><time><span>Aug</span> "
            "<span>21</span> <span>2014</span></time></article>"
        )

    def build(masthead: str) -> dict[str, str | bytes | None]:
        files: dict[str, str | bytes | None] = {
            "blog/categories/features/index.html": octopress(
                masthead,
                "<header><h1>Category: Features</h1></header><div class='archives'>"
                + teaser("unlock", "Unlocking profiles on Windows")
                + teaser("hang", "A hang interface for plugins")
                + "</div>",
            )
        }
        for slug, title in (("unlock", "Unlocking profiles on Windows"), ("hang", "A hang ui")):
            files[f"blog/{slug}/index.html"] = octopress(
                masthead, f"<h1>{title}</h1><p>Aug 21st, 2014</p><p>What {slug} does.</p>"
            )
        files.update(
            {f"blog/p{n}/index.html": octopress(masthead, f"<h1>Post {n}</h1>") for n in range(6)}
        )
        return files

    repo = make_repo(tmp_path / "site")
    commit(repo, build("Notes of a long-serving member of the desktop performance team"), DAY1)
    commit(repo, build("A former engineer's notes"), DAY2)
    assert dated(repo)["blog/categories/features/index.html"] == unix(DAY1)


def test_a_whole_post_on_the_home_page_with_its_own_links_is_a_teaser(tmp_path: Path) -> None:
    # Octopress: the home page shows each recent post whole, its links to other sites too; a
    # post's update (a paragraph with a link) is the post's, and the home page's copy of it is
    # what another page says (decision 2), dated by the post.
    def body(n: int, update: str) -> str:
        return (
            f"<p>Post {n} tells how <a href='https://docs.example/api{n}'>an API</a> "
            f"misbehaves when it is called synchronously.</p><p>Until next time.</p>{update}"
        )

    def whole(n: int, update: str) -> str:
        return (
            f"<article><header><h1 class='entry-title'><a href='/blog/post{n}/'>Post number {n}"
            f"</a></h1><p class='meta'><time>May 6th, 2022</time> | <a href='/blog/post{n}/"
            f"#comments'>Comments</a></p></header><div class='entry-content'>{body(n, update)}"
            "</div></article>"
        )

    def build(update: str) -> dict[str, str | bytes | None]:
        files: dict[str, str | bytes | None] = {
            "index.html": page(whole(1, update) + whole(2, ""))
            .replace("<main><article>", "<main><div>")
            .replace("</article></main>", "</div></main>"),
        }
        for n, extra in ((1, update), (2, "")):
            files[f"blog/post{n}/index.html"] = page(
                f"<header><h1>Post number {n}</h1><p>May 6th, 2022</p></header>{body(n, extra)}"
            )
        files.update({f"blog/p{n}/index.html": page(f"<h1>Other {n}</h1>") for n in range(6)})
        return files

    repo = make_repo(tmp_path / "site")
    commit(repo, build(""), DAY1)
    update = "<p>UPDATE: it was <a href='https://social.example/status/9'>fixed</a> since.</p>"
    commit(repo, build(update), DAY2)
    dates = dated(repo)
    assert dates["blog/post1/index.html"] == unix(DAY2)
    assert dates["index.html"] == unix(DAY1)


def test_a_link_that_follows_its_page_moved_in_the_same_commit_is_no_edit(tmp_path: Path) -> None:
    # Sphinx (pydata theme): a commit moved a section's page (``indexpanes.html`` made
    # ``panes/index.html``) and rebuilt the pages that link to it, a few of the many the
    # commit changed: each still leads to the same page. A link re-pointed elsewhere moves.
    def build(panes: str, other: str) -> dict[str, str | bytes | None]:
        files: dict[str, str | bytes | None] = {
            "index.html": page(
                f"<h1>Docs</h1><p>To explore the panes, go to <a href='{panes}'>Panes</a>.</p>"
            ),
            "faq.html": page(f"<h1>FAQ</h1><p>See <a href='{other}'>the other guide</a>.</p>"),
            panes: page("<h1>Panes</h1><p>Every pane, in depth.</p>"),
        }
        files.update({f"p{n}.html": page(f"<h1>Page {n}</h1><p>Text {n}.</p>") for n in range(8)})
        return files

    repo = make_repo(tmp_path / "site")
    commit(repo, build("indexpanes.html", "guide.html"), DAY1)
    files = build("panes/index.html", "guide2.html")
    files["indexpanes.html"] = None  # (moved: git reads it as a rename)
    commit(repo, files, DAY2)
    dates = dated(repo)
    assert dates["index.html"] == unix(DAY1)
    assert dates["faq.html"] == unix(DAY2)


def test_a_list_that_gains_the_entry_every_sidebar_gained_made_an_edit_of_its_own(
    tmp_path: Path,
) -> None:
    # Hugo (a docs theme): a new page's entry added to every page's sidebar, and to its
    # section's list page, whose own article lists the section's pages (its contents, no
    # links): the list's edit is the sidebar's and its own, the same words twice (words the
    # sidebar's links held before: "tcpdump in a container", "perf maps"). imroc-k8s.
    def build(tricks: dict[str, str]) -> dict[str, str | bytes | None]:
        entries = "".join(
            f"<li><a href='/trick/{t}/'>{title}</a></li>" for t, title in tricks.items()
        )
        side = f"<div class='sidebar'><ul>{entries}</ul></div>"  # (no <nav>: in the article)
        files: dict[str, str | bytes | None] = {
            f"trick/{t}/index.html": page(f"{side}<h1>{title}</h1><p>How to use {t}.</p>")
            for t, title in tricks.items()
        }
        listed = "".join(f"<li>{title}</li>" for title in tricks.values())  # (its contents)
        files["trick/index.html"] = page(f"{side}<h1>Tricks</h1><ol>{listed}</ol>")
        return files

    repo = make_repo(tmp_path / "site")
    tricks = {
        "tcpdump": "tcpdump in a container",
        "maps": "perf maps",
        **{t: f"{t} tips" for t in ("yaml", "jq", "ssh", "tmux")},
    }
    commit(repo, build(tricks), DAY1)
    commit(repo, build({"perf": "perf in a container", **tricks}), DAY2)
    dates = dated(repo)
    assert dates["trick/index.html"] == unix(DAY2)
    assert dates["trick/yaml/index.html"] == unix(DAY1)


def test_a_post_retitled_in_every_sidebar_is_content_of_the_lists_that_list_it(
    tmp_path: Path,
) -> None:
    # Octopress: a post's title typo fixed and its address with it; every page's "recent
    # posts" sidebar shows the new title (a word replaced on most pages the commit changed),
    # and so does the category page that lists it, under which title is its content.
    LINES = "Old add-ons ran in the browser process.\n" * 20  # (git reads the move as one)

    def build(word: str) -> dict[str, str | bytes | None]:
        slug = f"/blog/legacy-{word.lower()}/"
        recent = f"<a href='{slug}'>Legacy {word}</a>"
        files: dict[str, str | bytes | None] = {
            f"blog/legacy-{word.lower()}/index.html": page(
                f"<h1>Legacy {word}</h1><p>{LINES}</p>",
                recent,
            ),
            "blog/categories/addons/index.html": page(
                f"<h1>Category: add-ons</h1><ul><li><a href='{slug}'>Legacy {word}</a></li>"
                "<li><a href='/blog/p0/'>Post 0</a></li></ul>",
                recent,
            ),
        }
        files.update(
            {
                f"blog/p{n}/index.html": page(f"<h1>Post {n}</h1><p>Text.</p>", recent)
                for n in range(6)
            }
        )
        return files

    repo = make_repo(tmp_path / "site")
    commit(repo, build("Exensions"), DAY1)
    files = build("Extensions")
    files["blog/legacy-exensions/index.html"] = None  # (moved with its title)
    commit(repo, files, DAY2)
    dates = dated(repo)
    assert dates["blog/categories/addons/index.html"] == unix(DAY2)
    assert dates["blog/p0/index.html"] == unix(DAY1)


def test_a_description_that_is_the_page_text_cut_short_adds_nothing(tmp_path: Path) -> None:
    # Hugo's auto-summary re-cut by an upgrade (dazwilkin): the description is the article's
    # own first words, so its new length is no edit; sitemill reads such a description so.
    text = "Interested to explore the closed beta after being accepted into it this spring."
    repo = make_repo(tmp_path / "site")
    commit(repo, {"p0/index.html": described(f"<p>{text}</p>", text[:40] + "…")}, DAY1)
    commit(repo, {"p0/index.html": described(f"<p>{text}</p>", text[:60] + "…")}, DAY2)
    assert dated(repo)["p0/index.html"] == unix(DAY1)


def test_a_headings_permalink_glyph_is_no_word() -> None:
    """issue 79, cluster 8 (vue91: vuepress2's 97 and sphinx-immaterial's 11 pages v6 dated
    earlier): VuePress 2 moved its ``#`` into CSS, Sphinx took a rubric's ``¶`` out; no reader
    saw a word change. A footnote's number and a renamed heading still count."""
    before = (
        '<main><h2 id="x"><a class="header-anchor" href="#x" aria-hidden="true">#</a> Setup</h2>'
        '<p class="rubric">Example<a class="headerlink" href="#ex">¶</a></p>'
        '<p>Text<a href="#fn1">1</a>.</p></main>'
    )
    after = (
        '<main><h2 id="x"><a class="header-anchor" href="#x"><span>Setup</span></a></h2>'
        '<p class="rubric">Example</p><p>Text<a href="#fn1">1</a>.</p></main>'
    )
    key = oracle.content_key
    assert key(before.encode(), None) == key(after.encode(), None)
    assert key(before.encode(), None) != key(before.replace('fn1">1', 'fn1">2').encode(), None)
    assert key(after.encode(), None) != key(after.replace("Setup", "Install").encode(), None)


def test_a_character_no_reader_sees_is_no_word(tmp_path: Path) -> None:
    """heldout91 (cohttp-odoc, read92): odoc 2.0 wrote a word joiner after an optional
    argument's "?" (``?\u2060print_outcome``) and a later odoc dropped it; the contract reads
    control and zero-width characters (a word joiner, a soft hyphen) as no words, and keeps the
    joiners that change how a word is drawn (U+200D)."""

    def sig(joiner: str) -> str:
        return page(f"<h1>Module Top</h1><p><code>val f : ?{joiner}print:bool -> unit</code></p>")

    before, after = sig("\u2060"), sig("")
    key = oracle.content_key
    assert key(before.encode(), None) == key(after.encode(), None)
    assert key(sig("\u00ad").encode(), None) == key(after.encode(), None)
    assert key(sig("\u200d").encode(), None) != key(after.encode(), None)
    repo = make_repo(tmp_path / "site")
    commit(repo, {"top.html": before, **site(4, "")}, DAY1)
    commit(repo, {"top.html": after}, DAY2)
    assert dated(repo)["top.html"] == unix(DAY1)


# URLs urllib.parse refuses (a host NFKC makes a delimiter, a broken IPv6 literal) or reads
# only partly (a port that is no number): no oracle stops on them (issue 79).
_UNREADABLE = ("http://a／b.com/x", "//a＃b/y", "http://a？b/", "http://[::1/", "http://a:xx/")


def test_no_oracle_stops_on_a_url_no_parser_reads() -> None:
    import checklive
    import llmsread
    import textoracle

    base = "https://ex.org/p/"
    for url in _UNREADABLE:
        written = url.split("#", 1)[0]
        assert blocks.spell(url, base) == written
        assert textoracle.one_target(url, base) in (written, url)
        assert checklive.norm(url)[1] != "ex.org"
        joined = oracle.joined(base, url)
        assert joined is None or joined.startswith("http://a")
    assert oracle.joined(base, "../q") == "https://ex.org/q"
    tags = "".join(f'<link rel="alternate" hreflang="fr" href="{u}">' for u in _UNREADABLE)
    doc = lxml.html.document_fromstring(f"<html><head>{tags}</head><body>x</body></html>")
    assert llmsread.Page._own_hreflang(_Url(base), doc) is None


class _Url:
    def __init__(self, url: str) -> None:
        self.url = url
