"""AWS Lambda entry points: everything lives in sitemill.aws (``lambda`` is a keyword).

``handler`` is the router (S3 -> SQS -> Lambda, manual rebuilds, checks of the live site,
diffs);
``plan``, ``shuffle``, ``shard`` and ``reduce`` are the steps of the distributed rebuild's
state machine (infra/rebuild.asl.json). Each imports its own path when it first runs, so that
a cold start loads only what its event needs (``make bench --only lambda-start`` counts them).
"""

from typing import Any

from sitemill.aws.events import is_check_event, is_diff_event


def handler(event: Any, context: Any) -> dict[str, Any]:
    """Rebuild the sitemaps for an S3/SQS/EventBridge event or a manual rebuild request;
    check the live site for ``{"action": "check"}``; tell what the next rebuild would add,
    change and remove for ``{"action": "diff"}``."""
    if is_check_event(event):
        from sitemill.aws.check import handle_check

        return handle_check(event, context)
    if is_diff_event(event):
        from sitemill.aws.diff import handle_diff

        return handle_diff(event, context)
    from sitemill.aws.handler import handle

    return handle(event, context)


def plan(event: Any, context: Any) -> dict[str, Any]:
    """The state machine's first step: what to render, written down for its Maps."""
    from sitemill.aws import steps

    return steps.plan(event, context)


def shuffle(event: Any, context: Any) -> dict[str, Any]:
    """One S3 Inventory data file's rows, routed to their groups."""
    from sitemill.aws import steps

    return steps.shuffle(event, context)


def shard(event: Any, context: Any) -> dict[str, Any]:
    """One render item: its shards rendered and staged."""
    from sitemill.aws import steps

    return steps.shard(event, context)


def reduce(event: Any, context: Any) -> dict[str, Any]:
    """The verdict: every shard reported, then published; or nothing published."""
    from sitemill.aws import steps

    return steps.reduce(event, context)
