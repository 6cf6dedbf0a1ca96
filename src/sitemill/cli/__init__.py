"""The `sitemill` command: build, urls, s3 and validate, over the same core."""

from sitemill.cli.main import main

__all__ = ["main"]
