"""The local engine-and-site stand for the IndexNow tests (tests/enginestand.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from enginestand import Stand


@pytest.fixture
def stands(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Stand]]:
    """Two servers (two origins); the first is the engine too."""
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    running = [Stand(), Stand()]
    for stand in running:
        stand.thread.start()
    yield running
    for stand in running:
        stand.release.set()
        stand.httpd.shutdown()
        stand.httpd.server_close()


@pytest.fixture
def stand(stands: list[Stand]) -> Stand:
    return stands[0]
