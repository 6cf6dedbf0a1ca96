"""S3 requests counted by kind (LIST, GET, HEAD, PUT, DELETE) for a run's report."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client


# S3 operations by the kind a report tells (sitemill.report.REQUEST_KINDS); others by name.
_KINDS: Final = {
    "ListObjectsV2": "LIST",
    "GetObject": "GET",
    "HeadObject": "HEAD",
    "PutObject": "PUT",
    "CopyObject": "PUT",
    "DeleteObject": "DELETE",
    "DeleteObjects": "DELETE",
}


@contextmanager
def counted_requests(client: S3Client, counts: Counter[str]) -> Iterator[None]:
    """Count, by kind, every S3 request ``client`` makes meanwhile (a botocore hook: once per
    call, whatever its retries)."""

    def count(model: Any, **_: Any) -> None:
        counts[_KINDS.get(model.name, model.name)] += 1

    client.meta.events.register("before-call.s3", count)
    try:
        yield
    finally:
        client.meta.events.unregister("before-call.s3", count)
