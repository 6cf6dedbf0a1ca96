"""S3 writes and deletions conditional on the version listed, and writes that give an object a
new ETag."""

from __future__ import annotations

import base64
import hashlib
import logging
from contextlib import suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from botocore.exceptions import BotoCoreError, ClientError

from sitemill.errors import ConflictError, SinkError
from sitemill.sources.s3 import describe_error, is_not_found

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client
    from mypy_boto3_s3.type_defs import CompletedMultipartUploadTypeDef, PutObjectRequestTypeDef

log = logging.getLogger(__name__)

# 412: the ETag no longer matches (or the key now exists); 409: a concurrent conditional write.
# https://docs.aws.amazon.com/AmazonS3/latest/userguide/conditional-writes.html
_CONFLICT_STATUSES: Final = frozenset({409, 412})


@dataclass(frozen=True, slots=True)
class Headers:
    """An object's Content-Type and Cache-Control (None: none is set)."""

    content_type: str
    cache_control: str | None = None


@dataclass(frozen=True, slots=True)
class IfMatch:
    """A conditional PUT: only over the version with ``etag`` (If-Match), or, with None, where
    the key is still absent (If-None-Match: *)."""

    etag: str | None


def put_object(
    client: S3Client,
    bucket: str,
    key: str,
    data: bytes,
    *,
    digest: bytes,
    headers: Headers,
    condition: IfMatch | None = None,
    label: str | None = None,
) -> str:
    """PUT ``data`` and return its new ETag. With a ``condition``, a version another writer
    put there meanwhile is never replaced: a ConflictError (None: whatever is there).
    ``label`` names the object in errors (default: its s3:// URI).
    https://docs.aws.amazon.com/AmazonS3/latest/userguide/conditional-writes.html
    """
    request: PutObjectRequestTypeDef = {
        "Bucket": bucket,
        "Key": key,
        "Body": data,
        "ContentType": headers.content_type,
        "ContentMD5": base64.b64encode(digest).decode("ascii"),
    }
    if headers.cache_control is not None:
        request["CacheControl"] = headers.cache_control
    if condition is not None:
        if condition.etag is not None:
            request["IfMatch"] = condition.etag
        else:
            request["IfNoneMatch"] = "*"
    uri = label or f"s3://{bucket}/{key}"
    try:
        response = client.put_object(**request)
    except ClientError as exc:
        if condition is not None and _is_conflict(exc, condition.etag is not None):
            raise ConflictError(f"{uri} was changed by another writer during this run") from exc
        raise SinkError(f"cannot write {uri}: {describe_error(exc)}") from exc
    except BotoCoreError as exc:
        raise SinkError(f"cannot write {uri}: {describe_error(exc)}") from exc
    return response.get("ETag", "")


def _is_conflict(exc: ClientError, had_etag: bool) -> bool:
    status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
    # With IfMatch, a key deleted by another writer answers 404 NoSuchKey.
    return status in _CONFLICT_STATUSES or (had_etag and is_not_found(exc))


def delete_object(client: S3Client, bucket: str, key: str, etag: str | None, uri: str) -> None:
    """Delete ``key`` if it still has ``etag`` (If-Match; None: whatever it holds). A key
    already gone is no error; a version another writer put there since is never deleted (a
    ConflictError: it may be the one that writer's index names now).
    https://docs.aws.amazon.com/AmazonS3/latest/userguide/conditional-deletes.html"""
    request: dict[str, Any] = {"Bucket": bucket, "Key": key}
    if etag is not None and _knows_if_match(client, "DeleteObject"):
        request["IfMatch"] = etag
    try:
        try:
            client.delete_object(**request)
        except ClientError as exc:
            if "IfMatch" not in request or _code(exc) != "NotImplemented":
                raise
            log.debug("%s: this store deletes unconditionally only", uri)
            del request["IfMatch"]
            client.delete_object(**request)
    except ClientError as exc:
        if is_not_found(exc):
            return
        if _status(exc) in (409, 412):
            raise ConflictError(f"{uri} was changed by another writer during this run") from exc
        raise SinkError(f"cannot delete {uri}: {describe_error(exc)}") from exc
    except BotoCoreError as exc:
        raise SinkError(f"cannot delete {uri}: {describe_error(exc)}") from exc


def renew_object(
    client: S3Client,
    bucket: str,
    key: str,
    data: bytes,
    *,
    content_type: str,
    cache_control: str | None,
    expected_etag: str | None,
) -> str:
    """Write ``data`` over the object that holds these very bytes (If-Match ``expected_etag``)
    as a one-part multipart upload: its ETag (``<digest>-1``) is never the MD5 a single PUT
    gives, so a deletion conditional on the ETag listed before fails. The new ETag."""
    uri = f"s3://{bucket}/{key}"
    extra: dict[str, Any] = {"CacheControl": cache_control} if cache_control else {}
    condition: dict[str, Any] = {}
    if expected_etag is not None and _knows_if_match(client, "CompleteMultipartUpload"):
        condition["IfMatch"] = expected_etag
    try:
        upload = client.create_multipart_upload(
            Bucket=bucket, Key=key, ContentType=content_type, **extra
        )["UploadId"]
        try:
            digest = hashlib.md5(data, usedforsecurity=False).digest()
            part = client.upload_part(
                Bucket=bucket, Key=key, UploadId=upload, PartNumber=1, Body=data,
                ContentMD5=base64.b64encode(digest).decode("ascii"),
            )  # fmt: skip
            parts: CompletedMultipartUploadTypeDef = {
                "Parts": [{"ETag": part["ETag"], "PartNumber": 1}]
            }
            response = client.complete_multipart_upload(
                Bucket=bucket, Key=key, UploadId=upload, MultipartUpload=parts, **condition
            )
        except BaseException:
            with suppress(ClientError, BotoCoreError):  # (else the bucket's lifecycle rule)
                client.abort_multipart_upload(Bucket=bucket, Key=key, UploadId=upload)
            raise
    except ClientError as exc:
        if condition and (_status(exc) in (409, 412) or is_not_found(exc)):
            raise ConflictError(f"{uri} was changed by another writer during this run") from exc
        raise SinkError(f"cannot write {uri}: {describe_error(exc)}") from exc
    except BotoCoreError as exc:
        raise SinkError(f"cannot write {uri}: {describe_error(exc)}") from exc
    return str(response.get("ETag", ""))


def _knows_if_match(client: S3Client, operation: str) -> bool:
    """Whether this botocore sends ``IfMatch`` with ``operation`` (DeleteObject's came in
    2025: an older bundled boto3 deletes unconditionally)."""
    shape = client.meta.service_model.operation_model(operation).input_shape
    return shape is not None and "IfMatch" in shape.members


def _status(exc: ClientError) -> object:
    return exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode")


def _code(exc: ClientError) -> object:
    return exc.response.get("Error", {}).get("Code")
