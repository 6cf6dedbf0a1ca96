"""User templates run sandboxed: what they reach, how they fail (one line, nothing written)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import jinja2
import pytest

from conftest import BASE_URL, SiteMaker, page
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.entries import Alternate, Entry, Image
from sitemill.errors import TemplateError
from sitemill.render._split import render_sitemaps
from sitemill.render.compiled import compile_template
from sitemill.render.environment import (
    INDEX_TEMPLATE,
    TEXT_TEMPLATE,
    URLSET_TEMPLATE,
    load_template,
    make_environment,
)
from sitemill.render.templatenames import MAX_TEMPLATE_BYTES
from sitemill.sinks import LocalDirSink, MemorySink

LOOP = "{% for entry in entries %}<url><loc>{{ entry.loc }}</loc></url>{% endfor %}"
URLSET = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{}\n</urlset>\n'
)
SECRET = "the-secret-outside"

# (what the template does, its urlset.xml.j2, what the error line says)
HOSTILE = {
    "include ..": ('{% include "../secret.txt" %}' + LOOP, "'../secret.txt' is outside"),
    "include /": ('{% include "{outside}/secret.txt" %}' + LOOP, "is outside templates_dir"),
    "include a link out": ('{% include "link.j2" %}' + LOOP, "'link.j2' is a link that leads"),
    "import ..": ('{% import "../secret.txt" as s %}' + LOOP, "'../secret.txt' is outside"),
    "extends /": ('{% extends "{outside}/secret.txt" %}', "is outside templates_dir"),
    "globals of a function": (
        "{{ cycler.__init__.__globals__ }}" + LOOP,
        "SecurityError: access to attribute '__init__'",
    ),
    "class of an entry": (
        "{% for entry in entries %}{{ entry.__class__.__mro__ }}{% endfor %}",
        "SecurityError: access to attribute '__class__' of 'Entry' object is unsafe",
    ),
    "class of a string": ("{{ ''.__class__.__mro__ }}" + LOOP, "SecurityError"),
    "the template's context": (
        "{{ self._TemplateReference__context }}" + LOOP,
        "SecurityError: access to attribute '_TemplateReference__context'",
    ),
    "attr filter": ("{{ entries | attr('__class__') }}" + LOOP, "SecurityError"),
    "str.format": ("{{ '{0.__class__}'.format(entries) }}" + LOOP, "SecurityError"),
    "changing the entries": ("{{ entries.clear() }}" + LOOP, "SecurityError: access to attr"),
    "1/0": ("{% for entry in entries %}{{ 1/0 }}{% endfor %}", "ZeroDivisionError: division"),
    "a type error": ("{% for entry in entries %}{{ entry.loc + 1 }}{% endfor %}", "TypeError"),
    "recursive macro": (
        "{% macro deeper(n) %}{{ deeper(n + 1) }}{% endmacro %}{{ deeper(0) }}" + LOOP,
        "RecursionError: maximum recursion depth exceeded",
    ),
    "huge range": ("{% for i in range(10**9) %}{% endfor %}" + LOOP, "MAX_RANGE (100000)"),
    "huge string": ("{{ 'x' * 10**9 }}" + LOOP, "a sequence of 1000000000 items is too large"),
    "huge power": ("{{ 7 ** (10**9) }}" + LOOP, "is too large for a template"),
    "syntax error": ("\n" + LOOP + "\n{% if %}", "line 3: syntax error"),
    "undefined field": ("{% for entry in entries %}{{ entry.url }}{% endfor %}", "UndefinedError"),
    "missing include": ('{% include "nowhere.j2" %}' + LOOP, "no template named 'nowhere.j2'"),
    "a FIFO": ('{% include "fifo.j2" %}' + LOOP, "'fifo.j2' is not a regular file"),
    "a huge include": ('{% include "huge.j2" %}' + LOOP, f"larger than {MAX_TEMPLATE_BYTES}"),
    "not UTF-8": ('{% include "latin1.j2" %}' + LOOP, "'latin1.j2' is not UTF-8 text"),
}


@pytest.fixture
def templates(tmp_path: Path) -> Path:
    """A templates_dir beside a folder it must not reach, with odd files to include."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET, encoding="utf-8")
    (tmp_path / "secret.txt").write_text(SECRET, encoding="utf-8")
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "link.j2").symlink_to(outside / "secret.txt")
    os.mkfifo(folder / "fifo.j2")
    (folder / "huge.j2").write_text("x" * (MAX_TEMPLATE_BYTES + 1), encoding="utf-8")
    (folder / "latin1.j2").write_bytes("caf\xe9".encode("latin-1"))
    return folder


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {
        path.name: (path.read_bytes(), path.stat().st_mtime_ns) for path in sorted(folder.iterdir())
    }


def build(site: Path, out: Path, templates: Path | None = None, **values: object) -> None:
    settings = {"base_url": BASE_URL, "lastmod": "none", **values}
    if templates is not None:
        settings["templates_dir"] = str(templates)
    build_from_tree(load_config(settings), site, LocalDirSink(out), output_dir=out)


@pytest.fixture
def site(make_site: SiteMaker) -> Path:
    return make_site({"index.html": page(), "a.html": page(), "b/c.html": page()})


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_template_is_one_error_line_and_nothing_is_written(
    case: str, templates: Path, site: Path, tmp_path: Path
) -> None:
    source, message = HOSTILE[case]
    source = source.replace("{outside}", str(tmp_path / "outside"))
    (templates / URLSET_TEMPLATE).write_text(source, encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    build(site, out)  # the previous output, with the built-in templates
    before = snapshot(out)
    with pytest.raises(TemplateError) as caught:
        build(site, out, templates)
    line = str(caught.value)
    assert line.startswith(f"template {URLSET_TEMPLATE}"), line
    assert message in line, line
    assert "\n" not in line and SECRET not in line
    assert snapshot(out) == before


def test_ill_formed_output_of_a_template_writes_nothing(
    templates: Path, site: Path, tmp_path: Path
) -> None:
    (templates / URLSET_TEMPLATE).write_text(
        URLSET.format("{% for entry in entries %}<url>{% endfor %}"), encoding="utf-8"
    )
    out = tmp_path / "out"
    out.mkdir()
    build(site, out)
    before = snapshot(out)
    with pytest.raises(TemplateError, match="not well-formed") as caught:
        build(site, out, templates)
    assert "\n" not in str(caught.value)
    assert snapshot(out) == before


@pytest.mark.parametrize("case", ["1/0", "huge range", "class of an entry"])
def test_a_failing_index_template_writes_nothing(
    case: str, templates: Path, site: Path, tmp_path: Path
) -> None:
    source, message = HOSTILE[case]
    loop = source.replace("entries", "sitemaps").replace("entry", "sitemap")
    (templates / INDEX_TEMPLATE).write_text(loop, encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    build(site, out, max_urls=1)  # an index and three children
    before = snapshot(out)
    with pytest.raises(TemplateError) as caught:
        build(site, out, templates, max_urls=1)
    assert str(caught.value).startswith(f"template {INDEX_TEMPLATE}")
    assert message.replace("Entry", "IndexItem") in str(caught.value)
    assert snapshot(out) == before


def test_a_template_that_is_a_link_out_is_refused_not_replaced(
    templates: Path, tmp_path: Path
) -> None:
    # Not found would fall back to the built-in urlset: a link out is an error instead.
    (templates / URLSET_TEMPLATE).symlink_to(tmp_path / "outside" / "secret.txt")
    with pytest.raises(TemplateError, match="is a link that leads outside templates_dir"):
        load_template(make_environment(templates), URLSET_TEMPLATE)


def test_links_inside_templates_dir_are_followed(templates: Path) -> None:
    (templates / "parts").mkdir()
    (templates / "parts" / "loop.j2").write_text(LOOP, encoding="utf-8")
    (templates / "loop-link.j2").symlink_to(templates / "parts" / "loop.j2")
    (templates / URLSET_TEMPLATE).write_text(
        URLSET.format('{% include "loop-link.j2" %}'), encoding="utf-8"
    )
    template = load_template(make_environment(templates), URLSET_TEMPLATE)
    (rendered,) = render_sitemaps(
        iter([Entry("https://example.com/a")]), template, max_urls=10, max_bytes=10_000
    )
    assert b"<loc>https://example.com/a</loc>" in rendered.data


def test_the_cli_prints_one_line_and_writes_nothing(
    templates: Path, site: Path, tmp_path: Path
) -> None:
    (templates / URLSET_TEMPLATE).write_text(HOSTILE["1/0"][0], encoding="utf-8")
    out = tmp_path / "out"
    sitemill = str(Path(sys.executable).parent / "sitemill")
    args = [sitemill, "build", str(site), "--base-url", BASE_URL, "--out", str(out)]
    env = {k: v for k, v in os.environ.items() if not k.startswith("SITEMILL_")}
    result = subprocess.run(
        [*args, "--templates-dir", str(templates)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert f"template {URLSET_TEMPLATE}, line 1: ZeroDivisionError" in result.stderr
    assert not out.exists() or not any(out.iterdir())


def plain_environment(templates: Path) -> jinja2.Environment:
    """The environment sitemill used before the sandbox: the same settings, unsandboxed."""
    builtin = Path(__file__).resolve().parents[2] / "templates"
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader([templates, builtin]),
        autoescape=lambda name: name is None or not name.endswith(".txt.j2"),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


USER_TEMPLATES = {
    "filters.xml.j2": URLSET.format(
        "{% for entry in entries %}<url><loc>{{ entry.loc | lower }}</loc>"
        "{% if entry.lastmod %}<lastmod>{{ entry.lastmod[:10] }}</lastmod>{% endif %}"
        "<!-- {{ loop.index }} of {{ '%05d' % loop.index }} {{ 3 * 'ab' }} {{ 2 ** 10 }} -->"
        "</url>\n{% endfor %}"
    ),
    "macro.txt.j2": "{% macro line(e) %}{{ e.loc }} & {{ e.priority or '-' }}{% endmacro %}"
    "{% for entry in entries %}{{ line(entry) }}\r\n{% endfor %}",
}


@pytest.mark.parametrize("name", [URLSET_TEMPLATE, TEXT_TEMPLATE, *USER_TEMPLATES])
def test_the_sandbox_changes_no_byte_of_the_output(name: str, templates: Path) -> None:
    for file, text in USER_TEMPLATES.items():
        (templates / file).write_text(text, encoding="utf-8", newline="")
    entries = [
        Entry("https://example.com/a?x=1&y=<2>", "2024-01-02T03:04:05+00:00", "daily", "0.5"),
        Entry("https://example.com/É'\"", None, None, None),
        Entry(
            "https://example.com/b",
            alternates=(Alternate("en-GB", "https://example.com/b?a=1&b=<2>"),),
            images=(Image("https://example.com/i&'.png"),),
        ),
    ]
    sandboxed = load_template(make_environment(templates), name)
    plain = plain_environment(templates).get_template(name)
    flags = {"uses_alternates": True, "uses_images": False}
    assert sandboxed.render(entries=entries, **flags) == plain.render(entries=entries, **flags)
    index = load_template(make_environment(templates), INDEX_TEMPLATE)
    items = [{"loc": "https://example.com/sitemap-1.xml", "lastmod": "2024-01-02"}]
    assert index.render(sitemaps=items) == plain_environment(templates).get_template(
        INDEX_TEMPLATE
    ).render(sitemaps=items)


@pytest.mark.parametrize(
    "source",
    [
        "{% for entry in entries %}{{ entry.__class__ }}{% endfor %}",
        "{% for entry in entries %}{% if entry.__class__ %}x{% endif %}{% endfor %}",
        "{% for entry in entries %}{{ entry.loc.__class__.__mro__ }}{% endfor %}",
        "{{ ''.__class__ }}{% for entry in entries %}{{ entry.loc }}{% endfor %}",
        "{% for entry in entries %}{{ entry.loc | attr('__class__') }}{% endfor %}",
        "{% for entry in entries.__class__.__mro__ %}{{ entry.loc }}{% endfor %}",
        "{% for entry in entries %}{{ entry._replace(loc='x') }}{% endfor %}",
    ],
)
def test_hostile_templates_are_never_compiled(source: str, templates: Path) -> None:
    (templates / URLSET_TEMPLATE).write_text(source, encoding="utf-8")
    template = load_template(make_environment(templates), URLSET_TEMPLATE)
    assert compile_template(template) is None  # Jinja's sandbox renders them, and refuses
    with pytest.raises(TemplateError) as caught:
        list(render_sitemaps(iter([Entry("https://e.com/")]), template, max_urls=9, max_bytes=99))
    assert "SecurityError" in str(caught.value) and "\n" not in str(caught.value)


def test_only_a_users_template_pays_for_the_well_formed_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The built-in templates are well-formed by construction (the renderer fence and the XSD
    tests hold them to it): checking their output again would cost ~15 % of a large run."""
    from sitemill.render import indexes, renderer

    calls: list[str] = []
    for module in (indexes, renderer):
        monkeypatch.setattr(module, "check_well_formed", lambda name, data: calls.append(name))
    site = tmp_path / "site"
    site.mkdir()
    for number in range(3):
        (site / f"p{number}.html").write_text("<title>x</title>")
    config = load_config({"base_url": "https://example.com/", "max_urls": 2})
    build_from_tree(config, site, MemorySink())
    assert calls == []
    templates = tmp_path / "templates"
    templates.mkdir()
    builtin = Path(__file__).resolve().parents[2] / "templates"
    for name in ("urlset.xml.j2", "sitemapindex.xml.j2"):
        (templates / name).write_text((builtin / name).read_text())
    user = load_config(
        {"base_url": "https://example.com/", "max_urls": 2, "templates_dir": str(templates)}
    )
    build_from_tree(user, site, MemorySink())
    *children, index = sorted(calls)
    assert index == "sitemap.xml"
    assert len(children) == 2 and all(name.startswith("sitemap-r") for name in children)
