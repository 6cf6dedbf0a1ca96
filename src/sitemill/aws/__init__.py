"""The Lambda's adapter: events in, at most one bucket rebuild, a JSON summary out."""
# ``handle(event, context, *, env=None, s3=None)`` is the testable entry; ``lambda/handler.py``
# calls it with the real environment and clients.

from sitemill.aws.handler import handle

__all__ = ["handle"]
