"""How a run's dates are told: where they came from and why each moved or stayed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from sitemill.config.model import LastmodMode
from sitemill.messages import counted

# How a run's dates are told (CLI, job summary): reasons in this order, then any other.
_KEPT, _NO_HISTORY, _MOVED = "kept", "no history", ("new page", "content changed")
_OLDER, _LAST = "older than the last commit", "the last commit"  # a git tree's first run


def dates_text(dates: Counter[str]) -> str:
    """``lastmod: 9,880 kept, 120 moved (new page 100, content changed 20)``; empty when
    content dates decided no page's date."""
    others = sorted(set(dates) - {_KEPT, _NO_HISTORY, _OLDER, _LAST, *_MOVED})
    moved = {reason: dates[reason] for reason in (*_MOVED, *others) if dates[reason]}
    parts = [f"{dates[_KEPT]:,} kept"] if dates[_KEPT] or moved else []
    if moved:
        why = ", ".join(f"{reason} {count:,}" for reason, count in moved.items())
        parts.append(f"{sum(moved.values()):,} moved ({why})")
    if dates[_OLDER] or dates[_LAST]:
        parts.append(_history_part(dates[_OLDER], dates[_LAST]))
    if dates[_NO_HISTORY]:
        parts.append(f"{dates[_NO_HISTORY]:,} from plain dates (no history: a first run)")
    return f"lastmod: {', '.join(parts)}" if parts else ""


def _history_part(older: int, last: int) -> str:
    """How a git tree's first run dated its pages by content: ``232 pages dated by an earlier
    commit (the later ones only re-rendered them), 1,308 by their last commit``."""
    their = "its" if last == 1 else "their"
    if not older:
        return (
            f"{counted(last, 'page')} dated by {their} last commit; none kept an older date, "
            "since no commit changed a page without changing its content"
        )
    them = "it" if older == 1 else "them"
    part = f"{counted(older, 'page')} dated by an earlier commit (the later ones only re-rendered"
    return f"{part} {them}), {last:,} by {their} last commit" if last else f"{part} {them})"


def list_dates_from(sitemaps: Mapping[str, tuple[int, str | None, str]], mode: LastmodMode) -> str:
    """Where a URL list's dates come from, for the summary (a list has no file times)."""
    if mode is LastmodMode.NONE:
        return "none (lastmod = none)"
    if any(newest for _, newest, _ in sitemaps.values()):
        return "the list's second column"
    return "none: no line of the list has a date (URL, TAB, date)"
