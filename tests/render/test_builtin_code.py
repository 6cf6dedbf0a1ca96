"""The built-in templates render without Jinja, to the bytes Jinja renders of their files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from builtincode_source import current_parts, module_source

from sitemill.entries import Alternate, Entry, Image
from sitemill.render._builtincode import BUILTIN_PARTS, builtin_compiled, render_builtin_index
from sitemill.render.compiled import compile_template
from sitemill.render.environment import load_template, make_environment
from sitemill.render.indexes import IndexItem, render_index
from sitemill.render.templatenames import INDEX_TEMPLATE

SRC = Path(__file__).resolve().parents[2] / "src"
ODD = "https://example.com/a&b<c>'d\"e/é"


def test_the_kept_parts_are_what_the_template_files_compile_to() -> None:
    assert current_parts() == BUILTIN_PARTS, (
        "a built-in template changed: PYTHONPATH=src python tests/render/builtincode_source.py "
        "> src/sitemill/render/builtincode.py\n" + module_source()
    )


@pytest.mark.parametrize("name", sorted(BUILTIN_PARTS))
def test_a_kept_template_renders_as_the_compiled_file(name: str) -> None:
    entries = [
        Entry(loc="https://example.com/", lastmod="2024-03-01"),
        Entry(loc=ODD, lastmod=None, changefreq="daily", priority="0.5"),
        Entry(
            loc="https://example.com/fr/",
            alternates=(Alternate("fr", "https://example.com/fr/"), Alternate("en", ODD)),
            images=(Image(ODD),),
        ),
    ]
    kept = builtin_compiled(name)
    compiled = compile_template(load_template(make_environment(None), name))
    assert compiled is not None
    assert kept.headers == compiled.headers and kept.footer == compiled.footer
    assert kept.render_batch(entries) == compiled.render_batch(entries)
    assert kept.render_plain_batch(entries) == compiled.render_plain_batch(entries)
    assert [kept.render_entry(e) for e in entries] == [compiled.render_entry(e) for e in entries]


@pytest.mark.parametrize(
    "items",
    [
        [],
        [IndexItem("https://example.com/sitemap-1.xml", None)],
        [IndexItem(ODD, "2024-03-01T12:00:00Z"), IndexItem("https://example.com/2.xml", "")],
        [IndexItem(f"https://example.com/{n}.xml", f"2024-01-{n:02d}") for n in range(1, 9)],
    ],
)
def test_the_index_is_what_jinja_renders_of_its_file(items: list[IndexItem]) -> None:
    template = load_template(make_environment(None), INDEX_TEMPLATE)
    assert render_builtin_index(items) == render_index(template, items)


CHILD = """
import json, sys
from sitemill.entries import Entry
from sitemill.render.indexes import IndexItem
from sitemill.render.renderer import Renderer
entries = [Entry(loc=f"https://example.com/{n}", lastmod="2024-03-01") for n in range(5)]
for text in (False, True):
    renderer = Renderer(None, text=text)
    files = list(renderer.render_sitemaps(iter(entries), max_urls=2, max_bytes=50_000))
    renderer.render_indexes([IndexItem("https://example.com/s.xml", None)] * 3,
                            max_per_index=2, max_bytes=50_000)
print(json.dumps(sorted(name for name in sys.modules if name.split(".")[0] in
                        ("jinja2", "markupsafe"))))
"""


def test_a_run_with_the_built_in_templates_imports_no_jinja() -> None:
    # (Jinja was about a fifth of the Lambda's cold start: every run made its environment)
    done = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(SRC)!r})\n" + CHILD],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout) == []
