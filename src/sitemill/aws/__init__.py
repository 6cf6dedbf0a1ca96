"""The Lambda's adapter: events in, at most one bucket rebuild, a JSON summary out."""
# ``sitemill.aws.handler.handle(event, context, *, env=None, s3=None)`` is the testable entry;
# ``lambda/handler.py`` calls it with the real environment and clients. Nothing is imported
# here: each of the function's entries imports its own path only (a cold start pays for it).
