"""What the manifests of a sharded bucket no longer name: found, and deleted once retired."""
# See sitemill.shards.manifest: a failed run's leftovers, deleted once a commit retired them. A
# manifest is a claim from outside (anyone who may write the bucket may write one): a child goes
# only when its own bytes prove it sitemill's (writing.ownbytes: the name its content gives, or
# the MD5 the manifest holds for a file it names now), read by one bounded GET. A stray of any
# other shape (an earlier layout's sitemap-N.xml, or a user's) stays.

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from botocore.exceptions import BotoCoreError, ClientError

from sitemill.config.tables import group_names
from sitemill.errors import SourceError
from sitemill.filenames.groupnames import SHARD_STEM, is_group_child
from sitemill.filenames.outputs import CHILD_NAME, read_limit
from sitemill.jobs.bucketsite import BucketSite
from sitemill.scaleout import ShardedRun
from sitemill.shards.manifest import DELETE_AFTER, IndexState, is_state_object, versioned_parts
from sitemill.sources.s3 import describe_error, list_objects, read_object
from sitemill.state.partitioned import PartitionedStore
from sitemill.writing.ownbytes import OwnFiles, may_delete

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

log = logging.getLogger(__name__)


def delete_retired(
    client: S3Client,
    site: BucketSite,
    store: PartitionedStore,
    due: Iterable[str],
    recorded: Mapping[str, str] | None = None,
    owners: Sequence[OwnFiles] = (),
) -> list[str]:
    """Delete what a committed manifest retired: children from the site whose bytes prove
    them sitemill's (``recorded``: name -> MD5, what the manifest read holds for the files it
    named; ``owners``: the output features the run lists, asked too), states from the state
    location (a failure is a warning: the object stays, named by nothing)."""
    deleted: list[str] = []
    base_url = store.base_url or ""
    for name in due:
        if is_state_object(name):
            store.delete(name)
            continue
        data, digest = _read_child(client, site, name), (recorded or {}).get(name)
        if not may_delete(name, data, digest, base_url=base_url, outputs=owners):
            log.info("%s is kept: its bytes do not prove it sitemill's", name)
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


def find_strays(where: ShardedRun, base: IndexState, now: datetime) -> list[str]:
    """sitemill's objects that no manifest knows and that are older than DELETE_AFTER, in
    ``where``'s site and partitioned state: a failed run's files and states (a running run's
    are young); a child only when its bytes prove it (``_proven_stray``). One LIST per 1,000 of
    the site's ``sitemap-`` keys and of the shard states, one GET per child so found."""
    client, site, store = where.client, where.site, where.store
    groups = group_names(where.config.groups)  # (the configured groups' children are its own)
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
                and (start != "sitemap-" or _proven_stray(client, site, name, obj.get("Size")))
            ):
                found.append(name)
    return found


def _proven_stray(client: S3Client, site: BucketSite, name: str, size: int | None) -> bool:
    """Whether a child no manifest names is sitemill's by its own bytes: only a name its
    content gives can be (no record holds another's MD5); one GET for such a name."""
    if versioned_parts(name) is None or size is None or size > read_limit(name):
        return False
    return may_delete(name, _read_child(client, site, name))


def _read_child(client: S3Client, site: BucketSite, name: str) -> bytes | None:
    """A child's bytes (None: gone, unreadable, or larger than sitemill writes one)."""
    limit = read_limit(name)
    try:
        data = read_object(client, site.bucket, site.root + name, limit=limit + 1)
    except SourceError as exc:
        log.warning("%s is kept: %s", name, exc)
        return None
    return None if data is None or len(data) > limit else data


def _own_child(name: str, groups: Collection[str]) -> bool:
    """A child of sitemill's; of a named group (``groups``: the configured ones) only as a
    shard's file (sitemap-<name>-r<id>-<version>.xml): a user's sitemap-<name>.xml stays."""
    if CHILD_NAME.fullmatch(name):
        return True
    return is_group_child(name, groups) and SHARD_STEM.match(name) is not None
