"""One rebuild of a bucket's sitemaps: list, generate, publish; redone after a race."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from sitemill.config import Config, LastmodMode
from sitemill.errors import ConflictError, SinkError
from sitemill.pipeline import build_from_pages
from sitemill.report import Progress, Report
from sitemill.s3sink import DEFAULT_CACHE_CONTROL, S3Sink
from sitemill.sources.s3 import (
    Inventory,
    bucket_pages,
    list_objects,
    normalize_prefix,
    read_bucket_robots,
)

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

log = logging.getLogger(__name__)

# Conflicts with another writer are retried this many times in all (each a fresh listing).
ATTEMPTS: Final = 3


@dataclass(frozen=True, slots=True)
class BucketSite:
    """Where a deployed site lives: the sitemaps are written under the same prefix."""

    bucket: str
    prefix: str = ""
    cache_control: str = DEFAULT_CACHE_CONTROL

    @property
    def root(self) -> str:
        """The key prefix of the site root ('' or ending in '/')."""
        return normalize_prefix(self.prefix)


def build_from_bucket(
    config: Config,
    client: S3Client,
    site: BucketSite,
    sink: S3Sink,
    inventory: Inventory,
    *,
    progress: Progress | None = None,
) -> Report:
    """One pass: robots.txt (one GET), the listing (one LIST per 1,000 keys), then the writes.

    ``inventory`` must be the sink's: the listing fills it with the ETags of old outputs.
    Pages are not opened, so ``respect_noindex`` does not apply here (it would cost a GET
    per page).
    """
    root = site.root
    robots = read_bucket_robots(client, site.bucket, root) if config.respect_robots_txt else None
    pages = bucket_pages(config, list_objects(client, site.bucket, root), root, inventory)
    mode = LastmodMode.NONE if config.lastmod is LastmodMode.NONE else LastmodMode.MTIME
    return build_from_pages(
        config, pages, sink, robots=robots, noindex=None, lastmod=mode, progress=progress
    )


def rebuild_bucket(
    config: Config,
    client: S3Client,
    site: BucketSite,
    *,
    dry_run: bool = False,
    progress: Progress | None = None,
) -> Report:
    """Rebuild the sitemaps of ``site``. Every write is conditional on what the listing saw;
    when another writer changed an output meanwhile, list again and redo (its pages may be
    newer than ours), at most ATTEMPTS times, then give up with a SinkError."""
    earlier: list[str] = []
    for attempt in range(1, ATTEMPTS + 1):
        inventory = Inventory()
        sink = S3Sink(
            client,
            site.bucket,
            site.root,
            cache_control=site.cache_control,
            inventory=inventory,
            dry_run=dry_run,
        )
        try:
            report = build_from_bucket(config, client, site, sink, inventory, progress=progress)
        except ConflictError as exc:
            earlier.extend(sink.written)
            if attempt == ATTEMPTS:
                raise SinkError(
                    f"{exc}, {ATTEMPTS} times: another rebuild is running; try again"
                ) from exc
            log.warning("%s; listing the bucket again and redoing the rebuild", exc)
            continue
        _count_earlier_writes(report, earlier)
        return report
    raise AssertionError("unreachable")


def _count_earlier_writes(report: Report, earlier: list[str]) -> None:
    """Files written by a failed first attempt were changed too (a CDN must forget them)."""
    result = report.result
    for name in earlier:
        if name in result.unchanged:
            result.unchanged.remove(name)
            result.written.append(name)
