"""The check's client counts its work: no thread per request, a kept-alive connection serves many
requests, and a server that drips its answer still meets the request's deadline."""

from __future__ import annotations

import datetime
import http.server
import ipaddress
import select
import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from livesite import loopback
from sitemill.web import _dialing as connection
from sitemill.web._dialing import Route, route
from sitemill.web.livesite import Limits, LiveSite

BODY = b"<!doctype html><title>a page</title>" * 20


class Server:
    """A site on 127.0.0.1: ``/drip-body`` and ``/drip-head`` answer one byte every 50 ms;
    ``/drop`` closes its connection after the answer without saying so; ``/missing…`` is a
    404; every other path a page. Counts the connections it accepted."""

    def __init__(self, protocol: str) -> None:
        self.connections = 0
        self.paths: list[str] = []
        self.release = threading.Event()
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = protocol

            def setup(self) -> None:
                super().setup()
                server.connections += 1

            def do_GET(self) -> None:
                server.paths.append(self.path)
                if self.path.startswith("/missing"):  # (a 404 with a page, kept alive)
                    self.wfile.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 8\r\n\r\nnot here")
                    return
                head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                head += b"Content-Length: %d\r\n\r\n" % len(BODY)
                if self.path.startswith("/drip"):
                    if self.path == "/drip-body":
                        self.wfile.write(head)
                    self.drip(BODY if self.path == "/drip-body" else head + BODY)
                    return
                self.wfile.write(head + BODY)
                self.close_connection = self.path == "/drop" or protocol == "HTTP/1.0"

            def drip(self, data: bytes) -> None:
                for at in range(len(data)):
                    if server.release.wait(0.05) or not self.send(data[at : at + 1]):
                        break
                self.close_connection = True

            def send(self, byte: bytes) -> bool:
                try:
                    self.wfile.write(byte)
                    self.wfile.flush()
                except OSError:
                    return False
                return True

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd, self.origin, self.thread = loopback(Handler)


def serve(protocol: str) -> Iterator[Server]:
    server = Server(protocol)
    server.thread.start()
    yield server
    server.release.set()
    server.httpd.shutdown()
    server.httpd.server_close()
    server.thread.join()


@pytest.fixture
def site(monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """A server that keeps connections alive (HTTP/1.1), and no proxy in the way."""
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    yield from serve("HTTP/1.1")


def live(server: Server, concurrency: int = 2, deadline: float = 10.0) -> LiveSite:
    limits = Limits(concurrency, timeout=5.0, request_deadline=deadline, run_deadline=60.0)
    return LiveSite(frozenset({server.origin}), limits)


def bodies(site: LiveSite, urls: list[str]) -> list[tuple[int | None, bytes, str]]:
    return sorted((a.status, a.body, a.problem) for a in site.answers(urls, limit=10_000))


def started_threads(monkeypatch: pytest.MonkeyPatch, server: Server) -> Callable[[], int]:
    """A count of the threads started from now on, but for the server's own."""
    started: list[str] = []
    start = threading.Thread.start

    def counted(thread: threading.Thread) -> None:
        if threading.current_thread() is not server.thread:
            started.append(thread.name)
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", counted)
    return lambda: len(started)


def test_a_request_starts_no_thread(site: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """40 requests, 2 at a time: one event loop in the calling thread, no thread at all (was
    2 workers; before them, a timer per request as well)."""
    count = started_threads(monkeypatch, site)
    answers = bodies(live(site), [f"{site.origin}/p{n}" for n in range(40)])
    assert answers == [(200, BODY, "")] * 40
    assert count() == 0


def test_a_kept_alive_host_serves_many_requests_per_connection(site: Server) -> None:
    """40 requests, 2 at a time, to an HTTP/1.1 host: at most 2 connections (was 40)."""
    answers = bodies(live(site), [f"{site.origin}/p{n}" for n in range(40)])
    assert answers == [(200, BODY, "")] * 40
    assert len(site.paths) == 40
    assert site.connections <= 2


def test_an_answer_whose_body_is_not_wanted_keeps_its_connection(site: Server) -> None:
    """A 404's page is not read by the check (its status is the answer), but read here to
    keep the connection: 20 requests, 2 at a time, on at most 2 connections (was 20)."""
    answers = bodies(live(site), [f"{site.origin}/missing{n}" for n in range(20)])
    assert answers == [(404, b"", "")] * 20
    assert site.connections <= 2


def test_a_host_that_closes_each_connection_is_asked_on_new_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """HTTP/1.0 (Python's http.server): each answer on its own connection, each one read."""
    for name in ("http_proxy", "HTTP_PROXY"):
        monkeypatch.delenv(name, raising=False)
    for server in serve("HTTP/1.0"):
        answers = bodies(live(server), [f"{server.origin}/p{n}" for n in range(10)])
        assert answers == [(200, BODY, "")] * 10
        assert server.connections == 10


def test_a_connection_the_host_dropped_is_asked_again_on_a_new_one(site: Server) -> None:
    """A kept connection the server closed after its answer (without saying so): the next
    request on it finds no answer and is sent again, once, on a new connection."""
    urls = [f"{site.origin}/drop" for _ in range(6)]
    answers = bodies(live(site, concurrency=1), urls)
    assert answers == [(200, BODY, "")] * 6
    assert site.connections == 6


@pytest.mark.parametrize("path", ["/drip-body", "/drip-head"])
def test_a_dripping_answer_meets_the_request_deadline(site: Server, path: str) -> None:
    """One byte every 50 ms, each silence far below the timeout (5 s): the request's
    deadline (0.3 s) ends it, as it ended when a timer thread watched each request."""
    (answer,) = live(site, deadline=0.3).answers([site.origin + path], limit=10_000)
    assert (answer.status, answer.body) in ((None, b""), (200, b""))
    assert answer.problem == "no complete answer within 0.3 s"


def test_proxies_route_http_by_absolute_url_and_https_through_a_tunnel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("no_proxy", "inside.example")
    proxies = {"http": "http://user:p%40ss@proxy.example:3128", "https": "proxy.example:8080"}
    auth = "Basic dXNlcjpwQHNz"  # user:p@ss
    assert route("http://site.example/a", proxies) == Route(
        False, "proxy.example", 3128, absolute=True, proxy_auth=auth
    )
    assert route("https://site.example/a", proxies) == Route(
        True, "proxy.example", 8080, tunnel="site.example:443"
    )
    assert route("https://inside.example:8443/a", proxies) == Route(True, "inside.example", 8443)
    assert route("http://site.example/a", {}) == Route(False, "site.example", 80)
    assert route("https://[::1]:8443/a", {"https": "p.example:3128"}).tunnel == "[::1]:8443"


def test_an_http_proxy_is_asked_for_the_whole_url(
    site: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """http_proxy from the environment, as urllib read it: the proxy gets the absolute URL."""
    monkeypatch.setenv("http_proxy", site.origin)
    monkeypatch.setenv("no_proxy", "")
    origin = "http://site.invalid"
    limits = Limits(1, timeout=5.0, request_deadline=10.0, run_deadline=60.0)
    answer = LiveSite(frozenset({origin}), limits).get(origin + "/page", 10_000)
    assert (answer.status, answer.body, site.paths) == (200, BODY, [origin + "/page"])


def test_no_wait_outlasts_the_run(site: Server) -> None:
    """A run deadline already spent: nothing is asked (no connection at all)."""
    limits = Limits(2, timeout=5.0, request_deadline=5.0, run_deadline=0.0)
    checked = LiveSite(frozenset({site.origin}), limits, started=time.monotonic() - 1)
    (answer,) = checked.answers([site.origin + "/p"])
    assert (answer.asked, site.connections) == (False, 0)


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key, made here (no network, no openssl)."""
    x509 = pytest.importorskip("cryptography.x509")
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(x509.oid.NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    address = x509.IPAddress(ipaddress.ip_address("127.0.0.1"))
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(1)
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([address]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    (folder / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    private = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    (folder / "key.pem").write_bytes(private)
    return folder / "cert.pem", folder / "key.pem"


def test_over_tls_a_connection_is_kept_and_a_drip_meets_the_deadline(
    site: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same over https: 20 requests on at most 2 connections, and a dripping body ends
    at the request's deadline (each receive of the TLS socket is bounded by it)."""
    cert, key = self_signed(tmp_path)
    serving = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    serving.load_cert_chain(cert, key)
    site.httpd.socket = serving.wrap_socket(site.httpd.socket, server_side=True)
    trusting = connection._tls_context.__wrapped__()  # (as sitemill makes it, trusting cert)
    trusting.load_verify_locations(cert)
    monkeypatch.setattr(connection, "_tls_context", lambda: trusting)
    origin = site.origin.replace("http://", "https://")
    limits = Limits(2, timeout=5.0, request_deadline=0.3, run_deadline=60.0)
    checked = LiveSite(frozenset({origin}), limits)
    answers = sorted(
        (a.status, a.body)
        for a in checked.answers([f"{origin}/p{n}" for n in range(20)], limit=10_000)
    )
    assert answers == [(200, BODY)] * 20
    assert site.connections <= 2
    (dripped,) = checked.answers([origin + "/drip-body"], limit=10_000)
    assert dripped.problem == "no complete answer within 0.3 s"


def tunnelling_proxy(asked: list[bytes]) -> tuple[socket.socket, threading.Thread]:
    """A proxy on 127.0.0.1 that answers each CONNECT with 200 and pipes the bytes both
    ways (each request it is asked kept in ``asked``)."""
    listening = socket.create_server(("127.0.0.1", 0))

    def tunnel(client: socket.socket) -> None:
        with client:
            request = b""
            while b"\r\n\r\n" not in request:
                request += client.recv(4096)
            asked.append(request)
            host, _, port = request.split(b" ")[1].decode().rpartition(":")
            with socket.create_connection((host, int(port))) as upstream:
                client.sendall(b"HTTP/1.0 200 Connection established\r\n\r\n")
                ends = {client: upstream, upstream: client}
                while True:
                    ready, _, _ = select.select(list(ends), [], [], 5)
                    data = ready[0].recv(65536) if ready else b""
                    if not data:
                        return
                    ends[ready[0]].sendall(data)

    def serve() -> None:
        listening.settimeout(0.05)
        while listening.fileno() >= 0:
            try:
                client, _ = listening.accept()
            except TimeoutError:
                continue
            except OSError:  # (closed: the test is over)
                return
            client.settimeout(None)
            threading.Thread(target=tunnel, args=(client,), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return listening, thread


def test_https_through_a_proxy_is_a_tunnel_with_tls_inside(
    site: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """https_proxy from the environment: a CONNECT to the site's host and port, then TLS to
    the site (its certificate checked) inside the tunnel, kept alive for the next requests."""
    cert, key = self_signed(tmp_path)
    serving = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    serving.load_cert_chain(cert, key)
    site.httpd.socket = serving.wrap_socket(site.httpd.socket, server_side=True)
    trusting = connection._tls_context.__wrapped__()
    trusting.load_verify_locations(cert)
    monkeypatch.setattr(connection, "_tls_context", lambda: trusting)
    asked: list[bytes] = []
    listening, thread = tunnelling_proxy(asked)
    monkeypatch.setenv("https_proxy", f"http://127.0.0.1:{listening.getsockname()[1]}")
    monkeypatch.setenv("no_proxy", "")
    origin = site.origin.replace("http://", "https://")
    try:
        limits = Limits(1, timeout=5.0, request_deadline=10.0, run_deadline=60.0)
        checked = LiveSite(frozenset({origin}), limits)
        answers = bodies(checked, [f"{origin}/p{n}" for n in range(5)])
    finally:
        listening.close()
        thread.join()
    assert answers == [(200, BODY, "")] * 5
    port = origin.rpartition(":")[2]
    assert asked == [f"CONNECT 127.0.0.1:{port} HTTP/1.0\r\n\r\n".encode()]
    assert site.paths == [f"/p{n}" for n in range(5)] and site.connections == 1


def test_a_certificate_not_trusted_is_no_connection(site: Server, tmp_path: Path) -> None:
    """TLS is verified: a certificate no authority vouches for makes no connection, and the
    reason says so (the host counts as unreached)."""
    cert, key = self_signed(tmp_path)
    serving = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    serving.load_cert_chain(cert, key)
    site.httpd.socket = serving.wrap_socket(site.httpd.socket, server_side=True)
    origin = site.origin.replace("http://", "https://")
    limits = Limits(1, timeout=5.0, request_deadline=10.0, run_deadline=60.0)
    checked = LiveSite(frozenset({origin}), limits)
    (answer,) = checked.answers([origin + "/p"])
    assert answer.status is None and "CERTIFICATE_VERIFY_FAILED" in answer.problem
    assert list(checked.unreachable()) == [origin] and site.paths == []
