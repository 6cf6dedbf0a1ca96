"""The writer: file names, index, gzip, unchanged files, stale children, robots.txt."""

from __future__ import annotations

import ast
import contextlib
import gzip
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from consistency import assert_one_build, locs
from sitemill.config.model import Config, load_config
from sitemill.entries import Entry
from sitemill.errors import SinkError, SourceError, TemplateError
from sitemill.filenames.outputs import content_type, is_own_name
from sitemill.filenames.staging import Staging
from sitemill.sinks import LocalDirSink, MemorySink
from sitemill.writing import writer
from sitemill.writing.writer import WriteSetup, write_sitemaps
from xsd import assert_valid_sitemaps, assert_xsd_valid

BASE = "https://example.com/"


def config(**values: object) -> Config:
    return load_config({"base_url": BASE, **values})


def entries(count: int) -> Iterator[Entry]:
    for i in range(count):
        yield Entry(f"{BASE}p/{i}.html", f"2024-02-{1 + i % 28:02d}")


def test_one_file_when_everything_fits() -> None:
    sink = MemorySink()
    result = write_sitemaps(entries(3), sink, config())
    assert result.files == ["sitemap.xml"] == result.entry_files
    assert result.url_count == 3
    assert list(sink.files) == ["sitemap.xml"]
    assert b"<urlset" in sink.files["sitemap.xml"]
    assert_xsd_valid(sink.files["sitemap.xml"])
    assert sink.content_types["sitemap.xml"] == "application/xml"


def test_index_and_children_when_split() -> None:
    sink = MemorySink()
    result = write_sitemaps(entries(25), sink, config(max_urls=10))
    assert result.files == ["sitemap.xml", "sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml"]
    index = sink.files["sitemap.xml"].decode()
    assert "<sitemapindex" in index
    assert f"<loc>{BASE}sitemap-1.xml</loc><lastmod>2024-02-10</lastmod>" in index
    assert f"<loc>{BASE}sitemap-3.xml</loc><lastmod>2024-02-25</lastmod>" in index
    for name in result.files:
        assert_xsd_valid(sink.files[name])


def test_gzip_children_are_deterministic() -> None:
    first, second = MemorySink(), MemorySink()
    write_sitemaps(entries(25), first, config(max_urls=10, gzip=True))
    write_sitemaps(entries(25), second, config(max_urls=10, gzip=True))
    assert sorted(first.files) == [
        "sitemap-1.xml.gz",
        "sitemap-2.xml.gz",
        "sitemap-3.xml.gz",
        "sitemap.xml",
    ]
    assert first.files == second.files
    child = first.files["sitemap-1.xml.gz"]
    assert child[4:8] == b"\0\0\0\0"  # gzip MTIME field is zero
    assert_xsd_valid(gzip.decompress(child))
    assert first.content_types["sitemap-1.xml.gz"] == "application/gzip"
    assert b"sitemap-1.xml.gz</loc>" in first.files["sitemap.xml"]


def test_several_indexes_when_children_exceed_one_index() -> None:
    sink = MemorySink()
    result = write_sitemaps(entries(7), sink, config(max_urls=1, max_sitemaps_per_index=3))
    assert result.entry_files == ["sitemap.xml", "sitemap-index-2.xml", "sitemap-index-3.xml"]
    assert sink.files["sitemap-index-3.xml"].count(b"<sitemap>") == 1
    assert result.files[3:] == [f"sitemap-{i}.xml" for i in range(1, 8)]


def test_text_format() -> None:
    sink = MemorySink()
    write_sitemaps(entries(2), sink, config(format="txt"))
    assert sink.files == {"sitemap.txt": f"{BASE}p/0.html\n{BASE}p/1.html\n".encode()}
    assert sink.content_types["sitemap.txt"] == "text/plain; charset=utf-8"
    split = MemorySink()
    write_sitemaps(entries(3), split, config(format="txt", max_urls=2))
    assert sorted(split.files) == ["sitemap-1.txt", "sitemap-2.txt", "sitemap.xml"]


def test_second_run_writes_nothing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    first = write_sitemaps(entries(25), LocalDirSink(out), config(max_urls=10))
    assert first.changed
    stamps = {p.name: p.stat().st_mtime_ns for p in out.iterdir()}
    second = write_sitemaps(entries(25), LocalDirSink(out), config(max_urls=10))
    assert not second.changed
    assert second.written == [] and sorted(second.unchanged) == sorted(first.files)
    assert {p.name: p.stat().st_mtime_ns for p in out.iterdir()} == stamps
    assert_valid_sitemaps(out, BASE)


def test_stale_children_are_deleted_after_the_index(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    out.mkdir()
    write_sitemaps(entries(25), LocalDirSink(out), config(max_urls=10))
    result = write_sitemaps(entries(5), LocalDirSink(out), config(max_urls=10))
    assert sorted(result.deleted) == ["sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml"]
    assert sorted(p.name for p in out.iterdir()) == ["sitemap.xml"]


def test_only_what_sitemills_earlier_index_named_is_deleted(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    out.mkdir()
    users = {
        "sitemap-9.xml.gz": b"old, named by no index",
        "sitemap-index-1.xml": b"<sitemapindex>a user's own</sitemapindex>",
        "sitemap-index-7.xml": b"<sitemapindex><sitemap><loc>https://x/blog.xml</loc></sitemap>",
        "sitemap.txt": b"https://example.com/hand-written\n",
        "sitemaps.xml": b"not ours",
        "page.html": b"not ours",
    }
    for name, data in users.items():
        (out / name).write_bytes(data)
    write_sitemaps(entries(25), LocalDirSink(out), config(max_urls=10))
    result = write_sitemaps(entries(5), LocalDirSink(out), config(max_urls=10))
    assert sorted(result.deleted) == ["sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml"]
    assert sorted(p.name for p in out.iterdir()) == sorted([*users, "sitemap.xml"])
    assert all((out / name).read_bytes() == data for name, data in users.items())


def test_switching_format_deletes_the_earlier_runs_children_only(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    write_sitemaps(entries(25), LocalDirSink(out), config(max_urls=10))
    result = write_sitemaps(entries(25), LocalDirSink(out), config(max_urls=10, format="txt"))
    assert sorted(result.deleted) == ["sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml"]
    assert sorted(p.name for p in out.iterdir()) == [
        "sitemap-1.txt",
        "sitemap-2.txt",
        "sitemap-3.txt",
        "sitemap.xml",
    ]


class FailingSink(MemorySink):
    """Fails the ``fail_at``-th write or delete (1-based; 0: never)."""

    def __init__(self) -> None:
        super().__init__()
        self.fail_at = 0
        self.calls = 0

    def _tick(self, name: str) -> None:
        self.calls += 1
        if self.calls == self.fail_at:
            raise SinkError(f"cannot write {name}")

    def put(self, name: str, data: bytes, *, content_type: str) -> bool:
        if self.files.get(name) != data:
            self._tick(name)
        return super().put(name, data, content_type=content_type)

    def delete(self, name: str) -> None:
        self._tick(name)
        super().delete(name)


def build_urls(count: int, shift: int = 0) -> list[str]:
    return [f"{BASE}p/{i}.html" for i in range(shift, shift + count)]


def shifted(count: int, shift: int) -> Iterator[Entry]:
    for i in range(shift, shift + count):
        yield Entry(f"{BASE}p/{i}.html", "2024-02-01")


@pytest.mark.parametrize("fail_at", range(1, 14))
@pytest.mark.parametrize("gzip_children", [False, True])
def test_a_failure_at_any_write_leaves_one_build_live(fail_at: int, gzip_children: bool) -> None:
    sink = FailingSink()
    settings = config(max_urls=4, gzip=gzip_children)
    first = write_sitemaps(shifted(14, 0), sink, settings)  # four children
    sink.fail_at, sink.calls = fail_at, 0
    # What the state remembers of sitemill's files: their names and MD5s (writing.ownbytes).
    remembered, recorded = first.outputs, first.digests()
    with contextlib.suppress(SinkError):  # every child shifts by one URL, a fifth appears
        # A failed deletion is a warning: the run's outputs include what is left to delete.
        again = write_sitemaps(shifted(17, 1), sink, settings)
        remembered, recorded = again.outputs, again.digests()
    assert_one_build(sink.files.get, build_urls(14), build_urls(17, 1))
    sink.fail_at = 0
    # The next run repairs everything.
    setup = WriteSetup(remembered=remembered, recorded=recorded)
    write_sitemaps(shifted(17, 1), sink, settings, setup)
    assert_one_build(sink.files.get, build_urls(17, 1))
    assert not [name for name in sink.files if "-next" in name]


def test_several_changed_children_go_live_through_staging_copies() -> None:
    sink = MemorySink()
    settings = config(max_urls=4)
    write_sitemaps(shifted(12, 0), sink, settings)
    seen: list[tuple[str, list[str]]] = []
    put = sink.put

    def spy(name: str, data: bytes, *, content_type: str) -> bool:
        if name == "sitemap.xml":
            seen.append((name, [loc.rpartition("/")[2] for loc in locs(data)]))
        return put(name, data, content_type=content_type)

    sink.put = spy  # type: ignore[method-assign]
    run = Staging(datetime(2026, 11, 23, 10, 15, tzinfo=UTC), "1a2b3c")
    result = write_sitemaps(shifted(12, 1), sink, settings, WriteSetup(staging=run))
    copies = [f"sitemap-{n}-next-20261123101500-1a2b3c.xml" for n in (1, 2, 3)]
    assert seen == [
        ("sitemap.xml", copies),
        ("sitemap.xml", ["sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml"]),
    ]
    assert result.files == ["sitemap.xml", "sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml"]
    assert result.written == ["sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml", "sitemap.xml"]
    assert result.deleted == []
    assert sorted(sink.files) == sorted(result.files)


def test_one_changed_child_is_replaced_in_place() -> None:
    sink = MemorySink()
    settings = config(max_urls=4)
    write_sitemaps(shifted(12, 0), sink, settings)
    puts = sink.puts
    changed = [*shifted(11, 0), Entry(f"{BASE}p/new.html", "2024-02-01")]
    result = write_sitemaps(iter(changed), sink, settings)
    assert result.written == ["sitemap-3.xml"]
    assert sink.puts == puts + 1


def test_a_user_template_rendering_ill_formed_xml_publishes_nothing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "urlset.xml.j2").write_text(
        "<urlset>{% for entry in entries %}<url><loc>{{ entry.loc }}</url>{% endfor %}</urlset>"
    )
    out = tmp_path / "out"
    out.mkdir()
    (out / "sitemap.xml").write_bytes(b"<old/>")
    with pytest.raises(TemplateError, match=r"sitemap\.xml: .*not well-formed.*nothing was"):
        write_sitemaps(entries(3), LocalDirSink(out), config(templates_dir=str(templates)))
    with pytest.raises(TemplateError, match=r"sitemap-1\.xml: .*not well-formed"):
        write_sitemaps(
            entries(30), LocalDirSink(out), config(templates_dir=str(templates), max_urls=10)
        )
    assert [p.name for p in out.iterdir()] == ["sitemap.xml"]
    assert (out / "sitemap.xml").read_bytes() == b"<old/>"


def test_a_source_failure_writes_nothing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    def broken() -> Iterator[Entry]:
        yield from entries(15)
        raise SourceError("urls.txt:16: bad line")

    out = tmp_path / "out"
    with pytest.raises(SourceError):
        write_sitemaps(broken(), LocalDirSink(out), config(max_urls=10))
    assert not out.exists() or list(out.iterdir()) == []


def test_empty_input_is_an_error_and_writes_nothing() -> None:
    sink = MemorySink()
    with pytest.raises(SourceError, match="no pages"):
        write_sitemaps(iter(()), sink, config())
    assert sink.files == {}


def test_robots_txt_lines_are_maintained() -> None:
    sink = MemorySink()
    sink.files["robots.txt"] = (
        b"User-agent: *\r\nDisallow: /x/\r\nSitemap: https://example.com/sitemap.txt\r\n"
        b"Sitemap: https://other.example/sitemap.xml\r\n"
    )
    write_sitemaps(
        entries(25), sink, config(max_urls=10, robots_txt=True, max_sitemaps_per_index=2)
    )
    assert sink.files["robots.txt"] == (
        b"User-agent: *\r\nDisallow: /x/\r\nSitemap: https://example.com/sitemap.xml\r\n"
        b"Sitemap: https://example.com/sitemap-index-2.xml\r\n"
        b"Sitemap: https://other.example/sitemap.xml\r\n"
    )
    again = write_sitemaps(
        entries(25), sink, config(max_urls=10, robots_txt=True, max_sitemaps_per_index=2)
    )
    assert "robots.txt" in again.unchanged


def test_robots_txt_is_created_when_missing() -> None:
    sink = MemorySink()
    write_sitemaps(entries(2), sink, config(robots_txt=True))
    assert sink.files["robots.txt"] == b"Sitemap: https://example.com/sitemap.xml\n"


def test_local_sink_refuses_names_outside_the_directory(tmp_path) -> None:  # type: ignore[no-untyped-def]
    sink = LocalDirSink(tmp_path)
    for name in ("../x.xml", "a/b.xml", "", ".."):
        with pytest.raises(SinkError):
            sink.put(name, b"x", content_type="application/xml")


@pytest.mark.parametrize(
    ("name", "own"),
    [
        ("sitemap.xml", True),
        ("sitemap.txt", True),
        ("sitemap-1.xml", True),
        ("sitemap-12.xml.gz", True),
        ("sitemap-3.txt.gz", True),
        ("sitemap-index-2.xml", True),
        ("sitemap-0.xml", False),
        ("sitemap-a.xml", False),
        ("sitemaps.xml", False),
        ("my-sitemap.xml", False),
        ("robots.txt", False),
    ],
)
def test_own_names(name: str, own: bool) -> None:
    assert is_own_name(name) is own


def test_content_types() -> None:
    assert content_type("robots.txt") == "text/plain; charset=utf-8"
    assert content_type("sitemap-1.txt.gz") == "application/gzip"


def test_indexes_split_on_bytes_too() -> None:
    sink = MemorySink()
    result = write_sitemaps(entries(60), sink, config(max_urls=2, max_bytes=1_024))
    assert len(result.entry_files) > 1
    assert result.entry_files[1] == "sitemap-index-2.xml"
    listed = []
    for name in result.entry_files:
        data = sink.files[name]
        assert len(data) <= 1_024
        assert_xsd_valid(data)
        listed += [line for line in data.split(b"<loc>")[1:]]
    assert len(listed) == 30


def test_the_writer_leaves_jinja_to_the_render_package() -> None:
    # The writer stages and publishes; templates, Jinja and its types live in sitemill.render.
    tree = ast.parse(Path(writer.__file__).read_text(encoding="utf-8"))
    modules = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    modules |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not {name for name in modules if name.split(".")[0] in ("jinja2", "markupsafe")}
