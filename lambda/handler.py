"""AWS Lambda entry point: everything lives in sitemill.aws.handler (``lambda`` is a keyword)."""

from typing import Any

from sitemill.aws.handler import handle


def handler(event: Any, context: Any) -> dict[str, Any]:
    """Rebuild the sitemaps for an S3/SQS/EventBridge event or a manual rebuild request."""
    return handle(event, context)
