"""moto's server on 127.0.0.1 at a free port, for tests whose clients speak HTTP to AWS."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager

from moto.server import ThreadedMotoServer


@contextmanager
def moto_server() -> Iterator[str]:
    """A running ``ThreadedMotoServer``'s endpoint URL, stopped when the block ends."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.stop()
