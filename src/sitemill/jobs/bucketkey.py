"""The IndexNow key file in a bucket, beside the sitemaps: written only when it differs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from botocore.exceptions import BotoCoreError, ClientError

from sitemill.errors import SinkError, SourceError
from sitemill.jobs.afterpublish import KEY_FILE_TYPE, WriteFile
from sitemill.jobs.bucketsite import BucketSite
from sitemill.sources.s3 import describe_error, read_missing_as_none

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

_KEY_FILE_LIMIT = 256  # a key is at most 128 characters


def bucket_file_writer(client: S3Client, site: BucketSite) -> WriteFile:
    """``write(name, data)`` at the site's root in its bucket; True when written."""

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
