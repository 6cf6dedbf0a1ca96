"""A tree run's start: the state its content dates read, and its index children's dates."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from sitemill.config.model import Config, LastmodMode
from sitemill.errors import ConfigError
from sitemill.filenames.outputs import ENTRY_TXT, ENTRY_XML
from sitemill.lastmod.decide import evidence_time
from sitemill.lastmod.history.lastcommit import head_time
from sitemill.lastmod.pagedate import first_run_sources
from sitemill.sinks import Sink
from sitemill.sources.tree import TreeFile
from sitemill.state.model import State
from sitemill.state.start import start_state
from sitemill.state.store import FileStateStore, SinkStateStore, StateStore
from sitemill.writing.childdates import ChildDates, child_dates

if TYPE_CHECKING:
    from sitemill.jobs.asked import RunAsked
    from sitemill.lastmod.sourcefiles.rung import SourceRung

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TreeStart:
    """The state a tree run's content dates start from, and where it is kept."""

    store: StateStore
    known: State
    first_run: bool
    lost: bool  # no state where it is kept, but sitemaps are there
    source: SourceRung | None = None  # a first run: rung 2, reading while the pages are read


def start_dating(
    config: Config,
    sink: Sink,
    asked: RunAsked,
    warnings: list[str],
    site: tuple[Path, list[TreeFile]],
) -> TreeStart | None:
    """The state content dates start from, or None when they are off (no state is kept);
    ``lost``: none, but sitemaps are there (said after the run, if they were sitemill's). On
    a first run, rung 2 starts over the ``site``'s candidate files (the folder, the files)."""
    if not config.content_dates or config.lastmod is LastmodMode.NONE:
        return None
    store = asked.state_store or default_store(config, sink)
    start = start_state(store, asked.previous, base_url=config.base_url)
    for message in start.warnings:
        log.warning("%s", message)
        warnings.append(message)
    lost = start.missing and not {ENTRY_XML, ENTRY_TXT}.isdisjoint(sink.names())
    source = None
    if start.first_run or start.state.outdated:
        source = first_run_sources(site[0], (file.path for file in site[1]))
    return TreeStart(store, start.state, start.first_run, lost, source)


def tree_child_dates(
    config: Config,
    dating: TreeStart | None,
    mode: LastmodMode,
    site: tuple[Path, Sink],
    run_time: datetime,
) -> ChildDates | None:
    """When each index child's bytes changed, from the state (none kept: its newest page's):
    a child that changed is dated by HEAD's commit (the site is at it), else by the run. A
    state of an earlier sitemill kept no digest: the output folder holds what it wrote."""
    site_dir, sink = site

    def run_date() -> datetime:
        when = head_time(site_dir) if mode is LastmodMode.GIT else None
        return (None if when is None else evidence_time(when, run_time)) or run_time

    if dating is None:
        return None
    stored = None if dating.first_run else sink
    return child_dates(config, dating.known, run_date, run_time, stored)


def default_store(config: Config, sink: Sink) -> StateStore:
    """Where the state is kept: the file ``config.state`` (an s3:// one needs a client: a
    ConfigError), else beside the sitemaps in ``sink``."""
    if config.state is None:
        return SinkStateStore(sink)
    if config.state.startswith("s3://"):
        raise ConfigError("state", "an s3:// state needs an S3 client: use the CLI or the Lambda")
    return FileStateStore(Path(config.state))
