"""A link re-pointed within the document it leads to (its fragment alone changed) is a move of
its own kind (history.targetmoves): a documentation generator's upgrade that makes every
cross-reference lead to its target's top section anchor ("faq.html" made "faq.html#faq") does
so on most pages of its commit, and no page's own words moved (RFC 3986 section 3.5: the
fragment names a part of the same document). A page whose own words, or a link that now leads
to another document, changed in that commit is dated by it. Shaped like a Sphinx site's docs
tree (text our own), in a real repository."""

from __future__ import annotations

from pathlib import Path

from gitutil import commit, make_repo, unix
from sitemill.protocol import Precision, lastmod_from_timestamp
from treedates import built_lastmods

WHEN = ["2024-01-10 09:00:00", "2024-02-11 09:00:00"]
TOPICS = ("install", "usage", "config", "api", "faq", "changes", "plugins", "support")


def docs(anchored: bool, *, edited: str = "", repointed: str = "") -> dict[str, str]:
    """Each topic's page links to the next two topics' pages (and the index to every one);
    ``anchored``: each link leads to its target's top section anchor."""

    def link(topic: str) -> str:
        anchor = f"#{topic}-guide" if anchored else ""
        return f'<a class="reference internal" href="{topic}.html{anchor}">{topic}</a>'

    pages = {}
    for n, topic in enumerate(TOPICS):
        near = [TOPICS[(n + step) % len(TOPICS)] for step in (1, 2)]
        if topic == repointed:
            near[0] = TOPICS[(n + 3) % len(TOPICS)]
        words = f"How {topic} works{' since the new release' if topic == edited else ''}."
        pages[f"docs/{topic}.html"] = (
            f"<html><head><title>{topic}</title></head><body><main><section id='{topic}-guide'>"
            f"<h1>{topic}</h1><p>{words} See {link(near[0])} and {link(near[1])}.</p>"
            "</section></main></body></html>\n"
        )
    pages["docs/index.html"] = (
        "<html><head><title>Docs</title></head><body><main><h1>Docs</h1><ul>"
        + "".join(f"<li>{link(topic)}</li>" for topic in TOPICS)
        + "</ul></main></body></html>\n"
    )
    return pages


def at(index: int) -> str:
    return lastmod_from_timestamp(unix(WHEN[index]), Precision.DATETIME)


def test_links_anchored_on_every_page_move_no_page_but_their_own_edits(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    commit(repo, docs(False), WHEN[0])
    commit(repo, docs(True, edited="usage", repointed="faq"), WHEN[1])
    found = built_lastmods(repo)
    own = {"docs/usage.html", "docs/faq.html"}
    assert found == {
        path.removesuffix("index.html").rstrip("/"): at(1 if path in own else 0)
        for path in docs(False)
    }, found
