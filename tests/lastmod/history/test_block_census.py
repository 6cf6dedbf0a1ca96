"""An edit on most pages of a commit is the template wherever it stands on each page: a block
rewritten on every page, outside the posts' region and read as text on the list pages that
have none, moves no list page (history.blockcensus, issue 79: read97a's A2, Publii's "Get in
touch" sidebar). Shaped like a Publii theme: posts whose `<article>` is the region, list pages
of teasers with no main region, a sidebar on every page. Text our own."""

from __future__ import annotations

from pathlib import Path

from sitemill.lastmod.history._blockcensus import WHOLE_PROBE as PROBE
from sitemill.lastmod.history._blockcensus import ReadVersions, Reduced, read_blocks
from treedates import at, dated

Build = dict[str, str]
POSTS = [f"post-{n}" for n in range(9)]
LISTS = ["index.html", "page/2/index.html", "page/3/index.html"]


def sidebar(contact: str) -> str:
    return (
        '<div id="sidebar"><nav><a href="/">Home</a></nav><section><h2>Get in touch</h2>'
        f"<p>{contact}</p></section></div>"
    )


def publii(site: str, contact: str, *, own: str = "", about: str = "") -> Build:
    """Nine posts (their article the region) and three list pages of three teasers each (no
    region), every page titled with ``site`` and holding the ``contact`` sidebar; ``own``:
    words the second list page says of its own, ``about``: a paragraph of its own there."""
    pages = {}
    for n, slug in enumerate(POSTS):
        body = (
            f"<article><h1>Post {n}</h1><p>What post {n} says about timers and gates.</p>"
            f"</article>{sidebar(contact)}"
        )
        pages[f"{slug}/index.html"] = (
            f"<html><head><title>Post {n} | {site}</title></head><body>{body}</body></html>\n"
        )
    for n, path in enumerate(LISTS):
        teasers = "".join(
            f'<div class="teaser"><h3><a href="/{slug}/">Post {3 * n + k}</a></h3></div>'
            for k, slug in enumerate(POSTS[3 * n : 3 * n + 3])
        )
        said = f"<p>{own}</p><p>{about}</p>" if n == 1 else ""
        body = f'<div id="main"><h2>Recent posts</h2>{teasers}{said}</div>{sidebar(contact)}'
        pages[path] = f"<html><head><title>{site}</title></head><body>{body}</body></html>\n"
    return pages


OLD = "Area of expertise: web pentest, malware analysis. Write to me at the old address."
NEW = "contact at the new address, Montreal"


def test_a_sidebar_block_rewritten_on_every_page_moves_no_list_page(tmp_path: Path) -> None:
    # The site renamed in every title and the sidebar's block rewritten on all 12 pages: the
    # posts' edit is their title (the sidebar is outside their article), the list pages' is
    # the title and the block; read whole, every page made the block's edit.
    found = dated(tmp_path, [publii("Blog", OLD), publii("Lab - Blog", NEW)])
    assert found[""] == found["page/2"] == found["page/3"] == at(0), found
    assert len(found) == 12


def test_a_list_page_with_words_of_its_own_beside_the_block_keeps_the_commit(
    tmp_path: Path,
) -> None:
    found = dated(
        tmp_path, [publii("Blog", OLD), publii("Lab - Blog", NEW, own="Talks are listed too")]
    )
    assert found["page/2"] == at(1), found
    assert found[""] == found["page/3"] == at(0), found


def test_a_block_of_its_own_whose_words_every_sidebar_changed_too_dates_the_page(
    tmp_path: Path,
) -> None:
    # The author renamed in every page's sidebar and in the second list page's own paragraph:
    # the same word taken out on every page, but that paragraph is a block no other page
    # changed (reedlin2002-hexo's about page).
    def site(name: str, later: bool) -> Build:
        contact = f"Written by {name} at the lab, Montreal; write to me there."
        about = f"Hi, I am {name} and these are my talks and my notes."
        return publii("Lab - Blog" if later else "Blog", contact, about=about)

    found = dated(tmp_path, [site("Jerry Lin", False), site("Lin", True)])
    assert found["page/2"] == at(1), found
    assert found[""] == found["page/3"] == at(0), found


def test_pages_are_read_whole_only_where_the_first_ones_show_the_block() -> None:
    # Twelve pages of a commit; a stop (no region) whose sidebar block was rewritten: its
    # block is looked for in the bodies of PROBE of the others first, in all of them only
    # where each of those rewrote it alike.
    old, new = "Write to me at the old address, Montreal.", "Write to me at the new one, Quebec."
    commit = [(f"p{n}.html", 1) for n in range(12)]
    asked: list[tuple[int, bool]] = []

    def reads(sidebar: str) -> ReadVersions:
        def read(stops: list[tuple[str, int]], whole: bool) -> tuple[Reduced, int]:
            asked.append((len(stops), whole))
            post = "Post\x01T\x01What the post says about timers.\x01"
            versions = (
                (post + sidebar, post + old) if whole else ("L\x01T\x01" + new, "L\x01T\x01" + old)
            )
            return {stop: versions for stop in stops}, 2 * len(stops)

        return read

    left = {commit[0]: frozenset({"0000" + "0" + "a" * 11})}
    region = {stop: frozenset[str]() for stop in commit}
    found, read = read_blocks(
        left, commit, region, (reads("Another block, of this page's own."), "")
    )
    assert found == set() and read == 2 + 2 * PROBE and asked == [(1, False), (PROBE, True)]
    asked.clear()
    found, read = read_blocks(left, commit, region, (reads(new), ""))
    assert found == {commit[0]} and read == 2 + 2 * len(commit)
    assert asked == [(1, False), (PROBE, True), (len(commit) - PROBE, True)]
    # Another site's move left unmade is no block: nothing is read.
    asked.clear()
    moved = {commit[0]: frozenset({"abcd" + "1" + "c" * 11})}
    assert read_blocks(moved, commit, region, (reads(new), "")) == (set(), 0) and not asked
