"""IndexNow's URLs of a partitioned run, kept with those not sent yet beside its state."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sitemill.config.model import Config
from sitemill.indexnow.outcome import IndexNowOutcome
from sitemill.indexnow.pending import ObjectPending
from sitemill.indexnow.run import log_messages, record_found

if TYPE_CHECKING:
    from sitemill.state.partitioned import PartitionedStore


def record_pending(
    config: Config,
    store: PartitionedStore,
    found: dict[str, str],
    *,
    first_run: bool,
    dry_run: bool = False,
) -> IndexNowOutcome | None:
    """IndexNow's URLs of a run, kept with those not sent yet beside the partitioned state
    (a dry run reads them, and keeps nothing)."""
    outcome = record_found(
        config, found, ObjectPending(store.pending_store()), first_run=first_run, dry_run=dry_run
    )
    if outcome is not None:
        log_messages(outcome, store.warnings)
    return outcome
