"""The tree job: a site directory (a static build, a repository checkout) to sitemaps."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from sitemill.config import Config, LastmodMode
from sitemill.entries import Page
from sitemill.errors import ConfigError, GitError, RefusedError, SinkError, SourceError
from sitemill.outputs import ROBOTS_TXT, is_own_name
from sitemill.pages import ORDINARY_PAGE, PAGE_FACTS_BYTES, PageFacts, read_page_facts
from sitemill.pipeline import build_from_pages, reads_head
from sitemill.protocol import lastmod_from_timestamp
from sitemill.report import Progress, Report
from sitemill.robots import MAX_ROBOTS_TXT_BYTES, RobotsRules
from sitemill.robots_lines import robots_scope_warnings
from sitemill.rules import is_candidate
from sitemill.safefs import Root
from sitemill.sinks import Sink
from sitemill.sources.git import find_work_tree, read_git_history
from sitemill.sources.tree import TreeFile, WalkSkips, walk_tree

log = logging.getLogger(__name__)


def build_from_tree(
    config: Config,
    site_dir: Path,
    sink: Sink,
    *,
    progress: Progress | None = None,
    output_dir: Path | None = None,
) -> Report:
    """Generate the sitemaps of a site directory (a static build, a repository checkout).

    ``output_dir``, where the sink writes when that is a folder inside the site, keeps
    sitemill's own files there out of the pages, as at the root. Pages and robots.txt are
    read only where they resolve inside the site (see ``sitemill.safefs``); what the walk
    leaves out (links leading outside, FIFOs, directories reached twice) is one warning per
    reason.
    """
    own = _outputs_prefix(site_dir, output_dir)
    skipped = WalkSkips()
    files = [
        file
        for file in walk_tree(site_dir, skipped)
        if is_candidate(config, file.path) and not _is_output(file.path, own)
    ]
    warnings: list[str] = []
    for message in skipped.messages():
        log.warning("%s", message)
        warnings.append(message)
    robots_data, robots = _site_robots(config, site_dir, warnings)
    # git log is another process: its history is read while this one reads the heads.
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="sitemill-git") as pool:
        dating = pool.submit(_resolve_lastmod, config, site_dir, files, warnings)
        facts = _read_heads(config, robots, Root(site_dir), files)
        mode, dates = dating.result()
    precision = config.lastmod_precision

    def pages() -> Iterator[Page]:
        for file in files:
            lastmod = None
            if mode is not LastmodMode.NONE:
                when = None if dates is None else dates.get(file.path)
                lastmod = lastmod_from_timestamp(file.mtime if when is None else when, precision)
            yield Page(file.path, lastmod)

    return build_from_pages(
        config,
        pages(),
        sink,
        robots=robots,
        read_facts=lambda path: facts.get(path, ORDINARY_PAGE),
        lastmod=mode,
        warnings=warnings,
        progress=progress,
        robots_source=robots_data,  # the same file when the output folder is the site
    )


def _site_robots(
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


def _read_heads(
    config: Config, robots: RobotsRules | None, site: Root, files: list[TreeFile]
) -> dict[str, PageFacts | None]:
    """The facts of every page the pipeline will look at, but those of an ordinary page
    (most of them: memory stays small), and None for a page that could not be read."""
    found: dict[str, PageFacts | None] = {}
    for file in files:
        if reads_head(config, robots, file.path):
            facts = _read_facts(site, file.path)
            if facts != ORDINARY_PAGE:
                found[file.path] = facts
    return found


def _read_facts(site: Root, path: str) -> PageFacts | None:
    """The facts of a page's first PAGE_FACTS_BYTES, read inside the site only."""
    try:
        head = site.read(path, PAGE_FACTS_BYTES)
    except RefusedError as exc:
        # The walk only yields regular files inside the site: this one changed since.
        log.warning("not reading %s", exc)
        return None
    except OSError as exc:
        raise SourceError(f"cannot read {site.path / path}: {exc.strerror or exc}") from exc
    if head is None:
        raise SourceError(f"cannot read {site.path / path}: it was removed during the build")
    return read_page_facts(head)


def _outputs_prefix(site_dir: Path, output_dir: Path | None) -> str | None:
    """The output folder as a site path prefix ("out/"), or None when it is not inside.

    A folder named inside the site that a symbolic link takes outside it is a SinkError:
    sitemill would write (and the Action commit) wherever a committed link points.
    """
    if output_dir is None:
        return None
    site_real = os.path.realpath(site_dir)
    out_real = os.path.realpath(output_dir)
    if os.path.commonpath([site_real, out_real]) != site_real:
        named = os.path.abspath(output_dir)
        site_named = os.path.abspath(site_dir)
        if os.path.commonpath([site_named, named]) == site_named:
            raise SinkError(
                f"output folder {output_dir} is inside the site but leads outside it "
                f"(to {out_real}): refusing to write through a symbolic link"
            )
        return None
    inside = Path(out_real).relative_to(site_real)
    return "" if inside == Path() else inside.as_posix() + "/"


def _is_output(path: str, prefix: str | None) -> bool:
    if prefix is None or not path.startswith(prefix):
        return False
    name = path[len(prefix) :]
    return "/" not in name and (is_own_name(name) or name == ROBOTS_TXT)


def _resolve_lastmod(
    config: Config, site_dir: Path, files: list[TreeFile], warnings: list[str]
) -> tuple[LastmodMode, dict[str, int] | None]:
    mode = config.lastmod
    if mode is LastmodMode.NONE:
        return mode, None
    if find_work_tree(site_dir) is None:
        if mode is LastmodMode.GIT:
            raise ConfigError("lastmod", f"git needs a git work tree, and {site_dir} is not in one")
        return LastmodMode.MTIME, None
    if mode is LastmodMode.MTIME:
        return mode, None
    history = read_git_history(site_dir, {file.path for file in files})
    if history.shallow:
        advice = (
            "this is a shallow clone, so git dates would all be the newest commit's; "
            "fetch the full history (actions/checkout: fetch-depth: 0)"
        )
        if mode is LastmodMode.GIT:
            raise GitError(f"lastmod = git: {advice}")
        warnings.append(f"{advice}. Using file modification times instead.")
        log.warning("%s; using file modification times", advice)
        return LastmodMode.MTIME, None
    dates = {path: when for path, when in history.dates.items() if path not in history.dirty}
    return LastmodMode.GIT, dates


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
        data = Root(site_dir).read(ROBOTS_TXT, MAX_ROBOTS_TXT_BYTES)
    except RefusedError as exc:
        message = f"ignoring the site's robots.txt: {exc}"
        log.warning("%s", message)
        if warnings is not None:
            warnings.append(message)
        return None
    except OSError as exc:
        raise SourceError(f"cannot read {site_dir / ROBOTS_TXT}: {exc.strerror or exc}") from exc
    return data
