"""Where a run's state comes from and goes to: the store, else a previous state."""
# The previous state is the live site's copy; what could not be used is a warning and a first run,
# never a failure.

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from sitemill.errors import ConflictError, SitemillError, StateError
from sitemill.messages import redact
from sitemill.state.model import State, dump_state
from sitemill.state.parse import OLDEST_LASTMOD, parse_state
from sitemill.state.pending import rebase_pending
from sitemill.urls import spelt_base_url

if TYPE_CHECKING:
    from sitemill.state.store import StateStore

log = logging.getLogger(__name__)


class Previous(Protocol):
    """Where a first run may start from (``previous_state``: a path or the live site)."""

    @property
    def location(self) -> str: ...

    def read(self) -> bytes | None: ...


@dataclass
class Start:
    """The state a run starts from; ``first_run`` when none could be used, ``missing`` when
    there was none at all (not even one that could not be read) where the state is kept."""

    state: State
    first_run: bool
    warnings: list[str] = field(default_factory=list)
    missing: bool = False


def start_state(
    store: StateStore,
    previous: Previous | None,
    now: datetime | None = None,
    *,
    base_url: str | None = None,
) -> Start:
    """The state to start from. ``previous`` is read only when ``store`` holds none; ``now``
    is the run's time (no remembered date may be later). Nothing usable is a warning and a
    first run (dates start over from evidence only, every head is read), never a failure.
    ``base_url``: the run's, said once when the state was written at another one."""
    start = Start(State(), first_run=True)
    where = store.where
    try:
        data = store.read()
    except SitemillError as exc:
        start.warnings.append(f"{exc}; starting without the state")
        data = None
    else:
        start.missing = data is None
    borrowed = False
    if data is None and previous is not None:
        where, borrowed = redact(previous.location), True  # a URL may carry a token
        try:
            data = previous.read()
        except SitemillError as exc:
            start.warnings.append(f"{exc}; a first run")
            data = None
    if data is None:
        return start
    try:
        state = parse_state(data, now)
    except StateError as exc:
        start.warnings.append(f"ignoring the state {where}: {exc}; dates and page facts start over")
        return start
    if state.refused:
        start.warnings.append(
            f"ignoring {state.refused:,} remembered lastmod value(s) of the state {where} "
            f"that are no W3C datetime between {OLDEST_LASTMOD:%Y-%m-%d} and now "
            f"(e.g. {state.refused_example!r}): those pages are dated anew, from evidence only"
        )
    if state.strangers:
        start.warnings.append(
            f"ignoring {state.strangers:,} page name(s) of the state {where} that name no page "
            f"of this site (e.g. {state.stranger_example!r}): never reported as removed, "
            "never opened"
        )
    moved = base_move_warning(state.base_url, base_url)
    if moved is not None:
        start.warnings.append(moved)
    if state.base_url is not None and base_url is not None and state.base_url != base_url:
        state.pending = rebase_pending(
            state.pending, state.base_url, base_url
        )  # (or a new spelling)
    if borrowed:  # dates from elsewhere, yes; but only this place's own state names its files
        state.outputs = frozenset()
    start.state, start.first_run, start.missing = state, False, False
    return start


def base_move_warning(before: str | None, now: str | None) -> str | None:
    """The warning of a run at another base URL than the one its state was written at (a
    state of an earlier sitemill names none: nothing to say). The state is keyed by path:
    dates stay, and IndexNow announces no page for the move (state.pending.changes)."""
    if before is None or now is None or spelt_base_url(before) == now:
        return None
    return (
        f"every URL moved from {before} to {now}: the base URL is not the last run's (dates "
        "are kept; IndexNow announces no page for the move); if the move was not meant, "
        "check --base-url (base_url)"
    )


def missing_state_warning(where: str, *, dry: bool = False) -> str:
    """A first run beside sitemaps of an earlier run: the state was lost (or never kept).
    ``dry``: a run that writes nothing (why, a dry build) says what it can still tell."""
    if dry:
        return (
            f"no state at {where} yet: pages are dated as on a first run, from evidence "
            "only (git history, source files, declared dates); a build keeps the state there"
        )
    return (
        f"no state at {where}, but sitemaps of an earlier run are there: dates start over, "
        "from evidence only (was the state deleted? `aws s3 sync --delete` of a build folder "
        "removes it: keep it elsewhere with `state`)"
    )


def save_state(store: StateStore, state: State, warnings: list[str]) -> bool:
    """Write the state after the sitemaps, when it changed; True when written. The sitemaps
    are live by now: a state that cannot be written is a warning (the next run starts over),
    not a failed run; another writer's newer state is a conflict, redone like any."""
    try:
        return store.write(dump_state(state))
    except ConflictError:
        raise
    except SitemillError as exc:
        message = f"{exc}; the sitemaps are published, but the next run starts over"
        log.warning("%s", message)
        warnings.append(message)
        return False
