"""The command table: each command once, its runs beside it; the front ends adapt it."""
# A command is named here once, with the line `sitemill --help` says of it, the module its run is
# defined in, and how the Action (its `command` input) and the Lambda (an event's "action") name
# it where they offer it. The CLI (sitemill.cli), the Action (sitemill.github) and the Lambda
# (sitemill.aws) read their inputs, call the run and give its summary in their own form: text
# lines, annotations and a job summary, a JSON answer.

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class CommandRow:
    """One command: its name, what it does (one line), where its run is defined (a module of
    sitemill), and its names in the Action and in the Lambda's events (None: not offered)."""

    name: str
    does: str
    runs: str
    action: str | None = None
    event: str | None = None


COMMANDS: Final = {
    command.name: command
    for command in (
        CommandRow("build", "sitemaps for a site directory", "jobs.tree", action="build"),
        CommandRow("urls", "sitemaps from a URL list (one per line, TAB lastmod)", "jobs.urllist"),
        CommandRow(
            "s3",
            "sitemaps for an S3 bucket, written to the bucket",
            "scaleout.bucketrun",
            event="rebuild",
        ),
        CommandRow("validate", "check sitemaps against XSDs and the protocol", "validate"),
        CommandRow(
            "check",
            "after a deploy: is what is live what was published?",
            "commands.check",
            action="check",
            event="check",
        ),
        CommandRow("why", "one page's date and its evidence (writes nothing)", "commands.why"),
        CommandRow(
            "diff",
            "the URLs a change adds, changes and removes (writes nothing)",
            "commands.diff",
            action="diff",
            event="diff",
        ),
        CommandRow(
            "indexnow",
            "announce the URLs the state holds pending (after a deploy)",
            "indexnow.run",
            action="indexnow",
        ),
    )
}
