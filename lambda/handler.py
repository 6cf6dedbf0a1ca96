"""AWS Lambda entry point: everything lives in sitemill.lambda_app (``lambda`` is a keyword)."""

from typing import Any

from sitemill.lambda_app import handle


def handler(event: Any, context: Any) -> dict[str, Any]:
    """Rebuild the sitemaps for an S3/SQS/EventBridge event or a manual rebuild request."""
    return handle(event, context)
