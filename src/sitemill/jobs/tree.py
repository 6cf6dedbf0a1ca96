"""The tree job: a site directory (a static build, a repository checkout) to sitemaps."""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Callable, Collection
from contextlib import ExitStack
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from sitemill.config.model import Config, ContentScope, OutputFormat
from sitemill.config.tables import group_names
from sitemill.errors import RefusedError, SinkError
from sitemill.filenames.outputs import HTML_SITEMAP, ROBOTS_TXT, is_own_name
from sitemill.html.facts import ORDINARY_PAGE, PAGE_FACTS_BYTES
from sitemill.jobs._treehistory import TreeReading, read_pages_and_history
from sitemill.jobs._treerobots import tree_robots
from sitemill.jobs._treesiteurl import generator_project, say_site_url, tree_site_urls
from sitemill.jobs._treestart import TreeStart, start_dating, tree_child_dates
from sitemill.jobs.asked import SITEMAPS_ALONE, RunAsked
from sitemill.jobs.removedpages import record_removed, removed_warnings
from sitemill.jobs.siteredirects import TreeRemoved
from sitemill.jobs.treedating import PageWatch, TreeDating
from sitemill.lastmod.fingerprint.digest import file_url
from sitemill.lastmod.fingerprint.versions import MAX_FINGERPRINT_BYTES
from sitemill.outputs import KeptState, PageReading
from sitemill.pipeline import SiteInputs, build_from_pages
from sitemill.progress import LISTING, Ticker
from sitemill.report import Declared, Report
from sitemill.rules import is_candidate, is_leftover_html_sitemap, may_be_leftover, reads_candidate
from sitemill.safefs import Root
from sitemill.shards.layout import ShardSetup
from sitemill.shards.plan import Order
from sitemill.sinks import Sink
from sitemill.sources.tree import TreeFile, WalkSkips, walk_tree
from sitemill.sources.treefiles import TreeFiles
from sitemill.state.model import State
from sitemill.state.pending import remember_changes
from sitemill.state.start import missing_state_warning, save_state
from sitemill.state.store import state_is_public
from sitemill.urlstyle import keep_style
from sitemill.workers.workpool import EarlyStart
from sitemill.writing.childdates import ChildDates
from sitemill.writing.takeover import Takeover, find_takeover, take_over
from sitemill.writing.takeoverfiles import FolderFiles, files_of
from sitemill.writing.usersitemaps import UserSitemaps, user_sitemaps

if TYPE_CHECKING:
    from sitemill.lastmod.declared.w3cdate import DeclaredDate

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TreeAsked:
    """What a front end asks of a tree run alone (RunAsked says the rest): a ``watch`` that
    sees one page dated (sitemill why), and a ``site_url_check`` told everything the site says
    of its URL (its pages, the folder, its repository, the state, the sitemap it replaces:
    jobs.treesiteurl) once every page is read, before anything is written: what it raises (the
    Action's refusal of a base URL the site contradicts) leaves every file as it was."""

    watch: PageWatch | None = None
    site_url_check: Callable[[list[Declared]], None] | None = None


_NOTHING_MORE = TreeAsked()


def build_tree(
    config: Config,
    site_dir: Path,
    sink: Sink,
    asked: RunAsked = SITEMAPS_ALONE,
    *,
    output_dir: Path | None = None,
    tree: TreeAsked = _NOTHING_MORE,
) -> Report:
    """Generate the sitemaps of a site directory (a static build, a repository checkout),
    and the output features ``asked`` lists beside them (RunAsked; ``tree``: what a tree run
    alone is asked, TreeAsked). ``output_dir``, a folder inside the site where the sink
    writes, keeps sitemill's own files there out of the pages. Pages and robots.txt are read
    only where they resolve inside the site (``safefs``: links leading outside, FIFOs,
    directories reached twice are one warning per reason). With content dates, the state
    store ``asked`` names keeps what this run saw (default: beside the sitemaps, or
    ``config.state``); a first run may start from its ``previous``."""
    skipped, own = WalkSkips(), outputs_prefix(site_dir, output_dir)
    progress = asked.progress
    files = _list_pages(config, site_dir, own, skipped, Ticker(progress, LISTING))
    for message in (warnings := skipped.messages()):
        log.warning("%s", message)
    robots_data, robots = tree_robots(config, site_dir, warnings)
    dating = start_dating(config, sink, asked, warnings, (site_dir, files))
    found, replaced = _find_takeover(config, sink, dating)  # (before this run replaces it)
    users = _user_sitemaps(config, sink, found, dating, (site_dir, warnings))
    remember = _remembering(config, users)
    known = dating.known if dating is not None else None
    says = _site_says(config, site_dir, known, found)  # (before anything is written)
    with ExitStack() as stack:  # (the workers, while the pipeline takes what they read)
        reading = TreeReading(config, site_dir, files, robots, _declares(dating))
        mode, git_dates, newest, reads = read_pages_and_history(
            reading, warnings, known, remember, stack, progress
        )
        plan = TreeDating(mode, config.lastmod_precision, git_dates, newest, remember=remember)
        plan.watch = tree.watch
        dates = tree_child_dates(config, dating, mode, (site_dir, sink), plan.run_time)
        if dating is not None:
            looked_at = (file for file in files if reads_candidate(config, robots, file.path))
            plan.start(dating.known, dating.first_run, reads, looked_at, replaced, dating.source)
        site = SiteInputs(
            robots=robots, lastmod=mode, warnings=warnings, progress=progress,
            read_facts=lambda path: reads.facts.get(path, ORDINARY_PAGE),
            robots_source=robots_data,  # the same file when the output folder is the site
            remembered=() if known is None else known.outputs, recorded=_digests(known),
            on_skip=plan.skipped,  # the state names no page the sitemaps leave out
            has_file=TreeFiles(site_dir).holds,  # missing image files; links to /x (folder pages)
            shards=ShardSetup(Order.WALK, None if dating is None else dating.known.plan),
            style=None if dating is None else dating.known.url_style,
            expected=len(files), dates=dates, named=lambda: users,
            outputs=asked.outputs, pages=tree_reading(site_dir), known=known, keep=remember,
            site_url_check=_with(tree.site_url_check, says),
        )  # fmt: skip
        report = build_from_pages(config, plan.pages(reads.follow(files)), sink, site)
    _take_over(config, sink, found, report, dating, (says, site_dir, asked.dry_run))
    if dating is not None:
        plan.remember.robots_sitemaps = users.robots_kept()
        config = keep_style(config, report.url_style, plan.remember)
        _keep_state(config, dating, plan, report, (site_dir, output_dir or site_dir), asked, dates)
    return report


def _declares(dating: TreeStart | None) -> bool:
    """Whether the pages' declared dates are read (TreeReading): on a first run, and after a
    state of a fingerprint version this sitemill no longer computes (State.outdated)."""
    return dating is not None and (dating.first_run or dating.known.outdated)


def _site_says(
    config: Config, site_dir: Path, known: State | None, found: Takeover | None
) -> list[Declared]:
    """What the folder, its repository, the state the run starts from (``known``) and the
    sitemap it replaces (``found``) say of the site's URL (jobs.treesiteurl)."""
    state_base = None if known is None else known.base_url
    return tree_site_urls(site_dir, state_base, config.base_url, found)


def _with(
    check: Callable[[list[Declared]], None] | None, says: list[Declared]
) -> Callable[[list[Declared]], None] | None:
    """``check`` told the pages' word on the site's URL and then what ``says`` of it."""
    return None if check is None else lambda pages: check([*pages, *says])


def tree_reading(site_dir: Path) -> PageReading:
    """A page read again inside the site root (no link out of it), as much as a fingerprint
    reads; the version of its bytes, their MD5 (as cheap as a state's blob is not at hand)."""
    pages = TreePages(site_dir)
    return PageReading(pages, partial(_md5_of, pages), parallel=True)


class TreePages:
    """A tree's page by its key: a callable that pickles (worker processes read the pages
    they convert)."""

    def __init__(self, site_dir: Path) -> None:
        self.site_dir = site_dir

    def __call__(self, key: str) -> bytes | None:
        return Root(self.site_dir).read(key, MAX_FINGERPRINT_BYTES)


def _md5_of(pages: TreePages, key: str) -> str | None:
    data = pages(key)
    return None if data is None else hashlib.md5(data, usedforsecurity=False).hexdigest()


def _digests(known: State | None) -> dict[str, str]:
    """The MD5 the state records per file sitemill wrote (writing.ownbytes: what proves one)."""
    return {} if known is None else dict(known.digests)


def _remembering(config: Config, users: UserSitemaps) -> State:
    """What this run will remember: its fingerprints' scope, its base URL and the user's
    sitemaps it found, the pages next."""
    return State(
        fingerprint_main=config.content_scope is ContentScope.MAIN,
        base_url=config.base_url,
        found_sitemaps=frozenset(users.found),
    )


def _list_pages(
    config: Config, site_dir: Path, own: str | None, skipped: WalkSkips, ticker: Ticker
) -> list[TreeFile]:
    """The files that may be pages (include, exclude, not sitemill's outputs). With pages to
    read whole (fingerprints, images), the pool's fork server starts during the walk."""
    files = []
    early = EarlyStart(config.workers if config.content_dates or config.images else 1)
    groups = group_names(config.groups)
    for file in walk_tree(site_dir, skipped):
        if is_candidate(config, file.path) and not is_output(
            file.path, own, groups, html_sitemap=config.html_sitemap
        ):
            if is_leftover(config, site_dir, file.path, own):
                continue  # sitemill's sitemap.html of an earlier run: htmlmap deletes it
            files.append(file)
            early.see(file.size)
            ticker.step()
    ticker.finish()
    return files


def is_leftover(config: Config, site_dir: Path, path: str, own: str | None) -> bool:
    """Whether ``path`` is a sitemap.html sitemill made in an earlier run (at the site root or
    in the output folder, ``own``), with html_sitemap now off: its head says so (one read of
    PAGE_FACTS_BYTES, of that file only)."""
    if not may_be_leftover(config, path.removeprefix(own or "")):
        return False
    try:
        head = Root(site_dir).read(path, PAGE_FACTS_BYTES)
    except (OSError, ValueError, RefusedError):
        head = None  # (unreadable: the page's own read says why, as for any page)
    return is_leftover_html_sitemap(head)


def _keep_state(
    config: Config,
    dating: TreeStart,
    plan: TreeDating,
    report: Report,
    folders: tuple[Path, Path],
    asked: RunAsked,
    dates: ChildDates | None,
) -> None:
    """The state of the run, with the records of the output features ``asked`` lists (IndexNow's
    pending list), after the sitemaps (and the line on a shallow checkout that kept pages from
    their sources' dates); with an index, the digest and date of each child (a fresh clone or
    build keeps their dates)."""
    plan.note_sources(report.warnings)
    remember = plan.remember
    remember.outputs = frozenset(report.result.outputs)
    remember.written = None if dates is None else dates.kept(remember.outputs)
    # (a stale file a deletion failed on keeps its MD5: what proves it sitemill's next time)
    left = remember.written or report.result.left_digests
    remember.digests = report.result.digests() if left else {}
    remember.plan = report.result.plan
    remember_changes(dating.known, remember, first_run=dating.first_run)
    if not dating.first_run:  # (config: its URL style settled, keep_style)
        lookup = TreeRemoved(folders[0], config.base_url)
        diff = record_removed(config, dating.known, remember, config.url_style, lookup)
        if not asked.dry_run:  # (a dry run deploys nothing: why, diff)
            messages, needs = removed_warnings(diff.removed, config.base_url, lookup.served)
            for message in messages:
                log.warning("%s", message)
                report.warnings.append(message)
            report.needs.update(needs)
            report.needs_warnings += len(messages)
    public = state_is_public(dating.store, list(folders))
    kept = KeptState(config, dating.known, remember, dating.first_run, dating.store, public)
    for feature in asked.outputs:
        feature.keep(kept, report)
    report.state_written = save_state(dating.store, remember, report.warnings)


def _find_takeover(
    config: Config, sink: Sink, dating: TreeStart | None
) -> tuple[Takeover | None, Callable[[str], DeclaredDate | None] | None]:
    """The sitemap this run replaces and, on a first run, its date of a page's path."""
    remembered, text = dating.known.outputs if dating else (), config.format is OutputFormat.TXT
    found = find_takeover(files_of(sink), text=text, remembered=remembered)
    if dating is None or not dating.first_run:
        return found, None
    from sitemill.writing.replaced import replaced_dates  # (a first run's only)

    dates = replaced_dates(files_of(sink), found, config.base_url)
    return found, lambda path: dates.date_of(file_url(config.base_url, path))


def _user_sitemaps(
    config: Config,
    sink: Sink,
    found: Takeover | None,
    dating: TreeStart | None,
    site: tuple[Path, list[str]],
) -> UserSitemaps:
    """The user's sitemaps this run names, each read in the output folder, else in the site
    (the folder, and the run's warnings, where the lines said of them go)."""
    files, in_site = files_of(sink), FolderFiles(site[0])

    def read(name: str, limit: int) -> bytes | None:
        head = files.read(name, limit)
        return in_site.read(name, limit) if head is None else head

    remembered = dating.known.found_sitemaps if dating is not None else ()
    users = user_sitemaps(config, files, found, remembered, read)
    if dating is not None:  # (the robots.txt lines it wrote for them: only those it replaces)
        users.robots_before = dating.known.robots_sitemaps
    site[1].extend(users.warnings)
    return users


def _take_over(
    config: Config,
    sink: Sink,
    found: Takeover | None,
    report: Report,
    dating: TreeStart | None,
    site: tuple[list[Declared], Path, bool],
) -> None:
    """The generator's sitemap ``found`` replaced; then what the site ``says`` of its URL
    besides its pages (_site_says), weighed against the run's. ``site``: that, the folder, and
    whether the run is dry (why, diff: it replaces nothing, so says nothing of replacing)."""
    says, site_dir, dry = site
    lost = missing_state_warning(dating.store.where, dry=dry) if dating and dating.lost else None
    first = not dating or dating.first_run
    files = files_of(sink)
    if found is not None and found.generator is not None and not dry:
        project = generator_project(site_dir)  # (its advice in the site's own config file)
        if project is not None and project[0].family == found.generator.name.lower():
            found.config = project[0].config
    take_over(files, found, report, config.base_url, first=first, lost=lost, dry=dry)
    say_site_url(config.base_url, says, report)


def outputs_prefix(site_dir: Path, output_dir: Path | None) -> str | None:
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


def is_output(
    path: str, prefix: str | None, groups: Collection[str] = (), *, html_sitemap: bool = True
) -> bool:
    """Whether ``path`` is one of sitemill's files in the output folder (``prefix``: where
    that lies in the site; ``groups``: the named groups whose children are sitemill's;
    sitemap.html is the user's page while ``html_sitemap`` is off, unless its bytes say
    sitemill made it: sitemill.jobs.tree.is_leftover)."""
    if prefix is None or not path.startswith(prefix):
        return False
    name = path[len(prefix) :]
    if name == HTML_SITEMAP:
        return html_sitemap
    return "/" not in name and (is_own_name(name, groups) or name == ROBOTS_TXT)
