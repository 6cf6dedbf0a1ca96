"""The check-10k section's loopback site: a folder's files over HTTP/1.1, connections kept alive.

`python -m http.server` is one thread per connection, HTTP/1.0 and a closed connection after each
answer: on 2 cores it was the bottleneck of the comparison (sitemill's check and the asyncio floor
both near its ceiling, the ratio saying nothing). This one is one asyncio process reading the
file per request, as a static host does (a second process sharing the port gave the floor no more).
Run as ``python benchmarks/check_server.py ROOT PORT [LATENCY_MS]``: with LATENCY_MS, each answer
is sent that long after its request came (a CDN's or a distant host's time to first byte; the
connection's other requests wait their turn, as HTTP/1.1 without pipelining has them).
"""

from __future__ import annotations

import asyncio
import mimetypes
import sys
from pathlib import Path


def _answer(root: Path, target: bytes) -> bytes:
    path = target.split(b"?", 1)[0].decode("latin-1")
    file = root / path.lstrip("/")
    if path.endswith("/"):
        file = file / "index.html"
    try:
        body = file.read_bytes() if ".." not in path else None
    except OSError:
        body = None
    if body is None:
        head = b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
        return head
    kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
    head = f"HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}\r\n\r\n"
    return head.encode() + body


async def _serve(root: Path, port: int, latency: float) -> None:
    async def one(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while request := await reader.readuntil(b"\r\n\r\n"):
                if latency:
                    await asyncio.sleep(latency)
                writer.write(_answer(root, request.split(b" ", 2)[1]))
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, IndexError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(one, "127.0.0.1", port, backlog=128)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    latency = float(sys.argv[3]) / 1000 if len(sys.argv) > 3 else 0.0
    asyncio.run(_serve(Path(sys.argv[1]), int(sys.argv[2]), latency))
