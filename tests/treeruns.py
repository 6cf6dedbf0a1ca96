"""Helpers for tests of a tree's run: its outputs, and the order of its page reads and git log."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest

from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.jobs import _treehistory as treehistory
from sitemill.jobs import _treereads as treereads
from sitemill.sinks import LocalDirSink

BASE = "https://example.com/"


def outputs(repo: Path, out: Path, **settings: object) -> dict[str, bytes]:
    """The files a build of ``repo`` (``settings`` over BASE) writes into ``out``, by name."""
    config = load_config({"base_url": BASE, **settings})
    build_from_tree(config, repo, LocalDirSink(out))
    return {name: (out / name).read_bytes() for name in sorted(os.listdir(out))}


def hold_log_until_reads(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[int]]:
    """Hold git log's answer until read_pages returns, so the order is the code's, not the
    clock's; the chunks of pages taken, and how many had been taken when read_pages returned."""
    chunks: list[str] = []
    by_then: list[int] = []
    returned = threading.Event()
    real_take, real_read, real_log = (
        treereads.PageReads._take,
        treehistory.read_pages,
        treehistory.read_history,
    )

    def take(self: treereads.PageReads) -> None:
        chunks.append("chunk")
        real_take(self)

    def read_pages(*args: Any, **kwargs: Any) -> treereads.PageReads:
        reads = real_read(*args, **kwargs)
        by_then.append(len(chunks))
        returned.set()
        return reads

    def resolve_lastmod(*args: Any, **kwargs: Any) -> Any:
        found = real_log(*args, **kwargs)
        returned.wait(timeout=60)
        return found

    monkeypatch.setattr(treereads.PageReads, "_take", take)
    monkeypatch.setattr(treehistory, "read_pages", read_pages)
    monkeypatch.setattr(treehistory, "read_history", resolve_lastmod)
    return chunks, by_then
