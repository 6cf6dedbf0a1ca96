"""`sitemill diff` of a site directory: build it in memory and compare it with a state."""
# The new build is a dry run of the ordinary one (the same pages, the same dates, a memory sink:
# nothing is written) starting from the state compared against, so that its dates are the ones
# the real build would give. Its redirects are read where a removed URL's file would be (a stub:
# a meta refresh, as Hugo aliases and the redirect plugins write them) and in the host's rules.

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from sitemill.config.model import Config
from sitemill.diff.compare import RedirectOf
from sitemill.diff.model import SiteDiff
from sitemill.errors import SitemillError
from sitemill.html.facts import PAGE_FACTS_BYTES, read_page_facts
from sitemill.html.links import resolve_url
from sitemill.jobs.removedpages import diff_states
from sitemill.report import Progress, Report
from sitemill.safefs import Root
from sitemill.sinks.memory import MemorySink
from sitemill.state.model import State
from sitemill.state.parse import parse_state
from sitemill.state.previous import PreviousState

log = logging.getLogger(__name__)


class DiffError(SitemillError):
    """A diff that has nothing to compare with (no state where it was asked)."""


@dataclass
class _Store:
    """The state compared against, as the dry run's store: read gives it, write keeps."""

    before: bytes
    where: str = "the state compared against"
    written: bytes | None = None

    def read(self) -> bytes | None:
        return self.before

    def write(self, data: bytes) -> bool:
        self.written = data
        return True


@dataclass
class TreeDiff:
    """A diff's report, the build it made and what it compared."""

    diff: SiteDiff
    report: Report
    before: State
    after: State
    warnings: list[str] = field(default_factory=list)


def diff_tree(
    config: Config, site_dir: Path, against: PreviousState, *, progress: Progress | None = None
) -> TreeDiff:
    """The change report of the site directory against the state ``against`` names."""
    from sitemill.jobs.tree import build_from_tree  # (Jinja and the workers: only here)

    data = against.read()
    if data is None:
        raise DiffError(f"no state to compare with at {against.location}")
    before = parse_state(data)
    store = _Store(data)
    report = build_from_tree(config, site_dir, MemorySink(), progress=progress, state_store=store)
    after = before if store.written is None else parse_state(store.written)
    style = report.url_style.style if report.url_style is not None else config.url_style
    redirect_of = stub_redirects(Root(site_dir, hidden=False), config.base_url)
    diff = diff_states(config, before, after, style, redirect_of)
    return TreeDiff(diff, report, before, after)


def stub_redirects(site: Root, base_url: str) -> RedirectOf:
    """Where the new build's redirect stubs send a URL under ``base_url``: the meta refresh
    of the file that serves it (``x/index.html`` for ``x/``; ``x.html``, ``x`` or
    ``x/index.html`` for ``x``), read bounded inside the site."""

    def redirect_of(url: str) -> tuple[str, str] | None:
        if not url.startswith(base_url):
            return None
        for path in _served_by(url[len(base_url) :]):
            data = _head(site, path)
            if data is None:
                continue
            facts = read_page_facts(data)
            target = None if facts.refresh is None else resolve_url(facts.refresh, url, facts.base)
            return None if target is None else (target, f"a redirect stub ({path})")
        return None

    return redirect_of


def _served_by(rest: str) -> tuple[str, ...]:
    from urllib.parse import unquote

    path = unquote(rest)
    if path == "" or path.endswith("/"):
        return (path + "index.html", path + "index.htm")
    if path.endswith((".html", ".htm")):
        return (path,)
    return (path + ".html", path, path + "/index.html")


def _head(site: Root, path: str) -> bytes | None:
    try:
        return site.read(path, PAGE_FACTS_BYTES)
    except (OSError, SitemillError):  # (none there, a directory, or a way out of the site)
        return None
