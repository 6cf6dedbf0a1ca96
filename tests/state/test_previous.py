"""previous_state: a file, or the live site's copy over http(s) from a local server on
127.0.0.1; every way the network can fail is one warning and a first run, never a crash."""

from __future__ import annotations

import contextlib
import gzip
import http.server
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from sitemill import __version__
from sitemill.config.model import load_config
from sitemill.errors import ConfigError, StateError
from sitemill.state.download import download, fetch_url
from sitemill.state.previous import (
    PreviousState,
    open_previous,
    previous_state,
    read_previous_file,
)

STATE = gzip.compress(b'{"format":"sitemill-state","pages":{}}', mtime=0)

Handler = Callable[[http.server.BaseHTTPRequestHandler], None]


class Server:
    """A local HTTP server; each path answers with the handler registered for it."""

    def __init__(self) -> None:
        self.routes: dict[str, Handler] = {}
        self.requests: list[dict[str, str]] = []
        routes, requests = self.routes, self.requests

        class RequestHandler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                requests.append({"path": self.path, **dict(self.headers.items())})
                route = routes.get(self.path)
                if route is None:
                    self.send_error(404)
                    return
                # The client may give up (a size limit, a timeout), as it should.
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    route(self)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), RequestHandler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    def url(self, path: str) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host!s}:{port}{path}"


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    running = Server()
    running.thread.start()
    yield running
    running.httpd.shutdown()
    running.httpd.server_close()


def answer(
    status: int = 200, body: bytes = STATE, headers: dict[str, str] | None = None
) -> Handler:
    def respond(handler: http.server.BaseHTTPRequestHandler) -> None:
        handler.send_response(status)
        for name, value in {"Content-Length": str(len(body)), **(headers or {})}.items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(body)

    return respond


# --- http(s) ---------------------------------------------------------------------------


def test_a_gzip_file_served_as_is(server: Server, caplog: pytest.LogCaptureFixture) -> None:
    server.routes["/sitemill-state.json.gz"] = answer(headers={"Content-Type": "application/gzip"})
    assert fetch_url(server.url("/sitemill-state.json.gz")) == STATE
    assert caplog.records == []
    (request,) = server.requests
    assert request["User-Agent"] == f"sitemill/{__version__}"
    assert request["Accept-Encoding"] == "gzip"


def test_a_gz_file_declared_as_gzip_encoded_json_is_the_file(server: Server) -> None:
    # S3 with ContentEncoding metadata, or a server that serves .gz as an encoding: decoding
    # once gives JSON, so the bytes on the wire are the .gz file itself.
    server.routes["/s.gz"] = answer(
        headers={"Content-Type": "application/json", "Content-Encoding": "gzip"}
    )
    assert download(server.url("/s.gz")) == STATE


def test_a_gz_file_compressed_again_on_the_fly_is_decoded_once(server: Server) -> None:
    twice = gzip.compress(STATE, mtime=0)
    server.routes["/s.gz"] = answer(
        body=twice, headers={"Content-Type": "application/gzip", "Content-Encoding": "gzip"}
    )
    assert download(server.url("/s.gz")) == STATE


@pytest.mark.parametrize("status", [404, 410])
def test_nothing_there_is_none_and_one_warning_since_it_was_named(
    server: Server, caplog: pytest.LogCaptureFixture, status: int
) -> None:
    # download() says "nothing there" (None); a previous state the user named that is not
    # there is worth a warning (the Action's default live-site copy is only a notice).
    server.routes["/s.gz"] = answer(status, b"<html>gone</html>")
    assert download(server.url("/s.gz")) is None
    assert caplog.records == []
    assert fetch_url(server.url("/s.gz")) is None
    url = server.url("/s.gz")
    assert warned(caplog) == f"no previous state at {url} (HTTP 404 or 410); a first run"


def test_a_redirect_is_not_followed_one_warning_names_where_it_leads(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    server.routes["/old.gz"] = answer(301, b"", {"Location": "/new.gz"})
    server.routes["/new.gz"] = answer()
    url = server.url("/old.gz")
    assert fetch_url(url) is None
    assert warned(caplog) == (
        f"cannot fetch the previous state {url}: HTTP 301, a redirect to "
        f"{server.url('/new.gz')} (not followed: set previous_state to the URL it leads to, "
        "if that is the site's); a first run"
    )
    assert [request["path"] for request in server.requests] == ["/old.gz"]


def warned(caplog: pytest.LogCaptureFixture) -> str:
    (record,) = [r for r in caplog.records if r.levelno == logging.WARNING]
    message = record.getMessage()
    assert "\n" not in message
    assert message.endswith("; a first run")
    return message


def test_a_server_error_is_one_warning_and_none(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    server.routes["/s.gz"] = answer(500, b"<html>\n<h1>oops</h1>\n</html>")
    url = server.url("/s.gz")
    assert fetch_url(url) is None
    assert warned(caplog) == (
        f"cannot fetch the previous state {url}: HTTP 500 Internal Server Error; a first run"
    )


@pytest.mark.parametrize("target", ["file", "ftp://127.0.0.1:9/secret.gz"])
def test_a_redirect_out_of_http_is_not_followed(
    server: Server, caplog: pytest.LogCaptureFixture, tmp_path: Path, target: str
) -> None:
    secret = tmp_path / "secret.gz"
    secret.write_bytes(STATE)
    location = secret.as_uri() if target == "file" else target
    server.routes["/s.gz"] = answer(302, b"", {"Location": location})
    assert fetch_url(server.url("/s.gz")) is None
    assert f"HTTP 302, a redirect to {location} (not followed" in warned(caplog)


def test_a_silent_server_is_a_timeout(server: Server, caplog: pytest.LogCaptureFixture) -> None:
    release = threading.Event()

    def stall(handler: http.server.BaseHTTPRequestHandler) -> None:
        release.wait(60)

    server.routes["/s.gz"] = stall
    try:
        assert fetch_url(server.url("/s.gz"), timeout=0.2) is None
    finally:
        release.set()
    assert "no answer within 0.2 s" in warned(caplog)


def test_an_endless_body_stops_at_the_size_limit(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    sent: list[int] = []  # the chunks the server could write before the client hung up
    done = threading.Event()

    def endless(handler: http.server.BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/gzip")
        handler.end_headers()
        chunk = b"\0" * 65536
        try:
            for _ in range(10_000):  # 640 MB unless the client stops reading
                handler.wfile.write(chunk)
                sent.append(len(chunk))
        except OSError:  # (the client closed the connection)
            pass
        finally:
            done.set()

    server.routes["/s.gz"] = endless
    assert fetch_url(server.url("/s.gz"), limit=100_000) is None
    assert "larger than 100,000 bytes" in warned(caplog)
    assert done.wait(60)  # (a guard: the whole body would be 640 MB)
    assert len(sent) < 1_000  # what the sockets' buffers hold, not the 10,000 chunks


def test_a_dripping_body_stops_at_the_deadline(server: Server) -> None:
    def drip(handler: http.server.BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Length", "1000")
        handler.end_headers()
        for _ in range(1000):
            handler.wfile.write(b"\x1f")
            handler.wfile.flush()
            time.sleep(0.05)

    server.routes["/s.gz"] = drip
    with pytest.raises(StateError, match=r"no complete answer within 0\.3 s$"):
        download(server.url("/s.gz"), timeout=1, deadline=0.3)


def test_a_gzip_bomb_in_the_encoding_stops_at_the_size_limit(server: Server) -> None:
    bomb = gzip.compress(b"\0" * 5_000_000, mtime=0)
    server.routes["/s.gz"] = answer(body=bomb, headers={"Content-Encoding": "gzip"})
    with pytest.raises(StateError, match="larger than 1,000,000 bytes decoded"):
        download(server.url("/s.gz"), limit=1_000_000)


@pytest.mark.parametrize(
    ("headers", "body", "message"),
    [
        ({"Content-Encoding": "br"}, STATE, "unexpected Content-Encoding 'br'"),
        ({"Content-Encoding": "gzip"}, b"plain text", "Content-Encoding gzip, but"),
        ({"Content-Encoding": "gzip"}, STATE[:-6], "cut off"),
        ({"Content-Length": "99999"}, STATE, "cut off"),
    ],
    ids=["brotli", "not gzip", "cut off", "short body"],
)
def test_bodies_that_are_not_a_state_file_are_state_errors(
    server: Server, headers: dict[str, str], body: bytes, message: str
) -> None:
    def respond(handler: http.server.BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        for name, value in {"Content-Length": str(len(body)), **headers}.items():
            handler.send_header(name, value)
        handler.send_header("Connection", "close")
        handler.end_headers()
        handler.wfile.write(body)
        handler.close_connection = True

    server.routes["/s.gz"] = respond
    with pytest.raises(StateError, match=message):
        download(server.url("/s.gz"), timeout=2)


def test_identity_encoding_is_the_body(server: Server) -> None:
    server.routes["/s.gz"] = answer(headers={"Content-Encoding": "identity"})
    assert download(server.url("/s.gz")) == STATE


def test_a_refused_connection_is_one_warning(caplog: pytest.LogCaptureFixture) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert fetch_url(f"http://127.0.0.1:{port}/s.gz", timeout=2) is None
    assert "refused" in warned(caplog).lower()


def test_a_dns_failure_is_one_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def no_such_host(*args: Any, **kwargs: Any) -> Any:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_such_host)
    assert fetch_url("https://www.example.invalid/sitemill-state.json.gz") is None
    assert "Name or service not known" in warned(caplog)


def test_a_tls_failure_is_one_warning(server: Server, caplog: pytest.LogCaptureFixture) -> None:
    server.routes["/s.gz"] = answer()
    url = server.url("/s.gz").replace("http://", "https://")
    assert fetch_url(url, timeout=2) is None
    assert "SSL" in warned(caplog)


# --- paths ------------------------------------------------------------------------------


def test_a_file(tmp_path: Path) -> None:
    path = tmp_path / "state.gz"
    path.write_bytes(STATE)
    previous = previous_state(str(path))
    assert previous.location == str(path)
    assert previous.read() == STATE


def test_a_missing_file_is_none_and_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    missing = tmp_path / "none.gz"
    assert previous_state(str(missing)).read() is None
    assert warned(caplog) == f"no previous state at {missing} (no such file); a first run"


def test_a_fifo_or_a_big_file_is_a_warning_and_none(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert read_previous_file(fifo) is None
    big = tmp_path / "big"
    big.write_bytes(b"x" * 11)
    assert read_previous_file(big, limit=10) is None
    messages = [record.getMessage() for record in caplog.records]
    assert len(messages) == 2
    assert "FIFO" in messages[0]
    assert "larger than 10 bytes" in messages[1]


def test_a_url_reads_through_the_given_fetch() -> None:
    asked: list[str] = []

    def fetch(url: str) -> bytes | None:
        asked.append(url)
        return b"bytes"

    previous = previous_state(" https://example.com/sitemill-state.json.gz ", fetch=fetch)
    assert isinstance(previous, PreviousState)
    assert previous.location == "https://example.com/sitemill-state.json.gz"
    assert asked == []  # nothing is fetched until the state is needed
    assert previous.read() == b"bytes"
    assert asked == ["https://example.com/sitemill-state.json.gz"]


@pytest.mark.parametrize(
    "location",
    [
        "file:///etc/passwd",
        "ftp://example.com/state.gz",
        "s3://bucket/state.gz",
        "data:application/gzip;base64,H4sI",
        "http://",
        "https:///state.gz",
    ],
)
def test_other_schemes_are_config_errors_naming_previous_state(location: str) -> None:
    with pytest.raises(ConfigError, match="neither a path nor an http") as caught:
        previous_state(location)
    assert caught.value.key == "previous_state"


@pytest.mark.parametrize("location", ["state.gz", "./s:1.gz", "C:\\state.gz", "/abs/s.gz"])
def test_paths_are_paths(location: str) -> None:
    assert previous_state(location).location == location


def test_open_previous_reads_the_config() -> None:
    base = {"base_url": "https://example.com/"}
    assert open_previous(load_config(base)) is None
    previous = open_previous(load_config({**base, "previous_state": "https://example.com/s.gz"}))
    assert previous is not None and previous.location == "https://example.com/s.gz"


# --- one deadline for the whole request -------------------------------------------------------


def drip_status_line(handler: http.server.BaseHTTPRequestHandler) -> None:
    """The status line and headers, one byte every 50 ms: no single read ever waits long."""
    for byte in b"HTTP/1.1 200 OK\r\nContent-Type: application/gzip\r\n" * 100:
        handler.wfile.write(bytes([byte]))
        handler.wfile.flush()
        time.sleep(0.05)


def test_headers_dripping_one_byte_at_a_time_meet_the_deadline(server: Server) -> None:
    server.routes["/s.gz"] = drip_status_line
    with pytest.raises(StateError, match=r"no complete answer within 0\.5 s$"):
        download(server.url("/s.gz"), timeout=2, deadline=0.5)


def test_a_server_that_never_accepts_meets_the_deadline() -> None:
    with socket.socket() as listener:  # the kernel completes the handshake; nobody answers
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        url = f"http://127.0.0.1:{listener.getsockname()[1]}/s.gz"
        with pytest.raises(StateError, match=r"within 0\.4 s$"):
            download(url, timeout=60, deadline=0.4)


def test_a_redirect_to_another_host_asks_nothing_there(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    # A site's answer names another host: sitemill asks only the URL it was given.
    with contextlib.ExitStack() as stack:
        other = Server()
        other.thread.start()
        stack.callback(other.httpd.server_close)
        stack.callback(other.httpd.shutdown)
        other.routes["/new.gz"] = answer()
        server.routes["/old.gz"] = answer(301, b"", {"Location": other.url("/new.gz")})
        assert fetch_url(server.url("/old.gz")) is None
        assert other.requests == []
    assert f"a redirect to {other.url('/new.gz')} (not followed" in warned(caplog)
