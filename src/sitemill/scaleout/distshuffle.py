"""A distributed rebuild's listing from an S3 Inventory report (docs/distributed.md)."""
# See docs/distributed.md, S3 Inventory: each shuffle item routes the rows of one data file to its
# groups' fragments (sitemill.scaleout._distfragments). Everything read is checked (the report by
# sitemill.sources.inventory); a render item reads its group only once every shuffle item said it
# finished (a data file whose MD5 fails leaves no marker: nothing is published).

from __future__ import annotations

import json
import logging
import math
import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime
from itertools import pairwise
from typing import TYPE_CHECKING, Any, Final, TypeGuard

from sitemill.config.model import Config
from sitemill.errors import InventoryError, StateError
from sitemill.filenames.outputs import stored_digest
from sitemill.protocol import MAX_KEY_BYTES
from sitemill.scaleout._distfragments import (
    FLUSH_BYTES,
    fragment_line,
    latest_time,
    trusted_time,
    write_fragments,
)
from sitemill.scaleout._distfragments import fragment_listing as fragment_listing
from sitemill.scaleout.distplan import DistributedRun, InventoryPlanner, page_weights
from sitemill.scaleout.runfiles import RUN_NAME, Item, RunFiles
from sitemill.shards.cuts import Cutter, byte_fill, family_of
from sitemill.shards.plan import MAX_SHARDS, Order, key_order, shard_id
from sitemill.sinks.s3conditional import Headers, put_object
from sitemill.sources.inventory import (
    InventoryFile,
    InventoryReport,
    find_report,
    parse_inventory_location,
    read_rows,
    sample_report,
)
from sitemill.sources.inventorymanifest import check_columns
from sitemill.sources.s3 import Inventory, bucket_pages, read_missing_as_none
from sitemill.state.jsondecode import load_json_text
from sitemill.urls import UrlStyle

if TYPE_CHECKING:
    from mypy_boto3_s3.type_defs import ObjectTypeDef

log = logging.getLogger(__name__)

# A group is what one render item sorts: several shards' worth (fewer fragments to write).
GROUP_ROWS: Final = 400_000
SAMPLE_ROWS: Final = 100_000  # keys the planner's sample holds (one in every n rows)
_MAX_FILES: Final = 100_000
_MD5_HEX: Final = re.compile(r"[0-9a-f]{32}")  # (as the planner writes it: lower case)


def inventory_planner(
    location: str, *, group_rows: int = GROUP_ROWS, sample_rows: int = SAMPLE_ROWS
) -> InventoryPlanner:
    """The planner of a first build from the inventory report at ``location``."""

    def plan(run: DistributedRun, files: RunFiles) -> Sequence[Item]:
        report = find_report(run.client, location, run.site.bucket, now=run.now)
        if report.manifest_key in _refused(run):
            raise InventoryError(
                f"s3://{report.bucket}/{report.manifest_key}: a data file of it failed its "
                "MD5 in an earlier run"
            )
        sample, total = _sample(run, report, sample_rows)
        groups = min(MAX_SHARDS, max(1, math.ceil(total / group_rows)))
        afters = _group_afters(sample, groups, run.config.url_style is UrlStyle.CLEAN)
        files.put_json(
            "inventory.json",
            [
                {"run": files.run, "index": index, "key": item.key, "size": item.size,
                 "md5": item.md5, "columns": list(report.columns), "bucket": report.bucket,
                 "manifest": report.manifest_key}
                for index, item in enumerate(report.files)
            ],
        )  # fmt: skip
        files.put_json("groups.json", {"afters": afters, "files": len(report.files)})
        return [
            Item(files.run, (after,), afters[index + 1] if index + 1 < len(afters) else None, index)
            for index, after in enumerate(afters)
        ]

    return plan


def _sample(
    run: DistributedRun, report: InventoryReport, sample_rows: int
) -> tuple[list[bytes], int]:
    """Sorted sort keys of a uniform sample of the report's rows under the site's root, and
    the rows estimated there (every data file read, and checked, once)."""
    root = run.site.root
    sample = sample_report(run.client, report, prefix=root, target=sample_rows)
    keys = sorted(key_order(key[len(root) :]) for _, key in sample.keys)
    return keys, sample.estimate()


def _group_afters(sample: list[bytes], groups: int, clean: bool) -> list[str]:
    """Boundaries at the sample's quantiles, each moved past its key's family (``x``,
    ``x.htm``, ``x.html`` map to one URL: never split)."""
    afters, ids = [""], {shard_id("")}
    for index in range(1, groups):
        key = sample[index * len(sample) // groups].decode("utf-8", "surrogateescape")
        stem = family_of(key, clean=clean)
        after = key if stem is None else stem + ".html"
        if key_order(after) > key_order(afters[-1]) and shard_id(after) not in ids:
            afters.append(after)
            ids.add(shard_id(after))
    return afters


def shuffle_item(run: DistributedRun, event: object, location: str) -> dict[str, Any]:
    """Route the rows of one data file to the fragments of their groups."""
    if not isinstance(event, dict) or not RUN_NAME.fullmatch(str(event.get("run", ""))):
        raise StateError("a shuffle item names no valid run")
    files = run.files(str(event["run"]))
    index, item, report = _shuffle_source(event, location, run.site.bucket)
    try:
        return _shuffled(run, files, index, item, report)
    except InventoryError:
        _refuse(run, report.manifest_key)  # (the next run lists the bucket instead)
        raise


def _shuffled(
    run: DistributedRun, files: RunFiles, index: int, item: InventoryFile, report: InventoryReport
) -> dict[str, Any]:
    bounds = [key_order(after) for after in _groups(files)]
    buffers: dict[int, list[bytes]] = {}
    size = flushes = rows = 0
    root, latest = run.site.root, latest_time(run)
    undated = 0  # rows whose date was not trusted (read_rows warned): their pages, undated
    for row in read_rows(
        run.client, report, item, prefix=root, trusted=lambda moment: trusted_time(moment, latest)
    ):
        path, modified = row["Key"][len(root) :], row.get("LastModified")
        undated += modified is None
        line = fragment_line(path, row["Size"], modified, row["ETag"])
        buffers.setdefault(bisect_left(bounds, key_order(path)) - 1, []).append(line)
        size += len(line) + 1
        rows += 1
        if size > FLUSH_BYTES:
            write_fragments(files, index, flushes, buffers)
            buffers, size, flushes = {}, 0, flushes + 1
    write_fragments(files, index, flushes, buffers)
    # Only now, with the file's MD5 checked (read_rows raises at its end), is it done.
    files.put_json(f"shuffled/{index:06d}.json", {"rows": rows, "undated": undated})
    return {"run": files.run, "file": index, "rows": rows, "undated": undated}


def _shuffle_source(
    event: dict[str, Any], location: str, source_bucket: str
) -> tuple[int, InventoryFile, InventoryReport]:
    """The data file a shuffle item names: checked to lie in the configured report folder,
    and to be what the planner writes (an item is a file of the state bucket: input)."""
    bucket, prefix = parse_inventory_location(location)
    index, key, size, md5 = (event.get(k) for k in ("index", "key", "size", "md5"))
    columns, manifest = event.get("columns"), event.get("manifest")
    if not (_is_count(index) and index < _MAX_FILES):
        raise StateError("a shuffle item names no valid file index")
    if not (isinstance(key, str) and key.startswith(prefix) and event.get("bucket") == bucket):
        raise InventoryError(f"a shuffle item names a file outside {location}")
    if not (isinstance(manifest, str) and manifest.startswith(prefix)):
        raise InventoryError(f"a shuffle item names a report outside {location}")
    if not (_is_count(size) and isinstance(md5, str) and _MD5_HEX.fullmatch(md5)):
        raise StateError("a shuffle item names no valid size and MD5")
    if not (isinstance(columns, list) and all(isinstance(name, str) for name in columns)):
        raise StateError("a shuffle item names no valid columns")
    try:
        check_columns(tuple(columns))
    except ValueError as exc:
        raise StateError(f"a shuffle item's columns: {exc}") from None
    created = datetime.min.replace(tzinfo=UTC)
    report = InventoryReport(bucket, manifest, source_bucket, created, tuple(columns), ())
    return index, InventoryFile(key, size, md5), report


def _is_count(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _groups(files: RunFiles) -> list[str]:
    """The groups' boundaries the planner wrote: checked (the shuffle routes rows by them)."""
    value = files.get_json("groups.json", limit=64 * 1024 * 1024)
    afters = value.get("afters") if isinstance(value, dict) else None
    if not (isinstance(afters, list) and 0 < len(afters) <= MAX_SHARDS and afters[0] == ""):
        raise StateError(f"run {files.run} has no groups")
    try:
        orders = [key_order(after) for after in afters if isinstance(after, str)]
    except UnicodeEncodeError:  # (a lone surrogate: no key)
        orders = []
    if (
        len(orders) != len(afters)
        or any(len(order) > MAX_KEY_BYTES for order in orders)
        or any(one >= other for one, other in pairwise(orders))
    ):
        raise StateError(f"run {files.run}: its groups are no ascending keys")
    return afters


_REFUSED: Final = "inventory-refused.json"
_MAX_REFUSED: Final = 64
_REFUSED_BYTES: Final = 1024 * 1024  # 64 keys of 1,024 bytes, each escaped in 6 at most: 400 KB


def _refused(run: DistributedRun) -> list[str]:
    """The reports whose data failed a check (kept beside the partitioned state). A file
    there is input like any other of the state bucket: one that is not the list sitemill
    writes (not JSON, another shape, too large) is taken as none, with a warning. That is
    safe: the planner's sample checks every data file of a report anyway."""
    key = run.store.prefix + _REFUSED
    data = read_missing_as_none(run.client, run.state_bucket, key, limit=_REFUSED_BYTES + 1)
    if data is None:
        return []
    try:
        if len(data) > _REFUSED_BYTES:
            raise StateError(f"larger than {_REFUSED_BYTES:,} bytes")
        value = load_json_text(data)
        if (
            not isinstance(value, list)
            or len(value) > _MAX_REFUSED
            or not all(isinstance(item, str) and 0 < len(item) <= MAX_KEY_BYTES for item in value)
        ):
            raise StateError(f"not a list of at most {_MAX_REFUSED} keys")
    except StateError as exc:
        log.warning(
            "s3://%s/%s is not the list of refused inventory reports sitemill writes (%s): "
            "taken as none", run.state_bucket, key, exc,
        )  # fmt: skip
        return []
    return value


def _refuse(run: DistributedRun, manifest: str) -> None:
    keys = [manifest, *(key for key in _refused(run) if key != manifest)][:_MAX_REFUSED]
    data = json.dumps(keys).encode("ascii")
    put_object(
        run.client, run.state_bucket, run.store.prefix + _REFUSED, data,
        digest=bytes.fromhex(stored_digest(data)), headers=Headers("application/json"),
    )  # fmt: skip


# No plan yet: sitemill.scaleout.distshuffle. The group is cut by the cut rule, so that a worker
# holds one shard's rows at a time, not its group's.
def group_shards(
    config: Config, root: str, item: Item, rows: Iterable[ObjectTypeDef]
) -> Iterator[tuple[str, str | None, list[ObjectTypeDef]]]:
    """A group's rows (in key order, their keys under ``root``) in the ranges the cut rule
    lays over its pages, streamed: (boundary, last key, rows), the first boundary the
    group's own. A range's rows are held until its cut is settled, no more."""
    cutter = Cutter(
        fill=config.shard_fill, byte_fill=byte_fill(config.max_bytes),
        clean=config.url_style is UrlStyle.CLEAN, order=Order.KEYS,
        taken={shard_id(item.afters[0])},
    )  # fmt: skip
    after = item.afters[0]
    chunk: list[ObjectTypeDef] = []  # the rows since the last cut (bucket_pages adds them)
    pages = bucket_pages(config, _kept_in(rows, chunk), root, Inventory())
    for path, size in page_weights(config, pages):
        for cut in cutter.add(path, size):
            yield after, cut, _split(chunk, root, cut)
            after = cut
    for cut in cutter.finish():
        yield after, cut, _split(chunk, root, cut)
        after = cut
    yield after, item.last, chunk


def _kept_in(rows: Iterable[ObjectTypeDef], chunk: list[ObjectTypeDef]) -> Iterator[ObjectTypeDef]:
    """The rows, each appended to ``chunk`` as it is read."""
    for row in rows:
        chunk.append(row)
        yield row


def _split(rows: list[ObjectTypeDef], root: str, cut: str) -> list[ObjectTypeDef]:
    """The rows up to ``cut``, taken out of ``rows`` (the rows after it stay)."""
    bound = key_order(cut)
    at = next(
        (n for n, row in enumerate(rows) if key_order(row["Key"][len(root) :]) > bound),
        len(rows),
    )
    head = rows[:at]
    del rows[:at]
    return head
