"""A deletion asks the output features the run lists (issue 80): the production paths hand the
front end's list to writing.ownbytes.may_delete, so a feature's proof of its own files' form
stands inside the one rule, not only in the name filters before it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from conftest import BASE_URL, page, write_site
from outputlist import OUTPUTS, rebuild_bucket
from s3util import BUCKET, moto_bucket, upload
from sitemill.config.model import Config, load_config
from sitemill.entries import Entry
from sitemill.jobs.asked import RunAsked
from sitemill.jobs.bucket import BucketSite
from sitemill.jobs.tree import build_tree as build_from_tree
from sitemill.outputs import OutputRun, RecordedAsWritten
from sitemill.report import Report, WriteResult
from sitemill.sinks import LocalDirSink, Sink
from sitemill.state.model import State

BLOG = {"name": "blog", "include": ["blog/**"]}
CHILD = "sitemap-blog.xml"


class _Nothing:
    def watch(self, entries: Iterator[Entry]) -> Iterator[Entry]:
        return entries

    def finish(self, result: WriteResult) -> None:
        pass


@dataclass
class _Claims(RecordedAsWritten):
    """A feature of the test's that says the file at ``name`` is one of its own, and that
    its bytes are not in its form (as llms.txt's proof says of a file without its mark)."""

    name: str
    asked: list[str] = field(default_factory=list)

    def start(self, run: OutputRun) -> _Nothing:
        return _Nothing()

    def shard_config(self, config: Config) -> Config:
        return config

    def merge(self, config: Config, sink: Sink, states: Iterable[State], report: Report) -> None:
        pass

    def whole_site(self, config: Config) -> str | None:
        return None

    def own_file(self, name: str, data: bytes, base_url: str) -> bool | None:
        self.asked.append(name)
        return False if name == self.name else None


def build(site: Path, out: Path, outputs: tuple[Any, ...], *groups: dict[str, Any]) -> Report:
    config = load_config({"base_url": BASE_URL}, {}, {"groups": list(groups)} if groups else {})
    return build_from_tree(config, site, LocalDirSink(out), RunAsked(outputs))


def test_a_folder_run_keeps_a_file_a_listed_feature_disowns(tmp_path: Path) -> None:
    files = {f"{s}/p{n}.html": page(f"{s} {n}") for s in ("a", "blog") for n in range(2)}
    site = write_site(tmp_path / "site", files)
    claims = _Claims(CHILD)
    for out, outputs in ((tmp_path / "kept", (*OUTPUTS, claims)), (tmp_path / "gone", OUTPUTS)):
        build(site, out, outputs, BLOG)
        report = build(site, out, outputs)  # (the group removed: its child only a record's)
        assert (CHILD in report.result.deleted) is (outputs == OUTPUTS), out.name
        assert (out / CHILD).exists() is (outputs != OUTPUTS), out.name
    assert claims.asked == [CHILD]


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def test_a_bucket_run_keeps_a_file_a_listed_feature_disowns(s3: Any) -> None:
    upload(s3, {"a/p0.html": page("a").encode(), "blog/p0.html": page("blog").encode()})
    claims = _Claims(CHILD)
    grouped = load_config({"base_url": BASE_URL}, {}, {"groups": [BLOG]})
    rebuild_bucket(grouped, s3, BucketSite(BUCKET), outputs=(*OUTPUTS, claims))
    report = rebuild_bucket(
        load_config({"base_url": BASE_URL}), s3, BucketSite(BUCKET), outputs=(*OUTPUTS, claims)
    )
    keys = {item["Key"] for item in s3.list_objects_v2(Bucket=BUCKET)["Contents"]}
    assert CHILD in keys and CHILD not in report.result.deleted
    assert claims.asked == [CHILD]


STATE_BUCKET = "state-bucket"


def test_a_sharded_commit_keeps_a_file_a_listed_feature_disowns(s3: Any) -> None:
    """The entry a sharded site's index replaces (its one sitemap.txt, proven by the MD5 the
    manifest holds) is deleted after the commit only when no listed feature disowns it."""
    from outputlist import RebuildOptions
    from sitemill.jobs.bucketsite import open_partitioned
    from sitemill.scaleout.partitioned import rebuild_partitioned

    s3.create_bucket(Bucket=STATE_BUCKET)
    claims = _Claims("sitemap.txt")
    values = {"base_url": BASE_URL, "format": "txt", "shards": "auto", "max_urls": "5"}
    state = {"state": f"s3://{STATE_BUCKET}/site/sitemill-state.json.gz", "shard_fill": "4"}
    config = load_config({**values, **state})
    site = BucketSite(BUCKET)

    def run() -> Report:
        store = open_partitioned(config, s3, site)
        assert store is not None
        options = RebuildOptions(outputs=(*OUTPUTS, claims))
        return rebuild_partitioned(config, s3, site, store, options=options)

    upload(s3, {f"a/p{n}.html": page(f"a {n}").encode() for n in range(3)})
    assert run().result.files == ["sitemap.txt"]
    upload(s3, {f"b/p{n}.html": page(f"b {n}").encode() for n in range(9)})
    report = run()  # (twelve pages: an index, sitemap.xml, replaces the one file)
    keys = {item["Key"] for item in s3.list_objects_v2(Bucket=BUCKET)["Contents"]}
    assert "sitemap.xml" in keys and "sitemap.txt" in keys
    assert "sitemap.txt" not in report.result.deleted and claims.asked == ["sitemap.txt"]
