"""Reading old versions of files from git: blobs, bounded, through one ``git cat-file --batch``."""
# At most MAX_BLOB_BYTES of each, with requests pipelined.

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from sitemill.errors import GitError
from sitemill.git.run import GitBatch
from sitemill.lastmod.fingerprint.digest import MAX_FINGERPRINT_BYTES

# A blob is fingerprinted from at most this many bytes, as a page of the work tree is; the
# rest is read past, never kept.
MAX_BLOB_BYTES: Final = MAX_FINGERPRINT_BYTES
# Requests in flight to `git cat-file --batch`: two windows of this many, a few KiB of object
# names, so that writing a request never waits for git, which may be waiting for us to read.
_WINDOW: Final = 32
_SKIP_CHUNK: Final = 1 << 20


def read_blobs(batch: GitBatch, blobs: Sequence[bytes]) -> Iterator[tuple[bytes, bytes | None]]:
    """Each blob's first MAX_BLOB_BYTES (None: git does not have it), requests pipelined."""
    for start in range(0, len(blobs), _WINDOW):
        if start == 0:
            _request(batch, blobs[:_WINDOW])
        _request(batch, blobs[start + _WINDOW : start + 2 * _WINDOW])  # asked while reading
        for blob in blobs[start : start + _WINDOW]:
            yield blob, _read_answer(batch)


def _request(batch: GitBatch, blobs: Sequence[bytes]) -> None:
    if blobs:
        batch.stdin.write(b"".join(blob + b"\n" for blob in blobs))
        batch.stdin.flush()


def _read_answer(batch: GitBatch) -> bytes | None:
    """Read ``<oid> blob <size>\\n<bytes>\\n`` (or ``<oid> missing\\n``) from cat-file."""
    stdout = batch.stdout
    header = stdout.readline()
    fields = header.split()
    if not header.endswith(b"\n") or len(fields) not in (2, 3):
        raise GitError(f"unexpected git cat-file answer {header[:80]!r}")
    if len(fields) == 2:
        return None  # missing (a partial or damaged clone)
    if not fields[2].isdigit():
        raise GitError(f"unexpected git cat-file answer {header[:80]!r}")
    size = int(fields[2])
    data = stdout.read(min(size, MAX_BLOB_BYTES))
    left = size - len(data)
    while left > 0 and (chunk := stdout.read(min(left, _SKIP_CHUNK))):
        left -= len(chunk)
    if left or stdout.read(1) != b"\n":
        raise GitError("git cat-file ended in the middle of an object")
    return data if fields[1] == b"blob" else None
