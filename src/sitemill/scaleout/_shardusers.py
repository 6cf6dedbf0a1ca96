"""The user's sitemaps a sharded bucket with a partitioned state names, kept in its manifest."""
# As a one-state run names them (sitemill.writing.usersitemaps, docs/output.md "The user's own
# sitemaps"): ``sitemaps = [...]``, those a replaced generator's index named (the live sitemap.xml
# when it is not the one the manifest names, or Astro's index) and those the manifest remembers,
# each read with one ranged GET of its head. A full rebuild decides, and its manifest keeps them:
# an incremental run names the manifest's again, reading none, unless a key it is told of is one of
# them (a full rebuild then reads them again). With any named, the entry file is an index: no run
# renders the single sitemap.xml (sitemill's own pages go in the first shard's file).

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sitemill.config.model import Config, OutputFormat, ShardsMode
from sitemill.errors import SinkError
from sitemill.filenames.outputs import ENTRY_XML, read_limit
from sitemill.jobs.bucketsite import BucketSite
from sitemill.scaleout import ShardedRun
from sitemill.scaleout._shardoutputs import outputs_shard_config
from sitemill.scaleout.shardcommit import Live
from sitemill.shards.manifest import IndexState
from sitemill.sources.s3 import read_object
from sitemill.urls import site_file_path
from sitemill.writing.takeover import find_takeover
from sitemill.writing.usersitemaps import UserSitemaps, user_sitemaps

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

    from sitemill.outputs import OutputFeature


class PrefixFiles:
    """The files under the site's prefix as sitemill.writing.takeover reads them (a ranged
    GET each); nothing is deleted (a partitioned run retires only its own names)."""

    def __init__(self, client: S3Client, site: BucketSite, absent: Collection[str]) -> None:
        self.client, self.site, self.absent = client, site, absent

    def read(self, name: str, limit: int) -> bytes | None:
        """The head of ``name`` (at most ``limit`` bytes), or None when it is not there."""
        if name in self.absent:
            return None
        key, limit = self.site.root + name, min(limit, read_limit(name))
        try:
            return read_object(self.client, self.site.bucket, key, error=SinkError, limit=limit)
        except SinkError:
            return None

    def delete(self, name: str) -> None:
        """Nothing: the generator's files stay where a partitioned run replaces its index."""


def full_users(run: ShardedRun, base: IndexState, live: Live) -> UserSitemaps:
    """The user's sitemaps a full rebuild ``run`` over the manifest ``base`` names (``live``:
    its entry file as the run found it; one that is not the manifest's may be a generator's)."""
    files = PrefixFiles(run.client, run.site, () if live.etag is not None else (ENTRY_XML,))
    found = None
    if live.digest != base.digest:  # (None against "": a first run)
        text = run.config.format is OutputFormat.TXT
        found = find_takeover(files, text=text, remembered=())
    return user_sitemaps(run.config, files, found, base.found)


def pass_config(config: Config, users: Sequence[str], outputs: Sequence[OutputFeature]) -> Config:
    """The configuration a full pass renders shards by: robots.txt is the commit's; with the
    user's sitemaps named or named groups, shards even for a site of one file (the entry is
    an index whatever its size, and a partitioned bucket's children are shards' files); no
    page read again for Markdown (llms.txt is made after the commit: scaleout.shardoutputs)."""
    sharded = ShardsMode.ON if users or config.groups else config.shards
    return outputs_shard_config(replace(config, robots_txt=False, shards=sharded), outputs)


def rebuild_paths(config: Config, base: IndexState) -> set[str]:
    """The paths under the prefix whose change is a full rebuild: the user's sitemaps the
    index names or may name (one deleted, replaced, or uploaded at last)."""
    paths = {site_file_path(url, config.base_url) for url in (*config.sitemaps, *base.users)}
    return {path for path in paths if path is not None} | set(base.found)


def users_to_json(users: UserSitemaps) -> dict[str, Any]:
    """What a distributed run's plan step decided, for its workers and reducer (run.json)."""
    return {"index": users.index, "found": users.found, "robots": users.robots}


def users_from_json(value: object) -> UserSitemaps:
    """The user's sitemaps run.json names (none when it names none: an earlier version's)."""
    if not isinstance(value, dict):
        return UserSitemaps()
    index, robots, found = (_strings(value.get(key)) for key in ("index", "robots", "found"))
    return UserSitemaps(index=index, robots=robots, found=found)


def _strings(value: object) -> list[str]:
    items: Iterable[object] = value if isinstance(value, list) else ()
    return [item for item in items if isinstance(item, str)]
