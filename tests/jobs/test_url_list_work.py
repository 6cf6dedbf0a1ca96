"""The work a URL list's run does beyond writing its bytes, counted (never timed): no digest
of the files it writes (a list keeps no state to hold one), and a second run with nothing
new reads each file it finds once and writes none."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path
from typing import Any

import pytest

from outputlist import build_from_url_list
from sitemill.config.model import load_config
from sitemill.report import Report
from sitemill.sinks import LocalDirSink
from sitemill.sinks import _local as local

BASE = "https://example.com/"
LIST = "".join(f"{BASE}p/{n}\t2024-01-02T03:04:05+00:00\n" for n in range(2_500)).encode()


class HashedBytes:
    """Counts the bytes every MD5 made while it is installed is given."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = hashlib.md5
        counter = self

        class Counted:
            def __init__(self, data: bytes = b"", **options: Any) -> None:
                self._md5 = real(data, **options)
                counter.count += len(data)

            def update(self, data: bytes) -> None:
                counter.count += len(data)
                self._md5.update(data)

            def digest(self) -> bytes:
                return self._md5.digest()

            def hexdigest(self) -> str:
                return self._md5.hexdigest()

        monkeypatch.setattr(hashlib, "md5", Counted)


def run(out: Path, **values: object) -> Report:
    config = load_config({"base_url": BASE, "max_urls": 1_000, **values})
    return build_from_url_list(config, io.BytesIO(LIST), LocalDirSink(out), size_hint=len(LIST))


@pytest.mark.parametrize("gzip", [False, True])
def test_a_url_list_takes_no_digest_of_what_it_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gzip: bool
) -> None:
    """Each file's MD5 is the state's record for `sitemill check` and S3's ETag; a list
    keeps no state, and a local folder compares bytes: no pass over them to hash."""
    hashed = HashedBytes(monkeypatch)
    report = run(tmp_path, gzip=gzip)
    assert len(report.result.written) == 4  # three children and the index
    assert hashed.count == 0


def test_a_second_run_with_nothing_new_reads_each_child_once_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No write when nothing changed, by comparing the bytes as they stand: each child
    found is read once (a guard: no digest pass, no second comparison), none written."""
    run(tmp_path)
    before = {path.name: path.stat().st_mtime_ns for path in tmp_path.iterdir()}
    reads: list[str] = []
    real = local.read_regular

    def counted(path: Path, *args: Any, **options: Any) -> bytes:
        reads.append(Path(path).name)
        return real(path, *args, **options)

    monkeypatch.setattr(local, "read_regular", counted)
    hashed = HashedBytes(monkeypatch)
    report = run(tmp_path)
    assert report.result.written == [] and report.result.deleted == []
    assert {path.name: path.stat().st_mtime_ns for path in tmp_path.iterdir()} == before
    children = sorted(name for name in before if name != "sitemap.xml")
    assert len(children) == 3
    assert sorted(name for name in reads if name != "sitemap.xml") == children
    assert hashed.count == 0
