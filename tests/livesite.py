"""A folder served over HTTP on 127.0.0.1: the live site a first run reads its state from."""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from collections.abc import Callable, Iterator
from pathlib import Path


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def loopback(
    handler: Callable[..., http.server.BaseHTTPRequestHandler],
) -> tuple[http.server.ThreadingHTTPServer, str, threading.Thread]:
    """A threading server of ``handler`` on 127.0.0.1, its origin (``http://127.0.0.1:PORT``,
    no slash) and the daemon thread that serves it once started."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    thread = threading.Thread(
        target=httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
    )
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}", thread


@contextlib.contextmanager
def serving(handler: Callable[..., http.server.BaseHTTPRequestHandler]) -> Iterator[str]:
    """A threading server of ``handler`` on 127.0.0.1 while the block runs; yields its origin
    (``http://127.0.0.1:PORT``, no slash)."""
    httpd, origin, thread = loopback(handler)
    thread.start()
    try:
        yield origin
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


@contextlib.contextmanager
def serve_folder(served: Path) -> Iterator[str]:
    """Serve ``served`` while the block runs; yields its base URL (ending in "/")."""
    with serving(functools.partial(_QuietHandler, directory=str(served))) as origin:
        yield origin + "/"


@contextlib.contextmanager
def recording_server() -> Iterator[tuple[list[str], str]]:
    """A live site that answers 404 to everything and remembers the paths it was asked for;
    yields that list and its base URL (ending in "/")."""
    asked: list[str] = []

    class Recording(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            asked.append(self.path)
            self.send_error(404)

        def log_message(self, format: str, *args: object) -> None:
            pass

    with serving(Recording) as origin:
        yield asked, origin + "/"
