"""Splitting on max_urls and max_bytes at the exact boundaries."""

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from sitemill.entries import Alternate, Entry, Image
from sitemill.errors import TemplateError
from sitemill.render._split import render_sitemaps
from sitemill.render.compiled import compile_template
from sitemill.render.environment import (
    TEXT_TEMPLATE,
    URLSET_TEMPLATE,
    load_template,
    make_environment,
)
from xsd import assert_xsd_valid

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def entries(count: int, *, lastmod: bool = True) -> Iterator[Entry]:
    for i in range(count):
        stamp = f"2024-01-{1 + i % 28:02d}T00:00:00+00:00" if lastmod else None
        yield Entry(f"https://example.com/p/{i}.html", stamp)


@pytest.fixture(scope="module")
def urlset():  # type: ignore[no-untyped-def]
    return load_template(make_environment(), URLSET_TEMPLATE)


@pytest.mark.parametrize(("count", "files"), [(50_000, [50_000]), (50_001, [50_000, 1])])
def test_split_on_50000_urls(urlset, count: int, files: list[int]) -> None:  # type: ignore[no-untyped-def]
    rendered = list(render_sitemaps(entries(count), urlset, max_urls=50_000, max_bytes=52_428_800))
    assert [r.url_count for r in rendered] == files
    assert_xsd_valid(rendered[-1].data)
    assert rendered[0].data.count(b"<url>") == 50_000


def test_split_on_bytes_exactly(urlset) -> None:  # type: ignore[no-untyped-def]
    (whole,) = render_sitemaps(entries(100), urlset, max_urls=50_000, max_bytes=1_000_000)
    size = len(whole.data)
    (fits,) = render_sitemaps(entries(100), urlset, max_urls=50_000, max_bytes=size)
    assert fits.data == whole.data
    split = list(render_sitemaps(entries(100), urlset, max_urls=50_000, max_bytes=size - 1))
    assert [r.url_count for r in split] == [99, 1]
    assert len(split[0].data) <= size - 1
    for part in split:
        assert_xsd_valid(part.data)


def test_every_file_within_max_bytes_and_nothing_lost(urlset) -> None:  # type: ignore[no-untyped-def]
    rendered = list(render_sitemaps(entries(5_000), urlset, max_urls=700, max_bytes=20_000))
    assert sum(r.url_count for r in rendered) == 5_000
    assert all(len(r.data) <= 20_000 and r.url_count <= 700 for r in rendered)
    locs = b"".join(r.data for r in rendered).count(b"<loc>")
    assert locs == 5_000


def test_lastmod_of_a_file_is_its_newest(urlset) -> None:  # type: ignore[no-untyped-def]
    rendered = list(render_sitemaps(entries(40), urlset, max_urls=10, max_bytes=1_000_000))
    assert [r.lastmod for r in rendered] == [
        "2024-01-10T00:00:00+00:00",
        "2024-01-20T00:00:00+00:00",
        "2024-01-28T00:00:00+00:00",
        "2024-01-12T00:00:00+00:00",
    ]
    (none,) = render_sitemaps(entries(3, lastmod=False), urlset, max_urls=10, max_bytes=10_000)
    assert none.lastmod is None


def test_no_entries_no_files(urlset) -> None:  # type: ignore[no-untyped-def]
    assert list(render_sitemaps(iter(()), urlset, max_urls=10, max_bytes=10_000)) == []


def test_an_entry_larger_than_max_bytes_is_an_error(urlset) -> None:  # type: ignore[no-untyped-def]
    huge = iter([Entry("https://example.com/" + "a" * 2_000)])
    with pytest.raises(TemplateError, match="does not fit"):
        list(render_sitemaps(huge, urlset, max_urls=10, max_bytes=1_024))


def test_text_format_is_raw_urls() -> None:
    template = load_template(make_environment(), TEXT_TEMPLATE)
    urls = iter([Entry("https://e.com/?a=1&b=2"), Entry("https://e.com/x")])
    (text,) = render_sitemaps(urls, template, max_urls=10, max_bytes=10_000)
    assert text.data == b"https://e.com/?a=1&b=2\nhttps://e.com/x\n"


def test_ampersand_is_escaped_in_xml(urlset) -> None:  # type: ignore[no-untyped-def]
    urls = iter([Entry("https://e.com/a&b/?x=1&y='2'")])
    (xml,) = render_sitemaps(urls, urlset, max_urls=10, max_bytes=10_000)
    assert b"https://e.com/a&amp;b/?x=1&amp;y=&#39;2&#39;" in xml.data
    assert_xsd_valid(xml.data)


def test_user_template_that_ignores_entries_is_an_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / URLSET_TEMPLATE).write_text("<urlset/>", encoding="utf-8")
    template = load_template(make_environment(tmp_path), URLSET_TEMPLATE)
    with pytest.raises(TemplateError, match="does not iterate"):
        list(render_sitemaps(entries(3), template, max_urls=10, max_bytes=10_000))


def test_templates_jinja_must_render_split_the_same_way(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # A filter keeps this template out of the compiled path: the streaming Jinja path splits it.
    (tmp_path / URLSET_TEMPLATE).write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "{% for entry in entries %}<url><loc>{{ entry.loc | lower }}</loc></url>\n{% endfor %}"
        "</urlset>\n",
        encoding="utf-8",
    )
    custom = load_template(make_environment(tmp_path), URLSET_TEMPLATE)
    assert compile_template(custom) is None
    (whole,) = render_sitemaps(entries(50), custom, max_urls=1000, max_bytes=100_000)
    size = len(whole.data)
    (fits,) = render_sitemaps(entries(50), custom, max_urls=1000, max_bytes=size)
    assert fits.data == whole.data
    split = list(render_sitemaps(entries(50), custom, max_urls=1000, max_bytes=size - 1))
    assert [r.url_count for r in split] == [49, 1]
    assert [
        r.url_count for r in render_sitemaps(entries(50), custom, max_urls=20, max_bytes=size)
    ] == [20, 20, 10]
    for part in split:
        assert_xsd_valid(part.data)


def test_templates_that_read_ahead_split_too(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # loop.last makes Jinja read one entry ahead: the file is re-rendered, not streamed.
    (tmp_path / TEXT_TEMPLATE).write_text(
        "{% for entry in entries %}{{ entry.loc }}{% if not loop.last %} {% endif %}{% endfor %}\n",
        encoding="utf-8",
    )
    template = load_template(make_environment(tmp_path), TEXT_TEMPLATE)
    assert compile_template(template) is None
    parts = list(render_sitemaps(entries(30), template, max_urls=50_000, max_bytes=200))
    assert all(len(part.data) <= 200 for part in parts)
    lines = b" ".join(part.data for part in parts).split()
    assert lines == [f"https://example.com/p/{i}.html".encode() for i in range(30)]
    assert [part.url_count for part in parts] == [6, 6, 6, 6, 6]


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (
            "{% for e in entries %}{% if loop.index == 7 %}{{ 1/0 }}{% endif %}{% endfor %}",
            "line 1: ZeroDivisionError: division by zero",
        ),
        (
            "{% for e in entries %}\n{{ e.loc | int }}{{ e.loc.__class__ }}\n{% endfor %}",
            "line 2: SecurityError: access to attribute '__class__' of 'str' object is unsafe.",
        ),
        (
            "{% for e in entries %}{{ e.loc }}{% endfor %}{{ undefined_name }}",
            "line 1: UndefinedError: 'undefined_name' is undefined",
        ),
    ],
)
def test_an_error_in_template_code_is_one_line_naming_the_template(  # type: ignore[no-untyped-def]
    tmp_path, source: str, message: str
) -> None:
    (tmp_path / TEXT_TEMPLATE).write_text(source, encoding="utf-8")
    template = load_template(make_environment(tmp_path), TEXT_TEMPLATE)
    with pytest.raises(TemplateError) as caught:
        list(render_sitemaps(entries(30), template, max_urls=10, max_bytes=10_000))
    assert str(caught.value) == f"template {TEXT_TEMPLATE}, {message}"


def test_an_error_in_an_included_template_names_both(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "part.j2").write_text("\n\n{{ 1 // 0 }}", encoding="utf-8")
    (tmp_path / TEXT_TEMPLATE).write_text(
        '{% for e in entries %}{% include "part.j2" %}{% endfor %}', encoding="utf-8"
    )
    template = load_template(make_environment(tmp_path), TEXT_TEMPLATE)
    with pytest.raises(TemplateError) as caught:
        list(render_sitemaps(entries(3), template, max_urls=10, max_bytes=10_000))
    assert str(caught.value) == (
        f"template {TEXT_TEMPLATE} (in {tmp_path / 'part.j2'}), line 3: "
        "ZeroDivisionError: integer division or modulo by zero"
    )


def extension_entries(count: int, seed: int) -> list[Entry]:
    """Entries of every kind: plain, with 1 to 40 alternates, with images, with both."""
    rng = random.Random(seed)
    made = []
    for i in range(count):
        loc = f"https://example.com/p/{i}/"
        kind = rng.randrange(4)
        alternates = tuple(
            Alternate(f"l{n}", f"https://example.com/l{n}/p/{i}/&x")
            for n in range(rng.randint(1, 40) if kind & 1 else 0)
        )
        images = tuple(
            Image(f"https://example.com/i/{i}-{n}.png")
            for n in range(rng.randint(1, 5) * (kind >> 1))
        )
        made.append(Entry(loc, None, None, None, alternates, images))
    return made


@pytest.mark.parametrize("seed", range(6))
def test_extensions_split_byte_exactly_and_as_jinja_does(urlset, tmp_path, seed: int) -> None:  # type: ignore[no-untyped-def]
    # The built-in template with a no-op filter: rendered by Jinja, whose split renders each
    # file and bisects, so it is exact by construction. The compiled path must agree.
    source = (TEMPLATES / URLSET_TEMPLATE).read_text(encoding="utf-8")
    (tmp_path / URLSET_TEMPLATE).write_text(
        source.replace("{{ entry.loc }}", "{{ entry.loc | string }}"), encoding="utf-8"
    )
    jinja = load_template(make_environment(tmp_path), URLSET_TEMPLATE)
    assert compile_template(jinja) is None and compile_template(urlset) is not None
    items = extension_entries(60, seed)
    for max_bytes in (6_000, 7_777, 12_345, 1_000_000):
        compiled = list(render_sitemaps(iter(items), urlset, max_urls=25, max_bytes=max_bytes))
        by_jinja = list(render_sitemaps(iter(items), jinja, max_urls=25, max_bytes=max_bytes))
        assert [r.data for r in compiled] == [r.data for r in by_jinja]
        assert sum(r.url_count for r in compiled) == 60
        for part in compiled:
            assert len(part.data) <= max_bytes
            text = part.data.decode()
            assert ("xmlns:xhtml=" in text) == ("<xhtml:link" in text)
            assert ("xmlns:image=" in text) == ("<image:image>" in text)
