"""The URLs a tree build removed, and the redirect stubs of a site directory that lead on."""
# A build keeps, for `sitemill check` after the deploy, the URLs it removed whose file is gone or is
# a redirect stub (diff.compare says where each went); `sitemill diff` reads the same stubs.

from __future__ import annotations

from pathlib import Path

from sitemill.config.model import Config
from sitemill.diff.compare import compare
from sitemill.diff.model import Verdict
from sitemill.jobs.removedpages import by_url, old_style
from sitemill.jobs.siteredirects import served_by, site_redirects, stub_page
from sitemill.lastmod.fingerprint.versions import FINGERPRINT_VERSION
from sitemill.safefs import Root
from sitemill.state.model import State
from sitemill.state.removedurls import MAX_REMOVED, RemovedUrl
from sitemill.urls import UrlStyle


def removed_since(
    config: Config, site_dir: Path, known: State, remember: State, style: UrlStyle
) -> dict[str, RemovedUrl]:
    """What a build keeps in its state for `sitemill check`: the URLs it removed since
    ``known`` whose file is gone or is a redirect stub (a page left out but still served,
    noindex or a copy, is not named: the state may be public), each with its fate; when it
    removed none, those ``known`` kept that are not listed again."""
    old = by_url(known, known.base_url or config.base_url, old_style(config, known, style))
    new = by_url(remember, config.base_url, style)
    if old.keys() <= new.keys():
        return {url: item for url, item in known.removed.items() if url not in new}
    site = Root(site_dir, hidden=False)
    redirect_of = site_redirects(site, config.base_url)
    same = known.fingerprint_version == FINGERPRINT_VERSION
    diff = compare(old, new, redirect_of, same_fingerprints=same)
    found = {}
    for item in diff.removed[:MAX_REMOVED]:
        if item.verdict is Verdict.REDIRECTED or not _has_file(site, config.base_url, item.url):
            found[item.url] = RemovedUrl(item.verdict.value, item.target)
    return found


def _has_file(site: Root, base_url: str, url: str) -> bool:
    if not url.startswith(base_url):
        return False
    return any(stub_page(site, path) is not None for path in served_by(url[len(base_url) :]))
