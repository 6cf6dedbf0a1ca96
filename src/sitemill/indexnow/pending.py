"""The URLs not announced yet, where a run keeps them."""
# In its state, or (a partitioned state) in an object of their own beside it.

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Final

from sitemill.errors import StateError
from sitemill.sinks import LocalDirSink
from sitemill.state.bounded import load_state_json
from sitemill.state.model import State, dump_document, dump_state
from sitemill.state.pending import pending_from_json
from sitemill.state.store import FileStateStore, SinkStateStore, StateStore

PENDING_FORMAT: Final = "sitemill-indexnow"


class StatePending:
    """The ``pending`` table of the state in ``store``; ``public`` when that state sits
    beside the sitemaps (it keeps no removed URL, indexnow.announce.kept_pending)."""

    def __init__(self, store: StateStore, *, public: bool) -> None:
        self.store = store
        self.public = public

    def read(self) -> dict[str, str]:
        state = self.state()
        return {} if state is None else state.pending

    def state(self) -> State | None:
        """The state itself (None when there is none or it cannot be read)."""
        from sitemill.state.parse import parse_state

        data = self.store.read()
        if data is None:
            return None
        try:
            return parse_state(data)
        except StateError:
            return None

    def write(self, pending: dict[str, str]) -> bool:
        """The state again with ``pending`` (no write when it holds exactly that, or when
        there is no state to keep it in)."""
        from sitemill.state.parse import parse_state

        data = self.store.read()
        if data is None:
            return False
        state = parse_state(data)
        if state.pending == pending:
            return False
        state.pending = dict(pending)
        return self.store.write(dump_state(state))


class ObjectPending:
    """The pending URLs as a document of their own in ``store`` (a partitioned state's
    ``indexnow.json.gz``: private, like the state)."""

    public = False

    def __init__(self, store: StateStore) -> None:
        self.store = store

    def read(self) -> dict[str, str]:
        data = self.store.read()
        if data is None:
            return {}
        try:
            document: Any = load_state_json(data)
        except StateError:
            return {}
        if not isinstance(document, dict) or document.get("format") != PENDING_FORMAT:
            return {}
        return pending_from_json(document)

    def write(self, pending: dict[str, str]) -> bool:
        if not pending and self.store.read() is None:
            return False
        document = {"format": PENDING_FORMAT, "pending": dict(pending)}
        return self.store.write(dump_document(document))


def tree_pending(store: StateStore | None, site_dir: Path, out_dir: Path) -> StatePending:
    """The pending URLs of a tree's runs: in ``store`` (``state``), or the state beside the
    sitemaps in ``out_dir`` when there is none."""
    store = store or SinkStateStore(LocalDirSink(out_dir))
    return StatePending(store, public=state_is_public(store, [site_dir, out_dir]))


def state_is_public(store: StateStore, folders: list[Path]) -> bool:
    """Whether the state may be served with the site: beside the sitemaps, or a file in the
    site or its output folder (an S3 object elsewhere is private)."""
    if isinstance(store, SinkStateStore):
        return True
    if not isinstance(store, FileStateStore):
        return False
    where = Path(os.path.realpath(store.path))
    return any(where.is_relative_to(os.path.realpath(folder)) for folder in folders)
