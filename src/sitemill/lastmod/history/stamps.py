"""What a commit knows of itself, as a page may print it: its stamps (history.templateedits)."""
# What the commit knows of itself is a stamp: a date or time equal to the commit's (a built site's
# commit is its deploy), in any format, language or label, or none; the commit's author beside it;
# the commit's hash. An edit that took out the older commit's stamps and put in the newer one's,
# and nothing else, is no content: the page's run goes on past it.
#
# A date is any of the forms history.dateforms makes (2024-03-09, 2024年3月9日, Mar 9, 2024, with
# a time of day or none), of the commit's day in its own zone and in UTC, for its author's and
# its committer's times, and in any zone from UTC-12 to UTC+14 (issue 79: a CI bot commits in
# UTC at 01:32 on the 28th, and the generator prints the build's day in the site's own zone, New
# York's 27th; the commit's facts do not name that zone). A bucket's deploy is its own day in
# UTC alone (deploy_stamps: what the state keeps of a page's stamped fingerprint is unchanged).
# A bounded list per commit, one regular expression, made when a stop at the commit is named and
# the part of the page its edit changed holds what every stamp of the commit holds: a day's
# year, an author's name, the hash's first digits (stamp_literals). Most
# edits hold none, and an expression takes milliseconds to compile (its CJK unit's ranges): a
# history of a thousand commits would spend seconds compiling expressions that find nothing.

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, timezone
from typing import TYPE_CHECKING, Final

from sitemill.lastmod.history.dateforms import MONTHS, day_forms

if TYPE_CHECKING:  # (a bucket's deploy edits use the stamps without git)
    from sitemill.git.run import Git

_SHORT_HASH: Final = 7  # git's shortest abbreviation
# Characters read on each side of where two versions differ (a stamp is shorter).
_CONTEXT: Final = 80
# What a stamp is replaced with before two versions are compared.
_PLACEHOLDER: Final = "\x00"
# Every stamp starts with a digit (a date's number, a hash's), its month's name's first letter
# (Mar 9, 2024) or its name's first character: stamp_pattern's expression looks at that one
# character before it tries each of its forms, where their alternation, behind a look-behind
# each, gives Python's engine no character to skip to (5x faster on hugegraph's 620 KB page).
_DIGITS: Final = "0123456789"
# The zones a commit's day is read in besides its own and UTC, as seconds east of UTC: the
# earliest and the latest any place keeps (UTC-12, UTC+14); the days between are read too.
_WIDEST: Final = (-12 * 3600, 14 * 3600)


@dataclass(frozen=True, slots=True)
class CommitFacts:
    """What a commit knows of itself: its hash, its author's and committer's times (Unix
    seconds) and zones (seconds east of UTC), its author's and committer's names."""

    sha: str
    times: tuple[tuple[int, int], ...]
    names: tuple[str, ...]


def read_commit_facts(git: Git) -> dict[int, list[CommitFacts]]:
    """The facts of each commit of HEAD's first-parent line, by its committer time (the name
    history.probes.commit_of gives a commit), from one ``git log``."""
    out = git.output(
        "log", "--first-parent", "-z", "--format=%H%x1f%ct%x1f%cI%x1f%at%x1f%aI%x1f%an%x1f%cn"
    )
    facts: dict[int, list[CommitFacts]] = {}
    for record in out.decode("utf-8", "replace").split("\0"):
        fields = record.strip("\n").split("\x1f")
        if len(fields) != 7:
            continue
        sha, ctime, cdate, atime, adate, author, committer = fields
        times = ((int(ctime), _offset(cdate)), (int(atime), _offset(adate)))
        names = tuple(name.strip() for name in (author, committer) if len(name.strip()) > 1)
        facts.setdefault(int(ctime), []).append(CommitFacts(sha, times, names))
    return facts


def _offset(iso: str) -> int:
    """The zone of an ISO 8601 time git wrote (%cI), in seconds east of UTC."""
    try:
        found = datetime.fromisoformat(iso).utcoffset()
    except ValueError:
        return 0
    return 0 if found is None else int(found.total_seconds())


def _days(seconds: int, offset: int, *, anywhere: bool) -> set[date]:
    """The days of the time ``seconds`` in its zone (``offset`` seconds east of UTC) and in
    UTC, and, ``anywhere``, in every zone from UTC-12 to UTC+14 (see above)."""
    zones = {timezone(timedelta(seconds=offset)), UTC}
    if anywhere:
        zones |= {timezone(timedelta(seconds=east)) for east in _WIDEST}
    found = {datetime.fromtimestamp(seconds, zone).date() for zone in zones}
    return {min(found) + timedelta(days=n) for n in range((max(found) - min(found)).days + 1)}


def stamp_pattern(
    commits: Iterable[CommitFacts], *, anywhere: bool = False
) -> re.Pattern[str] | None:
    """One regular expression for every stamp of ``commits`` (one commit, or those of one
    time); None if they have none. ``anywhere``: a day in any zone is one (_days)."""
    forms: set[str] = set()
    starts = set(_DIGITS)  # (what a stamp starts with: see _DIGITS)
    for facts in commits:
        for seconds, offset in facts.times:
            for day in _days(seconds, offset, anywhere=anywhere):
                forms |= day_forms(day)
                starts.add(MONTHS[day.month - 1][0])
        forms.update(re.escape(name) for name in facts.names)
        starts.update(name[0] for name in facts.names)
        if facts.sha:  # (a deploy has none: deploy_stamps)
            forms.add(_hash_form(facts.sha))
            starts.add(facts.sha[0])
    if not forms:
        return None
    first = "".join(re.escape(start) for start in sorted(starts))
    return re.compile(f"(?=[{first}])(?:{'|'.join(sorted(forms, key=len, reverse=True))})")


def stamp_literals(commits: Iterable[CommitFacts], *, anywhere: bool = False) -> frozenset[str]:
    """What every stamp of ``commits`` (stamp_pattern, ``anywhere`` alike) holds one of, spelt
    as it is: each of its days' year (every form of a date prints it in digits), each name,
    each hash's first _SHORT_HASH digits."""
    found: set[str] = set()
    for facts in commits:
        for seconds, offset in facts.times:
            found.update(str(day.year) for day in _days(seconds, offset, anywhere=anywhere))
        found.update(name for name in facts.names)
        if facts.sha:
            found.add(facts.sha[:_SHORT_HASH])
    return frozenset(found)


def deploy_stamps(seconds: int) -> re.Pattern[str] | None:
    """The stamps of a bucket's deploy at ``seconds`` (its LastModified, in UTC): its date in
    any form, with or without a time (a deploy has no author or hash)."""
    return stamp_pattern([CommitFacts("", ((seconds, 0),), ())])


def unstamped(text: str, stamps: re.Pattern[str]) -> tuple[str, bool]:
    """``text`` with each stamp of ``stamps`` replaced by one placeholder, and whether any was."""
    out, count = stamps.subn(_PLACEHOLDER, text)
    return out, count > 0


def _hash_form(sha: str) -> str:
    """A commit's hash, whole or shortened to no fewer than _SHORT_HASH digits."""
    lengths = range(len(sha), _SHORT_HASH - 1, -1)
    return r"(?<![0-9a-fA-F])(?:" + "|".join(sha[:n] for n in lengths) + r")(?![0-9a-fA-F])"


def is_stamp_edit(
    newer: str, older: str, newer_stamps: re.Pattern[str] | None, older_stamps: re.Pattern[str]
) -> bool:
    """Whether reduction ``older`` became ``newer`` by taking out stamps of the older commit
    (``older_stamps``) and putting in stamps of the newer one, and nothing else."""
    if newer_stamps is None or newer == older:
        return False
    newer, older = _differing(newer, older)
    unstamped = newer_stamps.sub(_PLACEHOLDER, newer)
    return unstamped == older_stamps.sub(_PLACEHOLDER, older) and _PLACEHOLDER in unstamped


def _differing(newer: str, older: str) -> tuple[str, str]:
    """The parts of ``newer`` and ``older`` between their common start and end, with _CONTEXT
    characters of each around them (a stamp is shorter): the stamps' expression reads those
    only, not the whole page twice."""
    start = _common(newer, older, lambda n: newer[:n] == older[:n])
    limit = min(len(newer), len(older)) - start
    end = _common(newer, older, lambda n: newer[len(newer) - n :] == older[len(older) - n :], limit)
    cut = max(0, start - _CONTEXT)
    return (
        newer[cut : len(newer) - max(0, end - _CONTEXT)],
        older[cut : len(older) - max(0, end - _CONTEXT)],
    )


def _common(newer: str, older: str, same: Callable[[int], bool], limit: int = -1) -> int:
    """The largest n up to ``limit`` (the shorter length) for which ``same(n)``, by halving."""
    low, high = 0, min(len(newer), len(older)) if limit < 0 else limit
    while low < high:
        middle = (low + high + 1) // 2
        if same(middle):
            low = middle
        else:
            high = middle - 1
    return low


class CommitStamps:
    """The stamp patterns of a history's commits by committer time, read on first use."""

    def __init__(self, git: Git) -> None:
        self._git = git
        self._facts: dict[int, list[CommitFacts]] | None = None
        self._patterns: dict[int, re.Pattern[str] | None] = {}
        self._literals: dict[int, frozenset[str]] = {}

    def pattern(self, time: int) -> re.Pattern[str] | None:
        """The stamps of the commits at ``time`` (None: none known)."""
        if time not in self._patterns:
            self._patterns[time] = stamp_pattern(self._facts_at(time), anywhere=True)
        return self._patterns[time]

    def is_stamp_edit(self, newer: str, older: str, times: tuple[int, int]) -> bool:
        """is_stamp_edit for reduction ``older`` of the commit at ``times[1]`` and ``newer``
        of the one at ``times[0]``; their expressions are compiled only when the part of
        ``newer`` that differs holds one of its commit's stamp_literals (or the placeholder)."""
        if newer == older:
            return False
        if times[0] not in self._literals:
            self._literals[times[0]] = stamp_literals(self._facts_at(times[0]), anywhere=True)
        changed, _ = _differing(newer, older)
        if _PLACEHOLDER not in changed and not any(
            literal in changed for literal in self._literals[times[0]]
        ):
            return False  # (newer's stamps match nowhere in it: no stamp was put in)
        older_stamps = self.pattern(times[1])
        if older_stamps is None:
            return False
        return is_stamp_edit(newer, older, self.pattern(times[0]), older_stamps)

    def _facts_at(self, time: int) -> list[CommitFacts]:
        if self._facts is None:
            self._facts = read_commit_facts(self._git)
        return self._facts.get(time, [])
