"""A group of an inventory-mode distributed rebuild, cut into shard ranges as its rows stream by."""
# No plan yet: sitemill.scaleout.distshuffle. The group is cut by the cut rule, so that a worker
# holds one shard's rows at a time, not its group's.

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from sitemill.config.model import Config
from sitemill.scaleout.distplan import page_weights
from sitemill.scaleout.runfiles import Item
from sitemill.shards.cuts import Cutter, byte_fill
from sitemill.shards.plan import Order, key_order, shard_id
from sitemill.sources.s3 import Inventory, bucket_pages
from sitemill.urls import UrlStyle

if TYPE_CHECKING:
    from mypy_boto3_s3.type_defs import ObjectTypeDef


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
