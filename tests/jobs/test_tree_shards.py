"""A tree's sitemaps as shards (docs/output.md): stable child names, so a new section
rewrites its own children and the index, an edit one child and the index; a small site keeps
its one sitemap.xml byte for byte; the plan lives in the state."""

from __future__ import annotations

import gzip
import json
import os
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from conftest import BASE_URL, FIXED_MTIME, page, write_site
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.filenames.outputs import STATE_NAME
from sitemill.jobs import treedating
from sitemill.report import Report
from sitemill.shards.plan import shard_id
from sitemill.sinks import LocalDirSink
from xsd import assert_valid_sitemaps

SHARD = re.compile(r"sitemap-r[a-z2-7]{8}\.xml")


def build(site: Path, out: Path, **values: object) -> Report:
    config = load_config({"base_url": BASE_URL, "lastmod": "mtime", **values})
    return build_from_tree(config, site, LocalDirSink(out))


def children(out: Path) -> list[str]:
    """The children sitemap.xml names, in its order."""
    index = (out / "sitemap.xml").read_text()
    return re.findall(r"<loc>https://example\.com/(sitemap-[^<]+)</loc>", index)


def site_of(root: Path, sections: dict[str, int]) -> Path:
    files = {
        f"{name}/p{n:03d}.html": page(f"{name} {n}")
        for name, count in sections.items()
        for n in range(count)
    }
    return write_site(root, files)


def test_a_small_site_keeps_its_one_sitemap_byte_for_byte(tmp_path: Path) -> None:
    site = site_of(tmp_path / "site", {"a": 5, "b": 5})
    build(site, tmp_path / "auto")
    build(site, tmp_path / "off", shards="off")
    assert (tmp_path / "auto" / "sitemap.xml").read_bytes() == (
        tmp_path / "off" / "sitemap.xml"
    ).read_bytes()
    assert not list((tmp_path / "auto").glob("sitemap-*"))


def test_shards_on_writes_an_index_even_for_one_file(tmp_path: Path) -> None:
    site = site_of(tmp_path / "site", {"a": 3})
    out = tmp_path / "out"
    build(site, out, shards="on")
    assert children(out) == [f"sitemap-{shard_id('')}.xml"]
    assert_valid_sitemaps(out, BASE_URL)


def test_a_site_past_one_file_is_written_as_shards_in_key_order(tmp_path: Path) -> None:
    site = site_of(tmp_path / "site", {"a": 7, "b": 7, "c": 7})
    out = tmp_path / "out"
    report = build(site, out, max_urls=10, shard_fill=5)
    names = children(out)
    assert len(names) == 5 and all(SHARD.fullmatch(name) for name in names)
    assert names[0] == f"sitemap-{shard_id('')}.xml"
    listed = [re.findall(r"<loc>(.*?)</loc>", (out / name).read_text()) for name in names]
    assert [len(urls) for urls in listed] == [5, 5, 5, 5, 1]
    flat = [url for urls in listed for url in urls]
    assert flat == sorted(flat) and len(flat) == 21  # a/ b/ c/ pages, the walk's order
    assert report.result.plan is not None
    assert_valid_sitemaps(out, BASE_URL)
    state = json.loads(gzip.decompress((out / STATE_NAME).read_bytes()))
    assert state["shards"]["afters"] == list(report.result.plan.afters)


def test_a_new_section_rewrites_its_children_and_the_index_nothing_else(tmp_path: Path) -> None:
    root = tmp_path / "site"
    site = site_of(root, {"a": 12, "c": 12})
    out = tmp_path / "out"
    plan = build(site, out, max_urls=10, shard_fill=6).result.plan
    assert plan is not None
    before = {name: (out / name).read_bytes() for name in children(out)}
    site_of(root, {"b": 12})  # a section between the two
    report = build(site, out, max_urls=10, shard_fill=6)
    # b/ falls in the shard after a/'s last boundary, which outgrows and is split (its first
    # part keeps its name): that child, its new parts and the index are written.
    landed = f"sitemap-{plan.ids[plan.shard_of('b/p000.html')]}.xml"
    after = children(out)
    new = set(after) - set(before)
    assert new and set(report.result.written) - {STATE_NAME} == {*new, landed, "sitemap.xml"}
    for name, data in before.items():
        if name != landed:
            assert name in after and (out / name).read_bytes() == data


def run_at(monkeypatch: pytest.MonkeyPatch, moment: datetime) -> None:
    """The time the next tree runs read (once, at their start: jobs.treedating)."""

    class Clock(datetime):
        @classmethod
        def now(cls, tz: Any = None) -> Any:
            return moment

    monkeypatch.setattr(treedating, "datetime", Clock)


def test_an_edit_rewrites_one_child_and_the_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "site"
    site = site_of(root, {"a": 10, "b": 10})
    out = tmp_path / "out"
    run_at(monkeypatch, datetime(2024, 3, 5, tzinfo=UTC))
    build(site, out, max_urls=10, shard_fill=5)
    edited = root / "b" / "p007.html"
    edited.write_text(page("b 7, edited"))
    os.utime(edited, (FIXED_MTIME + 86_400, FIXED_MTIME + 86_400))
    run_at(monkeypatch, datetime(2024, 3, 6, tzinfo=UTC))
    report = build(site, out, max_urls=10, shard_fill=5)
    written = set(report.result.written) - {STATE_NAME}
    assert len(written) == 2 and "sitemap.xml" in written
    (child,) = written - {"sitemap.xml"}
    assert "b/p007.html" in (out / child).read_text()
    index = (out / "sitemap.xml").read_text()
    # When the child's bytes changed: this run (no git: its time), not its newest page's date.
    assert f"{child}</loc><lastmod>2024-03-06T00:00:00+00:00</lastmod>" in index
    assert index.count("<lastmod>2024-03-05T00:00:00+00:00</lastmod>") == len(children(out)) - 1


def test_switching_shards_off_renames_the_children_once(tmp_path: Path) -> None:
    site = site_of(tmp_path / "site", {"a": 15})
    out = tmp_path / "out"
    build(site, out, max_urls=10)
    sharded = children(out)
    report = build(site, out, max_urls=10, shards="off")
    assert children(out) == ["sitemap-1.xml", "sitemap-2.xml"]
    assert sorted(report.result.deleted) == sorted(sharded)
    assert not any((out / name).exists() for name in sharded)


@pytest.mark.parametrize(
    "plan",
    [
        {"format": "sitemill-shard-plan", "version": 1, "order": "walk", "afters": ["x", ""]},
        {"format": "sitemill-shard-plan", "version": 9, "order": "walk", "afters": [""]},
        {
            "format": "sitemill-shard-plan",
            "version": 1,
            "order": "walk",
            "afters": ["", "a" * 2000],
        },
        "not a plan",
    ],
)
def test_a_hostile_plan_in_the_state_is_a_warning_and_the_canonical_plan(
    tmp_path: Path, plan: object, caplog: pytest.LogCaptureFixture
) -> None:
    site = site_of(tmp_path / "site", {"a": 15})
    out, clean = tmp_path / "out", tmp_path / "clean"
    build(site, out, max_urls=10)
    state_path = out / STATE_NAME
    state = json.loads(gzip.decompress(state_path.read_bytes()))
    state["shards"] = plan
    state_path.write_bytes(gzip.compress(json.dumps(state).encode()))
    build(site, out, max_urls=10)
    build(site, clean, max_urls=10)
    assert children(out) == children(clean)
    assert "shard plan is ignored" in caplog.text


def test_shards_on_is_refused_where_the_source_cannot_shard(tmp_path: Path) -> None:
    from outputlist import build_from_url_list
    from sitemill.errors import ConfigError
    from sitemill.sinks import MemorySink

    config = load_config({"base_url": BASE_URL, "shards": "on"})
    with pytest.raises(ConfigError, match="a URL list's children are split by count"):
        build_from_url_list(config, ["https://example.com/a"], MemorySink())
    # auto: a URL list is split by count, as ever
    auto = load_config({"base_url": BASE_URL, "max_urls": 1})
    sink = MemorySink()
    build_from_url_list(auto, ["https://example.com/a", "https://example.com/b"], sink)
    assert sorted(sink.files) == ["sitemap-1.xml", "sitemap-2.xml", "sitemap.xml"]


def test_no_pages_is_an_error_with_shards_on_too(tmp_path: Path) -> None:
    from sitemill.errors import SourceError

    site = write_site(tmp_path / "site", {"style.css": "x"})
    with pytest.raises(SourceError, match="no pages"):
        build(site, tmp_path / "out", shards="on")
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())
