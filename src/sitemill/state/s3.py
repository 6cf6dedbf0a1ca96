"""The state in an S3 object of its own (``state = "s3://bucket/key"``)."""
# Read bounded, written only when changed, and never over a version another writer put there since
# it was read.

from __future__ import annotations

import contextlib
import logging
import re
from typing import TYPE_CHECKING, Final

from botocore.exceptions import BotoCoreError, ClientError

from sitemill.errors import ConfigError, ConflictError, SinkError, SourceError
from sitemill.filenames.outputs import (
    MAX_STATE_READ_BYTES,
    STATE_NAME,
    content_type,
    stored_digest,
)
from sitemill.sinks.s3 import supports_conditional_put
from sitemill.sinks.s3conditional import Headers, IfMatch, put_object
from sitemill.sources.s3 import describe_error, is_not_found, read_missing_as_none

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

log = logging.getLogger(__name__)

# https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html
_BUCKET_NAME: Final = re.compile(r"[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")
_ACCESS_DENIED: Final = frozenset({"AccessDenied", "403"})
_STATE_TYPE: Final = content_type(STATE_NAME)


def parse_s3_location(location: str, key_name: str = "state") -> tuple[str, str]:
    """``s3://bucket/key`` as (bucket, key); a ConfigError naming ``key_name`` otherwise."""
    rest = location.strip()
    if not rest.startswith("s3://"):
        raise ConfigError(key_name, f"{location!r} is not an s3://bucket/key location")
    bucket, _, key = rest[len("s3://") :].partition("/")
    if not _BUCKET_NAME.fullmatch(bucket) or ".." in bucket:
        raise ConfigError(key_name, f"{location!r}: {bucket!r} is not an S3 bucket name")
    if not key or key.endswith("/"):
        raise ConfigError(key_name, f"{location!r} names no object (s3://bucket/path/state.gz)")
    if any(ord(char) < 0x20 or ord(char) == 0x7F for char in key):
        raise ConfigError(key_name, f"{location!r} has a control character in its key")
    return bucket, key


class S3StateStore:
    """One object holds the state. ``read`` is one GET (bounded, a missing key is None even
    where S3 says 403 to a role that may not list it) and remembers the ETag; ``write`` skips
    bytes the object already holds and is conditional on that ETag (``If-Match``), or on the
    key still being absent (``If-None-Match: *``): a 412 is a ConflictError."""

    def __init__(
        self, client: S3Client, bucket: str, key: str, *, limit: int = MAX_STATE_READ_BYTES
    ) -> None:
        self.client = client
        self.bucket = bucket
        self.key = key
        self.limit = limit
        self.where = f"s3://{bucket}/{key}"
        self._etag: str | None = None  # of the version last read or written
        self._known = False  # whether _etag says what is there (None: nothing)

    @property
    def etag(self) -> str | None:
        """The ETag of the version read or written last (None: none, or not read yet)."""
        return self._etag if self._known else None

    def read(self) -> bytes | None:
        """The object's bytes, or None when there is none; SinkError when it cannot be read
        or is larger than the limit (no state sitemill wrote is): the body is read no
        further than one byte past it."""
        try:
            response = self.client.get_object(Bucket=self.bucket, Key=self.key)
            with contextlib.closing(response["Body"]) as body:
                data = body.read(self.limit + 1)
        except ClientError as exc:
            if not (is_not_found(exc) or self._missing_after_all(exc)):
                raise SinkError(
                    f"cannot read the state {self.where}: {describe_error(exc)}"
                ) from exc
            self._etag, self._known = None, True
            return None
        except BotoCoreError as exc:
            raise SinkError(f"cannot read the state {self.where}: {describe_error(exc)}") from exc
        if len(data) > self.limit:
            raise SinkError(
                f"refusing the state {self.where}: larger than {self.limit:,} bytes, so not "
                "one sitemill wrote"
            )
        self._etag, self._known = response.get("ETag"), True
        return data

    def _missing_after_all(self, exc: ClientError) -> bool:
        """Whether a GET's 403 means the key is missing (to a role that may not list it);
        one LIST of exactly this key tells (``read_missing_as_none``). SinkError when the
        object exists and this role may not read it."""
        if not _is_access_denied(exc):
            return False
        try:
            found = read_missing_as_none(self.client, self.bucket, self.key, limit=1)
        except SourceError as error:
            raise SinkError(f"cannot read the state {self.where}: {error}") from exc
        return found is None

    def write(self, data: bytes) -> bool:
        if not self._known:
            self.read()
        if self._etag is not None and self._etag.strip('"') == stored_digest(data):
            return False  # an SSE-KMS or multipart ETag never matches: written again
        try:
            etag = put_object(
                self.client,
                self.bucket,
                self.key,
                data,
                digest=bytes.fromhex(stored_digest(data)),
                headers=Headers(_STATE_TYPE),
                condition=IfMatch(self._etag) if supports_conditional_put(self.client) else None,
                label=f"the state {self.where}",
            )
        except ConflictError:
            self._known = False  # read again before another try
            raise
        self._etag, self._known = etag or None, True
        return True


def _is_access_denied(exc: ClientError) -> bool:
    return exc.response.get("Error", {}).get("Code") in _ACCESS_DENIED
