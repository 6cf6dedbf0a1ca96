"""A URL list's blocks, written a block at a time, give exactly the entry renderer's files."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemill.entries import Entry, RenderedSitemap, UrlBlock, UrlBlocks
from sitemill.errors import TemplateError
from sitemill.render._blocks import render_block_sitemaps
from sitemill.render._lineform import line_form
from sitemill.render._split import render_sitemaps
from sitemill.render.compiled import compile_template
from sitemill.render.environment import (
    TEXT_TEMPLATE,
    URLSET_TEMPLATE,
    load_template,
    make_environment,
)
from sitemill.render.renderer import Renderer

BASE = "https://example.com/"
locs = st.builds(
    lambda path: BASE + path,
    st.text(st.sampled_from("ab/?=&'#%(),;~-_.:@!$*+"), max_size=30),
)
stamps = st.sampled_from(
    [None, "2024-05-01T10:00:00+00:00", "2024-12-31T23:59:59+00:00", "2023-01-01"]
)
blocks_ = st.lists(st.lists(st.tuples(locs, stamps), max_size=12), max_size=6)

USER_TEMPLATES = {
    # Fields in the usual order, other text: a line form.
    "other.xml.j2": '<set>{% for e in entries %}\n<u l="{{ e.loc }}">{% if e.lastmod %}'
    "{{ e.lastmod }}{% else %}-{% endif %}</u>{% endfor %}\n</set>",
    # The lastmod before the loc, the loc twice: no line form (entry by entry).
    "before.xml.j2": "<set>{% for e in entries %}<u>{{ e.lastmod }}{{ e.loc }}</u>"
    "{% endfor %}</set>",
    "twice.xml.j2": "<set>{% for e in entries %}<u>{{ e.loc }}{{ e.loc }}</u>{% endfor %}</set>",
    # Unescaped text (a .txt template): "&" stays "&".
    "raw.txt.j2": "{% for e in entries %}{{ e.loc }} {{ e.lastmod }}\n{% endfor %}",
}


def as_blocks(groups: list[list[tuple[str, str | None]]]) -> list[UrlBlock]:
    blocks = []
    for group in groups:
        block_locs = [loc.encode() for loc, _ in group]
        if all(stamp is None for _, stamp in group):
            lines = b"".join(loc + b"\n" for loc in block_locs)
            blocks.append(UrlBlock(block_locs, None, lines if group else None))
            continue
        lastmods = [stamp.encode() if stamp else None for _, stamp in group]
        if all(lastmods):
            pairs = zip(block_locs, lastmods, strict=True)
            lines = b"".join(loc + b"\t" + stamp + b"\n" for loc, stamp in pairs)  # type: ignore[operator]
            blocks.append(UrlBlock(block_locs, lastmods, lines))
        else:
            blocks.append(UrlBlock(block_locs, lastmods))
    return blocks


def both(
    renderer: Renderer, groups: list[list[tuple[str, str | None]]], max_urls: int, max_bytes: int
) -> tuple[list[RenderedSitemap] | str, list[RenderedSitemap] | str]:
    """The block renderer's files and the entry renderer's (or the error each gave)."""
    entries = [Entry(loc, stamp) for group in groups for loc, stamp in group]

    def files(source: object) -> list[RenderedSitemap] | str:
        try:
            return plain(
                renderer.render_sitemaps(source, max_urls=max_urls, max_bytes=max_bytes)  # type: ignore[arg-type]
            )
        except TemplateError as exc:
            return str(exc)

    return files(UrlBlocks(iter(as_blocks(groups)))), files(iter(entries))


def plain(files: Iterator[RenderedSitemap]) -> list[RenderedSitemap]:
    """The files as any renderer writes them; the block renderer knows which one is last
    (``last``), and says so: checked here."""
    found = list(files)
    lasts = [file.last for file in found]
    assert lasts in ([None] * len(found), [False] * (len(found) - 1) + [True]), lasts
    return [replace(file, parts=(file.data,), last=None) for file in found]


@pytest.fixture(scope="module")
def user_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("templates")
    for name, text in USER_TEMPLATES.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@settings(max_examples=150, deadline=None)
@given(blocks_, st.sampled_from([1, 3, 50_000]), st.sampled_from([300, 700, 10_485_760]))
def test_blocks_write_the_entry_renderers_files(
    groups: list[list[tuple[str, str | None]]], max_urls: int, max_bytes: int
) -> None:
    for text in (False, True):
        blocked, entry_by_entry = both(Renderer(None, text=text), groups, max_urls, max_bytes)
        assert blocked == entry_by_entry


@settings(max_examples=60, deadline=None)
@given(blocks_, st.sampled_from([2, 50_000]), st.sampled_from([400, 10_485_760]))
def test_user_templates_write_the_same_files(
    user_dir: Path, groups: list[list[tuple[str, str | None]]], max_urls: int, max_bytes: int
) -> None:
    environment = make_environment(user_dir)
    for name in USER_TEMPLATES:
        template = load_template(environment, name)
        entries = [Entry(loc, stamp) for group in groups for loc, stamp in group]
        compiled = compile_template(template)
        assert compiled is not None
        form = line_form(compiled)
        assert (form is None) == (name in ("before.xml.j2", "twice.xml.j2")), name
        if form is None:
            continue
        try:
            blocked: list[RenderedSitemap] | str = plain(
                render_block_sitemaps(
                    iter(as_blocks(groups)), form, compiled, max_urls=max_urls, max_bytes=max_bytes
                )
            )
        except TemplateError as exc:
            blocked = str(exc)
        try:
            expected: list[RenderedSitemap] | str = list(
                render_sitemaps(iter(entries), template, max_urls=max_urls, max_bytes=max_bytes)
            )
        except TemplateError as exc:
            expected = str(exc)
        assert blocked == expected, name


def test_builtin_forms() -> None:
    environment = make_environment()
    urlset = compile_template(load_template(environment, URLSET_TEMPLATE))
    text = compile_template(load_template(environment, TEXT_TEMPLATE))
    assert urlset is not None and text is not None
    xml_form, text_form = line_form(urlset), line_form(text)
    assert xml_form is not None and text_form is not None
    assert xml_form.dated == (b"  <url><loc>", b"</loc><lastmod>", b"</lastmod></url>\n")
    assert xml_form.escapes == ((b"&", b"&amp;"), (b"'", b"&#39;"))
    assert text_form.dated == (b"", None, b"\n") and text_form.escapes == ()


def test_a_block_split_across_files_at_its_byte_limit() -> None:
    """A file ends at the last entry that fits, inside a block as between blocks."""
    renderer = Renderer(None, text=False)
    groups = [[(f"{BASE}{i:04d}", "2024-05-01T10:00:00+00:00") for i in range(100)]] * 3
    blocked, expected = both(renderer, groups, 50_000, 3_000)
    assert blocked == expected
    assert isinstance(blocked, list) and len(blocked) > 5
    assert all(len(f.data) <= 3_000 for f in blocked)
