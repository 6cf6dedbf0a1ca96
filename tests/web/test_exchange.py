"""exchange (a one-off request: the state's download, an IndexNow POST): the first answer is the
response, whatever its status, and an error's body is read within the deadline too."""

from __future__ import annotations

import contextlib
import http.server
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from sitemill.errors import FetchError
from sitemill.web.answers import BodyWanted, Reply
from sitemill.web.livesite import exchange


@pytest.fixture
def origin(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """/moved: 301 to /target; /broken: 500 with a short body; /drip: 500, one byte a 50 ms."""
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            status, body = {"/moved": (301, b""), "/broken": (500, b"oops")}.get(
                self.path, (500, b"x" * 1000)
            )
            self.send_response(status)
            self.send_header("Location", "/target")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # (it gave up)
                for byte in range(len(body)):
                    self.wfile.write(body[byte : byte + 1])
                    self.wfile.flush()
                    if self.path == "/drip":
                        time.sleep(0.05)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02})
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
    thread.join()


def post(url: str, limit: int, *, timeout: float, deadline: float) -> Reply:
    """A POST of ``{}``, the body of any status read (at most ``limit`` bytes)."""
    every = BodyWanted(limit, statuses=range(100, 1000))
    return exchange("POST", url, {}, every, b"{}", timeout=timeout, deadline=deadline)


@pytest.mark.parametrize(
    ("path", "status", "body"), [("/moved", 301, b""), ("/broken", 500, b"oops")]
)
def test_any_status_is_the_response(origin: str, path: str, status: int, body: bytes) -> None:
    response = post(origin + path, 100, timeout=2, deadline=2)
    assert (response.status, response.body) == (status, body)


def test_an_error_body_is_read_within_the_deadline(origin: str) -> None:
    with pytest.raises(FetchError, match=r"within 0\.3 s"):
        post(origin + "/drip", 1000, timeout=2, deadline=0.3)
