"""After a run has published: its output features told, and where they write files of their own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sitemill.config.model import Config
from sitemill.errors import SinkError, SourceError
from sitemill.outputs import LiveRun
from sitemill.outputs import WriteFile as WriteFile
from sitemill.report import Report

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

    from sitemill.jobs.asked import RunAsked
    from sitemill.jobs.bucketsite import BucketSite
    from sitemill.sinks import LocalDirSink

KEY_FILE_TYPE = "text/plain; charset=utf-8"
_KEY_FILE_LIMIT = 256  # a key is at most 128 characters


def folder_writer(sink: LocalDirSink) -> WriteFile:
    """``write(name, data)`` of a feature's file (IndexNow's key file) into a tree's output
    folder."""
    return lambda name, data: sink.put(name, data, content_type=KEY_FILE_TYPE)


def bucket_file_writer(client: S3Client, site: BucketSite) -> WriteFile:
    """``write(name, data)`` at the site's root in its bucket: only when it differs; True
    when written."""
    from botocore.exceptions import BotoCoreError, ClientError  # (a bucket's run alone)

    from sitemill.sources.s3 import describe_error, read_missing_as_none

    def write(name: str, data: bytes) -> bool:
        key = site.root + name
        try:
            if read_missing_as_none(client, site.bucket, key, limit=_KEY_FILE_LIMIT) == data:
                return False
        except SourceError:
            pass  # (unreadable: written again)
        try:
            client.put_object(
                Bucket=site.bucket,
                Key=key,
                Body=data,
                ContentType=KEY_FILE_TYPE,
                CacheControl=site.cache_control,
            )
        except (ClientError, BotoCoreError) as exc:
            raise SinkError(f"cannot write the IndexNow key file: {describe_error(exc)}") from exc
        return True

    return write


def after_publishing(
    config: Config, report: Report, write_file: WriteFile | None, asked: RunAsked
) -> None:
    """Each output feature the run was ``asked`` for, once it has published (its dry run: as
    if it had; sitemill.outputs: IndexNow's key file through ``write_file(name, bytes)``, then
    its announcements)."""
    run = LiveRun(config, report, write_file, asked.dry_run)
    for feature in asked.outputs:
        feature.published(run)
