"""The work of a walk through git history, told by git log before any blob is read; its pool."""
# The walk (history.walk) reads a file's older versions back while their fingerprint is the
# current one, so git log tells only how many it may read. On 23 real sites' first runs it read
# 2.5 to 78 older versions of each file it walked back, 8.2 on the median site (archcraft 10,
# hugegraph 11.5): a file counts for its first EXPECTED_READS distinct older blobs, each of its
# current size. So counted, the same 10 of the 23 sites reach MIN_POOL_BYTES as with the bytes
# the walk then read (archcraft: 126 MB counted, 94 read; dawchihliou 34 and 321; spyder-docs
# 137 and 109; ytlm, the nearest below, 27 and 32).

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Final

from sitemill.lastmod.history.blobs import MAX_BLOB_BYTES
from sitemill.lastmod.history.files import FileVersions
from sitemill.lastmod.history.walk import blob_key
from sitemill.workers.workpool import page_work, pool_size, start_fork_server

EXPECTED_READS: Final = 8


def older_work(found: FileVersions, sizes: Mapping[str, int], known: Mapping[str, str]) -> int:
    """The bytes of work (workers.workpool.page_work) of the older versions that the walk is
    expected to read for the files ``found`` of these current ``sizes``: of each file's first
    EXPECTED_READS distinct older blobs, those whose fingerprint an earlier run did not
    remember (``known``, by blob_key)."""
    work = 0
    for path, chain in found.versions.items():
        size = sizes.get(path)
        if size is not None and len(chain) > 1:
            older = _first_older(chain[0].blob, (version.blob for version in chain[1:]))
            unread = (
                sum(blob_key(path, blob) not in known for blob in older) if known else len(older)
            )
            work += unread * page_work(min(size, MAX_BLOB_BYTES))
    return work


def _first_older(tip: bytes | None, blobs: Iterator[bytes | None]) -> set[bytes]:
    """The first EXPECTED_READS distinct ``blobs`` that are not ``tip``, up to a deletion (the
    walk goes no further: Run.next_blob)."""
    found: set[bytes] = set()
    for blob in blobs:
        if blob is None:
            break
        if blob != tip:
            found.add(blob)
            if len(found) == EXPECTED_READS:
                break
    return found


def walk_workers(
    setting: int | None,
    found: FileVersions,
    sizes: Mapping[str, int],
    known: Mapping[str, str],
    work: int,
) -> int:
    """How many workers walk the files ``found`` back (workers.workpool.pool_size: ``setting``):
    the pages' ``work`` with the older versions the walk is expected to read; when these make
    it a pool's work, and the pages' alone did not, the workers' fork server starts now."""
    workers = pool_size(setting, work + older_work(found, sizes, known))
    if workers > 1 and pool_size(setting, work) == 1:
        start_fork_server()
    return workers
