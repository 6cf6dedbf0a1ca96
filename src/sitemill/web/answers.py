"""An HTTP/1.x answer read from an asyncio stream as http.client reads it, each wait bounded."""
# The status line, the headers and the body by the rules (and with the exceptions) of
# http.client.HTTPResponse, so that the check reports what it reported when it read answers
# through it: the same statuses, header values, "the body is cut off", IncompleteRead, and a
# body larger than asked said (``too_large``), not kept. Only the body of a status asked for is
# read (a 200's for the check), no further than asked, and the first bytes of another's to quote
# when asked; an answer whose body is then read whole (or whose rest is small enough to read)
# leaves its connection for the next request. Every wait is armed first (``Waits``: what is left
# of the request's deadline, or the silence allowed).

from __future__ import annotations

import asyncio
import http.client
import io
import re
from collections.abc import Container
from dataclasses import dataclass
from typing import Final

from sitemill.errors import FetchError
from sitemill.web._waits import Waits

# An answer's unread body up to this size is read to keep its connection (a 404's page).
DRAIN: Final = 64 * 1024
_MAX_HEADERS: Final = 100  # (http.client's bounds)
LINE: Final = 65536  # a line of the status or a header, at most (a reader's limit)
BLANK: Final = (b"\r\n", b"\n", b"")
# Header lines read at once: each a name of visible characters, a colon and a value of no CR or
# LF, ending in CRLF (folded lines, odd names and bare LFs are read by http.client's parser).
_PLAIN: Final = re.compile(rf"(?:[\x21-\x39\x3b-\x7e]+:[^\r\n]*\r\n){{1,{_MAX_HEADERS}}}")


@dataclass(frozen=True, slots=True)
class Status:
    version: int  # 10 (HTTP/1.0) or 11
    code: int
    reason: str


@dataclass(frozen=True, slots=True)
class BodyWanted:
    """What of an answer's body is read: at most ``limit`` bytes of the body of a status in
    ``statuses`` (FetchError when cut off; one byte more is ``too_large`` unless ``head``: then
    its first ``limit``), and the first ``quote`` bytes of any other's (empty when it is longer,
    cut off or late: it is only quoted)."""

    limit: int
    head: bool = False
    statuses: Container[int] = (200,)
    quote: int = 0


@dataclass(slots=True)
class Reply:
    """An answer: its status, its headers as sent, the body read (what was asked of it)."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes = b""
    length: int | None = None  # of the body not yet read (None: chunked, or to the end)
    chunked: bool = False
    will_close: bool = False
    too_large: bool = False  # a body asked for that is longer than asked (none read)
    reason: str = ""  # the status line's reason phrase

    def header(self, name: str) -> str | None:
        """Header ``name``'s first value (as HTTPMessage.get), None when none."""
        low = name.lower()
        return next((value for key, value in self.headers if key.lower() == low), None)


async def read_status(reader: asyncio.StreamReader, waits: Waits) -> Status:
    """The status line after any 100 Continue (http.client's exceptions when it is none)."""
    while True:
        raw = await read_line(reader, waits, "status line")
        if not raw:
            raise http.client.RemoteDisconnected("Remote end closed connection without response")
        status = _status(raw.decode("iso-8859-1"))
        if status.code != 100:
            return status
        await _headers(reader, waits)


async def read_line(reader: asyncio.StreamReader, waits: Waits, what: str) -> bytes:
    """One line, its wait armed first (LineTooLong, saying ``what``, past ``LINE`` bytes)."""
    waits.arm()
    try:
        return await reader.readline()
    except ValueError:
        raise http.client.LineTooLong(what) from None


def _status(line: str) -> Status:
    try:
        version, code, reason = line.split(None, 2)
    except ValueError:
        try:
            version, code = line.split(None, 1)
            reason = ""
        except ValueError:
            version = code = ""
    if not version.startswith("HTTP/"):
        raise http.client.BadStatusLine(line)
    try:
        number = int(code)
    except ValueError:
        raise http.client.BadStatusLine(line) from None
    if not 100 <= number <= 999:
        raise http.client.BadStatusLine(line)
    if version in ("HTTP/1.0", "HTTP/0.9"):
        return Status(10, number, reason)
    if not version.startswith("HTTP/1."):
        raise http.client.UnknownProtocol(version)
    return Status(11, number, reason)


async def read_head(reader: asyncio.StreamReader, status: Status, waits: Waits) -> Reply:
    """The headers after ``status``, and how its body is delimited (http.client's begin)."""
    reply = Reply(status.code, await _headers(reader, waits), reason=status.reason.strip())
    first: dict[str, str] = {}  # (each name's first value, as HTTPMessage.get)
    for name, value in reply.headers:
        first.setdefault(name.lower(), value)
    reply.chunked = first.get("transfer-encoding", "").lower() == "chunked"
    reply.will_close = _closes(first, status.version)
    length = first.get("content-length")
    if length and not reply.chunked:
        try:
            reply.length = int(length)
        except ValueError:
            reply.length = None
        else:
            reply.length = None if reply.length < 0 else reply.length
    if status.code in (204, 304) or 100 <= status.code < 200:
        reply.length = 0
    if not reply.will_close and not reply.chunked and reply.length is None:
        reply.will_close = True
    return reply


def _closes(first: dict[str, str], version: int) -> bool:
    said = first.get("connection", "").lower()
    if version == 11:
        return "close" in said
    if first.get("keep-alive") or "keep-alive" in said:
        return False
    return "keep-alive" not in first.get("proxy-connection", "").lower()


async def _headers(reader: asyncio.StreamReader, waits: Waits) -> tuple[tuple[str, str], ...]:
    """Each header (name, value) as HTTPMessage.items() gives it."""
    found = _buffered_headers(reader)
    if found is not None:
        headers, size = found
        await reader.readexactly(size)  # (at hand: no wait)
        return headers
    lines: list[bytes] = []
    while True:
        line = await read_line(reader, waits, "header line")
        if line in BLANK:
            return tuple(http.client.parse_headers(io.BytesIO(b"".join(lines))).items())
        lines.append(line)
        if len(lines) > _MAX_HEADERS:
            raise http.client.HTTPException(f"got more than {_MAX_HEADERS} headers")


def _buffered_headers(
    reader: asyncio.StreamReader,
) -> tuple[tuple[tuple[str, str], ...], int] | None:
    """The headers and their size with the blank line when all of them are already read, and
    plain (each line a name, a colon and a value, ending in CRLF, no folded line, none too
    long): read at once as http.client reads them one line after another; else None."""
    buffer = getattr(reader, "_buffer", None)  # (asyncio's; if it goes, lines are read one by one)
    if not isinstance(buffer, bytearray):
        return None
    end = buffer.find(b"\r\n\r\n", 0, LINE)
    if end < 0:
        return None
    text = buffer[: end + 2].decode("iso-8859-1")
    if not _PLAIN.fullmatch(text):
        return None
    lines = (line.partition(":") for line in text[:-2].split("\r\n"))
    return tuple((name, value.lstrip(" \t")) for name, _, value in lines), end + 4


async def read_reply(
    reader: asyncio.StreamReader, reply: Reply, reading: BodyWanted, waits: Waits
) -> bool:
    """Read the body ``reading`` asks for into ``reply``; whether the connection can carry the
    next request."""
    limit = reading.limit
    if reply.status in reading.statuses:
        body = await _body(reader, reply, limit + 1, waits)
        if len(body) > limit and not reading.head:
            reply.too_large = True
            return False
        reply.body = body[:limit]
    elif reading.quote:
        return await _quote(reader, reply, reading.quote, waits)
    if reply.will_close or reply.length is None or reply.length > DRAIN:
        return False
    try:
        await _upto(reader, reply, reply.length, waits)
    except asyncio.CancelledError:
        if not waits.spent():
            raise
        return False  # (the rest did not come in time: the answer stands, not its connection)
    except (OSError, http.client.HTTPException, ValueError):
        return False
    return reply.length == 0


async def _body(reader: asyncio.StreamReader, reply: Reply, want: int, waits: Waits) -> bytes:
    """Up to ``want`` bytes of the body (FetchError when the connection ends before it)."""
    if reply.chunked:
        return await _chunked(reader, reply, want, waits)
    body = await _upto(reader, reply, want, waits)
    if len(body) < want and reply.length:  # (the connection ended before the body)
        raise FetchError("the body is cut off")
    return body


async def _quote(reader: asyncio.StreamReader, reply: Reply, quote: int, waits: Waits) -> bool:
    """The body of an answer only quoted: its first ``quote`` bytes when it is no longer and
    came whole within the request's bounds, else none (the answer stands). Never kept."""
    try:
        body = await _body(reader, reply, quote + 1, waits)
    except asyncio.CancelledError:
        if not waits.spent():
            raise
        return False
    except (FetchError, OSError, http.client.HTTPException, ValueError):
        return False
    reply.body = body if len(body) <= quote else b""
    return False


async def _upto(reader: asyncio.StreamReader, reply: Reply, want: int, waits: Waits) -> bytes:
    """Up to ``want`` bytes of a body delimited by its length, or by the connection's end."""
    if reply.length is not None:
        want = min(want, reply.length)
    chunks: list[bytes] = []
    size = 0
    while size < want:
        waits.arm()
        chunk = await reader.read(want - size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    if reply.length is not None:
        reply.length -= size
    return b"".join(chunks)


async def _chunked(reader: asyncio.StreamReader, reply: Reply, want: int, waits: Waits) -> bytes:
    """Up to ``want`` bytes of a chunked body; ``reply.chunked`` False once read whole
    (its trailer too), ``reply.length`` 0 then."""
    chunks: list[bytes] = []
    size = 0
    while size < want:
        waits.arm()
        try:
            line = await reader.readline()
            left = int(line.split(b";", 1)[0], 16)
        except ValueError:
            raise http.client.IncompleteRead(b"") from None
        if left == 0:
            while (await reader.readline()) not in BLANK:
                waits.arm()
            reply.chunked, reply.length = False, 0
            break
        part = await _upto(reader, Reply(200, (), length=left), min(left, want - size), waits)
        if len(part) < min(left, want - size):
            raise http.client.IncompleteRead(b"")
        chunks.append(part)
        size += len(part)
        if len(part) < left:
            break  # (as much as was asked, mid-chunk: the connection is not kept)
        await _upto(reader, Reply(200, (), length=2), 2, waits)  # (the chunk's CRLF)
    return b"".join(chunks)
