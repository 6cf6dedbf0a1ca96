"""`sitemill build --dry-run`: the whole build, nothing written; what it would write and change."""
# The dry mode `diff` runs (commands.diff.preview_tree): the same pages, dates and files, into an
# overlay of the output folder; then the files it would write and delete (as `sitemill s3
# --dry-run` says them) and its change report against the state it starts from (as `diff` says it).

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from sitemill.cli._diff import open_builds_state, print_table
from sitemill.cli._progress import live_line
from sitemill.cli._s3 import print_preview
from sitemill.cli._usage import s3_client, say
from sitemill.commands.diff import TreePreview, preview_tree
from sitemill.config.model import Config
from sitemill.filenames.outputs import STATE_NAME
from sitemill.jobs.afterpublish import after_publishing
from sitemill.jobs.features import OUTPUTS
from sitemill.sinks import LocalDirSink
from sitemill.state.store import open_state_store


def run_dry_build(args: argparse.Namespace, config: Config, site_dir: str, out_dir: str) -> int:
    """Build ``site_dir`` into memory over ``out_dir``'s files and print what would change."""
    against = open_builds_state(config, Path(out_dir))
    with live_line(sys.stderr, quiet=args.quiet) as line:
        preview = preview_tree(
            config, Path(site_dir), LocalDirSink(Path(out_dir)), against,
            progress=line if line.active else None, outputs=OUTPUTS, output_dir=Path(out_dir),
        )  # fmt: skip
    after_publishing(
        config, preview.report, None, outputs=OUTPUTS, dry_run=True
    )  # (what it would send)
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
    the state is kept), then its change report against ``state`` (None: there is none)."""
    out_dir, kept_at = where
    print_preview(preview.report, out_dir, stream)
    if preview.state_changed:
        say(stream, f"would write the state: {kept_at}")
    if preview.diff is not None and state is not None:
        print_table(preview.diff.diff, config.base_url, state, stream)
    elif state is None:
        say(stream, "no state yet: a first run (every page is new)")
