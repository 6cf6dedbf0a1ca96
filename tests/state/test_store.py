"""Where the state lives: a file anywhere (only a regular file, bounded, replaced atomically),
beside the sitemaps, and the store a front-end opens for ``state``."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path
from typing import Any

import pytest

from sitemill.config.model import load_config
from sitemill.errors import ConfigError, SinkError
from sitemill.filenames.outputs import STATE_NAME
from sitemill.sinks import MemorySink
from sitemill.state import store as store_module
from sitemill.state.store import FileStateStore, SinkStateStore, open_state_store

DATA = b"\x1f\x8bstate-bytes"


def leftovers(directory: Path) -> list[str]:
    return sorted(name for name in os.listdir(directory) if name.startswith(".sitemill-state-"))


def test_a_missing_file_is_no_state_and_a_write_creates_it_with_its_folders(
    tmp_path: Path,
) -> None:
    store = FileStateStore(tmp_path / "deep" / "er" / "state.json.gz")
    assert store.read() is None
    assert store.where == str(tmp_path / "deep" / "er" / "state.json.gz")
    assert store.write(DATA) is True
    assert store.read() == DATA
    assert leftovers(store.path.parent) == []
    # Readable by all, like the sitemaps it may be deployed with.
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o644


def test_the_same_bytes_are_not_written_again(tmp_path: Path) -> None:
    path = tmp_path / "state.gz"
    store = FileStateStore(path)
    store.write(DATA)
    before = path.stat()
    assert store.write(DATA) is False
    after = path.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert store.write(DATA + b"!") is True
    assert path.read_bytes() == DATA + b"!"


def test_a_replaced_file_keeps_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "state.gz"
    path.write_bytes(b"old")
    path.chmod(0o600)
    FileStateStore(path).write(DATA)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_bytes() == DATA


def test_a_link_at_the_path_is_neither_read_nor_replaced(tmp_path: Path) -> None:
    target = tmp_path / "secret"
    target.write_bytes(b"not yours")
    link = tmp_path / "state.gz"
    link.symlink_to(target)
    store = FileStateStore(link)
    with pytest.raises(SinkError, match="symbolic link"):
        store.read()
    with pytest.raises(SinkError, match="symbolic link"):
        store.write(DATA)
    assert link.is_symlink()
    assert target.read_bytes() == b"not yours"
    assert leftovers(tmp_path) == []


def test_a_fifo_at_the_path_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "state.gz"
    os.mkfifo(fifo)
    store = FileStateStore(fifo)
    outcome: list[Any] = []

    def attempt() -> None:
        for call in (store.read, lambda: store.write(DATA)):
            try:
                call()
            except SinkError as exc:
                outcome.append(str(exc))

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(timeout=5)
    assert not worker.is_alive(), "opening a FIFO blocked"
    assert len(outcome) == 2
    assert "FIFO" in outcome[0]
    assert "not a regular file" in outcome[1]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_directory_at_the_path_is_refused(tmp_path: Path) -> None:
    (tmp_path / "state.gz").mkdir()
    store = FileStateStore(tmp_path / "state.gz")
    with pytest.raises(SinkError, match="directory"):
        store.read()
    with pytest.raises(SinkError, match="not a regular file"):
        store.write(DATA)


def test_a_file_over_the_bound_is_refused_not_cut(tmp_path: Path) -> None:
    path = tmp_path / "state.gz"
    path.write_bytes(b"x" * 101)
    with pytest.raises(SinkError, match="larger than 100 bytes"):
        FileStateStore(path, limit=100).read()
    path.write_bytes(b"x" * 100)
    assert FileStateStore(path, limit=100).read() == b"x" * 100


def test_an_unreadable_file_is_a_sink_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # chmod 0 stops no one running as root (CI may): the refusal comes from the OS call.
    path = tmp_path / "state.gz"
    path.write_bytes(DATA)

    def denied(*_: object, **__: object) -> bytes:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(store_module, "read_regular", denied)
    with pytest.raises(SinkError, match=r"cannot read the state .*Permission denied"):
        FileStateStore(path).read()


@pytest.mark.parametrize("failing", ["write", "fsync", "replace"])
def test_a_failed_write_leaves_no_temporary_file_and_the_old_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    path = tmp_path / "state.gz"
    path.write_bytes(b"old")

    def fail(*args: Any, **kwargs: Any) -> Any:
        raise OSError(28, "No space left on device")

    if failing == "write":
        monkeypatch.setattr("sitemill.state.store.os.fdopen", lambda *a, **k: _FailingStream(*a))
    else:
        monkeypatch.setattr(f"sitemill.state.store.os.{failing}", fail)
    with pytest.raises(SinkError, match=r"cannot write the state .*No space left on device"):
        FileStateStore(path).write(DATA)
    assert path.read_bytes() == b"old"
    assert leftovers(tmp_path) == []


class _FailingStream:
    """A stream on the temporary file whose write fails (a full disk)."""

    def __init__(self, handle: int, *args: Any) -> None:
        self.handle = handle

    def __enter__(self) -> _FailingStream:
        return self

    def __exit__(self, *args: Any) -> None:
        os.close(self.handle)

    def write(self, data: bytes) -> int:
        raise OSError(28, "No space left on device")


def test_an_interrupted_write_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupt(*args: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("sitemill.state.store.os.replace", interrupt)
    with pytest.raises(KeyboardInterrupt):
        FileStateStore(tmp_path / "state.gz").write(DATA)
    assert os.listdir(tmp_path) == []


def test_a_folder_that_cannot_be_made_is_a_sink_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_bytes(b"")
    with pytest.raises(SinkError, match="cannot write the state"):
        FileStateStore(tmp_path / "file" / "state.gz").write(DATA)


def test_the_state_beside_the_sitemaps_is_a_file_of_the_sink() -> None:
    sink = MemorySink()
    store = SinkStateStore(sink)
    assert store.where == STATE_NAME
    assert store.read() is None
    assert store.write(DATA) is True
    assert sink.read(STATE_NAME) == DATA
    assert store.write(DATA) is False


# --- open_state_store: what a front-end passes to a job ---------------------------------


def config(state: str | None) -> Any:
    values = {"base_url": "https://example.com/"}
    if state is not None:
        values["state"] = state
    return load_config(values)


def test_no_state_key_is_the_jobs_own_default() -> None:
    assert open_state_store(config(None)) is None


def test_a_path_is_a_file_store(tmp_path: Path) -> None:
    store = open_state_store(config(str(tmp_path / "s.gz")))
    assert isinstance(store, FileStateStore)
    assert store.path == tmp_path / "s.gz"


def test_an_s3_location_is_an_s3_store_with_the_front_ends_client() -> None:
    from sitemill.state.s3 import S3StateStore

    made: list[str] = []

    def client() -> Any:
        made.append("client")
        return object()

    store = open_state_store(config("s3://state-bucket/site/state.json.gz"), s3_client=client)
    assert isinstance(store, S3StateStore)
    assert (store.bucket, store.key) == ("state-bucket", "site/state.json.gz")
    assert store.where == "s3://state-bucket/site/state.json.gz"
    assert made == ["client"]


@pytest.mark.parametrize(
    ("state", "client", "message"),
    [
        ("s3://state-bucket/key.gz", False, "needs S3"),
        ("s3://Bad_Bucket/key.gz", True, "not an S3 bucket name"),
        ("s3://state-bucket/", True, "names no object"),
        ("s3://state-bucket", True, "names no object"),
        ("https://example.com/state.gz", True, "neither a path nor s3://"),
        ("file:///tmp/state.gz", True, "neither a path nor s3://"),
    ],
)
def test_a_location_that_cannot_be_a_store_is_a_config_error_naming_state(
    state: str, client: bool, message: str
) -> None:
    factory = (lambda: object()) if client else None
    with pytest.raises(ConfigError, match=message) as caught:
        open_state_store(config(state), s3_client=factory)  # type: ignore[arg-type]
    assert caught.value.key == "state"


def test_an_s3_state_without_boto3_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from sitemill.errors import MissingExtraError

    monkeypatch.setitem(sys.modules, "sitemill.state.s3", None)  # as if botocore were absent
    # sitemill is on no package index yet: 'sitemill[s3]' would not be found (issue 41).
    hint = r"boto3: pip install 'boto3>=1\.34' \(the s3 extra; in a sitemill checkout: "
    with pytest.raises(MissingExtraError, match=hint):
        open_state_store(config("s3://state-bucket/key.gz"), s3_client=lambda: object())  # type: ignore[arg-type,return-value]
