"""The URLs a tree build removed, kept in its state for `sitemill check` after the deploy."""
# A build keeps the URLs it removed whose file is gone or is a redirect stub (jobs.removedpages, as
# a bucket keeps them; jobs.siteredirects reads the stubs and the host's rules).

from __future__ import annotations

from pathlib import Path

from sitemill.config.model import Config
from sitemill.jobs.removedpages import diff_states, remember_removed
from sitemill.jobs.siteredirects import served_by, site_redirects, stub_page
from sitemill.safefs import Root
from sitemill.state.model import State
from sitemill.urls import UrlStyle


def remember_removed_urls(
    config: Config, site_dir: Path, known: State, remember: State, style: UrlStyle
) -> None:
    """Set what a build keeps in its state for `sitemill check` (``remember.removed``): the
    URLs it removed since ``known`` that no longer serve a page (their file gone, or a
    redirect stub: a page left out but still served, noindex or a copy, is not named, the
    state may be public), each with its fate, as a bucket's rebuild keeps them."""
    site = Root(site_dir, hidden=False)
    diff = diff_states(config, known, remember, style, site_redirects(site, config.base_url))
    remember_removed(known, remember, diff, lambda url: _has_file(site, config.base_url, url))


def _has_file(site: Root, base_url: str, url: str) -> bool:
    if not url.startswith(base_url):
        return False
    return any(stub_page(site, path) is not None for path in served_by(url[len(base_url) :]))
