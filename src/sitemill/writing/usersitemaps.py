"""The user's sitemaps sitemill names: which, where (its index or robots.txt), whether each is."""
# Three sources, one decision (docs/output.md, "The user's own sitemaps"): ``sitemaps = [...]``,
# those a replaced generator's index named beside its own children (writing.takeover's ``users``),
# and those the state remembers. sitemill's index names a sitemap only at or below its own folder
# on the base URL's origin; any other only robots.txt may name. A named sitemap the site holds
# must be one (its head read, bounded), else one warning; one not in the site is named when the
# user named it, and no longer when it was found in a replaced index.

from __future__ import annotations

import logging
from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from sitemill.config.model import Config
from sitemill.filenames.outputs import is_own_name
from sitemill.messages import printable
from sitemill.urls import encode_uri_part, site_file_path
from sitemill.writing._namedsitemaps import KeptSitemap
from sitemill.writing.sitemapfile import HEAD_BYTES, is_sitemap
from sitemill.writing.takeover import Files, Takeover, users_in_folder

log = logging.getLogger(__name__)

Read = Callable[[str, int], bytes | None]  # (folder-relative name, limit) -> its head, or None


@dataclass
class UserSitemaps:
    """What a run names of the user's sitemaps."""

    index: list[str] = field(default_factory=list)  # absolute locs, in sitemill's index (sorted)
    robots: list[str] = field(default_factory=list)  # absolute URLs only robots.txt may name
    found: list[str] = field(default_factory=list)  # folder-relative names to remember (state)
    warnings: list[str] = field(default_factory=list)
    # robots.txt's Sitemap lines sitemill wrote for the user's sitemaps: the state's, then this
    # run's (None: it did not rewrite robots.txt), so that a later run removes only its own.
    robots_before: frozenset[str] = frozenset()
    robots_written: list[str] | None = None

    def robots_kept(self) -> frozenset[str]:
        """The lines the state remembers after the run."""
        written = self.robots_written
        return self.robots_before if written is None else frozenset(written)


def user_sitemaps(
    config: Config,
    files: Files | None,
    found: Takeover | None,
    remembered: Collection[str],
    read: Read | None = None,
) -> UserSitemaps:
    """The user's sitemaps a run names: ``config.sitemaps``, those the replaced index
    ``found`` names in the folder (``files``: where it is) and those ``remembered``; each
    read through ``read`` (default: ``files``). With no ``files`` (a URL list: no site to
    read), each configured one the location rule lets the index name is named as given."""
    users = [] if files is None else users_in_folder(files, found, config.base_url)
    read = read or (None if files is None else files.read)
    named = name_user_sitemaps(config.base_url, config.sitemaps, users, remembered, read)
    for message in robots_advice(named.robots, robots_txt=config.robots_txt):
        log.warning("%s", message)
        named.warnings.append(message)
    return named


def name_user_sitemaps(
    base_url: str,
    configured: Collection[str],
    takeover: Collection[KeptSitemap],
    remembered: Collection[str],
    read: Read | None,
) -> UserSitemaps:
    """The user's sitemaps this run names: ``configured`` (absolute URLs), those a replaced
    index named (``takeover``, already found to be sitemaps) and those an earlier run found
    (``remembered``, folder-relative names); ``read`` reads a name's head in the site (None:
    no site to read, the configured are named as given)."""
    named = UserSitemaps()
    index: set[str] = set()
    for url in configured:
        path = site_file_path(url, base_url)  # (None: the location rule keeps it out)
        if path is None:
            named.robots.append(url)
        elif read is None or _is_named(url, path, read, named.warnings, given=True):
            index.add(url)
    found = {kept.name for kept in takeover if kept.name is not None}
    for name in sorted(set(remembered) - found):
        if read is not None and _is_named(base_url + name, name, read, None, given=False):
            found.add(name)
    for name in sorted(found):
        if not is_own_name(name):  # (a name sitemill writes is never the user's)
            index.add(base_url + encode_uri_part(name))  # (a name as the index spelt it)
            named.found.append(name)
    named.index = sorted(index)
    return named


def _is_named(url: str, path: str, read: Read, warnings: list[str] | None, *, given: bool) -> bool:
    """Whether the sitemap at ``path`` is named: a sitemap the site holds is; a file that is no
    sitemap is not (a warning); one the site does not hold is when the user ``given`` it."""
    head = read(path, HEAD_BYTES)
    if head is not None and is_sitemap(path, head):
        return True
    shown = printable(url)
    if head is None and given:
        message = (
            f"sitemaps: {shown} is not in the site; named all the same (another app on the "
            "host may serve it): `sitemill check` says whether it is live"
        )
    elif head is None:
        log.info("no longer naming %s: it is gone", shown)
        return False
    else:
        message = (
            f"sitemaps: {shown} is not a sitemap (no <urlset> or <sitemapindex> of the "
            "sitemaps.org namespace at its start): not named"
        )
    log.warning("%s", message)
    if warnings is not None:
        warnings.append(message)
    return head is None and given


def robots_advice(urls: Collection[str], *, robots_txt: bool) -> list[str]:
    """The line that says which robots.txt line to add for each sitemap only robots.txt may
    name, when sitemill does not keep robots.txt (else it writes them)."""
    if robots_txt:
        return []
    return [
        f"sitemaps: {printable(url)} is on another host or above the folder of sitemill's "
        f"index, which may not name it: add `Sitemap: {printable(url)}` to the host's "
        "robots.txt (or set robots_txt = true)"
        for url in urls
    ]
