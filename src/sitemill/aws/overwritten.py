"""sitemill's sitemap.xml overwritten by another writer: `aws s3 sync` of a build folder that
holds the generator's sitemap.xml (MkDocs, Hugo, Jekyll, Docusaurus, Sphinx) replaces the one
sitemill wrote. Its notification names one of sitemill's files, which is otherwise ignored as
sitemill's own output (a rebuild must not trigger another); here the object is read, and one
that sitemill did not write asks for the rebuild that puts sitemill's back."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from botocore.exceptions import ClientError

from sitemill.aws.events import ObjectChange
from sitemill.aws.selection import Selection
from sitemill.config.model import Config
from sitemill.writing.generators import looks_like_sitemills, written_by

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

log = logging.getLogger(__name__)

# Enough of a sitemap's head to tell whose template wrote it (sitemill.writing.generators).
_HEAD_BYTES: Final = 4_096


def restore_overwritten(
    config: Config, selection: Selection, client: Callable[[], S3Client]
) -> None:
    """Count as relevant each write of sitemap.xml whose object is not sitemill's: a
    generator's shape, or (with the built-in templates) not the shape sitemill writes. An
    object that cannot be read, or is gone, changes nothing here."""
    s3 = client()
    for change in selection.own_written:
        head = _head(s3, change)
        generator = None if head is None else written_by(head)
        if head is None or (generator is None and _is_sitemills(config, head)):
            continue
        whose = f"{generator.owner} sitemap" if generator else "a file sitemill did not write"
        log.warning(
            "s3://%s/%s was overwritten by %s (a sync of a build folder?): rebuilding puts "
            "sitemill's back",
            change.bucket,
            change.key,
            whose,
        )
        selection.relevant += 1
        selection.buckets.add(change.bucket)
        selection.ignored["own_output"] -= 1
        if not selection.ignored["own_output"]:
            del selection.ignored["own_output"]


def _is_sitemills(config: Config, head: bytes) -> bool:
    """Whether ``head``, no generator's, is sitemill's (any file is, with templates of the
    user's: their shape cannot be told)."""
    return config.templates_dir is not None or looks_like_sitemills(head)


def _head(s3: S3Client, change: ObjectChange) -> bytes | None:
    try:
        answer = s3.get_object(
            Bucket=change.bucket, Key=change.key, Range=f"bytes=0-{_HEAD_BYTES - 1}"
        )
        data: bytes = answer["Body"].read()
    except ClientError as exc:
        log.debug("not reading s3://%s/%s: %s", change.bucket, change.key, exc)
        return None
    return data
