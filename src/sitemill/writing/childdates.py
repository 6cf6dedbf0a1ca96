"""When each index child's bytes last changed: the <lastmod> an index gives it."""
# sitemaps.org, the index's <lastmod>: "the time that the corresponding sitemap file was modified"
# (https://www.sitemaps.org/protocol.html#sitemapIndexTagDefinitions; docs/output.md, "An index
# child's lastmod"). A child whose bytes as stored are the ones the state remembers under its name
# keeps the date remembered with them; any other takes this run's date (a tree's HEAD commit, else
# the run's time). Never later than the run, never earlier than the newest page inside.

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import replace
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING

from sitemill.config.model import Config, LastmodMode
from sitemill.filenames.groupnames import child_group
from sitemill.filenames.outputs import stored_digest
from sitemill.protocol import Precision, format_lastmod
from sitemill.shards.partition import Part
from sitemill.sinks import Sink

if TYPE_CHECKING:
    from sitemill.state.model import State


def child_dates(
    config: Config,
    known: State,
    run_date: Callable[[], datetime],
    run_time: datetime,
    stored: Sink | None = None,
) -> ChildDates | None:
    """The dates of a run's children from the state it starts from (``known``): none with
    ``lastmod = "none"`` (a child then has no date, as its pages have none). A state of an
    earlier sitemill that kept no digests (a tree's) takes them from the files ``stored`` (the
    output folder: what the last run wrote)."""
    if config.lastmod is LastmodMode.NONE:
        return None
    digest_of: Callable[[str], str | None] = known.digests.get
    if stored is not None and known.written is None and not known.digests:
        digest_of = partial(_stored_digest, stored)
    return ChildDates(digest_of, known.written, run_date, run_time, config.lastmod_precision)


def _stored_digest(stored: Sink, name: str) -> str | None:
    data = stored.read(name)
    return None if data is None else stored_digest(data)


class ChildDates:
    """The dates of one run's children, from the last run's record of them: ``digest_of`` (a
    file's MD5 as stored, by name) and ``written`` (each child's date; None: a state of an earlier
    sitemill, which remembered none: a child whose bytes it names keeps the date its index
    gave, the newest page inside). ``run_date`` is this run's date, asked at most once and
    only when a child changed (in a tree, a git command); ``run_time`` the run's time, the
    latest date any child may have. ``given`` holds each date given, for the next state."""

    __slots__ = ("_run_date", "digest_of", "given", "precision", "run_date", "run_time", "written")

    def __init__(
        self,
        digest_of: Callable[[str], str | None],
        written: Mapping[str, str] | None,
        run_date: Callable[[], datetime],
        run_time: datetime,
        precision: Precision,
    ) -> None:
        self.digest_of = digest_of
        self.written = written
        self.run_date = run_date
        self.run_time = run_time
        self.precision = precision
        self.given: dict[str, str] = {}
        self._run_date: str | None = None

    def date(self, name: str, digest: str, newest: str | None) -> str:
        """The date of the child ``name`` whose bytes as stored have the MD5 ``digest`` and
        whose newest page is dated ``newest``."""
        same = bool(digest) and self.digest_of(name) == digest
        kept = None
        if same:
            kept = newest if self.written is None else self.written.get(name)
        found = kept if kept is not None else self._this_run()
        found = bounded_date(found, newest, format_lastmod(self.run_time, Precision.DATETIME))
        if self.precision is Precision.DATE:  # (a date kept from a run at full precision)
            found = found[: len("YYYY-MM-DD")]
        self.given[name] = found
        return found

    def kept(self, outputs: Collection[str]) -> dict[str, str] | None:
        """The dates given, of the children among ``outputs``, for the next state (None:
        none, as when there is no index)."""
        return {name: date for name, date in self.given.items() if name in outputs} or None

    def _this_run(self) -> str:
        if self._run_date is None:
            moment = min(self.run_date(), self.run_time)
            self._run_date = format_lastmod(moment, self.precision)
        return self._run_date


def dated_parts(
    config: Config, parts: list[Part], before: Iterable[Part], run_time: datetime
) -> list[Part]:
    """The children of a sharded bucket's index (``parts``, each dated by its newest page),
    each dated by when its bytes changed: a part whose bytes the last manifest named for its
    id (``before``) keeps the date that gave it; another takes the run's, its upload."""
    if config.lastmod is LastmodMode.NONE:
        return parts
    keyed = _file_keys(before)
    digests = {key: part.digest for key, part in keyed}
    written = {key: part.lastmod for key, part in keyed if part.lastmod is not None}
    dates = ChildDates(digests.get, written, lambda: run_time, run_time, config.lastmod_precision)
    dated = (dates.date(key, part.digest, part.lastmod) for key, part in _file_keys(parts))
    return [replace(part, lastmod=date) for part, date in zip(parts, dated, strict=True)]


def _file_keys(parts: Iterable[Part]) -> list[tuple[str, Part]]:
    """Each file of a shard keyed across runs (its name's version changes with its bytes):
    the named group whose pages it holds, the shard's id, and its place among that group's
    files of the shard (one, unless a family of keys no cut can respect made it several)."""
    seen: dict[str, int] = {}
    keyed = []
    for part in parts:
        shard = f"{child_group(part.name) or ''}/{part.id}"
        seen[shard] = seen.get(shard, 0) + 1
        keyed.append((f"{shard}/{seen[shard]}", part))
    return keyed


def bounded_date(date: str, newest: str | None, latest: str) -> str:
    """``date`` no later than ``latest`` (the run's time), then no earlier than ``newest``
    (the newest page inside: a page dated after the run is no evidence and never listed, so
    the second bound wins only within the clocks' skew). Each a lastmod in sitemill's forms
    (``YYYY-MM-DD``, ``YYYY-MM-DDThh:mm:ss+00:00``), which sort as their moments do."""
    date = min(date, latest)
    return date if newest is None or newest <= date else newest
