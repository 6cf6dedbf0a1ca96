"""A raw "<" in a link's, image's or meta tag's quoted value
(fingerprint.targetmarks.escape_kept_values): the reduction's first pass skips those tags whole,
so what follows them is still read."""

from __future__ import annotations

import pytest

from sitemill.lastmod.fingerprint.digest import fingerprint_html, reduce_html
from sitemill.lastmod.fingerprint.targetmarks import escape_kept_values

HEAD = '<meta property="og:description" content="Tags: <script> and <style>, in <template>.">'


def page(body: str, head: str = HEAD) -> bytes:
    return (
        f"<!DOCTYPE html><html><head><title>SFC</title>{head}</head><body><main><h1>SFC</h1>"
        f"<p>{body}</p></main></body></html>"
    ).encode()


def test_a_raw_lt_in_a_quoted_value_is_written_as_the_value_reads() -> None:
    data = b'x<meta content="a <b> c"><a href=\'<x\'>y</a><img alt="q>r<s" src=/i.png>z'
    assert escape_kept_values(data) == (
        b'x<meta content="a &lt;b> c"><a href=\'&lt;x\'>y</a><img alt="q>r&lt;s" src=/i.png>z'
    )


@pytest.mark.parametrize(
    "data",
    [
        b'<p>a < b</p><a href="/x">x</a><meta name="d" content="1 > 0">',
        b"<div title='<script>'>text</div>",  # (not a kept tag: the first pass reads its value)
        b"<a <b>",  # ("<" where a name stands: as before)
    ],
)
def test_a_page_without_one_is_returned_as_it_is(data: bytes) -> None:
    assert escape_kept_values(data) is data


def test_text_after_a_raw_script_tag_in_a_description_counts() -> None:
    before, after = page("Compiled to HTML first."), page("Compiled to HTML, then to Vue.")
    assert "Compiled to HTML first." in reduce_html(before)
    assert fingerprint_html(before) != fingerprint_html(after)
    # The description reads as its value: the same as a generator that escapes it.
    escaped = HEAD.replace("<s", "&lt;s").replace("<t", "&lt;t")
    assert reduce_html(before) == reduce_html(page("Compiled to HTML first.", escaped))
