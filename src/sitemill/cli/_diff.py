"""`sitemill diff` and `build --dry-run`: what a change does to the site, against the last state."""
# `build --dry-run` is the dry mode `diff` runs (commands.diff.preview_tree): the same pages, dates
# and files, into an overlay of the output folder; it says the files it would write and delete (as
# `sitemill s3 --dry-run` says them) and its change report against the state it starts from.
# `diff` gives a table for people (removed first: the ones that lead nowhere are what a reviewer
# acts on), or one JSON document with --json; exit 1 with --fail-on-removed when a removed URL is
# gone.

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from sitemill.cli._options import add_config_flags
from sitemill.cli._usage import Parser, add_command, s3_client, say
from sitemill.jobs.removedpages import short_urls
from sitemill.messages import shown

if TYPE_CHECKING:
    from sitemill.commands.diff import TreePreview
    from sitemill.config.model import Config
    from sitemill.diff.model import SiteDiff
    from sitemill.state.previous import PreviousState

SHOWN: int = 50  # lines of one list a table shows before "and N more"
# redirects.RedirectForm's values, spelt here so that the parser imports no form's code
# (tests/cli/test_diff_command.py holds them equal).
REDIRECT_FORMS = ("netlify", "s3-rules", "s3-objects", "hugo", "mkdocs", "docusaurus", "jekyll")


def add_diff_command(commands: argparse._SubParsersAction[Parser], common: Parser) -> None:
    """The ``diff`` command's parser, under ``commands`` (the subparsers of `sitemill`)."""
    diff = add_command(commands, common, "diff")
    diff.add_argument(
        "--against", metavar="STATE|URL",
        help="the state to compare with: a path or an http(s) URL (default: the build's)",
    )  # fmt: skip
    diff.add_argument("--json", action="store_true", help="one JSON document on stdout")
    diff.add_argument(
        "--fail-on-removed", action="store_true", help="exit 1 when a removed URL leads nowhere"
    )
    diff.add_argument("--write-redirects", type=Path, metavar="FILE", help="write the suggestions")
    diff.add_argument(
        "--redirects-form",
        choices=REDIRECT_FORMS,
        help="the host's form of FILE (default: guessed)",
    )
    add_config_flags(diff)


def run_diff_command(args: argparse.Namespace, env: dict[str, str]) -> int:
    """Build the site in memory, compare it with the state, print the report."""
    from sitemill.cli._diffredirects import suggestions, write_suggestions
    from sitemill.cli._options import site_and_config
    from sitemill.cli._progress import live_line
    from sitemill.commands.adapters import diff_exit
    from sitemill.commands.diff import diff_tree
    from sitemill.jobs.asked import RunAsked
    from sitemill.jobs.features import OUTPUTS

    site_dir, out_dir, config = site_and_config(args, env)
    _check_redirects_file(args.write_redirects, site_dir)
    against = _against(args, config, out_dir)
    with live_line(sys.stderr, quiet=args.quiet or args.json) as line:
        progress = line if line.active else None
        found = diff_tree(config, site_dir, against, RunAsked(OUTPUTS, progress))
    suggested = suggestions(found, config.base_url, args.redirects_form, args.write_redirects)
    written = None
    if args.write_redirects is not None:
        written = write_suggestions(args.write_redirects, suggested, site_dir)
    if args.json:
        print_json(found.diff, suggested, sys.stdout)
    elif not args.quiet:
        print_table(found.diff, config.base_url, against.location, sys.stdout)
        _say_suggested(suggested, written, sys.stdout)
    return diff_exit(found.diff, fail_on_removed=args.fail_on_removed)


def _say_suggested(suggested: dict[str, Any] | None, written: str | None, stream: TextIO) -> None:
    if written is not None:
        say(stream, written)
    elif suggested is not None:
        say(
            stream,
            f"{suggested['count']:,} suggested redirect(s) in the {suggested['form']} form: "
            "--write-redirects FILE writes them (--redirects-form picks another form)",
        )


def _check_redirects_file(path: Path | None, site_dir: Path) -> None:
    """--write-redirects names a file to write, in a folder that is there, and no link (one
    line now, not after the build)."""
    from sitemill.cli._diffredirects import check_redirects_target
    from sitemill.errors import UsageError

    if path is None:
        return
    if path.is_dir():
        raise UsageError(f"--write-redirects: {shown(str(path))} is a folder; name a file")
    if not path.parent.is_dir():
        raise UsageError(f"--write-redirects: no folder {shown(str(path.parent))}")
    check_redirects_target(path, site_dir)


def _against(args: argparse.Namespace, config: Config, out_dir: Path) -> PreviousState:
    """The state to compare with: --against, else the one the build would read."""
    from sitemill.errors import DiffError
    from sitemill.filenames.outputs import STATE_NAME
    from sitemill.state.previous import compared_state

    if args.against:
        open_builds_state(config, out_dir)  # (a bad ``state`` location: one line now)
        return compared_state(args.against)
    found = open_builds_state(config, out_dir)
    if found is None:
        raise DiffError(
            f"no state to compare with: none at {out_dir / STATE_NAME} and no previous_state; "
            "give --against with the live site's state (BASE_URL/sitemill-state.json.gz)"
        )
    return found


def open_builds_state(config: Config, out_dir: Path) -> PreviousState | None:
    """The state a build would start from: where ``state`` keeps it, beside the sitemaps in
    ``out_dir``, else ``previous_state`` (None: there is none, a first run)."""
    from sitemill.filenames.outputs import STATE_NAME
    from sitemill.state.previous import PreviousState, open_previous, previous_state
    from sitemill.state.store import open_state_store

    store = open_state_store(config, s3_client=s3_client)  # (a bad location: one line now)
    if store is not None:
        return PreviousState(store.where, store.read)
    beside = out_dir / STATE_NAME
    if beside.is_file():
        return previous_state(str(beside))
    return open_previous(config)


def run_dry_build(args: argparse.Namespace, config: Config, site_dir: str, out_dir: str) -> int:
    """`sitemill build --dry-run`: build ``site_dir`` into memory over ``out_dir``'s files
    (the dry mode `diff` runs, commands.diff.preview_tree) and print what would change."""
    from sitemill.cli._progress import live_line
    from sitemill.commands.diff import preview_tree
    from sitemill.filenames.outputs import STATE_NAME
    from sitemill.jobs.afterpublish import after_publishing
    from sitemill.jobs.asked import RunAsked
    from sitemill.jobs.features import OUTPUTS
    from sitemill.sinks import LocalDirSink
    from sitemill.state.store import open_state_store

    against = open_builds_state(config, Path(out_dir))
    with live_line(sys.stderr, quiet=args.quiet) as line:
        asked = RunAsked(OUTPUTS, line if line.active else None, dry_run=True)
        preview = preview_tree(
            config, Path(site_dir), LocalDirSink(Path(out_dir)), against, asked,
            output_dir=Path(out_dir),
        )  # fmt: skip
    after_publishing(config, preview.report, None, asked)  # (what it would send)
    if not args.quiet:
        store = open_state_store(config, s3_client=s3_client)
        kept_at = store.where if store is not None else str(Path(out_dir) / STATE_NAME)
        compared = None if against is None else against.location
        print_dry_build(preview, config, (out_dir, kept_at), compared, sys.stdout)
    return 0


def print_dry_build(
    preview: TreePreview,
    config: Config,
    where: tuple[str, str],
    state: str | None,
    stream: TextIO,
) -> None:
    """The files the build would write and delete in ``where`` (the output folder, and where
    the state is kept), as `sitemill s3 --dry-run` says them, then its change report against
    ``state`` (None: there is none) as `diff` says it."""
    from sitemill.cli._report import print_preview

    out_dir, kept_at = where
    print_preview(preview.report, out_dir, stream)
    if preview.state_changed:
        say(stream, f"would write the state: {kept_at}")
    if preview.diff is not None and state is not None:
        print_table(preview.diff.diff, config.base_url, state, stream)
    elif state is None:
        say(stream, "no state yet: a first run (every page is new)")


def print_json(diff: SiteDiff, suggested: dict[str, Any] | None, stream: TextIO) -> None:
    from sitemill.diff.model import diff_to_json

    document = diff_to_json(diff)
    if suggested is not None:
        document["suggested_redirects"] = suggested
    stream.write(json.dumps(document, indent=1, ensure_ascii=True) + "\n")


def print_table(diff: SiteDiff, base_url: str, against: str, stream: TextIO) -> None:
    """The report for people: counts, then each removed URL with its fate, the changed and
    the added ones (each list cut at SHOWN lines); URLs shown below the base URL."""
    counts = diff.counts()
    say(
        stream,
        f"{counts['added']:,} added, {counts['changed']:,} changed, {counts['removed']:,} removed "
        f"({counts['redirected']:,} redirected, {counts['renamed']:,} renamed, "
        f"{counts['gone']:,} gone) against {shown(against)}",
    )
    short = short_urls(base_url)
    removed = [
        f"  {item.verdict.value:<10}  {short(item.url)}"
        + (f" -> {short(item.target)}" if item.target else "")
        + (f"  ({shown(item.detail)})" if item.detail else "")
        for item in diff.removed
    ]
    changed = [f"  {short(item.url)}  {shown(item.evidence)}" for item in diff.changed]
    for title, lines in (("removed", removed), ("changed", changed)):
        _section(stream, title, lines)
    _section(stream, "added", [f"  {short(url)}" for url in diff.added])


def _section(stream: TextIO, title: str, lines: list[str]) -> None:
    if not lines:
        return
    say(stream, f"{title}:")
    for line in lines[:SHOWN]:
        say(stream, line)
    if len(lines) > SHOWN:
        say(stream, f"  and {len(lines) - SHOWN:,} more (--json lists every one)")
