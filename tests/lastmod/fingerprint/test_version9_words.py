"""Fingerprint version 9 (issue 79): an auto-excerpt that runs past a heading adds nothing, and a
picture's resized copies (a <source>'s srcset, an <img>'s srcset beside its src) are no content.
(Version 8, which read both as before, is no longer computable: issue 80; a state of version 8
takes the older state's path, tests/jobs/test_version9_upgrade.py.)"""

from __future__ import annotations

import pytest

from sitemill.lastmod.fingerprint import reduction
from sitemill.lastmod.fingerprint.digest import fingerprint_html, reduce_html

URL = "https://example.org/docs/windows/"


def installation(description: str) -> bytes:
    """A Hugo (Relearn) page whose description is its summary: its text from the first heading
    on, plainified, which an upgrade re-cut and re-spaced (relearn's installation/windows/ at
    2135f27ff6: "./install.shIt" became "./install.sh It")."""
    return (
        "<html><head><title>Windows :: resticprofile</title>"
        f'<meta name="description" content="{description}"></head><body><main><article>'
        "<h1>Windows</h1><h2>Installation using bash</h2><p>You can use a script if you are"
        " using bash in Windows.</p><pre><code>curl -LO https://example.org/install.sh\n"
        "./install.sh</code></pre><p>It will create a bin directory under your current"
        " directory.</p><h2>Installation using scoop</h2><p>Resticprofile can be installed"
        " from scoop.</p></article></main></body></html>"
    ).encode()


BEFORE = (
    "Installation using bash You can use a script if you are using bash in Windows."
    " curl -LO https://example.org/install.sh ./install.shIt will create a bin directory under"
    " your current directory. Installation using scoop Resticprofile can be installed from scoop."
)
AFTER = BEFORE.replace("install.shIt", "install.sh It")
SHORTER = BEFORE.partition(" curl")[0]  # (re-cut: relearn's configuration/v2/ at a2d3f2e609)


@pytest.mark.parametrize("after", [AFTER, SHORTER], ids=["re-spaced", "re-cut"])
def test_an_auto_excerpt_past_a_heading_re_cut_moves_nothing(after: str) -> None:
    before, edited = installation(BEFORE), installation(after)
    assert fingerprint_html(edited, url=URL) == fingerprint_html(before, url=URL)
    # (version 8 read "<h2>" as a letter of the text, found no excerpt and counted the summary)


def test_a_description_of_its_own_still_counts() -> None:
    own = "How to install resticprofile on Windows with bash, scoop or by hand, step by step."
    before, edited = installation(own), installation(own.replace("step by step", "in a minute"))
    assert fingerprint_html(edited, url=URL) != fingerprint_html(before, url=URL)
    assert "step by step" in reduce_html(before, url=URL)


def gallery(source: str = "", image: str = "") -> bytes:
    """An Astro gallery slide (6chhenry's gallery/japan/): a picture of a city."""
    return (
        "<html><head><title>Japan</title></head><body><main><h1>Japan</h1>"
        f'<div class="slide">{source}<img src="/assets/osaka/glico.jpg" alt="Osaka"{image}>'
        "<span>Osaka</span></div></main></body></html>"
    ).encode()


SOURCE = (
    '<source type="image/webp" srcset="/assets/osaka/glico.640.webp 640w,'
    ' /assets/osaka/glico.1280.webp 1280w">'
)
SIZES = ' srcset="/assets/osaka/glico-480.jpg 480w, /assets/osaka/glico-960.jpg 960w"'


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (gallery(), gallery(source=SOURCE)),
        (gallery(), gallery(image=SIZES)),
        (gallery(image=SIZES), gallery(image=SIZES.replace("-480", "-320"))),
        (gallery(source=SOURCE), gallery(source=SOURCE.replace(".640.", ".800."))),
    ],
    ids=["picture source added", "srcset added", "srcset resized", "source resized"],
)
def test_a_pictures_resized_copies_move_nothing(before: bytes, after: bytes) -> None:
    assert fingerprint_html(after, url=URL) == fingerprint_html(before, url=URL)


def test_the_picture_itself_still_counts() -> None:
    page = gallery(source=SOURCE, image=SIZES)
    moved = page.replace(b"glico.jpg", b"dotonbori.jpg")
    assert fingerprint_html(moved, url=URL) != fingerprint_html(page, url=URL)


@pytest.mark.parametrize(
    "image",
    [' srcset="/a-1.jpg 1x, /a-2.jpg 2x"', ' src="" srcset="/a-1.jpg 1x"'],
    ids=["no src", "empty src"],
)
def test_a_srcset_that_is_the_only_picture_counts(image: str) -> None:
    page = f"<html><body><main><h1>A</h1><img{image}></main></body></html>".encode()
    moved = page.replace(b"/a-1.jpg", b"/b-1.jpg")
    assert fingerprint_html(moved, url=URL) != fingerprint_html(page, url=URL)


def test_a_data_placeholder_leaves_the_srcset_the_picture() -> None:
    page = (
        b'<html><body><main><h1>A</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="'
        b' srcset="/a-1.jpg 1x"></main></body></html>'
    )
    moved = page.replace(b"/a-1.jpg", b"/b-1.jpg")
    assert fingerprint_html(moved, url=URL) != fingerprint_html(page, url=URL)


def test_text_that_reads_like_the_copies_sign_is_text() -> None:
    # (the sign is two characters no marker writes side by side; the page's own are replaced)
    page = b"<html><body><main><h1>A</h1><p>x\x02\x03y</p><img src=/a.png></main></body></html>"
    assert "x y" in reduce_html(page, url=URL).replace("\x01", " ")


def tags(count: str) -> bytes:
    """A Docusaurus tag list (answer's blog/tags/): a tag's name and its count in one link."""
    return (
        "<html><head><title>Tags</title></head><body><main><h1>Tags</h1><ul><li>"
        f'<a href="/blog/tags/tutorials">tutorials{count}</a></li></ul></main></body></html>'
    ).encode()


@pytest.mark.parametrize(
    "count", ["<!-- --><span>1<!-- --></span>", "<!---->1", "<!-->1", "<!-- a\n<p>b</p> -->1"]
)
def test_a_comment_parts_no_words(count: str) -> None:
    # (React writes "<!-- -->" between two texts of one element: answer's tags at 952ab004c2)
    url = "https://example.org/blog/tags/"
    before, after = tags("<span>1</span>"), tags(count)
    assert fingerprint_html(after, url=url) == fingerprint_html(before, url=url)
    assert "tutorials1" in reduce_html(after, url=url)  # (version 8 read "tutorials 1")


@pytest.mark.parametrize(
    "page",
    [
        b"<main><h1>A</h1><p>one<script>var s = '<!--';</script>two</p><p>x<!-- -->y</p></main>",
        b'<main><h1>A</h1><p title="<!--">one</p><p>two</p><!-- --></main>',
        b"<main><h1>A</h1><p>one<style>/* <!-- */</style>two --> three</p></main>",
        b"<main><h1>A</h1><p>one</p><!-- left open <p>two</p></main>",
    ],
    ids=["in a script", "in a value", "in a style", "left open"],
)
def test_a_comment_that_is_no_comment_stays(page: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    # Only a comment that stands in text is joined over: the words around the others stay. (The
    # reference: the reduction that joins over none, as version 8's did, no longer computable.)
    by_9 = reduce_html(page)
    monkeypatch.setattr(reduction, "join_around_comments", lambda raw: raw)
    assert by_9.replace("xy", "x y") == reduce_html(page)
