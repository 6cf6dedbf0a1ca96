"""Taking over a sitemap sitemill did not write, in a bucket (sitemill.writing.takeover)."""
# On a first run (no state), the sitemap.xml an `aws s3 sync` of a build folder uploaded is the
# generator's, not an earlier run's. Few requests of its own: the listing noted the "sitemap*" names
# and the sink the sitemap.xml it replaced; a ranged GET of each twin's head.

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from sitemill.config.model import OutputFormat
from sitemill.errors import SinkError
from sitemill.filenames.outputs import ENTRY_XML, read_limit
from sitemill.jobs.bucketsite import BucketSite
from sitemill.sinks.s3 import S3Sink
from sitemill.sinks.s3conditional import delete_object
from sitemill.sources.s3 import Inventory, read_object
from sitemill.writing.sitemapfile import HEAD_BYTES, read_size
from sitemill.writing.takeover import Takeover, find_takeover
from sitemill.writing.usersitemaps import UserSitemaps, user_sitemaps

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

    from sitemill.config.model import Config
    from sitemill.state.model import State


class BucketFiles:
    """The files at the prefix root, and in folders below it (Hugo's ``en/sitemap.xml``), as
    sitemill.writing.takeover reads and deletes them (the keys under the prefix only)."""

    def __init__(
        self, client: S3Client, site: BucketSite, sink: S3Sink, inventory: Inventory, text: bool
    ) -> None:
        self.client, self.site, self.sink, self.inventory = client, site, sink, inventory
        self.text = text  # the run writes sitemap.txt: sitemap.xml, left, is read here

    def read(self, name: str, limit: int) -> bytes | None:
        listed = name in self.inventory.objects or name in self.inventory.others
        before = self.sink.entry_before
        if before is None:
            before = self.sink.entry_head  # (too large to read whole: its telling head)
        if name == ENTRY_XML and (before is not None or not self.text):
            return None if before is None else before[:limit]  # what the run replaced
        if "/" not in name and not listed and self.inventory.tells(name):
            return None  # the listing says it is not there: no GET
        key = self.site.root + name
        try:
            return read_object(
                self.client,
                self.site.bucket,
                key,
                error=SinkError,
                limit=min(limit, read_limit(name) + 1),  # (+1: an index's INDEX_READ_BYTES)
            )
        except SinkError:
            return None

    def delete(self, name: str) -> None:
        if self.sink.dry_run:
            return
        key = self.site.root + name
        delete_object(self.client, self.site.bucket, key, None, f"s3://{self.site.bucket}/{key}")


def find_bucket_takeover(
    client: S3Client,
    site: BucketSite,
    sink: S3Sink,
    inventory: Inventory,
    *,
    text: bool,
    remembered: Collection[str],
) -> tuple[BucketFiles, Takeover | None]:
    """Where the files are, and the sitemap this run replaced (or, with ``text``, left) under
    the site's prefix that sitemill did not write; None when there was none."""
    files = BucketFiles(client, site, sink, inventory, text)
    if sink.entry_before is None and sink.entry_head is None and not inventory.others and not text:
        return files, None
    return files, find_takeover(files, text=text, remembered=remembered)


class BucketNaming:
    """The sitemap a run replaces and the user's sitemaps it names, found once, when the
    writer asks (the listing complete then) or after the run; sitemap.xml is read once."""

    def __init__(
        self,
        client: S3Client,
        site: BucketSite,
        sink: S3Sink,
        inventory: Inventory,
        config: Config,
        state: State,
    ) -> None:
        self.client, self.site, self.sink, self.inventory = client, site, sink, inventory
        self.config = config
        self.outputs = state.outputs  # the files the state says sitemill wrote
        self.remembered = state.found_sitemaps  # the user's sitemaps an earlier run found
        self.robots_before = state.robots_sitemaps  # the robots.txt lines it wrote for them
        self._found: tuple[BucketFiles, Takeover | None] | None = None
        self.users: UserSitemaps | None = None

    def takeover(self) -> tuple[BucketFiles, Takeover | None]:
        """find_bucket_takeover, once (before the run writes: sitemap.xml read as it was)."""
        if self._found is None:
            if ENTRY_XML in self.inventory.objects and not self.sink.written:
                self.sink.keep_entry(HEAD_BYTES, read_size)  # (what it replaces: entry_before)
            text = self.config.format is OutputFormat.TXT
            self._found = find_bucket_takeover(
                self.client, self.site, self.sink, self.inventory,
                text=text, remembered=self.outputs,
            )  # fmt: skip
        return self._found

    def __call__(self) -> UserSitemaps:
        if self.users is None:
            files, found = self.takeover()
            self.users = user_sitemaps(self.config, files, found, self.remembered)
            self.users.robots_before = self.robots_before
        return self.users
