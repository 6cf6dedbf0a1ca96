"""`sitemill diff` of a site directory: build it in memory and compare it with a state."""
# The new build is a dry run of the ordinary one (the same pages, the same dates, a memory sink:
# nothing is written) starting from the state compared against, so that its dates are the ones
# the real build would give. Its redirects are read where a removed URL's file would be (a stub:
# a meta refresh, as Hugo aliases and the redirect plugins write them) and in the host's rules.

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from pathlib import Path

from sitemill.config.model import Config, LastmodMode
from sitemill.diff.model import SiteDiff
from sitemill.errors import DiffError
from sitemill.filenames.outputs import STATE_NAME
from sitemill.jobs.removedpages import diff_states
from sitemill.jobs.siteredirects import site_redirects, stub_page
from sitemill.redirects import detect_generator
from sitemill.report import Progress, Report
from sitemill.safefs import Root
from sitemill.sinks.port import MemorySink
from sitemill.state.model import State
from sitemill.state.parse import parse_state
from sitemill.state.previous import PreviousState
from sitemill.state.store import SinkStateStore

log = logging.getLogger(__name__)


@dataclass
class TreeDiff:
    """A diff's report, the build it made and what it compared."""

    diff: SiteDiff
    report: Report
    before: State
    after: State
    generator: str | None = None  # what the home page names (<meta name="generator">)


def diff_tree(
    config: Config, site_dir: Path, against: PreviousState, *, progress: Progress | None = None
) -> TreeDiff:
    """The change report of the site directory against the state ``against`` names."""
    from sitemill.jobs.tree import build_from_tree  # (Jinja and the workers: only here)

    if not config.content_dates or config.lastmod is LastmodMode.NONE:
        raise DiffError(
            "diff compares the states builds keep, and a build with content_dates = false or "
            'lastmod = "none" keeps none: turn content dates on (the default)'
        )
    data = against.read()
    if data is None:
        raise DiffError(f"no state to compare with at {against.location}")
    before = parse_state(data)
    kept = MemorySink({STATE_NAME: data})  # (the dry run's state store: what it would write)
    store = SinkStateStore(kept)
    dry = replace(config, llms_full=False, llms_pages=False)  # (no page read again for Markdown)
    report = build_from_tree(dry, site_dir, MemorySink(), progress=progress, state_store=store)
    written = kept.files[STATE_NAME]
    after = before if written == data else parse_state(written)
    style = report.url_style.style if report.url_style is not None else config.url_style
    site = Root(site_dir, hidden=False)
    diff = diff_states(config, before, after, style, site_redirects(site, config.base_url))
    generator = detect_generator(lambda name: stub_page(site, name))
    return TreeDiff(diff, report, before, after, generator)
