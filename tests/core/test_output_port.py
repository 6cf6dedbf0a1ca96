"""An output feature is one folder behind one port: it sees each listed entry, finishes with the
sink and the state; the core (the pipeline, the jobs, the scale-out wing) names no feature."""

from __future__ import annotations

import ast
import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from enginestand import Stand
from sitemill import pipeline
from sitemill.check.problems import PAGE, CheckReport
from sitemill.check.published import Published
from sitemill.check.run import CheckOptions, check_live
from sitemill.config.model import Config, LastmodMode, load_config
from sitemill.entries import Entry, Page
from sitemill.errors import ConfigError
from sitemill.report import Report, WriteResult
from sitemill.sinks import MemorySink, Sink
from sitemill.state.model import State
from sitemill.validate import Violation, validate_paths
from sitemill.web.livesite import Limits, LiveSite
from sitemill.writing.ownbytes import may_delete

PACKAGE = Path(pipeline.__file__).resolve().parent
LIMITS = Limits(concurrency=4, timeout=5.0, request_deadline=5.0, run_deadline=60.0)


@dataclass
class _Listed:
    """A feature of the test's: a file naming the listed URLs, written after the sitemaps."""

    run: object = None
    seen: list[str] = field(default_factory=list)
    sitemaps_first: bool = False

    def start(self, run: object) -> _Listed:
        self.run = run
        return self

    def watch(self, entries: Iterator[Entry]) -> Iterator[Entry]:
        for entry in entries:
            self.seen.append(entry.loc)
            yield entry

    def finish(self, result: WriteResult) -> None:
        assert self.run is not None
        sink: Sink = self.run.sink  # type: ignore[attr-defined]
        self.sitemaps_first = sink.read("sitemap.xml") is not None
        sink.put("listed.txt", "\n".join(self.seen).encode(), content_type="text/plain")
        keep: State = self.run.keep  # type: ignore[attr-defined]
        keep.found_sitemaps = frozenset({"listed.txt"})
        result.written.append("listed.txt")

    def shard_config(self, config: Config) -> Config:
        return config

    def merge(self, config: Config, sink: Sink, states: Iterable[State], report: Report) -> None:
        raise AssertionError("no shards here")


def test_a_feature_sees_each_listed_entry_then_finishes_with_the_sink_and_the_state() -> None:
    config = load_config({"base_url": "https://example.com/", "exclude": ["drafts/**"]})
    sink, known, keep, feature = MemorySink(), State(), State(), _Listed()
    pages = iter([Page("index.html"), Page("drafts/x.html"), Page("docs/a.html")])
    site = pipeline.SiteInputs(
        robots=None, read_facts=None, lastmod=LastmodMode.NONE, outputs=(feature,),
        known=known, keep=keep,
    )  # fmt: skip
    report = pipeline.build_from_pages(config, pages, sink, site)
    listed = ["https://example.com/", "https://example.com/docs/a.html"]
    assert feature.seen == listed  # (the excluded page never reaches it)
    assert feature.sitemaps_first
    assert sink.files["listed.txt"] == "\n".join(listed).encode()
    assert keep.found_sitemaps == {"listed.txt"} and "listed.txt" in report.result.written
    assert feature.run.known is known  # type: ignore[attr-defined]


def test_the_front_ends_list_decides_what_a_run_writes() -> None:
    # With no feature listed, a run with llms_txt on writes the sitemaps alone: nothing in the
    # pipeline writes llms.txt by itself.
    config = load_config({"base_url": "https://example.com/", "llms_txt": "on"})
    sink = MemorySink()
    site = pipeline.SiteInputs(robots=None, read_facts=None, lastmod=LastmodMode.NONE)
    pipeline.build_from_pages(config, iter([Page("index.html")]), sink, site)
    assert set(sink.files) == {"sitemap.xml"}
    from outputlist import OUTPUTS

    sink = MemorySink()
    site = replace(site, outputs=OUTPUTS)
    pipeline.build_from_pages(config, iter([Page("index.html")]), sink, site)
    assert set(sink.files) == {"sitemap.xml", "llms.txt"}


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_the_core_names_no_output_feature() -> None:
    core = [PACKAGE / "pipeline.py", PACKAGE / "jobs" / "tree.py"]
    core += sorted((PACKAGE / "jobs").glob("bucket*.py"))
    core += sorted((PACKAGE / "scaleout").glob("*.py"))
    offenders = {
        str(path.relative_to(PACKAGE)): sorted(
            name for name in _imports(path) if name.startswith("sitemill.") and "llms" in name
        )
        for path in core
    }
    assert {name: found for name, found in offenders.items() if found} == {}


def test_llms_files_are_written_by_modules_of_its_folder_alone() -> None:
    # llms.txt's run, its Markdown files and a sharded bucket's are in llms/; nothing else writes.
    outside = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*llms*.py")
        if path.parent.name not in ("llms", "config", "state", "validate", "check")
    ]
    assert outside == []


def test_only_the_list_imports_the_llms_folder() -> None:
    # The front ends' list names the feature; a deletion asks the features it is given whether a
    # file at one of their names is in the form sitemill writes (writing.ownbytes.OwnFiles), the
    # check and validate likewise (issue 80: ownbytes imported llms.ownership). No one else
    # reaches into llms/: an entry's own language is the entries' (entries.own_hreflang).
    importers = sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if path.parent.name != "llms"
        and any(name.startswith("sitemill.llms") for name in _imports(path))
    )
    assert importers == ["jobs/features.py"]


def test_only_the_list_imports_the_html_sitemaps_folder() -> None:
    # sitemap.html is one folder behind the port: the writer, the jobs, the scale-out wing and the
    # renderer reach it through the port alone; the front ends' list names it.
    importers = sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if path.parent.name != "htmlmap"
        and any("htmlmap" in name or "htmlpage" in name for name in _imports(path))
    )
    assert importers == ["jobs/features.py"]


@dataclass
class _Published:
    """A feature of the test's whose file goes up with the sitemaps (a page naming the listed
    URLs): made before anything is published, put after the index."""

    refuse: bool = False
    seen: list[str] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)
    index_live: bool = False

    def start(self, run: object) -> _Published:
        return self

    def watch(self, entries: Iterator[Entry]) -> Iterator[Entry]:
        for entry in entries:
            self.seen.append(entry.loc)
            yield entry

    def render(self, renderer: object, result: WriteResult) -> None:
        self.calls.append("render")
        if self.refuse:
            raise ConfigError("listed", "refused before anything is published")
        result.files.append("listed.html")

    def publish(self, publisher: Any, result: WriteResult) -> None:
        self.calls.append("publish")
        sink = publisher.sink
        self.index_live = all(sink.read(name) for name in ("sitemap.xml", "sitemap-2.xml"))
        publisher.put("listed.html", "\n".join(self.seen).encode())

    def finish(self, result: WriteResult) -> None:
        self.calls.append("finish")

    def shard_config(self, config: Config) -> Config:
        return config

    def merge(self, config: Config, sink: Sink, states: Iterable[State], report: Report) -> None:
        raise AssertionError("no shards here")

    def whole_site(self, config: Config) -> str | None:
        return None


def _published_run(feature: _Published, pages: list[str], sink: MemorySink) -> Report:
    config = load_config({"base_url": "https://example.com/", "max_urls": 1})
    site = pipeline.SiteInputs(
        robots=None, read_facts=None, lastmod=LastmodMode.NONE, outputs=(feature,)
    )
    return pipeline.build_from_pages(config, iter([Page(path) for path in pages]), sink, site)


def test_an_output_published_with_the_sitemaps_goes_up_after_the_index() -> None:
    feature, sink = _Published(), MemorySink()
    report = _published_run(feature, ["index.html", "a.html"], sink)
    assert feature.calls == ["render", "publish", "finish"]
    assert feature.index_live  # (the index and its two children were live before it)
    assert sink.files["listed.html"] == b"https://example.com/\nhttps://example.com/a.html"
    assert "listed.html" in report.result.written and "listed.html" in report.result.outputs


def test_an_output_that_refuses_while_rendering_leaves_the_site_as_it_was() -> None:
    feature, sink = _Published(refuse=True), MemorySink()
    with pytest.raises(ConfigError, match=r"^listed: refused"):
        _published_run(feature, ["index.html", "a.html"], sink)
    assert feature.calls == ["render"] and sink.files == {}


def test_a_url_list_hands_its_entries_to_the_outputs_it_is_given() -> None:
    from outputlist import build_from_url_list

    config = load_config({"base_url": "https://example.com/"})
    feature, sink = _Published(), MemorySink()
    lines = ["https://example.com/a\n", "https://example.com/b\n"]
    build_from_url_list(config, lines, sink, outputs=(feature,))
    assert feature.calls == ["render", "publish", "finish"]
    assert sink.files["listed.html"] == b"https://example.com/a\nhttps://example.com/b"


@dataclass
class _Notes:
    """A feature of the test's with the three optional hooks: notes.txt, which starts "# notes",
    checked live, validated in a folder and by itself, and proven its own by its first line."""

    asked: list[list[str]] = field(default_factory=list)

    def check_live_copies(
        self, site: LiveSite, published: Published, report: CheckReport, urls: list[str]
    ) -> None:
        self.asked.append(urls)
        for answer in site.answers([published.base_url + "notes.txt"]):
            if answer.status != 200:
                report.add(answer.url, PAGE, f"answers {answer.status}", "deploy notes.txt")

    def validate(self, path: Path) -> list[Violation] | None:
        if path.is_dir():
            path = path / "notes.txt"
            if not path.is_file():
                return []
        elif path.name != "notes.txt":
            return None
        ok = path.read_bytes().startswith(b"# notes")
        return [] if ok else [Violation(str(path), 1, "no '# notes' first")]

    def own_file(self, name: str, data: bytes, base_url: str) -> bool | None:
        return data.startswith(b"# notes") if name == "notes.txt" else None


def test_validate_asks_each_feature_it_is_given_for_its_files(tmp_path: Path) -> None:
    (tmp_path / "sitemap.txt").write_text("https://example.com/\n")
    (tmp_path / "notes.txt").write_text("notes\n")
    (tmp_path / "other.txt").write_text("https://example.com/\n")
    wrong = [(Path(v.file).name, v.line, v.message) for v in validate_paths([tmp_path], None, [])]
    assert wrong == []  # (no feature given: no file of one is looked at)
    found = validate_paths([tmp_path, tmp_path / "other.txt"], None, [_Notes()])
    assert [(Path(v.file).name, v.line, v.message) for v in found] == [
        ("notes.txt", 1, "no '# notes' first")
    ]
    by_name = validate_paths([tmp_path / "notes.txt"], None, [_Notes()])
    assert [v.message for v in by_name] == ["no '# notes' first"]


def test_a_deletion_asks_each_feature_it_is_given_for_its_proof() -> None:
    ours, theirs = b"# notes\nx\n", b"notes of yours\n"
    digest = {data: hashlib.md5(data, usedforsecurity=False).hexdigest() for data in (ours, theirs)}
    assert may_delete("notes.txt", theirs, digest[theirs])  # (no feature: the record proves it)
    assert not may_delete("notes.txt", theirs, digest[theirs], outputs=[_Notes()])
    assert may_delete("notes.txt", ours, digest[ours], outputs=[_Notes()])
    assert not may_delete("notes.txt", ours, digest[theirs], outputs=[_Notes()])  # (not recorded)
    assert may_delete("sitemap-1.xml", theirs, digest[theirs], outputs=[_Notes()])  # (not its)


def test_the_check_asks_each_feature_it_is_given_for_its_live_files(stand: Stand) -> None:
    base = stand.origin + "/"
    sitemap = b"<?xml version='1.0'?><urlset/>"
    stand.files["/sitemap.xml"] = (200, sitemap, {"Content-Type": "application/xml"})
    digest = hashlib.md5(sitemap, usedforsecurity=False).hexdigest()
    published = Published(base, "sitemap.xml", {"sitemap.xml": digest}, {})
    site, config = LiveSite(frozenset({stand.origin}), LIMITS), load_config({"base_url": base})
    feature = _Notes()
    assert check_live(config, published, site, CheckOptions()).ok  # (none given: none asked)
    report = check_live(config, published, site, CheckOptions(outputs=[feature]))
    assert feature.asked == [[]]
    assert [(p.url, p.what) for p in report.problems] == [(base + "notes.txt", "answers 404")]
    stand.files["/notes.txt"] = (200, b"# notes\n", {"Content-Type": "text/plain"})
    site = LiveSite(frozenset({stand.origin}), LIMITS)
    assert check_live(config, published, site, CheckOptions(outputs=[feature])).ok
