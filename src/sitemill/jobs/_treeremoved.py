"""The URLs a tree build removed, kept in its state for `sitemill check` after the deploy."""
# A build keeps the URLs it removed whose file is gone or is a redirect stub (jobs.removedpages, as
# a bucket keeps them; jobs.siteredirects reads the stubs and the host's rules).

from __future__ import annotations

import logging
from functools import partial
from pathlib import Path

from sitemill.config.model import Config
from sitemill.jobs.removedpages import diff_states, remember_removed, removed_warnings
from sitemill.jobs.siteredirects import served_by, site_redirects, stub_page
from sitemill.safefs import Root
from sitemill.state.model import State
from sitemill.urls import UrlStyle

log = logging.getLogger(__name__)


def remember_removed_urls(
    config: Config,
    site_dir: Path,
    states: tuple[State, State],
    style: UrlStyle,
    warnings: list[str] | None,
) -> None:
    """Set what a build keeps in its state for `sitemill check` (``remember.removed``): the
    URLs it removed since ``known`` that no longer serve a page (their file gone, or a
    redirect stub: a page left out but still served, noindex or a copy, is not named, the
    state may be public), each with its fate, as a bucket's rebuild keeps them; ``states``:
    the state the run started from and the one it writes. What a reader will miss of them
    (nothing redirects it, or a redirect to add) is a warning before the deploy, added to
    ``warnings`` (None: a dry run, which deploys nothing, says nothing)."""
    known, remember = states
    site = Root(site_dir, hidden=False)
    diff = diff_states(config, known, remember, style, site_redirects(site, config.base_url))
    served = partial(_has_file, site, config.base_url)
    remember_removed(known, remember, diff, served)
    if warnings is None:
        return
    for message in removed_warnings(diff.removed, config.base_url, served):
        log.warning("%s", message)
        warnings.append(message)


def _has_file(site: Root, base_url: str, url: str) -> bool:
    if not url.startswith(base_url):
        return False
    return any(stub_page(site, path) is not None for path in served_by(url[len(base_url) :]))
