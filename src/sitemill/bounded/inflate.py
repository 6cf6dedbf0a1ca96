"""Bounded inflation: gzip read no further than a limit (a few MB may inflate to gigabytes)."""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from typing import Final

from sitemill.errors import InflateError

# At most this many inflated bytes are held at a time.
CHUNK: Final = 1024 * 1024
_GZIP: Final = 16 + zlib.MAX_WBITS
GZIP_MAGIC: Final = b"\x1f\x8b"
# InflateError.kind
PAST_LIMIT: Final = "too big"
NOT_GZIP: Final = "not gzip"
CUT_OFF: Final = "cut off"
MORE_MEMBERS: Final = "more members"


def inflate_chunks(
    data: bytes, limit: int, *, what: str = "gzip data", chunk: int = CHUNK, single: bool = False
) -> Iterator[bytes]:
    """The bytes ``data`` (one or more gzip members; ``single``: exactly one; bytes after
    the last are ignored, as gzip does) inflates to, ``chunk`` at a time. InflateError as
    soon as more than ``limit`` would come out, when it is no gzip or when it is cut off.
    Memory stays within a chunk whatever ``data`` holds."""
    inflater = zlib.decompressobj(_GZIP)
    pending, size = data, 0
    try:
        while True:
            out = inflater.decompress(pending, min(chunk, limit - size + 1))
            pending = inflater.unconsumed_tail
            size += len(out)
            if size > limit:
                raise InflateError(f"{what} inflates to more than {limit:,} bytes", PAST_LIMIT)
            if out:
                yield out
            if inflater.eof:
                pending = inflater.unused_data
                if not pending.startswith(GZIP_MAGIC):  # padding, trailing bytes: as gzip(1)
                    return
                if single:
                    raise InflateError(f"{what} holds more than one gzip member", MORE_MEMBERS)
                inflater = zlib.decompressobj(_GZIP)
            elif not out and not pending:
                raise InflateError(f"{what} is cut off (the gzip stream does not end)", CUT_OFF)
    except zlib.error as exc:
        raise InflateError(f"{what} is not gzip ({exc})", NOT_GZIP) from exc


def inflate(data: bytes, limit: int, *, what: str = "gzip data", single: bool = False) -> bytes:
    """All the bytes ``data`` inflates to: InflateError when more than ``limit`` (nothing
    past the limit is ever inflated), when it is no gzip or when it is cut off."""
    return b"".join(inflate_chunks(data, limit, what=what, single=single))


def inflate_head(data: bytes, size: int) -> bytes | None:
    """The first ``size`` bytes ``data`` inflates to (fewer when it holds fewer, or when
    ``data`` itself is only the head of a gzip file); None when it is no gzip."""
    inflater = zlib.decompressobj(_GZIP)
    try:
        return inflater.decompress(data, size)
    except zlib.error:
        return None
