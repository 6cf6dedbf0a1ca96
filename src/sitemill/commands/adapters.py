"""What the front ends do alike around a command's run: the record it reads, the run, its exit."""
# What the front ends do alike around a run, written once: where a folder's record is kept (the
# state where ``state`` keeps it, else beside the sitemaps), the run, and its exit. Each run's
# module is imported when it is called: the CLI's parser and `sitemill validate` load none.

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from sitemill.config.model import Config
from sitemill.errors import ConfigError

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

    from sitemill.check.run import CheckOptions
    from sitemill.commands.check import Checked
    from sitemill.diff.model import SiteDiff
    from sitemill.indexnow.outcome import IndexNowOutcome
    from sitemill.indexnow.pending import StatePending
    from sitemill.web.livesite import Limits

MakeS3Client = Callable[[], "S3Client"]


def check_folder(
    config: Config,
    site_dir: Path,
    out_dir: Path,
    options: CheckOptions,
    limits: Limits,
    *,
    announce: bool = True,
    s3_client: MakeS3Client | None = None,
) -> Checked:
    """`check` of a folder's last build (the CLI, the Action): its state where ``state``
    keeps it (``s3_client`` for an s3:// one), else beside the sitemaps in ``out_dir``; with
    ``announce``, the pending URLs that passed are sent."""
    from sitemill.commands.check import check_tree
    from sitemill.state.store import open_state_store

    store = open_state_store(config, s3_client=s3_client)
    return check_tree(config, site_dir, out_dir, store, options, limits, announce=announce)


def folder_pending(
    config: Config, site_dir: Path, out_dir: Path, *, s3_client: MakeS3Client | None = None
) -> StatePending:
    """The URLs a folder's builds keep pending, where a build with ``config`` keeps them: in
    the state ``state`` names, else in the one beside the sitemaps (public)."""
    from sitemill.indexnow.pending import tree_pending
    from sitemill.state.store import open_state_store

    return tree_pending(open_state_store(config, s3_client=s3_client), site_dir, out_dir)


def require_indexnow_key(config: Config, hint: str) -> None:
    """A ConfigError naming ``indexnow_key`` when the configuration has none: `indexnow`
    sends nothing without one; ``hint`` follows "is required to send" (where a key is set,
    in the front end's words)."""
    if not config.indexnow_key:
        raise ConfigError("indexnow_key", "is required to send" + hint)


def announced_exit(outcome: IndexNowOutcome) -> int:
    """1 when an engine refused URLs (400, 422: sending them again cannot help), else 0."""
    return 1 if sum(outcome.refused.values()) else 0


def diff_exit(diff: SiteDiff, *, fail_on_removed: bool) -> int:
    """1 when asked to fail on a removed URL that leads nowhere and one does, else 0."""
    return 1 if fail_on_removed and diff.gone else 0
