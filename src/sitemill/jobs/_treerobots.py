"""The site's robots.txt in a tree: read inside the site only, bounded, and what it means."""

from __future__ import annotations

import logging
from pathlib import Path

from sitemill.config.model import Config
from sitemill.errors import RefusedError, SourceError
from sitemill.filenames.outputs import ROBOTS_TXT
from sitemill.robots.lines import robots_scope_warnings
from sitemill.robots.rules import MAX_ROBOTS_TXT_BYTES, RobotsRules
from sitemill.safefs import Root

log = logging.getLogger(__name__)


def tree_robots(
    config: Config, site_dir: Path, warnings: list[str]
) -> tuple[bytes | None, RobotsRules | None]:
    """The site's robots.txt (the starting point of one sitemill maintains) and its rules
    (when respected); warnings when crawlers would never read it (a project site)."""
    data = _read_site_robots(site_dir, warnings)
    robots = None
    if data is not None and config.respect_robots_txt:
        robots = RobotsRules.parse(data.decode("utf-8", "replace"))
    scope = robots_scope_warnings(
        config.base_url,
        maintain=config.robots_txt,
        respect=config.respect_robots_txt,
        found=data is not None,
    )
    for message in scope:
        log.warning("%s", message)
        warnings.append(message)
    return data, robots


def read_robots(site_dir: Path, warnings: list[str] | None = None) -> RobotsRules | None:
    """The rules of the site's robots.txt, or None when it has none (see _read_site_robots)."""
    data = _read_site_robots(site_dir, warnings)
    return None if data is None else RobotsRules.parse(data.decode("utf-8", "replace"))


def _read_site_robots(site_dir: Path, warnings: list[str] | None = None) -> bytes | None:
    """The bytes of the site's robots.txt, or None when it has none.

    Only a regular file inside the site is read, and only its first 500 KiB (Google's limit:
    ``/dev/zero`` would never end, a FIFO would block). One that is a link leading outside the
    site, a FIFO or a device is taken as no robots.txt, with a warning (added to ``warnings``).
    """
    try:
        return Root(site_dir).read(ROBOTS_TXT, MAX_ROBOTS_TXT_BYTES)
    except RefusedError as exc:
        message = f"ignoring the site's robots.txt: {exc}"
        log.warning("%s", message)
        if warnings is not None:
            warnings.append(message)
        return None
    except OSError as exc:
        raise SourceError(f"cannot read {site_dir / ROBOTS_TXT}: {exc.strerror or exc}") from exc
