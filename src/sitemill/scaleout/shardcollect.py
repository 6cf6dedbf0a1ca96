"""What the manifests of a sharded bucket no longer name: found, and deleted once retired."""
# See sitemill.shards.manifest: a failed run's leftovers, an earlier layout's files, deleted once a
# commit retired them.

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from botocore.exceptions import BotoCoreError, ClientError

from sitemill.filenames.groupnames import SHARD_STEM, is_group_child
from sitemill.filenames.outputs import CHILD_NAME
from sitemill.jobs.bucketsite import BucketSite
from sitemill.shards.manifest import DELETE_AFTER, IndexState, is_state_object
from sitemill.sources.s3 import describe_error, list_objects
from sitemill.state.partitioned import PartitionedStore

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

log = logging.getLogger(__name__)


def delete_retired(
    client: S3Client, site: BucketSite, store: PartitionedStore, due: Iterable[str]
) -> list[str]:
    """Delete what a committed manifest retired: children from the site, states from the
    state location (a failure is a warning: the object stays, named by nothing)."""
    deleted: list[str] = []
    for name in due:
        if is_state_object(name):
            store.delete(name)
            continue
        try:
            client.delete_object(Bucket=site.bucket, Key=site.root + name)
        except (ClientError, BotoCoreError) as exc:
            log.warning(
                "cannot delete %s (it stays, named by nothing): %s", name, describe_error(exc)
            )
            continue
        deleted.append(name)
    return deleted


def find_strays(
    client: S3Client,
    site: BucketSite,
    store: PartitionedStore,
    base: IndexState,
    now: datetime,
    groups: Collection[str] = (),
) -> list[str]:
    """sitemill's objects that no manifest knows and that are older than DELETE_AFTER: a
    failed run's files and states, an earlier layout's children (a running run's are young).
    One LIST per 1,000 of the site's ``sitemap-`` keys and of the shard states."""
    known = base.named() | set(base.unnamed) | set(base.retired)
    found: list[str] = []
    places = ((site.bucket, site.root, "sitemap-"), (store.bucket, store.prefix, "shards/"))
    for bucket, root, start in places:
        for obj in list_objects(client, bucket, root + start, delimiter="/"):
            name = obj.get("Key", "")[len(root) :]
            modified = obj.get("LastModified")
            if (
                name not in known
                and (_own_child(name, groups) or is_state_object(name))
                and modified is not None
                and now - modified >= DELETE_AFTER
            ):
                found.append(name)
    return found


def _own_child(name: str, groups: Collection[str]) -> bool:
    """A child of sitemill's; of a named group (``groups``: the configured ones) only as a
    shard's file (sitemap-<name>-r<id>-<version>.xml): a user's sitemap-<name>.xml stays."""
    if CHILD_NAME.fullmatch(name):
        return True
    return is_group_child(name, groups) and SHARD_STEM.match(name) is not None
