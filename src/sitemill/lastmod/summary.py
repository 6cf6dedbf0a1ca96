"""How a run's dates are told: where they came from and why each moved or stayed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from sitemill.config.model import LastmodMode
from sitemill.lastmod.decide import DateReason
from sitemill.messages import counted

# How a run's dates are told (CLI, job summary): reasons in this order, then any other.
_KEPT, _MOVED = DateReason.KEPT.value, (DateReason.NEW.value, DateReason.CHANGED.value)
_OLDER, _LAST = DateReason.HISTORY_OLDER.value, DateReason.HISTORY_LAST.value  # git, a first run
# The other rungs of a first run's evidence ladder (sitemill.lastmod.decide).
_RUNGS = {
    DateReason.SOURCE.value: "by their source's last change",
    DateReason.DECLARED.value: "by their declared modification date",
    DateReason.FILE_TIME.value: "by their file times (a first run; the times are spread, no stamp)",
}
# Why a page has no <lastmod> (docs/lastmod.md, "No date without evidence").
_UNDATED = {
    DateReason.NONE_BUILD.value: "no evidence on a first run (file times are one build's)",
    DateReason.NONE_SYNC.value: "no evidence on a first run (upload times are one sync's)",
    DateReason.NONE_AFTER_RUN.value: "no evidence on a first run (a file time is after the run)",
    DateReason.NONE.value: "no evidence on a first run",
    DateReason.NONE_KEPT.value: "unchanged, and the state remembers none",
}
_TOLD = {_KEPT, _OLDER, _LAST, *_MOVED, *_RUNGS, *_UNDATED}
# What dated the pages, in the report's first line: each reason's name there, in this order.
_DATED_BY = {
    _KEPT: "kept",
    _OLDER: "git",
    _LAST: "git",
    DateReason.SOURCE.value: "source",
    DateReason.DECLARED.value: "declared",
    DateReason.FILE_TIME.value: "file time",
    **dict.fromkeys(_UNDATED, "none"),
}


def dates_text(dates: Counter[str]) -> str:
    """``lastmod: 9,880 kept, 120 moved (new page 100, content changed 20)``; empty when
    content dates decided no page's date."""
    others = sorted(set(dates) - _TOLD)
    moved = {reason: dates[reason] for reason in (*_MOVED, *others) if dates[reason]}
    parts = [f"{dates[_KEPT]:,} kept"] if dates[_KEPT] or moved else []
    if moved:
        why = ", ".join(f"{reason} {count:,}" for reason, count in moved.items())
        parts.append(f"{sum(moved.values()):,} moved ({why})")
    if dates[_OLDER] or dates[_LAST]:
        parts.append(_history_part(dates[_OLDER], dates[_LAST]))
    parts.extend(f"{dates[key]:,} dated {how}" for key, how in _RUNGS.items() if dates[key])
    undated = {why: dates[key] for key, why in _UNDATED.items() if dates[key]}
    if undated:
        parts.append(_undated_part(undated))
    return f"lastmod: {', '.join(parts)}" if parts else ""


def _undated_part(undated: dict[str, int]) -> str:
    """``8 without a date: no evidence on a first run (file times are one build's)``; with
    several reasons, each one's count after the colon, separated by semicolons."""
    total = sum(undated.values())
    if len(undated) == 1:
        return f"{total:,} without a date: {next(iter(undated))}"
    return f"{total:,} without a date: " + "; ".join(f"{n:,} {why}" for why, n in undated.items())


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


def dated_by(dates: Counter[str], mode: LastmodMode) -> str:
    """What dated a run's listed pages, for the report's first line: ``declared 28, none 27``
    (the pages each source dated; ``none``: no <lastmod>), and ``mode`` (``git``, ``mtime``)
    for pages a deploy dated (new, changed) or when content dates decided nothing."""
    by: Counter[str] = Counter()
    for reason, count in dates.items():
        by[_DATED_BY.get(reason, mode.value)] += count
    if not +by:
        return mode.value
    order = dict.fromkeys([mode.value, *_DATED_BY.values()])  # ("git": once)
    return ", ".join(f"{name} {by[name]:,}" for name in order if by[name])


def list_dates_from(sitemaps: Mapping[str, tuple[int, str | None, str]], mode: LastmodMode) -> str:
    """Where a URL list's dates come from, for the summary (a list has no file times)."""
    if mode is LastmodMode.NONE:
        return "none (lastmod = none)"
    if any(newest for _, newest, _ in sitemaps.values()):
        return "the list's second column"
    return "none: no line of the list has a date (URL, TAB, date)"
