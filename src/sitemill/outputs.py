"""The output port: what an output feature beside the sitemaps sees, finishes and merges."""
# An output feature (sitemap.html, llms.txt with its kin, IndexNow) is one folder behind this port
# (docs/architecture.md, "outputs"): it sees each listed entry (watch), finishes with the sink and
# the state (finish), keeps its record before the state is saved (keep, keep_found), acts once the
# site is live (published) and merges a sharded bucket's parts (merge); one that needs every page
# at once says so (whole_site). Neither the entries nor the sink say when a state is final or the
# site live, so the port says it. The core imports no feature by name.

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from sitemill.config.model import Config
    from sitemill.entries import Entry
    from sitemill.report import Report, WriteResult
    from sitemill.sinks import Sink
    from sitemill.state.model import State
    from sitemill.state.partitioned import PartitionedStore
    from sitemill.state.store import StateStore

WriteFile = Callable[[str, bytes], bool]  # a file of a feature's own at the site's root: written?
Noted = Callable[["Report"], None]  # what a feature says in a run's report, once there is one


@dataclass(frozen=True, slots=True)
class PageReading:
    """How a job reads a listed page again by its key (as much as a fingerprint reads; None:
    gone), and the version of its bytes now (a bucket's ETag, a tree file's MD5). ``parallel``:
    ``read`` pickles, worker processes may call it."""

    read: Callable[[str], bytes | None]
    version: Callable[[str], str | None]
    parallel: bool = False


@dataclass(frozen=True, slots=True)
class OutputRun:
    """What a run tells each output it starts: ``known``, the state the last run left (None:
    the run keeps none); ``keep``, the one this run keeps; ``group``, an entry's named group
    (None: the site has none); ``live``, where what is live now is read when the run writes
    through a sink of its own first (a sharded bucket's full pass stages until its commit;
    None: the sink)."""

    config: Config
    sink: Sink
    pages: PageReading | None = None
    known: State | None = None
    keep: State | None = None
    group: Callable[[Entry], str | None] | None = None
    live: Sink | None = None


@dataclass(frozen=True, slots=True)
class KeptState:
    """A state a run is about to save: ``keep``, over ``known`` (the one it started from; a
    ``first_run`` has none of an earlier run), by ``config`` with the run's URL style settled;
    ``store``, where it is read and written again once the run is over, and whether that
    state is ``public`` (served with the site: it names no page the sitemaps leave out)."""

    config: Config
    known: State
    keep: State
    first_run: bool
    store: StateStore
    public: bool


@dataclass(frozen=True, slots=True)
class LiveRun:
    """A run whose files are live (a ``dry_run``: as if they were): its ``report``, and
    ``write_file``, a file at the site's root written (None: the run writes none)."""

    config: Config
    report: Report
    write_file: WriteFile | None
    dry_run: bool = False


@dataclass(frozen=True, slots=True)
class ShardsFound:
    """What a sharded bucket's shards ``found`` (OutputFeature.found, merged), to keep
    beside its partitioned ``store`` before the commit (a ``dry_run`` keeps nothing)."""

    config: Config
    store: PartitionedStore
    found: dict[str, str]
    first_run: bool
    dry_run: bool = False


class Output(Protocol):
    """One feature's part in one run."""

    def watch(self, entries: Iterator[Entry]) -> Iterator[Entry]:
        """The entries, each seen on its way to the sitemaps."""
        ...

    def finish(self, result: WriteResult) -> None:
        """After the sitemaps: its files written through the sink, what it wrote said in
        ``result`` and kept in the run's state."""
        ...


class OutputFeature(Protocol):
    """An output feature, as a front end lists it."""

    def start(self, run: OutputRun) -> Output:
        """Its part in a run."""
        ...

    def shard_config(self, config: Config) -> Config:
        """The configuration a shard of a sharded bucket renders by."""
        ...

    def merge(self, config: Config, sink: Sink, states: Iterable[State], report: Report) -> None:
        """After a sharded bucket's commit: its files from every shard's state."""
        ...

    def whole_site(self, config: Config) -> str | None:
        """Why shards rendered apart cannot give its files (None: they can)."""
        ...

    def keep(self, kept: KeptState, report: Report) -> None:
        """Before a run saves its state: its record in ``kept.keep``, its lines in ``report``."""
        ...

    def published(self, run: LiveRun) -> None:
        """Once the run has published: its files at the site's root, what it tells others."""
        ...

    def found(self, config: Config, before: State, after: State) -> dict[str, str]:
        """What a shard's pass found from its state ``before`` to ``after``: URL -> added,
        changed or removed (state.pending), for keep_found (none: {})."""
        ...

    def keep_found(self, shards: ShardsFound) -> Noted:
        """Before a sharded bucket's commit: what its shards found, kept; what it says in
        the run's report."""
        ...


class RecordedAsWritten:
    """The hooks of a feature that keeps its record as it writes its files (finish, merge)
    and has nothing to do once they are live (sitemap.html, llms.txt)."""

    def keep(self, kept: KeptState, report: Report) -> None:
        """Nothing more in the state."""

    def published(self, run: LiveRun) -> None:
        """Nothing once the run has published."""

    def found(self, config: Config, before: State, after: State) -> dict[str, str]:
        return {}

    def keep_found(self, shards: ShardsFound) -> Noted:
        return said_nothing


def said_nothing(report: Report) -> None:
    """Nothing in the run's report."""
