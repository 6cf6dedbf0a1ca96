"""IndexNow in a run, behind the output port: the pending list kept, the key file, the send."""
# IndexNow sees no entry: what it announces is found from the states (the pages the last run listed
# against this run's), so it keeps its record just before a run saves its state (keep; a sharded
# bucket's before its commit: keep_found) and, once the run has published, writes its key file and
# announces (published). Off by default: nothing of it is imported until a run has it on.

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Final

from sitemill.config.model import Config, IndexNowMode
from sitemill.errors import SitemillError
from sitemill.outputs import said_nothing

if TYPE_CHECKING:
    from sitemill.check.problems import CheckReport
    from sitemill.entries import Entry
    from sitemill.outputs import KeptState, LiveRun, Noted, OutputRun, ShardsFound, WriteFile
    from sitemill.report import Report, WriteResult
    from sitemill.sinks import Sink
    from sitemill.state.model import State
    from sitemill.web.livesite import LiveSite

log = logging.getLogger(__name__)


class IndexNowFeature:
    """IndexNow's pending list and announcements, as a front end lists them
    (sitemill.outputs.OutputFeature)."""

    def start(self, run: OutputRun) -> _Entries:
        return _ENTRIES

    def shard_config(self, config: Config) -> Config:
        return config  # (a shard finds its changes; the run keeps them before its commit)

    def merge(self, config: Config, sink: Sink, states: Iterable[State], report: Report) -> None:
        """Nothing after the commit: the pending list was kept before it (keep_found)."""

    def whole_site(self, config: Config) -> str | None:
        return None

    # (validate's hook takes what it is given: this folder imports none of it)
    def check_live_copies(
        self, site: object, published: object, report: object, urls: object
    ) -> None:
        """Nothing beside the sitemaps: its key file is asked after the pages (check_gate,
        check.run.AnnouncementGate)."""

    def check_gate(self, site: LiveSite, config: Config, report: CheckReport) -> bool:
        """With a key, its file live on the site's host, else nothing that passed may be
        announced (indexnow._livecheck); the check's front end sends what passed."""
        if not config.indexnow_key:  # (only a build with a key leaves URLs pending)
            return True
        from sitemill.indexnow._livecheck import check_key_file

        return check_key_file(site, config, report)

    def validate(self, path: object) -> None:
        return None

    def own_file(self, name: str, data: bytes, base_url: str) -> bool | None:
        return None  # (the key file is never deleted)

    def keep(self, kept: KeptState, report: Report) -> None:
        """This run's announcements over the pending ones ``kept.known`` holds, in
        ``kept.keep.pending`` (what the state keeps should none be sent) and the report; none
        kept while IndexNow is off."""
        if kept.config.indexnow is IndexNowMode.OFF:
            kept.keep.pending = {}
            return
        from sitemill.indexnow.pending import StatePending
        from sitemill.indexnow.run import log_messages, record

        report.indexnow = record(
            kept.config,
            kept.known,
            kept.keep,
            first_run=kept.first_run,
            store=StatePending(kept.store, public=kept.public),
        )
        log_messages(report.indexnow, report.warnings)

    def published(self, run: LiveRun) -> None:
        """The key file (``indexnow_write_key_file``) through ``run.write_file``, before
        anything is announced (engines fetch it to check); then, with ``indexnow = send``, the
        announcements, whose lines become the run's warnings."""
        config, report, write_file, dry_run = run.config, run.report, run.write_file, run.dry_run
        if config.indexnow_write_key_file and write_file is not None and not dry_run:
            _write_key_file(config.indexnow_key, write_file, report.warnings)
        if config.indexnow is not IndexNowMode.SEND:
            return
        from sitemill.indexnow.outcome import outcome_of
        from sitemill.indexnow.run import deliver

        outcome = outcome_of(report)
        if outcome is None:
            return

        known = len(outcome.messages)
        deliver(config, outcome, dry_run=dry_run)
        for message in outcome.messages[known:]:
            log.warning("%s", message)
            report.warnings.append(message)

    def found(self, config: Config, before: State, after: State) -> dict[str, str]:
        """The listed URLs a shard's pass added, changed or removed (none while off)."""
        if config.indexnow is IndexNowMode.OFF:
            return {}
        from sitemill.indexnow.run import found_changes

        return found_changes(config, before, after)

    def keep_found(self, shards: ShardsFound) -> Noted:
        """What the shards found, with the URLs not sent yet, in the pending object beside
        the partitioned state (indexnow.run.record_found; a dry run reads it, keeps nothing);
        the run's report then holds the outcome."""
        config, store = shards.config, shards.store
        if config.indexnow is IndexNowMode.OFF:
            return said_nothing
        from sitemill.indexnow.pending import ObjectPending
        from sitemill.indexnow.run import log_messages, record_found

        pending = ObjectPending(store.pending_store())
        first_run, dry_run = shards.first_run, shards.dry_run
        outcome = record_found(config, shards.found, pending, first_run=first_run, dry_run=dry_run)
        log_messages(outcome, store.warnings)

        def note(report: Report) -> None:
            report.indexnow = outcome

        return note


INDEXNOW: Final = IndexNowFeature()


class _Entries:
    """A run's part that sees no entry (sitemill.outputs.Output)."""

    def watch(self, entries: Iterator[Entry]) -> Iterator[Entry]:
        return entries

    def finish(self, result: WriteResult) -> None:
        """Nothing after the sitemaps: the record is kept with the state (keep)."""


_ENTRIES: Final = _Entries()


def _write_key_file(key: str, write_file: WriteFile, warnings: list[str]) -> None:
    """The key file; one that cannot be written is a warning, not a failed run: the sitemaps
    are published, and the URLs stay pending until engines can read the key."""
    from sitemill.indexnow.key import key_file_name

    try:
        if write_file(key_file_name(key), key.encode("ascii")):
            log.info("wrote the IndexNow key file")
    except SitemillError as exc:
        message = f"IndexNow: cannot write the key file: {exc}; what is to announce stays pending"
        log.warning("%s", message)
        warnings.append(message)
