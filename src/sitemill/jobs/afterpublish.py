"""After a run has published: write the key file where asked (a folder, a bucket), then announce."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from sitemill.config.model import Config, IndexNowMode
from sitemill.errors import SinkError, SitemillError, SourceError
from sitemill.report import Report

if TYPE_CHECKING:  # (IndexNow is off by default: its modules load when a run announces)
    from mypy_boto3_s3 import S3Client

    from sitemill.jobs.bucketsite import BucketSite
    from sitemill.sinks import LocalDirSink

log = logging.getLogger(__name__)

KEY_FILE_TYPE = "text/plain; charset=utf-8"
WriteFile = Callable[[str, bytes], bool]
_KEY_FILE_LIMIT = 256  # a key is at most 128 characters


def folder_writer(sink: LocalDirSink) -> WriteFile:
    """``write(name, data)`` of the key file into a tree's output folder."""
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
    config: Config, report: Report, write_file: WriteFile | None, *, dry_run: bool = False
) -> None:
    """The key file (``indexnow_write_key_file``) through ``write_file(name, bytes)``, before
    anything is announced (engines fetch it to check); then, with ``indexnow = send``, the
    announcements, whose lines become the run's warnings."""
    if config.indexnow_write_key_file and write_file is not None and not dry_run:
        _write_key_file(config.indexnow_key, write_file, report.warnings)
    outcome = report.indexnow
    if outcome is None or config.indexnow is not IndexNowMode.SEND:
        return
    from sitemill.indexnow.run import deliver

    known = len(outcome.messages)
    deliver(config, outcome, dry_run=dry_run)
    for message in outcome.messages[known:]:
        log.warning("%s", message)
        report.warnings.append(message)


def _write_key_file(key: str, write_file: WriteFile, warnings: list[str]) -> None:
    """The key file; one that cannot be written is a warning, not a failed run: the sitemaps
    are published, and the URLs stay pending until engines can read the key."""
    from sitemill.indexnow.key import key_file_name

    try:
        if write_file(key_file_name(key), key.encode("ascii")):
            log.info("wrote the IndexNow key file")
    except SitemillError as exc:
        message = f"IndexNow: cannot write the key file: {exc}; what is to announce stays pending"
        log.warning("%s", message)
        warnings.append(message)
