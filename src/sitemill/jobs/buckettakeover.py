"""Taking over from a generator's sitemap in a bucket (sitemill.writing.takeover): on a first run
(no state), the sitemap.xml an `aws s3 sync` of a build folder uploaded is the generator's,
not an earlier run's. No request of its own: the listing noted the "sitemap*" names and the
sink the sitemap.xml it replaced; a GET only of each twin candidate that is there."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from botocore.exceptions import BotoCoreError, ClientError

from sitemill.errors import SinkError
from sitemill.filenames.outputs import ENTRY_XML, read_limit
from sitemill.jobs.bucketsite import BucketSite
from sitemill.sinks.s3 import S3Sink
from sitemill.sources.s3 import Inventory, describe_error, read_object
from sitemill.writing.takeover import Takeover, find_takeover

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client


class BucketFiles:
    """The generator's files at the prefix root, and in folders below it (Hugo's
    ``en/sitemap.xml``), as sitemill.writing.takeover reads and deletes them."""

    nested = True  # names with "/" are keys below the prefix

    def __init__(self, client: S3Client, site: BucketSite, sink: S3Sink, inventory: Inventory):
        self.client, self.site, self.sink, self.inventory = client, site, sink, inventory

    def names(self) -> Iterator[str]:
        return iter(sorted(set(self.inventory.objects) | self.inventory.others))

    def read(self, name: str) -> bytes | None:
        if name == ENTRY_XML:
            return self.sink.entry_before  # what the run replaced
        key = self.site.root + name
        return read_object(
            self.client, self.site.bucket, key, error=SinkError, limit=read_limit(name)
        )

    def delete(self, name: str) -> None:
        if self.sink.dry_run:
            return
        key = self.site.root + name
        try:
            self.client.delete_object(Bucket=self.site.bucket, Key=key)
        except (ClientError, BotoCoreError) as exc:
            where = f"s3://{self.site.bucket}/{key}"
            raise SinkError(f"cannot delete {where}: {describe_error(exc)}") from exc


def find_bucket_takeover(
    client: S3Client, site: BucketSite, base_url: str, sink: S3Sink, inventory: Inventory
) -> tuple[BucketFiles, Takeover] | None:
    """The generator's sitemap this run replaced under the site's prefix, with where its
    files are deleted; None when there was none."""
    if sink.entry_before is None and not inventory.others:
        return None
    files = BucketFiles(client, site, sink, inventory)
    takeover = find_takeover(files, base_url)
    return None if takeover is None else (files, takeover)
