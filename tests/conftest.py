"""Shared fixtures: small sites on disk, a fixed base URL."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest

from livesite import serve_folder

BASE_URL = "https://example.com/"
# A fixed mtime (2024-03-01T12:00:00Z) so that mtime-based lastmod values are predictable.
FIXED_MTIME = 1_709_294_400

SiteMaker = Callable[[Mapping[str, str | bytes]], Path]


def write_site(root: Path, files: Mapping[str, str | bytes], mtime: int = FIXED_MTIME) -> Path:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        data = content.encode("utf-8") if isinstance(content, str) else content
        path.write_bytes(data)
        os.utime(path, (mtime, mtime))
    return root


@pytest.fixture
def make_site(tmp_path: Path) -> SiteMaker:
    def make(files: Mapping[str, str | bytes]) -> Path:
        return write_site(tmp_path / "site", files)

    (tmp_path / "site").mkdir()
    return make


def page(title: str = "x", head: str = "") -> str:
    return (
        f"<!doctype html><html><head><title>{title}</title>{head}</head><body>{title}</body></html>"
    )


@pytest.fixture
def live_site(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A folder served on 127.0.0.1 as the live site, and its URL."""
    served = tmp_path / "live"
    served.mkdir()
    with serve_folder(served) as url:
        yield served, url
