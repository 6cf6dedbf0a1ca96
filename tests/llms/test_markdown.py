"""A region as Markdown: links absolute, links in code kept, code languages, tables, images."""

from __future__ import annotations

import pytest

from sitemill.llms._markdown import MAX_MARKDOWN_DEPTH, headings_down, region_markdown
from sitemill.llms._region import content_region

URL = "https://example.org/docs/guide/"


def markdown_of(main: str, head: str = "") -> str:
    page = f"<html><head>{head}</head><body><main>{main}</main></body></html>"
    return region_markdown(content_region(page.encode(), URL))


def test_links_and_images_are_absolute() -> None:
    text = markdown_of(
        '<p><a href="../api/">API</a> <a href="#part">part</a> <a href="https://o.org/">o</a>'
        ' <img src="img/a.png" alt="A"></p>'
    )
    assert text == (
        "[API](https://example.org/docs/api/) [part](https://example.org/docs/guide/#part)"
        " [o](https://o.org/) ![A](https://example.org/docs/guide/img/a.png)\n"
    )


def test_videos_are_absolute_links() -> None:
    text = markdown_of('<p><video src="v.webm" poster="../p.png">Demo</video></p>')
    assert (
        text == "[![Demo](https://example.org/docs/p.png)](https://example.org/docs/guide/v.webm)\n"
    )


def test_links_resolve_against_the_page_s_base() -> None:
    text = markdown_of('<p><a href="x/">X</a></p>', head='<base href="/v2/">')
    assert text == "[X](https://example.org/v2/x/)\n"


def test_a_link_inside_code_is_kept() -> None:
    # mkdocstrings and Sphinx cross-references: markdownify alone keeps only "Pattern".
    text = markdown_of(
        '<p>See <code><a href="../api/#Pattern">Pattern</a></code> and'
        ' <code>re.<a href="../re/#sub">sub</a>()</code>.</p>'
    )
    assert text == (
        "See [`Pattern`](https://example.org/docs/api/#Pattern) and"
        " `re.`[`sub`](https://example.org/docs/re/#sub)`()`.\n"
    )


def test_a_link_around_code_is_kept() -> None:
    text = markdown_of('<p><a href="x.html"><code>x</code></a></p>')
    assert text == "[`x`](https://example.org/docs/guide/x.html)\n"


@pytest.mark.parametrize(
    ("block", "language"),
    [
        # Sphinx:
        ('<div class="highlight-python notranslate"><div class="highlight"><pre>x = 1</pre></div>'
         "</div>", "python"),
        ('<pre><code class="language-js">x = 1</code></pre>', "js"),
        ('<pre class="highlight lang-rust"><code>x = 1</code></pre>', "rust"),
        ('<div class="highlight-default"><pre>x = 1</pre></div>', ""),
        ("<pre>x = 1</pre>", ""),
    ],
)  # fmt: skip
def test_code_blocks_are_fenced_with_their_language(block: str, language: str) -> None:
    assert markdown_of(block) == f"```{language}\nx = 1\n```\n"


def test_tables_are_pipe_tables() -> None:
    text = markdown_of(
        "<table><thead><tr><th>Key</th><th>Value</th></tr></thead>"
        "<tbody><tr><td>a</td><td>1</td></tr></tbody></table>"
    )
    assert text == "| Key | Value |\n| --- | --- |\n| a | 1 |\n"


def test_headings_lists_and_blank_lines() -> None:
    text = markdown_of("<h2>Part</h2><ul><li>one</li><li>two</li></ul><p></p><p></p><p>End</p>")
    assert text == "## Part\n\n- one\n- two\n\nEnd\n"


def test_data_images_are_their_alt_text() -> None:
    text = markdown_of('<p><img src="data:image/svg+xml;base64,PHN2Zz4=" alt="logo"> x</p>')
    assert text == "logo x\n"


def test_javascript_links_are_their_text() -> None:
    assert markdown_of('<p><a href="javascript:void(0)">Toggle</a></p>') == "Toggle\n"


def test_headings_go_one_level_down_outside_code() -> None:
    text = "# Title\n\n```sh\n# a comment\n```\n\n###### Six\n## Two\n"
    assert headings_down(text) == "## Title\n\n```sh\n# a comment\n```\n\n###### Six\n### Two\n"


def test_an_empty_region_is_no_text() -> None:
    assert markdown_of("<nav>Menu</nav>") == ""


def test_a_region_nested_deeper_than_the_converter_recurses_keeps_its_words() -> None:
    deep = "<div>" * 5_000 + "<p>deep <b>words</b></p>" + "</div>" * 5_000
    assert markdown_of(f"<p>Top.</p>{deep}<p>After.</p>") == "Top.\n\ndeep words\n\nAfter.\n"


def test_a_region_at_the_depth_limit_is_converted_whole() -> None:
    nested = (
        "<div>" * (MAX_MARKDOWN_DEPTH - 3)
        + "<p>deep <b>words</b></p>"
        + "</div>" * (MAX_MARKDOWN_DEPTH - 3)
    )
    assert markdown_of(nested) == "deep **words**\n"
