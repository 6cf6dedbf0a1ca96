"""A local server on 127.0.0.1 that stands for both an IndexNow engine (POST /indexnow, its
answers programmed in turn, the bodies recorded) and a live site (files by path)."""

from __future__ import annotations

import http.server
import json
import threading
from dataclasses import dataclass, field
from typing import Any

from livesite import loopback
from sitemill.indexnow.key import IndexNowTarget

KEY = "5f0c2a9e-sitemill-test-key-7b41"
KINDS = ("added", "changed", "removed")


@dataclass
class Reply:
    """One answer of the engine; ``stall``: none at all (the connection stays silent)."""

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    stall: bool = False
    partial: bytes = b""  # with ``stall``: these bytes of the answer first (cut headers)


class Stand:
    """The engine at /indexnow and the site: ``files`` maps a path to (status, body)."""

    def __init__(self) -> None:
        self.replies: list[Reply] = [Reply(200)]  # in turn; the last one repeats
        self.files: dict[str, tuple[int, bytes, dict[str, str]]] = {
            f"/{KEY}.txt": (200, KEY.encode(), {})
        }
        self.slow: dict[str, float] = {}  # path -> seconds before its answer
        self.default: tuple[int, bytes, dict[str, str]] | None = None  # for any other path
        self.requests: list[tuple[str, str]] = []  # (method, path)
        self.posts: list[dict[str, Any]] = []
        self.content_types: list[str] = []
        self.release = threading.Event()
        stand = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                stand.requests.append(("GET", self.path))
                if self.path in stand.slow:
                    stand.release.wait(stand.slow[self.path])
                missing = stand.default or (404, b"not found", {})
                status, body, headers = stand.files.get(self.path, missing)
                self.answer(Reply(status, body, headers))

            def do_POST(self) -> None:
                stand.requests.append(("POST", self.path))
                data = self.rfile.read(int(self.headers["Content-Length"]))
                if self.path != "/indexnow":
                    self.answer(Reply(404))
                    return
                stand.posts.append(json.loads(data))
                stand.content_types.append(self.headers["Content-Type"])
                reply = stand.replies.pop(0) if len(stand.replies) > 1 else stand.replies[0]
                if reply.stall:
                    self.wfile.write(reply.partial)
                    self.wfile.flush()
                    stand.release.wait(60)  # (released when the test ends)
                    return
                self.answer(reply)

            def answer(self, reply: Reply) -> None:
                self.send_response(reply.status)
                headers = {"Content-Length": str(len(reply.body)), **reply.headers}
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(reply.body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd, self.origin, self.thread = loopback(Handler)

    def urls(self, count: int, start: int = 0) -> dict[str, str]:
        return {f"{self.origin}/p/{n:05d}": KINDS[n % 3] for n in range(start, start + count)}

    def settings(self, **changes: Any) -> IndexNowTarget:
        return IndexNowTarget(**{"endpoint": f"{self.origin}/indexnow", "key": KEY, **changes})
