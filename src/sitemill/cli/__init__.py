"""The `sitemill` command: every command of the table (sitemill.commands) as flags and lines."""

from sitemill.cli.main import main

__all__ = ["main"]
