"""sinks/folders: the sink of a folder below another sink's (fr/llms.txt, a/b.html.md): a local
folder's every step a directory of its own, made when missing, never a link or a file; an S3
prefix made longer; a view of a sink in memory; a folder that climbs out is refused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from s3util import BUCKET, moto_bucket
from sitemill.errors import SinkError
from sitemill.sinks import LocalDirSink, MemorySink
from sitemill.sinks.folders import FolderView, folder_sink, split_name
from sitemill.sinks.s3 import S3Sink

TEXT = "text/plain; charset=utf-8"


@pytest.mark.parametrize(
    ("name", "parts"),
    [
        ("llms.txt", ("", "llms.txt")),
        ("fr/llms.txt", ("fr", "llms.txt")),
        ("a/b/c.html.md", ("a/b", "c.html.md")),
    ],
)
def test_a_name_splits_into_its_folder_and_its_base(name: str, parts: tuple[str, str]) -> None:
    assert split_name(name) == parts


@pytest.mark.parametrize("folder", ["..", "a/../..", "../a", "/etc", "a\\b"])
def test_a_folder_that_is_not_the_sites_own_is_refused(tmp_path: Path, folder: str) -> None:
    for sink in (LocalDirSink(tmp_path), MemorySink()):
        with pytest.raises(SinkError, match="not a folder of the site"):
            folder_sink(sink, folder)


def test_the_root_folder_is_the_sink_itself() -> None:
    sink = MemorySink()
    assert folder_sink(sink, "") is sink


def test_a_local_folder_is_made_step_by_step(tmp_path: Path) -> None:
    sink = folder_sink(LocalDirSink(tmp_path), "fr/docs")
    assert sink.put("llms.txt", b"# x\n", content_type=TEXT)
    assert (tmp_path / "fr/docs/llms.txt").read_bytes() == b"# x\n"
    assert folder_sink(LocalDirSink(tmp_path), "fr/docs").read("llms.txt") == b"# x\n"


@pytest.mark.parametrize("step", ["a", "a/b"])
def test_a_link_or_a_file_on_the_way_is_refused(tmp_path: Path, step: str) -> None:
    site, outside = tmp_path / "site", tmp_path / "outside"
    (site / "a").mkdir(parents=True)
    outside.mkdir()
    if step == "a":
        (site / step).rmdir()
    (site / step).symlink_to(outside, target_is_directory=True)
    with pytest.raises(SinkError, match="not a directory of the site's own"):
        folder_sink(LocalDirSink(site), "a/b/c")
    (site / step).unlink()
    (site / step).write_text("a file")
    with pytest.raises(SinkError, match="not a directory of the site's own"):
        folder_sink(LocalDirSink(site), "a/b/c")
    assert list(outside.iterdir()) == []


def test_a_view_of_a_sink_in_memory_carries_the_folder() -> None:
    """Its names are the folder's own files only (another folder's, the root's, are not: the
    root's llms.txt came back as 's.txt')."""
    under = MemorySink({"fr/llms.txt": b"1", "fr/a/b.md": b"2", "llms.txt": b"3"})
    view = folder_sink(under, "fr")
    assert isinstance(view, FolderView)
    assert view.read("llms.txt") == b"1" and list(view.names()) == ["llms.txt"]
    assert view.put("index.html.md", b"4", content_type=TEXT)
    view.delete("llms.txt")
    assert under.files == {"fr/a/b.md": b"2", "llms.txt": b"3", "fr/index.html.md": b"4"}


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def test_an_s3_folder_is_a_longer_prefix(s3: Any) -> None:
    sink = folder_sink(S3Sink(s3, BUCKET, "site/", cache_control="max-age=60"), "fr")
    assert isinstance(sink, S3Sink) and sink.prefix == "site/fr/"
    assert sink.put("llms.txt", b"# x\n", content_type=TEXT)
    head = s3.head_object(Bucket=BUCKET, Key="site/fr/llms.txt")
    assert (head["ContentType"], head["CacheControl"]) == (TEXT, "max-age=60")
    again = folder_sink(S3Sink(s3, BUCKET, "site/"), "fr")
    assert again.read("llms.txt") == b"# x\n"  # (the listing notes it: no blind PUT)
    assert not again.put("llms.txt", b"# x\n", content_type=TEXT)


def test_a_lookup_makes_no_folder(tmp_path: Path) -> None:
    # A state is input from outside: the folders of the files it names are looked in, never
    # made (200,000 names would make as many folders); a write makes its own.
    sink = folder_sink(LocalDirSink(tmp_path), "a/b/c")
    assert sink.read("llms.txt") is None
    sink.delete("llms.txt")
    assert list(tmp_path.iterdir()) == []
    assert sink.put("llms.txt", b"x", content_type=TEXT)
    assert (tmp_path / "a" / "b" / "c" / "llms.txt").read_bytes() == b"x"
