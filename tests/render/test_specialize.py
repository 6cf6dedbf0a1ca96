"""Compiled templates write exactly what Jinja writes, and anything else falls back to Jinja."""

from __future__ import annotations

from pathlib import Path

import jinja2
import markupsafe
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemill.entries import Alternate, Entry, Image
from sitemill.render._compiledform import xml_escape
from sitemill.render.compiled import compile_template
from sitemill.render.environment import (
    TEXT_TEMPLATE,
    URLSET_TEMPLATE,
    load_template,
    make_environment,
)

field = st.one_of(st.none(), st.text(), st.sampled_from(["", "a&b", "<'\">", "0.5"]))
text = st.one_of(st.text(), st.sampled_from(["", "a&b", "<'\">", "%s", "x-default"]))
alternates = st.lists(st.builds(Alternate, text, text), max_size=3).map(tuple)
images = st.lists(st.builds(Image, text), max_size=3).map(tuple)
entries = st.lists(
    st.builds(Entry, st.text(min_size=1), field, field, field, alternates, images), max_size=8
)
FLAGS = [(False, False), (True, False), (False, True), (True, True)]

SIMPLE_TEMPLATES = {
    "ws.xml.j2": "<r>\n{%- for e in entries -%}\n  <u>{{ e.loc }}</u>{% if e.priority %}"
    "<p>{{e.priority}}</p>{% else %}<n/>{% endif %}\n{%- endfor %}\n</r>",
    "nested.xml.j2": "{% for e in entries %}{% if e.lastmod %}{% if e.changefreq %}"
    "{{ e.changefreq }}{% endif %}|{{ e.lastmod }}{% endif %};{% endfor %}",
    "plain.txt.j2": "# list\n{% for e in entries %}{{ e.loc }} {{ e.lastmod }}\n{% endfor %}",
    "ext.xml.j2": "<r{% if uses_images %} i{% endif %}>{% for e in entries %}{{ e.loc }}"
    "{% for a in e.alternates %}{% if a.hreflang %}[{{ a.hreflang }}]{% endif %}{{ a.href }}"
    "{% endfor %}{% if e.images %}{% for i in e.images %}({{ i.loc }}){% endfor %}{% endif %}"
    "{% endfor %}</r>",
}
UNSUPPORTED_TEMPLATES = {
    "filter.xml.j2": "{% for e in entries %}{{ e.loc | upper }}{% endfor %}",
    "loop.xml.j2": "{% for e in entries %}{{ loop.index }}{{ e.loc }}{% endfor %}",
    "expr.xml.j2": "{% for e in entries %}{{ e.loc ~ '/' }}{% endfor %}",
    "test.xml.j2": "{% for e in entries %}{% if e.loc.endswith('x') %}x{% endif %}{% endfor %}",
    "two.xml.j2": "{% for e in entries %}{% endfor %}{% for e in entries %}{% endfor %}",
    "other.xml.j2": "{% for e in things %}{{ e.loc }}{% endfor %}",
    "outside.xml.j2": "{{ title }}{% for e in entries %}{{ e.loc }}{% endfor %}",
    "attr.xml.j2": "{% for e in entries %}{{ e.url }}{% endfor %}",
    "set.xml.j2": "{% for e in entries %}{% set x = 1 %}{{ e.loc }}{% endfor %}",
    # Reaching past the four fields: the sandboxed Jinja renders these, and refuses them.
    "dunder.xml.j2": "{% for e in entries %}{{ e.__class__ }}{% endfor %}",
    "dunder-if.xml.j2": "{% for e in entries %}{% if e.__class__ %}x{% endif %}{% endfor %}",
    "deeper.xml.j2": "{% for e in entries %}{{ e.loc.__class__.__mro__ }}{% endfor %}",
    "private.xml.j2": "{% for e in entries %}{{ e._replace(loc='x') }}{% endfor %}",
    "method.xml.j2": "{% for e in entries %}{{ e.count }}{{ e.loc.upper() }}{% endfor %}",
    "iter.xml.j2": "{% for e in entries.__class__.__mro__ %}{{ e.loc }}{% endfor %}",
    "item.xml.j2": "{% for e in entries %}{{ e['loc'] }}{% endfor %}",
    "global.xml.j2": "{{ cycler.__init__.__globals__ }}{% for e in entries %}{% endfor %}",
    "include.xml.j2": '{% include "plain.txt.j2" %}{% for e in entries %}{% endfor %}',
    "extends.xml.j2": '{% extends "plain.txt.j2" %}',
    "import.xml.j2": '{% import "plain.txt.j2" as p %}{% for e in entries %}{% endfor %}',
    "deep-loop.xml.j2": "{% for e in entries %}{% for a in e.alternates %}"
    "{% for b in e.images %}{% endfor %}{% endfor %}{% endfor %}",
    "item-dunder.xml.j2": "{% for e in entries %}{% for a in e.alternates %}{{ a.__class__ }}"
    "{% endfor %}{% endfor %}",
    "loop-of-loc.xml.j2": "{% for e in entries %}{% for c in e.loc %}{{ c }}{% endfor %}"
    "{% endfor %}",
    "flag-else.xml.j2": "{% if uses_images %}i{% else %}n{% endif %}{% for e in entries %}"
    "{% endfor %}",
}


@pytest.fixture(scope="module")
def custom_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("templates")
    for name, text in {**SIMPLE_TEMPLATES, **UNSUPPORTED_TEMPLATES}.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def jinja_output(
    template: jinja2.Template, items: list[Entry], flags: tuple[bool, bool] = (False, False)
) -> str:
    return "".join(template.generate(entries=items, uses_alternates=flags[0], uses_images=flags[1]))


def compiled_output(
    template: jinja2.Template, items: list[Entry], flags: tuple[bool, bool] = (False, False)
) -> str:
    compiled = compile_template(template)
    assert compiled is not None, template.name
    assert compiled.render_batch(items) == list(map(compiled.render_entry, items))
    plain = [item for item in items if not item.alternates and not item.images]
    assert compiled.render_plain_batch(plain) == list(map(compiled.render_entry, plain))
    header = compiled.header_for(*flags)
    return header + "".join(map(compiled.render_entry, items)) + compiled.footer


@settings(max_examples=80, deadline=None)
@given(entries)
def test_builtin_templates_compile_to_identical_output(items: list[Entry]) -> None:
    environment = make_environment()
    for name in (URLSET_TEMPLATE, TEXT_TEMPLATE):
        template = load_template(environment, name)
        for flags in FLAGS:
            assert compiled_output(template, items, flags) == jinja_output(template, items, flags)


@settings(max_examples=50, deadline=None)
@given(entries)
def test_simple_user_templates_compile_to_identical_output(
    custom_dir: Path, items: list[Entry]
) -> None:
    environment = make_environment(custom_dir)
    for name in SIMPLE_TEMPLATES:
        template = load_template(environment, name)
        for flags in FLAGS:
            assert compiled_output(template, items, flags) == jinja_output(template, items, flags)


@pytest.mark.parametrize("name", sorted(UNSUPPORTED_TEMPLATES))
def test_anything_else_is_left_to_jinja(custom_dir: Path, name: str) -> None:
    template = load_template(make_environment(custom_dir), name)
    assert compile_template(template) is None


def test_index_template_is_rendered_by_jinja() -> None:
    assert compile_template(load_template(make_environment(), "sitemapindex.xml.j2")) is None


@given(st.one_of(st.text(), st.integers(), st.none(), st.floats(allow_nan=False)))
def test_xml_escape_matches_markupsafe(value: object) -> None:
    assert xml_escape(value) == str(markupsafe.escape(value))
