"""The renderer fence: the compiled path writes every byte that Jinja writes.

The writer (and the jobs above it) run twice over the same entries: as they run in
production, where the urlset and text templates come compiled to plain Python and the index
is written without Jinja (sitemill.render._builtincode), and with the compiler switched off and the
templates read by Jinja (an empty templates_dir: each falls back to its built-in file), so that
Jinja renders every file. Every output file, its content type and the write result must be
the same, over the layouts the writer produces (one file, splits on count and on bytes, gzip,
several indexes), both formats, both lastmod precisions and entries whose fields need escaping.
"""

from __future__ import annotations

import gzip
import logging
import tempfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path

import jinja2
import pytest

from outputlist import build_from_url_list
from sitemill.config.model import Config, load_config
from sitemill.entries import Entry
from sitemill.errors import TemplateError
from sitemill.filenames.outputs import ENTRY_TXT, ENTRY_XML
from sitemill.protocol import ChangeFreq, Precision, format_lastmod
from sitemill.render import _builtincode as builtin
from sitemill.render import _split as split
from sitemill.render import compiled as compiler
from sitemill.render import renderer
from sitemill.render.compiled import CompiledTemplate, Declined, try_compile_template
from sitemill.render.environment import TEXT_TEMPLATE, URLSET_TEMPLATE
from sitemill.report import WriteResult
from sitemill.sinks import MemorySink
from sitemill.writing import writer
from sitemill.writing.writer import WriteSetup, write_sitemaps

BASE = "https://example.com/"
SWITCHED_OFF = Declined("switched off by the fence")

# Paths whose <loc> needs XML escaping (& < > ' "), is not ASCII (its UTF-8 size differs
# from its length, which the byte split must count), or holds percent escapes.
ODD_PATHS = [
    "a&b.html",
    "search?q=1&sort=<asc>",
    "it's.html",
    'say-"hi".html',
    "caf%C3%A9/menu.html",
    "café/menu.html",
    "日本語/ページ.html",
    "emoji-🎉/",
    "100%25-pure",
    "%3Cscript%3E",
    "a>b&amp;c",
    "plain/page.html",
]
CHANGEFREQS = [None, *(freq.value for freq in ChangeFreq)]
PRIORITIES = [None, "0.0", "0.5", "0.85", "1.0", ""]  # "" and None are both left out


def make_entries(precision: Precision, *, odd: bool, count: int = 90) -> list[Entry]:
    """Entries with and without each optional field, in changing combinations."""
    entries = []
    for i in range(count):
        path = f"{ODD_PATHS[i % len(ODD_PATHS)]}/{i}" if odd else f"p/{i}.html"
        moment = datetime(2024, 1 + i % 12, 1 + i % 28, i % 24, i % 60, (7 * i) % 60, tzinfo=UTC)
        if i % 5 == 0:
            lastmod: str | None = None
        elif i % 13 == 0:
            lastmod = ""
        elif i % 4 == 0:  # a bare date stays a date, whatever the precision
            lastmod = format_lastmod(date(2023, 1 + i % 12, 1 + i % 28), precision)
        else:
            lastmod = format_lastmod(moment, precision)
        changefreq = CHANGEFREQS[i % len(CHANGEFREQS)]
        priority = PRIORITIES[i % len(PRIORITIES)]
        entries.append(Entry(BASE + path, lastmod, changefreq, priority))
    return entries


@dataclass
class Output:
    """What one run wrote, and which way each sitemap template was rendered."""

    files: dict[str, bytes]
    content_types: dict[str, str]
    result: WriteResult
    progress: list[tuple[str, int]]
    paths: list[tuple[str | None, str]]  # (template, "compiled" or "jinja")


OnFile = Callable[[str, int], None]
Write = Callable[[MemorySink, OnFile], WriteResult]


def run(monkeypatch: pytest.MonkeyPatch, write: Write, *, compiled: bool) -> Output:
    """Run ``write(sink, on_file)``, with the compiler as it is or switched off."""
    paths: list[tuple[str | None, str]] = []

    def compile_or_not(template: jinja2.Template) -> CompiledTemplate | Declined:
        outcome = try_compile_template(template) if compiled else SWITCHED_OFF
        path = "compiled" if isinstance(outcome, CompiledTemplate) else "jinja"
        paths.append((template.name, path))
        return outcome

    def kept(name: str) -> CompiledTemplate:
        paths.append((name, "compiled"))
        return builtin.builtin_compiled(name)

    class ReadByJinja(renderer.Renderer):
        def __init__(self, templates_dir: Path | None, *, text: bool) -> None:
            super().__init__(templates_dir or Path(empty), text=text)

    sink = MemorySink()
    progress: list[tuple[str, int]] = []
    with monkeypatch.context() as patch, tempfile.TemporaryDirectory() as empty:
        patch.setattr(compiler, "try_compile_template", compile_or_not)
        patch.setattr(renderer, "builtin_compiled", kept)
        if not compiled:
            patch.setattr(writer, "Renderer", ReadByJinja)
        result = write(sink, lambda name, count: progress.append((name, count)))
    return Output(dict(sink.files), dict(sink.content_types), result, progress, paths)


def assert_same_output(fast: Output, slow: Output) -> None:
    assert list(fast.files) == list(slow.files)
    for name, data in fast.files.items():
        other = slow.files[name]
        if data != other:
            at = next(
                (i for i, (a, b) in enumerate(zip(data, other, strict=False)) if a != b),
                min(len(data), len(other)),
            )
            near = slice(max(at - 40, 0), at + 40)
            pytest.fail(f"{name} differs at byte {at}: {data[near]!r} != {other[near]!r}")
    assert fast.content_types == slow.content_types
    assert fast.result == slow.result
    assert fast.progress == slow.progress


def assert_paths(fast: Output, slow: Output, template: str) -> None:
    """The fence compares two different paths, not one path with itself."""
    assert fast.paths == [(template, "compiled")]
    assert slow.paths == [(template, "jinja")]


# name -> config values; each layout is checked to be what its name says (see check_layout).
LAYOUTS: dict[str, dict[str, object]] = {
    "one file": {},
    "split on max_urls": {"max_urls": 7},
    "split on max_bytes": {"max_bytes": 2_000},
    "gzip, split on max_urls": {"gzip": True, "max_urls": 13},
    "gzip, split on max_bytes": {"gzip": True, "max_bytes": 1_500},
    "several indexes": {"max_urls": 3, "max_sitemaps_per_index": 4},
    "indexes over max_bytes": {"max_urls": 2, "max_bytes": 1_100},
}
FORMATS = {"xml": URLSET_TEMPLATE, "txt": TEXT_TEMPLATE}


def make_config(format_: str, values: Mapping[str, object], **more: object) -> Config:
    return load_config({"base_url": BASE, "format": format_, **values, **more})


def check_layout(layout: str, config: Config, output: Output) -> None:
    entry = ENTRY_TXT if config.format.value == "txt" else ENTRY_XML
    files = output.result.files
    if layout == "one file":
        assert files == [entry]
        return
    children = [name for name in files if name not in output.result.entry_files]
    assert len(children) > 1 and output.result.entry_files[0] == ENTRY_XML
    assert all(name.endswith(".gz") for name in children) is config.gzip
    if "indexes" in layout:
        assert "sitemap-index-2.xml" in files
    if "split on max_bytes" in layout:
        sizes = []
        for name in children:
            data = output.files[name]
            sizes.append(len(gzip.decompress(data) if config.gzip else data))
        assert max(sizes) <= config.max_bytes
        counts = [count for _, count in output.progress]
        per_file = [b - a for a, b in zip([0, *counts], counts, strict=False)]
        assert max(per_file[:-1]) < config.max_urls  # bytes, not the count, ended the files


@pytest.mark.parametrize("odd", [False, True], ids=["plain", "odd characters"])
@pytest.mark.parametrize("precision", list(Precision), ids=lambda p: f"lastmod {p.value}")
@pytest.mark.parametrize("format_", sorted(FORMATS))
@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_the_writer_writes_the_same_bytes_either_way(
    monkeypatch: pytest.MonkeyPatch, layout: str, format_: str, precision: Precision, odd: bool
) -> None:
    entries = make_entries(precision, odd=odd)
    config = make_config(format_, LAYOUTS[layout])

    def write(sink: MemorySink, on_file: OnFile) -> WriteResult:
        return write_sitemaps(iter(entries), sink, config, WriteSetup(on_file=on_file))

    fast = run(monkeypatch, write, compiled=True)
    slow = run(monkeypatch, write, compiled=False)
    assert_paths(fast, slow, FORMATS[format_])
    check_layout(layout, config, fast)
    assert_same_output(fast, slow)


@pytest.mark.parametrize("format_", sorted(FORMATS))
@pytest.mark.parametrize("odd", [False, True], ids=["plain", "odd characters"])
def test_a_file_that_fills_max_bytes_exactly_is_split_the_same_way(
    monkeypatch: pytest.MonkeyPatch, format_: str, odd: bool
) -> None:
    entries = make_entries(Precision.DATETIME, odd=odd, count=120)
    sink = MemorySink()
    whole = write_sitemaps(iter(entries), sink, make_config(format_, {}))
    size = len(sink.files[whole.files[0]])
    for max_bytes in (size, size - 1, size // 2, size // 2 + 1):
        config = make_config(format_, {"max_bytes": max_bytes})

        def write(sink: MemorySink, on_file: OnFile, config: Config = config) -> WriteResult:
            return write_sitemaps(iter(entries), sink, config, WriteSetup(on_file=on_file))

        fast = run(monkeypatch, write, compiled=True)
        slow = run(monkeypatch, write, compiled=False)
        assert (len(fast.files) == 1) is (max_bytes == size)
        assert_same_output(fast, slow)


@pytest.mark.parametrize("format_", sorted(FORMATS))
def test_an_entry_too_large_for_max_bytes_is_the_same_error(
    monkeypatch: pytest.MonkeyPatch, format_: str
) -> None:
    entries = [*make_entries(Precision.DATE, odd=True, count=5), Entry(BASE + "é" * 600)]
    config = make_config(format_, {"max_bytes": 1_024})
    messages = []
    for compiled in (True, False):

        def write(sink: MemorySink, on_file: OnFile) -> WriteResult:
            return write_sitemaps(iter(entries), sink, config, WriteSetup(on_file=on_file))

        with pytest.raises(TemplateError) as caught:
            run(monkeypatch, write, compiled=compiled)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
    assert messages[0].startswith("one URL does not fit in max_bytes (1024 bytes): ")


# A user's own templates that compile (checked for well-formed XML, unlike the built-in ones).
USER_TEMPLATES = {
    URLSET_TEMPLATE: '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    "{%- for e in entries %}\n<url>{% if e.priority %}<priority>{{ e.priority }}</priority>"
    "{% else %}<!-- - -->{% endif %}<loc>{{ e.loc }}</loc>"
    "{% if e.lastmod %}<lastmod>{{ e.lastmod }}</lastmod>{% endif %}</url>\n"
    "{%- endfor %}\n</urlset>\n",
    TEXT_TEMPLATE: "{% for e in entries %}{{ e.loc }}\r\n{% endfor %}",
}


@pytest.mark.parametrize("format_", sorted(FORMATS))
@pytest.mark.parametrize("layout", ["one file", "split on max_bytes", "several indexes"])
def test_a_user_template_that_compiles_writes_the_same_bytes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, layout: str, format_: str
) -> None:
    for name, text in USER_TEMPLATES.items():
        (tmp_path / name).write_text(text, encoding="utf-8", newline="")
    entries = make_entries(Precision.DATETIME, odd=True)
    config = make_config(format_, LAYOUTS[layout], templates_dir=str(tmp_path))

    def write(sink: MemorySink, on_file: OnFile) -> WriteResult:
        return write_sitemaps(iter(entries), sink, config, WriteSetup(on_file=on_file))

    fast = run(monkeypatch, write, compiled=True)
    slow = run(monkeypatch, write, compiled=False)
    assert_paths(fast, slow, FORMATS[format_])
    check_layout(layout, config, fast)
    assert_same_output(fast, slow)


def url_list(count: int) -> Iterator[str]:
    """A URL list as users write one: raw characters, escapes, and dates of both shapes."""
    for i in range(count):
        path = ODD_PATHS[i % len(ODD_PATHS)].replace("&amp;", "&")
        stamp = ["", "\t2024-05-06", "\t2024-05-06T07:08:09Z", "\t2024-05-06T09:08:09+02:00"]
        yield f"{BASE}{path}/{i}{stamp[i % len(stamp)]}\n"


@pytest.mark.parametrize("precision", list(Precision), ids=lambda p: f"lastmod {p.value}")
@pytest.mark.parametrize("format_", sorted(FORMATS))
@pytest.mark.parametrize("layout", ["one file", "gzip, split on max_bytes", "several indexes"])
def test_a_url_list_job_writes_the_same_bytes(
    monkeypatch: pytest.MonkeyPatch, layout: str, format_: str, precision: Precision
) -> None:
    # Through the job: rules set changefreq and priority, the list's dates are parsed.
    rules = [
        {"pattern": "café/**", "changefreq": "weekly", "priority": 0.25},
        {"pattern": "plain/**", "priority": 1.0},
        {"pattern": "**/*.html", "changefreq": "daily"},
    ]
    flags = {"base_url": BASE, "format": format_, "lastmod_precision": precision.value}
    config = load_config({**flags, **LAYOUTS[layout]}, {}, {"rules": rules})

    def write(sink: MemorySink, on_file: OnFile) -> WriteResult:
        return build_from_url_list(config, url_list(120), sink, progress=None).result

    fast = run(monkeypatch, write, compiled=True)
    slow = run(monkeypatch, write, compiled=False)
    assert_paths(fast, slow, FORMATS[format_])
    if format_ == "xml":
        assert b"<changefreq>weekly</changefreq><priority>0.25</priority>" in b"".join(
            gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
            for data in fast.files.values()
        )
    assert_same_output(fast, slow)


# --- why a template falls back to Jinja ------------------------------------------------

LOGGER = split.__name__
FILTERED_URLSET = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    "{% for entry in entries %}<url><loc>{{ entry.loc | lower }}</loc></url>\n{% endfor %}"
    "</urlset>\n"
)


def test_a_user_template_left_to_jinja_says_why_at_debug(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / URLSET_TEMPLATE).write_text(FILTERED_URLSET, encoding="utf-8")
    config = make_config("xml", {}, templates_dir=str(tmp_path))
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    write_sitemaps(iter(make_entries(Precision.DATE, odd=False, count=3)), MemorySink(), config)
    records = [record for record in caplog.records if record.name == LOGGER]
    assert [record.levelno for record in records] == [logging.DEBUG]
    assert records[0].getMessage() == (
        f"template {URLSET_TEMPLATE} is rendered by Jinja, not compiled: line 3: the filter "
        "'lower' where only the entry's fields (loc, lastmod, changefreq, priority, alternates, "
        "images, title, key, language, description, site_name) are compiled"
    )


@pytest.mark.parametrize("format_", sorted(FORMATS))
def test_built_in_templates_compile_and_log_nothing(
    format_: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    entries = make_entries(Precision.DATE, odd=False, count=30)
    write_sitemaps(iter(entries), MemorySink(), make_config(format_, {"max_urls": 10}))
    assert not [record for record in caplog.records if record.name == LOGGER]


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        ("{% for e in entries %}{{ e.loc | upper }}{% endfor %}", "line 1: the filter 'upper'"),
        ("{% for e in entries %}\n{{ loop.index }}{% endfor %}", "line 2: 'loop.index' where"),
        ("{% for e in entries %}{{ e.url }}{% endfor %}", "line 1: 'e.url' where only"),
        ("{% for e in entries %}{{ e.loc ~ '/' }}{% endfor %}", "line 1: a Jinja Concat node"),
        ("{% for e in entries %}{% set x = 1 %}{% endfor %}", "a Jinja Assign node inside"),
        (
            "{% for e in entries %}{% if e.loc %}a{% elif e.lastmod %}b{% endif %}{% endfor %}",
            "line 1: an {% elif %} inside the loop",
        ),
        ("{{ title }}{% for e in entries %}{% endfor %}", "the variable 'title' outside the loop"),
        ("{% for e in things %}{% endfor %}", "not a plain {% for entry in entries %}"),
        ("{% for e in entries %}{% else %}x{% endfor %}", "not a plain {% for entry in"),
        ("{% for e in entries %}{% endfor %}" * 2, "2 {% for %} loops at its top level"),
        ("no loop at all", "0 {% for %} loops at its top level"),
    ],
)
def test_a_declined_template_names_what_is_beyond_the_compiled_subset(
    tmp_path: Path, source: str, reason: str
) -> None:
    (tmp_path / URLSET_TEMPLATE).write_text(source, encoding="utf-8")
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(tmp_path), autoescape=True)
    declined = try_compile_template(environment.get_template(URLSET_TEMPLATE))
    assert isinstance(declined, Declined)
    assert reason in declined.reason and "\n" not in declined.reason
