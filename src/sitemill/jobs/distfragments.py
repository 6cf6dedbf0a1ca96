"""The shuffle's fragments (scale-out.md, S3 Inventory): the rows of one data file routed to
one group, written by a shuffle item as gzip JSON lines, ``[path, size, LastModified or
null, etag]``, and read back by the group's render item, sorted by key.

A row's LastModified dates its page only when trusted as every remembered date is
(design.md, "Trust"): the shuffle writes null for a report's date that is not, and the
render item checks each date again (a fragment is a file of the state bucket: input).
"""

from __future__ import annotations

import gzip
import json
import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Final

from sitemill.errors import IncompleteRunError
from sitemill.jobs.distplan import DistributedRun
from sitemill.jobs.runfiles import Item, RunFiles
from sitemill.shards.plan import key_order
from sitemill.sources.inventorycsv import UntrustedDates
from sitemill.state.parse import CLOCK_SKEW, trusted_lastmod

if TYPE_CHECKING:
    from mypy_boto3_s3.type_defs import ObjectTypeDef

log = logging.getLogger(__name__)

FLUSH_BYTES: Final = 64 * 1024 * 1024  # a shuffle item writes its fragments past this
_FRAGMENT_LIMIT: Final = 512 * 1024 * 1024


def trusted_time(moment: datetime, latest: datetime) -> bool:
    """Whether a report's LastModifiedDate may date a page: the rule of every remembered date
    (sitemill.state.parse.trusted_lastmod), from OLDEST_LASTMOD to ``latest``, the run's
    time and the clock skew. A report is input from outside: it may say 2999."""
    return trusted_lastmod(moment.astimezone(UTC).isoformat(timespec="seconds"), latest)


def latest_time(run: DistributedRun) -> datetime:
    """The latest date a page of this run may have: its time and the clock skew."""
    return run.now + CLOCK_SKEW


def fragment_line(path: str, size: int, modified: datetime | None, etag: str) -> bytes:
    """One row as a fragment's line (ASCII: a key's undecodable bytes stay escaped, \\udcXX)."""
    when = None if modified is None else modified.isoformat()
    return json.dumps([path, size, when, etag]).encode("ascii")


def write_fragments(
    files: RunFiles, index: int, flush: int, groups: dict[int, list[bytes]]
) -> None:
    """One flush of data file ``index``: each group's lines, one fragment per group."""
    for group, lines in sorted(groups.items()):
        data = gzip.compress(b"\n".join(lines) + b"\n", compresslevel=5, mtime=0)
        name = f"fragments/{group:05d}/{index:06d}-{flush:04d}.jsonl.gz"
        files.put(name, data, "application/gzip")


def fragment_listing(run: DistributedRun, item: Item) -> Iterator[ObjectTypeDef]:
    """A group's rows, sorted by key: once every shuffle item has finished. A row whose date
    is not trusted lists its page undated, with one warning for the item."""
    files = run.files(item.run)
    value = files.get_json("groups.json", limit=64 * 1024 * 1024)
    expected = value.get("files") if isinstance(value, dict) else None
    done = len(files.names("shuffled"))
    if not isinstance(expected, int) or done != expected:
        raise IncompleteRunError(
            f"run {item.run}: {done} of {expected} inventory files were shuffled"
        )
    rows: list[tuple[bytes, bytes]] = []  # (sort key, the row as the shuffle wrote it)
    for name in files.names(f"fragments/{item.group:05d}"):
        data = files.get(f"fragments/{item.group:05d}/{name}", _FRAGMENT_LIMIT)
        if data is None:
            raise IncompleteRunError(f"run {item.run}: fragment {name} vanished")
        for line in gzip.decompress(data).splitlines():
            rows.append((key_order(json.loads(line)[0]), line))
    rows.sort()
    root, latest, untrusted = run.site.root, latest_time(run), UntrustedDates()
    for _, line in rows:
        path, size, modified, etag = json.loads(line)
        obj: ObjectTypeDef = {"Key": root + path, "Size": size, "ETag": etag}
        when = None if modified is None else _fragment_time(modified)
        if when is not None and trusted_time(when, latest):
            obj["LastModified"] = when
        elif modified is not None:
            untrusted.add(str(modified))
        yield obj
    if untrusted.count:
        log.warning(
            "run %s: %d rows of group %s have a LastModified that is no date a page may have "
            "(the first: %r): their pages are listed without one",
            item.run, untrusted.count, item.group, untrusted.example,
        )  # fmt: skip


def _fragment_time(value: object) -> datetime | None:
    """A LastModified as the shuffle wrote it (ISO 8601 with its zone) in UTC, else None."""
    try:
        when = datetime.fromisoformat(value) if isinstance(value, str) else None
        return None if when is None or when.tzinfo is None else when.astimezone(UTC)
    except (ValueError, OverflowError):
        return None
