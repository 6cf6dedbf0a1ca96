"""What only this page says counts wherever it stands, and a description that is the page's text
cut short adds nothing, whatever links that text holds (fingerprint version 13, issue 79).
Pages shaped like odoc 2.2's and rustdoc's (structure copied, text our own)."""

from __future__ import annotations

from sitemill.lastmod.fingerprint.digest import (
    EARLIER_VERSIONS,
    FINGERPRINT_VERSION,
    fingerprint_html,
    reduce_html,
)

PREVIOUS = max(EARLIER_VERSIONS)
URL = "https://example.org/pkg/Pool/Make/index.html"
PREAMBLE = "This functor keeps a pool of connections for reuse."


def odoc(preamble: str = PREAMBLE, *, title: str = "Make (pkg.Pool.Make)") -> bytes:
    """odoc 2.2's module page: the preamble beside the <h1> in the header, no <main>."""
    return (
        f"<!DOCTYPE html><html><head><title>{title}</title></head><body class=odoc>"
        '<nav class="odoc-nav"><a href="../index.html">Up</a> - Make</nav>'
        '<header class="odoc-preamble"><h1>Module <code><span>Pool.Make</span></code></h1>'
        f"<p>{preamble}</p></header>"
        '<nav class="odoc-toc"><ul><li><a href="#parameters">Parameters</a></li></ul></nav>'
        '<div class="odoc-content"><h2 id="parameters">Parameters</h2>'
        '<div class="spec"><code>module <a href="argument-1-Conn/index.html">Conn</a></code></div>'
        "</div></body></html>"
    ).encode()


def printed(data: bytes, version: int = FINGERPRINT_VERSION, url: str = URL) -> str:
    return fingerprint_html(data, url=url, version=version)


def test_a_headline_that_names_the_page_s_kind_is_the_page_s_own() -> None:
    # cohttp's Connection_cache/Make at 0273290cb1: "connecions" -> "connections" in the
    # preamble; its <h1> "Module Connection_cache.Make" holds the title's part "Make".
    fixed = odoc("This functor keeps a pool of connections for reuse.")
    typo = odoc("This functor keeps a pool of connecions for reuse.")
    assert printed(fixed) != printed(typo)
    assert PREAMBLE in reduce_html(odoc(), url=URL)
    # (version 12, the previous one, read the header as a site's banner: a state of 12 is
    # compared by 12's bytes)
    assert printed(fixed, PREVIOUS) == printed(typo, PREVIOUS)


def test_a_title_part_stands_in_the_headline_word_for_word() -> None:
    # Only whole words: "Make" is no part of "Makefile" (the header before the region is then a
    # site's banner; on a page without a region it would be its own: see below).
    def banner(title: str) -> bytes:
        page = odoc(title=title).replace(b"Pool.Make</span>", b"Makefile tools</span>")
        page = page.replace(b'<div class="odoc-content">', b'<main><div class="odoc-content">')
        return page.replace(b"</div></body>", b"</div></main></body>")

    for title in ("Make (pkg.Pool.Make)", "Make | Pkg", "Make"):
        assert printed(banner(title)) == printed(banner(title).replace(b"pool of", b"heap of"))
    # The headline standing in the title still names it (version 5's reading).
    named = odoc(title="Module Pool.Make - pkg").replace(b"pool of", b"heap of")
    assert printed(named) != printed(odoc(title="Module Pool.Make - pkg"))


def test_a_site_s_motto_in_its_banner_stays_the_site_s() -> None:
    # Hexo NexT's list pages: a page-level header whose <h1> is the site's motto, no title part.
    def tag_page(motto: str) -> bytes:
        return (
            "<title>Tag: tea | Leaf</title><body><header><h1>Brewed slowly</h1>"
            f"<p>{motto}</p></header><main><h2>Tag: tea</h2>"
            '<article><a href="/posts/a/">Green tea</a></article></main></body>'
        ).encode()

    assert printed(tag_page("A blog of leaves.")) == printed(tag_page("A blog of roots."))


# rustdoc's trait page: a signature whose every type is a link to the standard library, then
# the docblock, whose first sentence is the page's meta description.
STD = "https://doc.rust-lang.org/nightly/core/marker/trait.{}.html"
SENTENCE = "Actors are objects which encapsulate state and behavior."


def rustdoc(description: str = SENTENCE, *, links: int = 60) -> bytes:
    bounds = " + ".join(f'<a href="{STD.format(f"Bound{n}")}">B{n}</a>' for n in range(links))
    return (
        "<!DOCTYPE html><html><head><title>Actor in actix::prelude - Rust</title>"
        f'<meta name="description" content="{description}"></head><body><main>'
        "<h1>Trait <span>actix</span>::<span>prelude</span>::<a href=#>Actor</a></h1>"
        f"<pre class=rust>pub trait Actor: {bounds} {{ }}</pre>"
        f'<div class="docblock"><p>{SENTENCE} They communicate by messages.</p></div>'
        "</main></body></html>"
    ).encode()


def test_the_excerpt_window_counts_the_text_s_letters_not_its_link_targets() -> None:
    # actix's prelude/trait.Actor.html at 4d9660e2b2: the description is the docblock's first
    # sentence; the signature's targets made the marked text longer than the window (2,048
    # and twice the description), so version 12 read it as the page's own words.
    url = "https://example.org/actix/prelude/trait.Actor.html"
    bare = rustdoc("").replace(b'<meta name="description" content="">', b"")
    assert printed(rustdoc(), url=url) == printed(bare, url=url)
    assert printed(rustdoc(), PREVIOUS, url) != printed(bare, PREVIOUS, url)
    # However many targets stand before the sentence: its letters decide.
    for links in (1, 30, 120):
        assert printed(rustdoc(links=links), url=url) == printed(
            rustdoc("", links=links).replace(b'<meta name="description" content="">', b""),
            url=url,
        )
    # A description an author wrote, not the text's, still counts.
    own = rustdoc("An actor runs in its own context and handles messages.")
    assert printed(own, url=url) != printed(bare, url=url)
