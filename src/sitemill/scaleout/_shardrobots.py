"""robots.txt's Sitemap lines in a sharded bucket with a partitioned state, and their record."""
# Decided before the commit, written after it (robots.txt names the entry file, live only then):
# the lines sitemill writes for the user's sitemaps only robots.txt may name are recorded in the
# manifest it commits, so that a later run removes those it no longer wants and never a line the
# user wrote (sitemill.robots.lines). A run that does not rewrite robots.txt keeps the record.

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sitemill.config.model import Config
from sitemill.filenames.outputs import ROBOTS_TXT, content_type
from sitemill.jobs.bucketsite import BucketSite
from sitemill.report import WriteResult
from sitemill.sinks.s3 import S3Sink
from sitemill.writing.layouts import new_robots
from sitemill.writing.usersitemaps import UserSitemaps

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client


@dataclass(frozen=True, slots=True)
class RobotsUpdate:
    """robots.txt as the run rewrites it after its commit (None: as it is), and the lines
    sitemill wrote there for the user's sitemaps (the manifest's record)."""

    lines: tuple[str, ...]
    sink: S3Sink | None = None
    data: bytes | None = None


def robots_update(
    config: Config,
    client: S3Client,
    site: BucketSite,
    entry: str,
    others: Sequence[str],
    written: Sequence[str],
) -> RobotsUpdate:
    """robots.txt with the Sitemap line of the entry file, then ``others`` (the user's
    sitemaps only robots.txt may name), when sitemill maintains it; ``written``: the lines
    the last manifest records (replaced; every other line stays)."""
    if not config.robots_txt:
        return RobotsUpdate(tuple(written))
    sink = S3Sink(client, site.bucket, site.root, cache_control=site.cache_control)
    users = UserSitemaps(robots_before=frozenset(written))
    data = new_robots(sink, config, [config.base_url + entry, *others], None, users)
    return RobotsUpdate(tuple(users.robots_written or ()), sink, data)


def write_robots(update: RobotsUpdate, result: WriteResult) -> None:
    """Write robots.txt once the commit is live (in place, conditional on the version read)."""
    if update.sink is None or update.data is None:
        return
    if update.sink.put(ROBOTS_TXT, update.data, content_type=content_type(ROBOTS_TXT)):
        result.written.append(ROBOTS_TXT)
