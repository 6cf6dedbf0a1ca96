"""The command table: each command once, its runs beside it; the front ends adapt it."""
# A command is named here once: its `sitemill --help` line, the module of its run, its names in the
# Action and the Lambda, its inputs (the CLI's options are made from them; a test holds each
# default equal to the run's own). Each front end keeps only its own form of inputs and outcome.

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class CommandInput:
    """One input of a command: its flag's name, its default (a bool: a switch, off unless given)
    and what it sets, in the words of `sitemill --help`; ``dest`` where the run's name differs."""

    name: str
    default: bool | int | float
    means: str
    dest: str | None = None


@dataclass(frozen=True, slots=True)
class CommandRow:
    """One command: its name, what it does (one line), where its run is defined (a module of
    sitemill), and its names in the Action and in the Lambda's events (None: not offered);
    ``out``, for a command over a site folder (SITE_DIR, ``.`` unless given), what its
    ``--out`` folder is."""

    name: str
    does: str
    runs: str
    action: str | None = None
    event: str | None = None
    inputs: tuple[CommandInput, ...] = ()
    out: str | None = None


COMMANDS: Final = {
    command.name: command
    for command in (
        CommandRow(
            "build",
            "sitemaps for a site directory",
            "jobs.tree",
            action="build",
            out="output directory (default: SITE_DIR)",
        ),
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
            out="where the sitemaps are (default: SITE_DIR)",
            inputs=(
                CommandInput("all", False, "check every URL", dest="every"),
                CommandInput("sample", 100, "URLs checked besides the added or changed ones"),
                CommandInput("warn-only", False, "exit 0 whatever is found"),
                CommandInput("concurrency", 8, "requests at once"),
                CommandInput("timeout", 30.0, "seconds for one request, all of it"),
                CommandInput("deadline", 900.0, "seconds for the whole check"),
            ),
        ),
        CommandRow("why", "one page's date and its evidence (writes nothing)", "commands.why"),
        CommandRow(
            "diff",
            "the URLs a change adds, changes and removes (writes nothing)",
            "commands.diff",
            action="diff",
            event="diff",
            out="the sitemaps' folder (default: SITE_DIR)",
        ),
        CommandRow(
            "indexnow",
            "announce the URLs the state holds pending (after a deploy)",
            "indexnow.run",
            action="indexnow",
            out="where the sitemaps are (default: SITE_DIR)",
        ),
    )
}
