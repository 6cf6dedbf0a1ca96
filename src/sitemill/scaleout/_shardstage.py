"""The sink a full pass of a sharded bucket writes through (scaleout.shardcommit)."""
# Each child goes up at once under the name its content gives, unless the bucket holds it already;
# everything else the writer makes (its own index, robots.txt, an output published with the sitemaps
# such as sitemap.html) is kept here for after the commit. The writer sees an empty folder: nothing
# is replaced (the outputs read what is live elsewhere: OutputRun.live), and nothing deleted but
# what an output proved its own there (sitemill's leftover sitemap.html), after the commit too.

from __future__ import annotations

from collections.abc import Container, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from sitemill.filenames.outputs import ROBOTS_TXT, is_recorded_child, stored_digest
from sitemill.jobs.bucketsite import BucketSite
from sitemill.scaleout.shardcommit import put_child
from sitemill.shards.manifest import child_version
from sitemill.sinks import Sink
from sitemill.sinks.s3 import holds
from sitemill.sources.s3 import Inventory

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client


class StagedOutputs:
    """A Sink: children up under their own names, the rest kept in ``files``."""

    def __init__(
        self,
        client: S3Client,
        site: BucketSite,
        inventory: Inventory,
        retired: Container[str],
        *,
        dry_run: bool,
        live: Sink,
    ) -> None:
        """``inventory``: the listing's (what the bucket holds); ``retired``: names being
        deleted, which no content takes; ``live``: a sink to read robots.txt from (the writer
        starts from it)."""
        self.client, self.site, self.inventory = client, site, inventory
        self.retired, self.dry_run, self.live = retired, dry_run, live
        self.files: dict[str, bytes] = {}
        self.names_of: dict[str, str] = {}  # a child's name as the writer gave it -> its own
        self.written: list[str] = []
        self.unchanged: list[str] = []
        self.deletions: list[str] = []  # an output's files to delete after the commit

    def read(self, name: str) -> bytes | None:
        if name == ROBOTS_TXT:
            return self.live.read(name)
        return self.files.get(name)

    def names(self) -> Iterator[str]:
        return iter(())

    def holds(self, name: str, staged: Path) -> bool:
        return False

    def put(self, name: str, data: bytes, *, content_type: str) -> bool:
        if not is_recorded_child(name):  # (the writer's children, named groups' too)
            self.files[name] = data
            return True
        own = child_version(name, stored_digest(data), self.retired)
        self.names_of[name] = own
        stored = self.inventory.objects.get(own)
        if stored is not None and holds(stored, data):
            self.unchanged.append(own)
            return False
        if not self.dry_run:
            put_child(self.client, self.site, own, data)
        self.written.append(own)
        return True

    def put_file(self, name: str, staged: Path, *, content_type: str) -> bool:
        return self.put(name, staged.read_bytes(), content_type=content_type)

    def delete(self, name: str) -> None:
        """An output's file, proven its own by what is live: deleted after the commit
        (``deletions``). No child is deleted here: what the manifest no longer names goes
        after a while."""
        if not is_recorded_child(name) and name not in self.deletions:
            self.deletions.append(name)
