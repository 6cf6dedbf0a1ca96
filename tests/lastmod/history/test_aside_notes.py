"""A page's own notes written as ``<aside>`` in a real git history (fingerprint version 13,
amended, issue 79): a Sphinx upgrade to docutils 0.18 rewrote every topic and footnote from a
``<div>`` into an ``<aside>`` (a Japanese blog's post was dated by it: its topic had left the
fingerprint); an edit of a footnote later dates its page."""

from __future__ import annotations

from pathlib import Path

from treedates import at, dated

POSTS = ("peps", "venv", "typing", "asyncio", "wheels", "pytest")


def post(name: str, tag: str, footnote: str) -> str:
    """A Sphinx bizstyle post (the region: ``div.body[role=main]``), a topic and a footnote."""
    return (
        f"<html><head><title>{name} &#8212; Notes</title></head><body>"
        '<div class="related" role="navigation"><a href="../index.html">Notes</a></div>'
        f'<div class="body" role="main"><section id="{name}"><h1>About {name}</h1>'
        f'<p>What {name} is for<a class="footnote-reference" href="#f1">1</a>.</p>'
        f'<{tag} class="topic"><p class="topic-title">Example</p>'
        f"<p>Try {name} at home before you use it at work.</p>"
        f'</{tag}><{tag} class="footnote brackets" id="f1" role="note"><p>{footnote}</p></{tag}>'
        "</section></div></body></html>\n"
    )


def site(tag: str, edited: str = "") -> dict[str, str]:
    return {
        f"posts/{name}.html": post(
            name,
            tag,
            f"Seen first in the documentation of {name}."
            + (" Fixed in 3.12." if name == edited else ""),
        )
        for name in POSTS
    }


def test_notes_made_asides_move_no_date_and_a_footnote_edit_dates_its_page(
    tmp_path: Path,
) -> None:
    builds = [site("div"), site("aside"), site("aside", edited="typing")]
    found = dated(tmp_path, builds)
    assert found == {f"posts/{name}.html": at(2 if name == "typing" else 0) for name in POSTS}
