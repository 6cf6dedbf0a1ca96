"""The check's asyncio client reads an answer as http.client reads it: for each raw answer a
server may send (chunked, folded headers, 100 Continue, to the connection's end, cut off, no HTTP
at all), LiveSite's answer (status, headers, body, problem) is the one http.client's reading of
the same bytes gives (the reading of web.transport.deadline_open, the client the check used
before, sitemill's second client until issue 80: http.client's, with its bounded body)."""

from __future__ import annotations

import http.client
import socket
import threading
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from sitemill.errors import FetchError
from sitemill.web.livesite import Limits, LiveSite

PAGE = b"<!doctype html><title>a page</title>"
RAW = {
    "/length": b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 36\r\n\r\n" + PAGE,
    "/chunked": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\n\r\n"
    b"10;ext=1\r\n" + PAGE[:16] + b"\r\n14\r\n" + PAGE[16:] + b"\r\n0\r\nTrailer: t\r\n\r\n",
    "/folded": b"HTTP/1.1 200 OK\r\nX-Long: one\r\n two\r\nSet-Cookie: a=1\r\nset-cookie: b=2 \r\n"
    b"X-Robots-Tag:noindex\r\nContent-Length: 36\r\n\r\n" + PAGE,
    "/continue": b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 36\r\n\r\n"
    + PAGE,
    "/to-the-end": b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n" + PAGE,
    "/bare-lf": b"HTTP/1.1 200 OK\nContent-Length: 36\n\n" + PAGE,
    "/missing": b"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot here.",
    "/moved": b"HTTP/1.1 301 Moved Permanently\r\nLocation: /length\r\nContent-Length: 0\r\n\r\n",
    "/cut": b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + PAGE,
    "/chunk-cut": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n40\r\n" + PAGE,
    "/large": b"HTTP/1.1 200 OK\r\nContent-Length: 3600\r\n\r\n" + PAGE * 100,
    "/no-http": b"HELLO THERE\r\n\r\n",
    "/silent": b"",
}


@pytest.fixture
def origin(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A server on 127.0.0.1 that answers each request with RAW[path], then closes."""
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    listening = socket.create_server(("127.0.0.1", 0))
    listening.settimeout(0.05)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                sock, _ = listening.accept()
            except TimeoutError:
                continue
            with sock:
                sock.settimeout(5)
                asked = sock.recv(65536).split(b" ", 2)  # (nothing: a client that gave up)
                if len(asked) == 3:
                    sock.sendall(RAW[asked[1].decode()])

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listening.getsockname()[1]}"
    stop.set()
    thread.join()
    listening.close()


def read_body(response: http.client.HTTPResponse, limit: int) -> bytes:
    """At most ``limit`` bytes (FetchError on one more), as web.transport read a body."""
    chunks: list[bytes] = []
    size = 0
    while chunk := response.read1(min(64 * 1024, limit + 1 - size)):
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise FetchError(f"larger than {limit:,} bytes")
    if getattr(response, "length", None):  # read1 ends quietly where the connection did
        raise FetchError("the body is cut off")
    return b"".join(chunks)


def by_http_client(
    url: str, limit: int
) -> tuple[int | None, tuple[tuple[str, str], ...], bytes, str]:
    """What reading the answer with http.client gives (LiveSite's problem for an exception)."""
    parts = urlsplit(url)  # (the target as written: urlsplit drops tabs)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=5)
    try:
        target = "/" + url.split("/", 3)[3]
        connection.request("GET", target, headers={"Connection": "close"})
        response = connection.getresponse()
        status, headers = response.status, tuple(response.headers.items())
        if status != 200:
            return status, headers, b"", ""
        try:
            return status, headers, read_body(response, limit), ""
        except Exception as exc:
            if "larger than" in str(exc):
                return status, headers, b"", f"larger than {limit:,} bytes"
            raise
    except Exception as exc:
        return None, (), b"", " ".join(str(exc).split())[:200] or type(exc).__name__
    finally:
        connection.close()


@pytest.mark.parametrize("path", sorted(RAW))
def test_an_answer_reads_as_http_client_reads_it(origin: str, path: str) -> None:
    limits = Limits(1, timeout=5.0, request_deadline=5.0, run_deadline=60.0)
    answer = LiveSite(frozenset({origin}), limits).get(origin + path, 1_000)
    expected = by_http_client(origin + path, 1_000)
    assert (answer.status, answer.headers, answer.body, answer.problem) == expected
    assert expected[0] is not None or expected[3]  # (a problem said when there is no answer)


@pytest.mark.parametrize("path", ["/a page", "/caf\u00e9", "/tab\there"])
def test_a_target_http_client_refuses_is_refused_alike(origin: str, path: str) -> None:
    """A space, a control character, a letter that is not ASCII: no request, the same
    problem as http.client's."""
    limits = Limits(1, timeout=5.0, request_deadline=5.0, run_deadline=60.0)
    answer = LiveSite(frozenset({origin}), limits).get(origin + path, 1_000)
    expected = by_http_client(origin + path, 1_000)
    assert (answer.status, answer.problem) == (expected[0], expected[3])
    assert answer.problem
