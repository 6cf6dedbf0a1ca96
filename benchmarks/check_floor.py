"""The check-10k section's floor: a plain asyncio client (stdlib streams) GETting the same URLs.

HTTP/1.1 with keep-alive (a new connection only when the server closes one, as an HTTP/1.0
server does after each answer), CONCURRENCY connections at once, each body read whole
(Content-Length, else to the connection's end), nothing judged; or, given ``judge``, each answer
handed to it in the event loop (check_bench's second floor: the check's own judging, with the
least machinery around it). Requests per second.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator

Judge = Callable[[str, bytes, bytes], object]  # (path, head, body)


async def _worker(
    host: str, port: int, paths: Iterator[str], bodies: list[int], judge: Judge | None
) -> None:
    reader = writer = None
    for path in paths:
        if writer is None:
            reader, writer = await asyncio.open_connection(host, port)
        assert reader is not None
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        raw = await reader.readuntil(b"\r\n\r\n")
        head = raw.lower()
        length = next((int(line[15:]) for line in head.split(b"\r\n")
                       if line.startswith(b"content-length:")), None)  # fmt: skip
        body = await (reader.read() if length is None else reader.readexactly(length))
        bodies.append(len(body))
        if judge is not None:
            judge(path, raw, body)
        if length is None or head.startswith(b"http/1.0") or b"connection: close" in head:
            writer.close()
            writer = None
    if writer is not None:
        writer.close()


def fetch_all(
    host: str, port: int, paths: list[str], concurrency: int = 8, judge: Judge | None = None
) -> float:
    """Requests per second of GETs of ``paths`` at ``host:port``, ``concurrency`` at once."""

    async def run() -> list[int]:
        bodies: list[int] = []
        shared = iter(paths)
        await asyncio.gather(
            *(_worker(host, port, shared, bodies, judge) for _ in range(concurrency))
        )
        return bodies

    started = time.perf_counter()
    bodies = asyncio.run(run())
    seconds = time.perf_counter() - started
    assert len(bodies) == len(paths) and all(bodies), "the floor did not read every body"
    return len(paths) / seconds
