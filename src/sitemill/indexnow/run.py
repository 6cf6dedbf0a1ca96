"""IndexNow in a run: a job records what to announce; a front-end delivers it."""
# A job records what to announce in the report, and pending in the state it saves; it never sends:
# a front end delivers once the pages are live (the Lambda after its invalidation, the CLI after
# the sitemaps are written, `sitemill indexnow` after a deploy) and writes back what is left (a
# public state keeps no removed URL: kept_pending).

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Mapping
from typing import Final

from sitemill.config.model import Config, IndexNowMode
from sitemill.errors import SitemillError
from sitemill.indexnow._announce import Announcements, announcements, kept_pending
from sitemill.indexnow.key import IndexNowTarget, below_root_warning, site_key_location
from sitemill.indexnow.outcome import IndexNowOutcome, PendingStore
from sitemill.indexnow.pending import StatePending
from sitemill.state.model import State
from sitemill.state.pending import MAX_PENDING, changes
from sitemill.urls import page_url
from sitemill.urlstyle import rendering_style

log = logging.getLogger(__name__)
NOT_CHECKED: Final = "not live at its version yet (sitemill check)"


def settings_of(config: Config) -> IndexNowTarget:
    written = config.indexnow_write_key_file
    location = site_key_location(
        config.base_url, config.indexnow_key, config.indexnow_key_location, written=written
    )
    return IndexNowTarget(config.indexnow_endpoint, config.indexnow_key, location)


def record(
    config: Config, known: State, remember: State, *, first_run: bool, store: PendingStore
) -> IndexNowOutcome | None:
    """In a job, before it saves ``remember``: this run's announcements over ``known``'s
    pending; ``remember.pending`` is what the state keeps should none be sent. None (and no
    pending kept) when IndexNow is off."""
    if config.indexnow is IndexNowMode.OFF:
        remember.pending = {}
        return None
    found = {} if first_run else found_changes(config, known, remember)
    listed = _listed(config, remember) if store.public else None
    outcome, remember.pending = collect(
        config, known.pending, found, store, first_run=first_run, listed=listed
    )
    return outcome


def record_found(
    config: Config, found: dict[str, str], store: PendingStore, *, first_run: bool, dry_run: bool
) -> IndexNowOutcome | None:
    """``record`` where the pending URLs live in a store of their own (a partitioned state):
    read there, and written back (unless a dry run) with this run's, before the run commits:
    a store that cannot be written fails the run (it is redone, and finds them again)
    rather than lose them."""
    if config.indexnow is IndexNowMode.OFF:
        return None
    outcome, kept = collect(config, store.read(), found, store, first_run=first_run)
    if not dry_run:
        store.write(kept)
    return outcome


def pending_outcome(config: Config, store: PendingStore) -> IndexNowOutcome:
    """What `sitemill indexnow` has to send: ``store``'s pending URLs, checked as a run does."""
    state = store.state() if store.public and isinstance(store, StatePending) else None
    pending = store.read() if state is None else state.pending  # (a public state: read once)
    listed = _listed(config, state) if store.public else None  # (only its pages are listed)
    outcome, _ = collect(config, pending, {}, store, first_run=False, listed=listed)
    outcome.mode = IndexNowMode.SEND
    return outcome


def _listed(config: Config, state: State | None) -> set[str]:
    """The URLs of the pages ``state`` lists (in the style it keeps, with ``auto``)."""
    style = rendering_style(config.url_style, None if state is None else state.url_style)
    return set() if state is None else {page_url(config.base_url, p, style) for p in state.pages}


def found_changes(config: Config, known: State, remember: State) -> dict[str, str]:
    """The listed URLs added, changed or removed from ``known`` to ``remember``."""
    base, style = config.base_url, config.url_style
    return changes(known, remember, lambda path: page_url(base, path, style))


def collect(
    config: Config,
    pending: dict[str, str],
    found: dict[str, str],
    store: PendingStore,
    *,
    first_run: bool,
    listed: set[str] | None = None,
) -> tuple[IndexNowOutcome, dict[str, str]]:
    """The outcome of a run that ``found`` these and had these ``pending``, and what the
    pending store keeps should none be sent; ``listed``: the URLs a public store's pending
    ones must be among (announce.announcements)."""
    chosen = announcements(pending, found, config.base_url, listed=listed)
    kept, withheld = kept_pending(chosen.urls, public=store.public)
    outcome = IndexNowOutcome(
        config.indexnow,
        chosen.urls,
        chosen.found,
        chosen.carried,
        pending=len(kept),
        dropped=chosen.dropped,
        store=store,
    )
    if config.indexnow is IndexNowMode.LATER:
        outcome.withheld = withheld
    _note_record(outcome, chosen, first_run)
    return outcome, kept


def _note_record(outcome: IndexNowOutcome, chosen: Announcements, first_run: bool) -> None:
    if first_run:
        outcome.messages.append("IndexNow: a first run (no state) announces nothing")
    for count, what in (
        (chosen.foreign, "pending URL(s) of the state not below the base URL"),
        (chosen.off_site, "URL(s) of the run's files not below the base URL (never announced)"),
        (chosen.unlisted, "pending URL(s) of the public state that the sitemaps do not list"),
    ):
        if count:
            outcome.messages.append(f"IndexNow: dropped {count:,} {what}")
    if outcome.dropped:
        outcome.messages.append(
            f"IndexNow: {outcome.dropped:,} URL(s) over the {MAX_PENDING:,} pending ones a "
            "state keeps were dropped (the sitemaps still list them; engines read those)"
        )
    if outcome.withheld:
        outcome.messages.append(_withheld_message(outcome.withheld))


def _withheld_message(count: int) -> str:
    return (
        f"IndexNow: {count:,} removed URL(s) are not kept pending: the state beside the "
        "sitemaps is public and names no page they leave out (keep the state elsewhere "
        "with `state`, or send in the run with indexnow = send)"
    )


def deliver(
    config: Config,
    outcome: IndexNowOutcome,
    *,
    dry_run: bool = False,
    held: Mapping[str, str] | None = None,
) -> None:
    """Send ``outcome.urls`` (the pages are live now) and write back what is left pending,
    with ``held`` (pending URLs a check kept back: not live at their version yet)."""
    from sitemill.indexnow._send import send_announcements  # (urllib: only when sending)

    outcome.delivered = True
    if held:
        outcome.held[NOT_CHECKED] += len(held)
    if not outcome.urls:
        return  # (the store still holds ``held``: they were pending)
    warning = below_root_warning(
        config.base_url, config.indexnow_key_location, written=config.indexnow_write_key_file
    )
    if warning is not None:
        outcome.messages.append(f"IndexNow: {warning}")
    sent = send_announcements(
        outcome.urls, settings_of(config), dry_run=dry_run, key_files=outcome.key_files
    )
    outcome.messages.extend(sent.messages)
    if dry_run:
        outcome.would_send = list(sent.would_send)
        return
    outcome.sent = Counter(sent.sent.values())
    outcome.refused, outcome.held = Counter(sent.refused), Counter(sent.held)
    public = outcome.store is not None and outcome.store.public
    kept, withheld = kept_pending({**sent.pending, **(held or {})}, public=public)
    outcome.pending, outcome.withheld = len(kept), withheld
    if withheld:
        outcome.messages.append(_withheld_message(withheld))
    if outcome.store is not None:
        try:
            outcome.store.write(kept)
        except SitemillError as exc:
            outcome.messages.append(
                f"IndexNow: the URLs are sent, but what is left pending could not be kept: "
                f"{exc} (the next run may announce some again)"
            )


def log_messages(outcome: IndexNowOutcome | None, warnings: list[str]) -> None:
    """Each of the outcome's lines as a warning of the run."""
    for message in [] if outcome is None else outcome.messages:
        log.warning("%s", message)
        warnings.append(message)
