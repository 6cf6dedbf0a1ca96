"""Ask CloudFront to forget changed sitemap files, so that crawlers get the new ones at once."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Sequence
from typing import Any, Final

from sitemill.aws.clients import CloudFrontClient
from sitemill.filenames.outputs import ROBOTS_TXT

log = logging.getLogger(__name__)

# Past this many changed files one wildcard path is cheaper: CloudFront bills per path, and
# a wildcard counts as one. https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/Invalidation.html
MAX_EXPLICIT_PATHS: Final = 15


def invalidation_paths(root: str, changed: Sequence[str]) -> list[str]:
    """URL paths of the changed files under ``root`` (the site's path, '/' or '/blog/')."""
    if len(changed) <= MAX_EXPLICIT_PATHS:
        return [root + name for name in changed]
    return [root + "sitemap*"] + ([root + ROBOTS_TXT] if ROBOTS_TXT in changed else [])


def invalidate(
    make_client: Callable[[], CloudFrontClient],
    distribution_id: str,
    root: str,
    changed: Sequence[str],
    request_id: str | None,
) -> dict[str, Any]:
    """Create the invalidation; what happened, for the summary.

    A failure is logged, not raised: the files are published, and their short Cache-Control
    lets caches catch up on their own, whereas a retried rebuild would find nothing to change.
    """
    paths = invalidation_paths(root, changed)
    try:
        response = make_client().create_invalidation(
            DistributionId=distribution_id,
            InvalidationBatch={
                "Paths": {"Quantity": len(paths), "Items": paths},
                "CallerReference": caller_reference(request_id, paths),
            },
        )
    except Exception as exc:  # botocore's errors, or boto3 missing: report and go on
        log.error("CloudFront invalidation failed: %s", " ".join(str(exc).split())[:300])
        return {"error": type(exc).__name__, "paths": paths}
    return {"id": str(response.get("Invalidation", {}).get("Id", "")), "paths": paths}


def caller_reference(request_id: str | None, paths: Sequence[str]) -> str:
    """Equal for a retry of one request with the same paths (CloudFront then creates nothing
    new); different otherwise."""
    digest = hashlib.sha256("\n".join(paths).encode()).hexdigest()[:16]
    if not request_id:  # run by hand: Lambda always has one, so uuid loads only then
        import uuid

        request_id = str(uuid.uuid4())
    return f"sitemill-{request_id}-{digest}"
