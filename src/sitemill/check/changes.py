"""What a run changed, kept in its state for the check after the deploy. Pure."""
# The listed pages a run added or whose content changed (the ones IndexNow would announce), so that
# `sitemill check`, run after the deploy from the state alone, asks those first. A run that changed
# no listed page keeps the record of the last one that did: its state is then written only when
# something else in it changed, and a second run with no change still writes nothing.

from __future__ import annotations

from sitemill.state.model import State
from sitemill.state.pending import MAX_CHANGES, REMOVED, changes


def remember_changes(known: State, remember: State, *, first_run: bool) -> None:
    """Set ``remember.changes``: the listed pages added or changed since ``known`` (at most
    MAX_CHANGES, by path), else those ``known`` named that are still listed. A first run
    (no state) changed nothing it can tell."""
    if first_run:
        remember.changes = {}
        return
    found = {
        path: kind
        for path, kind in changes(known, remember, lambda path: path).items()
        if kind != REMOVED and path in remember.pages
    }
    if not found:
        found = {path: kind for path, kind in known.changes.items() if path in remember.pages}
    remember.changes = {path: found[path] for path in sorted(found)[:MAX_CHANGES]}
