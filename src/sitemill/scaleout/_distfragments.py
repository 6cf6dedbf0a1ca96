"""The shuffle's fragments (docs/distributed.md, S3 Inventory): one data file's rows for a group."""
# The rows of one data file routed to one group, ``[path, size, LastModified or null, etag]`` as
# gzip JSON lines, read back by the group's render item bounded and checked (rows of this form,
# keys in the group's range). A row's LastModified dates its page only when trusted (docs/state.md,
# "Public, and trusted by no one"): the render item checks each date again.

from __future__ import annotations

import gzip
import json
import logging
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Final

from sitemill.bounded.inflate import NOT_GZIP, PAST_LIMIT, inflate
from sitemill.errors import IncompleteRunError, InflateError, StateError
from sitemill.protocol import MAX_KEY_BYTES
from sitemill.scaleout.distplan import DistributedRun
from sitemill.scaleout.runfiles import Item, RunFiles
from sitemill.shards.plan import key_order
from sitemill.sources.inventorycsv import UntrustedDates
from sitemill.state.parse import CLOCK_SKEW, trusted_lastmod

if TYPE_CHECKING:
    from mypy_boto3_s3.type_defs import ObjectTypeDef

log = logging.getLogger(__name__)

FLUSH_BYTES: Final = 64 * 1024 * 1024  # a shuffle item writes its fragments past this
# A line holds a key of at most 1,024 bytes (inventorycsv refuses longer), each byte escaped
# in at most 6 ASCII characters (\udcXX), and the rest in under 500: under 8 KiB.
_FRAGMENT_LINE: Final = 8 * 1024
# A fragment is one group's lines of one flush: at most FLUSH_BYTES and the line past them.
_FRAGMENT_TEXT: Final = FLUSH_BYTES + _FRAGMENT_LINE + 1
_FRAGMENT_BYTES: Final = _FRAGMENT_TEXT + 1024 * 1024  # (gzip grows text it cannot compress)
_FRAGMENT_NAME: Final = re.compile(r"([0-9]{6})-[0-9]{4}\.jsonl\.gz")  # (file, flush)
_MARKER: Final = re.compile(r"([0-9]{6})\.json")  # shuffled/<file>.json
_QUOTED_ETAG: Final = re.compile(r'"[!#-~]{1,160}"')  # as inventorycsv gives it
_MAX_SIZE: Final = 10**20  # (inventorycsv: at most 20 digits)


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
    """A group's rows, sorted by key: once every shuffle item has finished. A fragment that
    is not one the shuffle writes is a StateError (the item fails: nothing is published); a
    row whose date is not trusted lists its page undated, with one warning for the item."""
    files = run.files(item.run)
    value = files.get_json("groups.json", limit=64 * 1024 * 1024)
    expected = value.get("files") if isinstance(value, dict) else None
    if not isinstance(expected, int) or isinstance(expected, bool) or expected < 1:
        raise StateError(f"run {item.run}: its groups.json names no count of inventory files")
    # Each shuffle item's marker, by its file's index: no other object there counts.
    marked = (_MARKER.fullmatch(name) for name in files.names("shuffled"))
    done = len({int(match[1]) for match in marked if match and int(match[1]) < expected})
    if done != expected:
        raise IncompleteRunError(
            f"run {item.run}: {done} of {expected} inventory files were shuffled"
        )
    low, high = key_order(item.afters[0]), None if item.last is None else key_order(item.last)
    rows: list[tuple[bytes, bytes]] = []  # (sort key, the row as the shuffle wrote it)
    folder = f"fragments/{item.group:05d}"
    for name in files.names(folder):
        where = f"run {item.run}: fragment {folder}/{name}"
        match = _FRAGMENT_NAME.fullmatch(name)
        if match is None or int(match[1]) >= expected:
            raise StateError(f"{where} is no fragment the shuffle writes")
        data = files.get(f"{folder}/{name}", _FRAGMENT_BYTES + 1)
        if data is None:
            raise IncompleteRunError(f"run {item.run}: fragment {name} vanished")
        if len(data) > _FRAGMENT_BYTES:
            raise StateError(f"{where}: larger than {_FRAGMENT_BYTES:,} bytes")
        for number, line in enumerate(_inflated(data, where).split(b"\n")[:-1], 1):
            order = key_order(_fragment_row(line, f"{where}: line {number}")[0])
            if order <= low or (high is not None and order > high):
                raise StateError(f"{where}: line {number}: a key outside the group's range")
            rows.append((order, line))
    rows.sort()
    root, latest, untrusted = run.site.root, latest_time(run), UntrustedDates()
    for _, line in rows:
        path, size, modified, etag = _fragment_row(line, "")
        obj: ObjectTypeDef = {"Key": root + path, "Size": size, "ETag": etag}
        when = None if modified is None else _fragment_time(modified)
        if when is not None and trusted_time(when, latest):
            obj["LastModified"] = when
        elif modified is not None:
            untrusted.add(modified)
        yield obj
    if untrusted.count:
        log.warning(
            "run %s: %d rows of group %s have a LastModified that is no date a page may have "
            "(the first: %r): their pages are listed without one",
            item.run, untrusted.count, item.group, untrusted.example,
        )  # fmt: skip


def _inflated(data: bytes, where: str) -> bytes:
    """A fragment's text: one gzip member of lines, inflated no further than one may hold
    (a few KB of gzip can inflate to gigabytes)."""
    try:
        text = inflate(data, _FRAGMENT_TEXT, single=True)
    except InflateError as exc:
        if exc.kind == PAST_LIMIT:
            raise StateError(f"{where}: more than {_FRAGMENT_TEXT:,} bytes inflated") from exc
        if exc.kind == NOT_GZIP:
            raise StateError(f"{where}: not gzip ({exc.__cause__})") from exc
        raise StateError(f"{where}: not one whole gzip member of lines") from exc
    if not text.endswith(b"\n"):
        raise StateError(f"{where}: not one whole gzip member of lines")
    return text


def _fragment_row(line: bytes, where: str) -> tuple[str, int, str | None, str]:
    """One line of a fragment, checked: (path, size, LastModified's text or None, ETag)."""
    if len(line) > _FRAGMENT_LINE:
        raise StateError(f"{where}: over {_FRAGMENT_LINE:,} bytes")
    try:
        value = json.loads(line)
    except (ValueError, RecursionError) as exc:
        raise StateError(f"{where}: not JSON") from exc
    if not isinstance(value, list) or len(value) != 4:
        raise StateError(f"{where}: not a row [path, size, modified, etag]")
    path, size, modified, etag = value
    if not isinstance(path, str) or not 0 < len(_key_bytes(path)) <= MAX_KEY_BYTES:
        raise StateError(f"{where}: no key of 1 to {MAX_KEY_BYTES:,} bytes")
    if not isinstance(size, int) or isinstance(size, bool) or not 0 <= size < _MAX_SIZE:
        raise StateError(f"{where}: no byte count")
    if modified is not None and not isinstance(modified, str):
        raise StateError(f"{where}: no time")
    if not isinstance(etag, str) or not _QUOTED_ETAG.fullmatch(etag):
        raise StateError(f"{where}: no entity tag")
    return path, size, modified, etag


def _key_bytes(path: str) -> bytes:
    """A key's bytes (key_order); none for a string no key is (a lone surrogate)."""
    try:
        return key_order(path)
    except UnicodeEncodeError:
        return b""


def _fragment_time(text: str) -> datetime | None:
    """A LastModified as the shuffle wrote it (ISO 8601 with its zone) in UTC, else None."""
    try:
        when = datetime.fromisoformat(text)
        return None if when.tzinfo is None else when.astimezone(UTC)
    except (ValueError, OverflowError):
        return None
