"""Where a deployed site lives in a bucket, how a front-end says so, and where its state is
kept in parts (a partitioned state, opened, and read whole for a dry run)."""
# The partitioned state is opened here, apart from sitemill.scaleout's rebuild, so the router, the
# check, `indexnow`, `why --bucket` and the Lambda's diff read it without importing the rebuild.

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from sitemill.config.model import Config, ShardsMode
from sitemill.filenames.outputs import DEFAULT_CACHE_CONTROL, normalize_prefix

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

    from sitemill.state.partitioned import PartitionedStore
    from sitemill.state.start import Start

BUCKET_ENV: Final = "SITEMILL_BUCKET"
PREFIX_ENV: Final = "SITEMILL_PREFIX"
CACHE_CONTROL_ENV: Final = "SITEMILL_CACHE_CONTROL"
# Heads read at a time, at most (each a ranged GET on a connection of the client's pool).
MAX_HEAD_READERS: Final = 32
# Shards listed, rendered or whose states are read at a time unless told (``workers``): S3 serves
# many at once.
DEFAULT_THREADS: Final = 4


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


@dataclass(frozen=True, slots=True)
class BucketSettings:
    """The bucket, prefix and Cache-Control of a bucket site: one parse for the CLI and the
    Lambda. A value given explicitly (a flag) wins over SITEMILL_BUCKET / SITEMILL_PREFIX;
    the bucket may stay unknown (the Lambda takes it from its events)."""

    bucket: str | None
    prefix: str
    cache_control: str

    @classmethod
    def read(
        cls, env: Mapping[str, str], *, bucket: str | None = None, prefix: str | None = None
    ) -> BucketSettings:
        return cls(
            bucket=(bucket if bucket is not None else env.get(BUCKET_ENV, "")).strip() or None,
            prefix=(prefix if prefix is not None else env.get(PREFIX_ENV, "")).strip(),
            cache_control=env.get(CACHE_CONTROL_ENV, "").strip() or DEFAULT_CACHE_CONTROL,
        )

    def site(self, bucket: str) -> BucketSite:
        return BucketSite(bucket, self.prefix, self.cache_control)


def open_partitioned(config: Config, client: S3Client, site: BucketSite) -> PartitionedStore | None:
    """The partitioned state ``config`` names (sitemill.state.partitioned), or None: also when
    it would sit in the site's own bucket, where a shard's listing could be served (the one
    state object there names no page the sitemaps leave out)."""
    where = partitioned_prefix(config)
    if where is None or config.state is None or where[0] == site.bucket:
        return None
    from sitemill.state.partitioned import PartitionedStore  # (a partitioned state's only)
    from sitemill.state.s3 import parse_s3_location

    # The one state object of earlier runs (sitemill.state.s3): a first partitioned run
    # starts from it, so that no head is read again and no content date is lost.
    legacy = parse_s3_location(config.state)[1]
    return PartitionedStore(client, *where, legacy=legacy, base_url=config.base_url)


_SUFFIXES: Final = (".json.gz", ".gz", ".json")


def partitioned_prefix(config: Config) -> tuple[str, str] | None:
    """(bucket, prefix) of the partitioned state, or None when a bucket's state is not
    partitioned: it is only in a state location of its own (never beside the public
    sitemaps: a shard state names every object of its range) and with shards not "off"."""
    if config.state is None or not config.state.startswith("s3://"):
        return None
    if config.shards is ShardsMode.OFF:
        return None
    from sitemill.state.s3 import parse_s3_location  # (boto's: a bucket's run alone)

    bucket, key = parse_s3_location(config.state)
    for suffix in _SUFFIXES:
        if key.endswith(suffix) and len(key) > len(suffix):
            key = key[: -len(suffix)]
            break
    return bucket, key + "/"


def partitioned_start(config: Config, store: PartitionedStore) -> tuple[Start, str]:
    """What a run over the whole listing starts from when the state is kept in parts: every
    shard's pages in one (PartitionedStore.merged_start, of the manifest read once), and where
    it was read (the one state object of earlier runs, when the manifest has no plan yet).
    The bucket run dry starts from it (jobs.bucket.BucketAsked: `why --bucket`, the Lambda's
    diff); its state store is then not read."""
    store.ensure_manifest()
    start, _ = store.merged_start(config.workers or DEFAULT_THREADS)
    legacy = store.legacy
    return start, store.where if store.manifest.plan is not None or legacy is None else legacy.where
