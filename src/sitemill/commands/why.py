"""One page's date and its evidence (``sitemill why``): the tree job run dry, one page watched."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Generic, TypeVar
from urllib.parse import unquote, urlsplit

from sitemill.config.model import Config, LastmodMode
from sitemill.entries import SkipReason
from sitemill.errors import GitError, RefusedError
from sitemill.git.run import Git, git_env
from sitemill.jobs.asked import RunAsked
from sitemill.jobs.tree import TreeAsked, build_tree, is_leftover
from sitemill.jobs.treedating import PageWatch
from sitemill.lastmod.decide import DateReason, Ladder
from sitemill.lastmod.declared.rung import DeclaredRung
from sitemill.lastmod.declared.w3cdate import DeclaredDate
from sitemill.lastmod.filetimes.spread import Stamp, busiest_window
from sitemill.lastmod.history.commits import NamedCommit, page_commits
from sitemill.lastmod.pagedate import source_again
from sitemill.lastmod.proof import Rung
from sitemill.rules import LEFTOVER_HTML_SITEMAP, is_candidate, own_output
from sitemill.safefs import Root, relative_inside
from sitemill.sinks.folders import OverlaySink
from sitemill.sinks.port import Sink
from sitemill.state.model import PageRecord
from sitemill.state.start import Previous
from sitemill.state.store import SinkStateStore, StateStore


@dataclass(frozen=True, slots=True)
class Window:
    """The stamp verdict on a first run's file times: how many the busiest window holds."""

    verdict: Stamp
    busiest: int
    of: int
    uploads: bool = False  # a bucket's LastModified (else files' mtimes)


@dataclass(frozen=True, slots=True)
class PageWhy:
    """What a dry run decided for one page and on what evidence. ``path`` None: no file of
    the site answers the name (``near``: the closest page's path, or "")."""

    path: str | None
    mode: LastmodMode | None = None  # how the run dated (None: not known)
    lastmod: str | None = None  # as written; None: no <lastmod>
    reason: DateReason | None = None  # None: content dates off (a plain date)
    skipped: SkipReason | None = None  # left out of the sitemaps, and why
    detail: str = ""
    excluded: bool = False  # a file the build leaves out before reading it (``detail``: why)
    near: str = ""
    mtime: float | None = None
    from_history: bool = False  # dated by the page's own git history
    content_commit: NamedCommit | None = None  # history: the oldest version with today's content
    last_commit: NamedCommit | None = None  # the file's last commit
    source: str | None = None  # rung 2: the source file that dated it (repo-relative) ...
    source_commit: NamedCommit | None = None  # ... and the commit that last changed its text
    remembered: PageRecord | None = None
    state_from: str | None = None  # where the remembered state was read; None: no state
    fingerprint: str | None = None
    window: Window | None = None
    refused: tuple[DeclaredDate, str] | None = None  # a declared date refused, and why
    declared: DeclaredDate | None = None  # the declared date accepted (rung 3)
    uploads: bool = False  # a bucket's page: its time is its LastModified
    late: int | None = None  # its git date, after the run's time: no evidence


_S = TypeVar("_S", StateStore, Previous)


class _Seen(Generic[_S]):
    """Reads through ``source`` and notes whether any read found a state (``found``)."""

    def __init__(self, source: _S) -> None:
        self.source: _S = source
        self.found = False

    def read(self) -> bytes | None:
        data = self.source.read()
        self.found = self.found or data is not None
        return data


class ReadOnlyStore(_Seen[StateStore]):
    """A state store that is read (``found``: whether it held a state), its writes dropped."""

    @property
    def where(self) -> str:
        return self.source.where

    def write(self, data: bytes) -> bool:
        return False


class SeenPrevious(_Seen[Previous]):
    """A previous state that is read, noting whether it held one (``found``)."""

    @property
    def location(self) -> str:
        return self.source.location


def site_path(page: str, base_url: str | None) -> str | None:
    """The site-relative name a PAGE argument gives: a path as it is spelt (a file name may
    hold any character), or a URL's path under ``base_url`` percent-decoded (None: a URL
    outside it); without the leading slash."""
    if urlsplit(page).scheme not in ("http", "https"):
        return page.lstrip("/")
    if base_url is None or not page.startswith(base_url):
        return None
    return unquote(urlsplit(page[len(base_url) :]).path).lstrip("/")


def spellings(name: str) -> list[str]:
    """The files a page name may be served from, in the order a static server tries them."""
    if name in ("", ".") or name.endswith("/"):
        folder = "" if name in ("", ".") else name
        return [folder + "index.html", folder + "index.htm"]
    return [name, name + ".html", name + ".htm", name + "/index.html", name + "/index.htm"]


def explain_page(
    config: Config,
    site_dir: Path,
    name: str,
    sink: Sink,
    asked: RunAsked,
) -> PageWhy:
    """Run the tree job dry on ``site_dir`` as the front end ``asked`` (the sitemaps as
    ``sink`` holds them, the state as its state store, else beside the sitemaps; nothing is
    written) and say what it decided for the page ``name`` (a site path)."""
    watched = _watch_for(site_dir, name)
    store = asked.state_store or SinkStateStore(sink)
    seen = ReadOnlyStore(store)
    before = None if asked.previous is None else SeenPrevious(asked.previous)
    watch = PageWatch(watched)
    dry = replace(asked, dry_run=True, state_store=seen, previous=before)
    report = build_tree(config, site_dir, OverlaySink(sink), dry, tree=TreeAsked(watch))
    paths = set(watch.paths)
    if watched not in paths:
        return _missing(config, site_dir, name, watched, watch.paths)
    detail = next((s.detail for s in report.skips if s.path == watched), "")
    plan = watch.plan
    state_from = None
    if plan is not None and not plan.first_run:
        state_from = store.where if seen.found else None if before is None else before.location
    content, last = _commits(site_dir, watch)
    source = dating_source(site_dir, watch)
    return PageWhy(
        watched,
        config.lastmod if plan is None else plan.mode,
        lastmod=None if watch.page is None else watch.page.lastmod,
        reason=None if watch.dated is None else watch.dated.reason,
        skipped=watch.skipped,
        detail=detail,
        mtime=watch.mtime,
        from_history=watch.from_history,
        content_commit=content,
        last_commit=last,
        source=None if source is None else source[0],
        source_commit=None if source is None else source[1],
        remembered=None if plan is None else plan.known.record(watched),
        state_from=state_from,
        fingerprint=None if watch.dated is None else watch.dated.fingerprint,
        window=_window(watch),
        refused=_refused(watch),
        declared=_accepted(watch),
        late=None if plan is None else plan.late.get(watched),
    )


def _watch_for(site_dir: Path, name: str) -> str:
    """The first spelling of ``name`` that is a file of the site (else ``name``)."""
    root = Root(site_dir)
    for path in spellings(name):
        try:
            if root.read(path, 0) is not None:
                return path
        except (OSError, ValueError, RefusedError):
            continue
    return name


# A longer name gets no "did you mean" (difflib's time grows with its length).
MAX_HINTED_NAME = 1024
# A file the walk does not yield (safefs, sitemill's outputs): said as the build would.
_UNREAD = (
    "the build does not read it: a link leading outside the site, a hidden path, "
    "or one of sitemill's own files"
)


def _missing(config: Config, site_dir: Path, name: str, path: str, paths: list[str]) -> PageWhy:
    from sitemill.config.names import did_you_mean

    is_file = _site_entry(site_dir, path)
    own = _own_file(config, site_dir, path) if is_file else None
    excluded = is_file and (own is not None or not is_candidate(config, path))
    hint = "" if excluded or len(name) > MAX_HINTED_NAME else did_you_mean(name, paths)
    near = hint.removeprefix("; did you mean ").removesuffix("?")
    detail = own or ("the include/exclude rules leave it out" if excluded else _UNREAD)
    return PageWhy(
        path if is_file else None, config.lastmod, detail=detail, excluded=is_file, near=near
    )


def _own_file(config: Config, site_dir: Path, path: str) -> str | None:
    """Why the file ``path`` is sitemill's own and no page, as the build decides (None: it
    is not): an output's name at the root, or a sitemap.html sitemill made (html_sitemap off)."""
    if "/" not in path and (reason := own_output(config, path)) is not None:
        return reason
    return LEFTOVER_HTML_SITEMAP if is_leftover(config, site_dir, path, None) else None


def _site_entry(site_dir: Path, path: str) -> bool:
    """Whether ``path`` names a file of the site itself, or a link that stands in it
    (whatever it leads to). Anything the name reaches outside the site is never looked at:
    a file there and no file there give one answer (``why ../../home/x/.ssh/id_rsa`` says
    nothing of that file), and a name the system refuses (too long) is none."""
    site = os.path.realpath(site_dir)
    folder, leaf = os.path.split(os.path.normpath(os.path.join(site, path)))
    try:
        real = os.path.realpath(folder, strict=True)
        if relative_inside(site, real) is None:
            return False
        mode = os.lstat(os.path.join(real, leaf)).st_mode
    except (OSError, ValueError):  # (no such folder or file, a name too long, a NUL)
        return False
    return stat.S_ISREG(mode) or stat.S_ISLNK(mode)


def _commits(site_dir: Path, watch: PageWatch) -> tuple[NamedCommit | None, NamedCommit | None]:
    plan = watch.plan
    if not watch.from_history or plan is None or plan.git_dates is None:
        return None, None
    when = plan.git_dates.get(watch.path)
    if when is None:
        return None, None
    return page_commits(site_dir, watch.path, when, plan.newest.get(watch.path, when))


def _window(watch: PageWatch) -> Window | None:
    plan = watch.plan
    if plan is None or not watch.times:
        return None
    return Window(plan.ladder.times, busiest_window(sorted(watch.times)), len(watch.times))


def _refused(watch: PageWatch) -> tuple[DeclaredDate, str] | None:
    """The declared date rung 3 refused for the watched page, and why (None: none)."""
    rung = None if watch.plan is None or watch.dated is None else declared_rung(watch.plan.ladder)
    return None if rung is None else rung.check().refused.get(watch.path)


def _accepted(watch: PageWatch) -> DeclaredDate | None:
    """The declared date rung 3 accepted for the watched page (None: none)."""
    rung = None if watch.plan is None or watch.dated is None else declared_rung(watch.plan.ladder)
    return None if rung is None else rung.check().accepted.get(watch.path)


def declared_rung(ladder: Ladder) -> DeclaredRung | None:
    """The ladder's rung 3 (None: it has none)."""
    return next((rung for rung in ladder.providers if isinstance(rung, DeclaredRung)), None)


# A date the state kept, and its root evidence found again for ``sitemill why``.
# The state records a date's rung and commit, never a file's name (lastmod.proof): the source a
# commit dated is found again as a first run finds it, and the commit is named by git.
def dating_source(site_dir: Path, watch: PageWatch) -> tuple[str | None, NamedCommit | None] | None:
    """The source (repo-relative) and the commit that dated the watched page by rung 2: the
    first run's rung, or the proof the state recorded for a date it kept (the source found
    again as a first run finds it, while that commit still last changed its text; the
    commit named by git); None: neither."""
    plan = watch.plan
    if plan is not None and plan.source is not None:
        return plan.source.commit(watch.path)
    record = None if plan is None else plan.known.record(watch.path)
    proof = None if record is None else record.proof
    kept = watch.dated is not None and watch.dated.reason is DateReason.KEPT
    if not kept or watch.from_history or proof is None or proof.commit is None:
        return None
    if proof.rung is Rung.SOURCE and (found := source_again(site_dir, watch.path, proof.commit)):
        return found
    return None, named_commit(site_dir, proof.commit)


def named_commit(site_dir: Path, sha: str) -> NamedCommit | None:
    """The commit ``sha`` (a full hash, as a state keeps it) of the repository holding
    ``site_dir``, as a user names it; None when it has none such."""
    git = Git(site_dir, git_env(reading=True))
    try:
        done = git.run("log", "-1", "--no-show-signature", "--format=%H %ct %s", sha, "--")
    except GitError:
        return None
    found, _, rest = done.stdout.decode("utf-8", "replace").strip("\n").partition(" ")
    when, _, subject = rest.partition(" ")
    if done.returncode != 0 or found != sha or not when.isdigit():
        return None
    return NamedCommit(sha, int(when), subject)
