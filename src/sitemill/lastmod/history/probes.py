"""Which commits of a git history made a site-wide edit, read from a few of their pages first."""
# Site-wide: history.edits.is_site_wide; for lastmod.history.templateedits. Most commits made none,
# and reading every page they changed would cost a first run most of its time again.

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Final

from sitemill.lastmod.history.edits import is_site_wide, reorders, rewords
from sitemill.lastmod.history.walk import Run

# Pages of a commit named to learn whether it made a site-wide edit (probes): as many as
# make the smallest section (history.templateedits.MIN_SECTION).
PROBE: Final = 4
# Times more pages of a commit are named while its probes' pages all changed their words.
PROBE_MORE: Final = 3


def commit_of(stop: tuple[str, int], pages: Mapping[str, Run]) -> int:
    """The time of the commit a stop (path, the run's end) stops at: the commit's name here."""
    return pages[stop[0]].chain[stop[1] - 1].time


def unclear(
    probed: list[tuple[str, int]],
    rest: list[tuple[str, int]],
    pages: Mapping[str, Run],
    edits: Mapping[tuple[str, int], str | None],
) -> set[int]:
    """The commits of ``rest`` whose ``probed`` stops hold fewer than PROBE edits that reword
    no text: what they show of a site-wide edit is not yet enough."""
    named = Counter(
        commit_of(stop, pages)
        for stop in probed
        if (edit := edits.get(stop)) is not None and not rewords(edit)
    )
    return {commit_of(stop, pages) for stop in rest} - {
        when for when, n in named.items() if n >= PROBE
    }


def probes(
    wanted: list[tuple[str, int]],
    commit_only: set[tuple[str, int]],
    pages: Mapping[str, Run],
    commits: set[int] | None = None,
) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """The stops of ``wanted`` to name first (each one a section's census wants, and the first
    PROBE of each commit's ``commit_only`` stops, by path; of ``commits`` only, when given: the
    next PROBE of those whose first told nothing), and the rest: named only where
    the first found a site-wide edit (a commit that made one shows it on any of its pages; one
    without, most commits, costs PROBE pages, not all of its pages)."""
    first, later = [], []
    probed: Counter[int] = Counter()
    for stop in sorted(wanted):
        if stop in commit_only:
            when = commit_of(stop, pages)
            if commits is not None and when not in commits:
                later.append(stop)
                continue
            probed[when] += 1
            if probed[when] > PROBE:
                later.append(stop)
                continue
        first.append(stop)
    return first, later


def template_edits(
    stops: list[tuple[str, int]],
    pages: Mapping[str, Run],
    edits: Mapping[tuple[str, int], str | None],
    least: int = 1,
    changed: Mapping[int, int] | None = None,
) -> set[tuple[int, str]]:
    """The (commit, edit) pairs where one edit is the edit of at least ``least`` of ``stops``
    there and of more than half of them, and of the pages the commit changed (``changed``, by
    commit, when given), unless it only reordered what the page holds (history.edits.reorders);
    a site-wide one (history.edits.is_site_wide) of more than half of
    those whose edit rewords no text; among probes, a commit worth naming whole; among all of
    a commit's stops, a template edit."""
    named: Counter[int] = Counter()
    plain: Counter[int] = Counter()
    counts: Counter[tuple[int, str]] = Counter()
    for stop in stops:
        edit = edits.get(stop)
        if edit is not None:
            when = commit_of(stop, pages)
            named[when] += 1
            plain[when] += not rewords(edit)
            counts[when, edit] += 1
    return {
        (when, edit)
        for (when, edit), count in counts.items()
        if count >= least
        and (
            (2 * count > max(named[when], (changed or {}).get(when, 0)) and not reorders(edit))
            or (is_site_wide(edit) and 2 * count > plain[when])
        )
    }
