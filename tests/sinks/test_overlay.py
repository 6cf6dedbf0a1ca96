"""OverlaySink: reads a folder's files, keeps writes and deletes in memory."""

from __future__ import annotations

from pathlib import Path

from sitemill.sinks import LocalDirSink
from sitemill.sinks.folders import OverlaySink


def test_writes_and_deletes_stay_in_memory(tmp_path: Path) -> None:
    (tmp_path / "sitemap.xml").write_bytes(b"old")
    (tmp_path / "robots.txt").write_bytes(b"keep")
    sink = OverlaySink(LocalDirSink(tmp_path))
    assert sink.read("sitemap.xml") == b"old"
    assert sink.put("sitemap.xml", b"new", content_type="application/xml")
    assert not sink.put("sitemap.xml", b"new", content_type="application/xml")
    assert sink.put("sitemap-2.xml", b"two", content_type="application/xml")
    sink.delete("robots.txt")
    assert sink.read("sitemap.xml") == b"new"
    assert sink.read("robots.txt") is None
    assert list(sink.names()) == ["sitemap-2.xml", "sitemap.xml"]
    staged = tmp_path.parent / "staged"
    staged.write_bytes(b"two")
    assert sink.holds("sitemap-2.xml", staged)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["robots.txt", "sitemap.xml"]
    assert (tmp_path / "sitemap.xml").read_bytes() == b"old"
