"""The pending URLs are written over what the store holds now (indexnow.pending.merge_pending): what
was sent leaves, what another writer added or changed since the read stays."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from sitemill.filenames.outputs import STATE_NAME
from sitemill.indexnow import pending as pending_module
from sitemill.indexnow.pending import StatePending, merge_pending
from sitemill.sinks import LocalDirSink
from sitemill.state.model import State, dump_state
from sitemill.state.parse import parse_state
from sitemill.state.store import FileStateStore, SinkStateStore, StateStore


@pytest.mark.parametrize(
    ("read", "now", "kept", "written"),
    [
        # sent: a and b; c refused (kept); nothing new
        ({"a": "changed", "b": "added", "c": "changed"},
         {"a": "changed", "b": "added", "c": "changed"}, {"c": "changed"}, {"c": "changed"}),
        # a deploy meanwhile added d and changed b's kind: both stay
        ({"a": "changed", "b": "added"}, {"a": "changed", "b": "changed", "d": "added"},
         {}, {"b": "changed", "d": "added"}),
        # what is kept wins over the store's kind of the same URL
        ({"a": "changed"}, {"a": "removed"}, {"a": "changed"}, {"a": "changed"}),
        # nothing read (a store written without a read first): what is kept stands alone
        (None, {"a": "changed", "d": "added"}, {"b": "added"}, {"b": "added"}),
    ],
)  # fmt: skip
def test_what_was_sent_leaves_and_what_another_writer_added_stays(
    read: dict[str, str] | None, now: dict[str, str], kept: dict[str, str],
    written: dict[str, str],
) -> None:  # fmt: skip
    assert merge_pending(read, now, kept) == written


@pytest.mark.parametrize("beside", [True, False])
def test_a_file_written_between_the_re_read_and_the_write_is_settled_over_not_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, beside: bool
) -> None:
    """A folder's state (beside the sitemaps, or a file of its own) is written back only over
    the file that was read: another writer's file is read again and settled over."""
    store: StateStore
    if beside:
        store, path = SinkStateStore(LocalDirSink(tmp_path)), tmp_path / STATE_NAME
    else:
        path = tmp_path / "private" / "state.json.gz"
        store = FileStateStore(path)
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(dump_state(State(pending={"https://e.org/a": "changed"})))
    path.chmod(0o600)
    pending = StatePending(store, public=False)
    assert pending.read() == {"https://e.org/a": "changed"}
    settle, calls = pending_module.merge_pending, []

    def another_writer_first(
        read: dict[str, str] | None, now: dict[str, str], kept: dict[str, str]
    ) -> dict[str, str]:
        calls.append(dict(now))
        if len(calls) == 1:  # (a build replaces the file, by a rename, as every writer does)
            other = State(pending={"https://e.org/a": "changed", "https://e.org/b": "added"})
            FileStateStore(path).write(dump_state(other))
        return settle(read, now, kept)

    monkeypatch.setattr(pending_module, "merge_pending", another_writer_first)
    assert pending.write({})  # (a was sent)
    assert len(calls) == 2  # the first settling was over a file replaced since: again
    assert parse_state(path.read_bytes()).pending == {"https://e.org/b": "added"}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
