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
#
# A history's stamps are found by value (CommitStamps, Stamps): one expression of any date,
# compiled once in a process (dateforms.date_expressions), finds a date, and it is a stamp when
# one of the days it may be (dateforms.read_days) is among the commit's; a hash is a run of hex
# digits that starts the commit's; a name is found as it is spelt. Stamps are looked for only
# where two versions differ (stamps_alone: at each difference, and no further than _LONGEST
# characters past it), never over a whole page. Until issue 79 each commit's stamps were one
# expression of its days' forms, compiled when a stop at it was named: milliseconds each (its
# CJK unit's ranges), seconds over a history of hundreds of deploys (aea: 278 compiled, 13 s).
# A bucket's deploy keeps that one expression of its day (deploy_stamps, stamp_pattern),
# compiled once for each deploy's day.

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, timezone
from typing import TYPE_CHECKING, Final

from sitemill.lastmod.history._commonends import CONTEXT, common_ends, common_length
from sitemill.lastmod.history._dateforms import MONTHS, date_expressions, day_forms, read_days

if TYPE_CHECKING:  # (a bucket's deploy edits use the stamps without git)
    from sitemill.git.run import Git

_SHORT_HASH: Final = 7  # git's shortest abbreviation
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
# A run of hex digits as long as a hash's shortest abbreviation or longer, nothing hex beside it.
# Characters a stamp holds at most (a date with its time of day, a hash, a name): where a stamp
# is looked for before a place, the text is read no further past it (_stamp_spans).
_LONGEST: Final = 256
_HEX_RUN: Final = re.compile(rf"(?<![0-9a-fA-F])[0-9a-fA-F]{{{_SHORT_HASH},}}(?![0-9a-fA-F])")


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


def stamp_pattern(commits: Iterable[CommitFacts]) -> re.Pattern[str] | None:
    """One regular expression for every stamp of ``commits`` (one commit, or those of one
    time; a bucket's deploy: deploy_stamps); None if they have none."""
    forms: set[str] = set()
    starts = set(_DIGITS)  # (what a stamp starts with: see _DIGITS)
    for facts in commits:
        for seconds, offset in facts.times:
            for day in _days(seconds, offset, anywhere=False):
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


@dataclass(frozen=True, slots=True)
class Stamps:
    """The stamps of some commits (one, or those of one time) by value: their ``days`` (in
    any zone: _days), their authors' and committers' ``names`` (the longest first), their
    ``hashes``. Like a compiled expression
    of them (stamp_pattern), it replaces each stamp it finds (``sub``)."""

    days: frozenset[date]
    names: tuple[str, ...]
    hashes: tuple[str, ...]
    # What every stamp holds one of, spelt as it is: each day's year (every form of a date
    # prints it in digits), each name, each hash's first _SHORT_HASH digits, the placeholder.
    literals: tuple[str, ...]

    def sub(self, placeholder: str, text: str) -> str:
        """``text`` with each stamp, from the left, replaced by ``placeholder``."""
        out: list[str] = []
        at = 0
        for start, end in _stamp_spans(text, self):
            out += (text[at:start], placeholder)
            at = end
        return "".join(out) + text[at:] if out else text


def commit_stamps_of(commits: Iterable[CommitFacts]) -> Stamps | None:
    """The Stamps of ``commits``, their days in any zone (see above); None if they have none."""
    days: set[date] = set()
    names: set[str] = set()
    hashes: set[str] = set()
    for facts in commits:
        for seconds, offset in facts.times:
            days |= _days(seconds, offset, anywhere=True)
        names.update(facts.names)
        if facts.sha:
            hashes.add(facts.sha)
    if not days and not names and not hashes:
        return None
    # (the longest first, as stamp_pattern tries them: its forms sorted by their length)
    spelt = tuple(sorted(names, key=lambda name: len(re.escape(name)), reverse=True))
    years = sorted({str(day.year) for day in days})
    literals = (*years, *spelt, *(sha[:_SHORT_HASH] for sha in sorted(hashes)), _PLACEHOLDER)
    return Stamps(frozenset(days), spelt, tuple(sorted(hashes)), literals)


def _stamp_spans(
    text: str, stamps: Stamps, at: int = 0, until: int | None = None
) -> Iterator[tuple[int, int]]:
    """Where ``stamps`` stand in ``text`` from ``at`` on, from the left, none overlapping (as
    stamp_pattern's expression finds them): at each place the first that starts there, a hash
    before a date before a name (stamp_pattern's alternation, its longest forms first).
    ``until``: those that start there at the latest are wanted (the text is read no further
    than _LONGEST characters past it)."""
    limit = len(text) if until is None else min(len(text), until + _LONGEST)
    found = [step(text, (at, limit), stamps) for step in _FINDERS]
    while True:
        here = [span for span in found if span is not None]
        if not here:
            return
        start = min(span[0] for span in here)
        span = next(span for span in here if span[0] == start)
        yield span
        at = span[1]
        for kind, (step, held) in enumerate(zip(_FINDERS, found, strict=True)):
            if held is not None and held[0] < at:
                found[kind] = step(text, (at, limit), stamps)


def _next_hash(text: str, where: tuple[int, int], stamps: Stamps) -> tuple[int, int] | None:
    """The first hash of ``stamps`` in ``text`` between ``where``'s two places: a hex run that
    starts one."""
    if not stamps.hashes:
        return None
    for run in _HEX_RUN.finditer(text, *where):
        if any(sha.startswith(run[0]) for sha in stamps.hashes):
            return run.span()
    return None


def _next_date(text: str, where: tuple[int, int], stamps: Stamps) -> tuple[int, int] | None:
    """The first date in ``text`` between ``where``'s two places that may be one of the days
    of ``stamps`` (a date that is none is passed by one character: another may start in it)."""
    if not stamps.days:
        return None
    dates, (at, limit) = date_expressions()[0], where
    while (found := dates.search(text, at, limit)) is not None:
        if any(day in stamps.days for day in read_days(found[0])):
            return found.span()
        at = found.start() + 1
    return None


def _next_name(text: str, where: tuple[int, int], stamps: Stamps) -> tuple[int, int] | None:
    """The first name of ``stamps`` in ``text`` between ``where``'s two places, the longest
    where two start at one place."""
    best: tuple[int, int] | None = None
    for name in stamps.names:
        start = text.find(name, *where)
        if start >= 0 and (best is None or start < best[0]):
            best = (start, start + len(name))
    return best


def _next_placeholder(text: str, where: tuple[int, int], stamps: Stamps) -> tuple[int, int] | None:
    """The first placeholder in ``text`` between ``where``'s two places: one that stood there
    already is a stamp as one put there is (as the two texts read with their stamps replaced by
    it)."""
    found = text.find(_PLACEHOLDER, *where)
    return None if found < 0 else (found, found + 1)


_FINDERS: Final = (_next_hash, _next_date, _next_name, _next_placeholder)


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


def stamps_alone(newer: str, older: str, new: Stamps, old: Stamps) -> bool:
    """Whether ``older`` became ``newer`` by stamps alone, read difference by difference:
    where the two first differ, a stamp of the newer commit (``new``) put in where the older
    one's (``old``) stood, starting as far back in both, or put in where none stood, or one of
    the older commit's taken out (issue 79: what the commit knows of itself, however it came),
    and after it the two alike up to their next difference, and so on to their ends. Only the
    differences and CONTEXT characters before each are looked at for stamps (a page whose
    deploy printed its day in its head and at its foot is not read whole between them)."""
    if newer == older:
        return False
    at, (start, end) = (0, 0), common_ends(newer, older)
    i, j = start, start
    while newer[i:] != older[j:]:
        if i >= len(newer) - end and j >= len(older) - end:
            return False  # (the common end reached, and not alike: a stamp ran into it)
        if not _holds_literal(newer, (max(at[0], i - CONTEXT), i), new) and not _holds_literal(
            older, (max(at[1], j - CONTEXT), j), old
        ):
            return False  # (no stamp can stand there: most edits, told without a search)
        put_in = _stamp_over(newer, (max(at[0], i - CONTEXT), i), new)
        taken_out = _stamp_over(older, (max(at[1], j - CONTEXT), j), old)
        if put_in is not None and taken_out is not None and i - put_in[0] == j - taken_out[0]:
            at = put_in[1], taken_out[1]  # (one stamp for another)
        elif (alone := _stamp_alone(newer, older, (i, j), new)) is not None:
            at = alone  # (a stamp where none stood)
        elif (alone := _stamp_alone(older, newer, (j, i), old)) is not None:
            at = alone[1], alone[0]  # (a stamp taken out)
        else:
            return False
        same = _common_start(newer, older, at)
        i, j = at[0] + same, at[1] + same
    return at != (0, 0)


def _holds_literal(text: str, where: tuple[int, int], stamps: Stamps) -> bool:
    """Whether one of the literals of ``stamps`` stands in ``text`` between ``where[0]`` and
    _LONGEST characters past ``where[1]``: a stamp found there (_stamp_over) holds one."""
    end = where[1] + _LONGEST
    return any(text.find(literal, where[0], end) >= 0 for literal in stamps.literals)


def _stamp_alone(
    one: str, other: str, where: tuple[int, int], stamps: Stamps
) -> tuple[int, int] | None:
    """Where ``one`` and ``other`` go on alike (each's place) after a stamp of ``stamps`` that
    ``one`` holds at ``where[0]`` (or after white space there) and ``other`` does not, the
    white space put in beside it with it; None if none is there."""
    i, j = where
    spaced = i + len(one[i:]) - len(one[i:].lstrip())
    span = _stamp_over(one, (spaced, spaced), stamps)
    if span is None:  # (one found from ``spaced`` on starts there)
        return None
    after = span[1]
    beside = len(one[after:]) - len(one[after:].lstrip())
    kept = len(other[j:]) - len(other[j:].lstrip())
    return after + max(0, beside - kept), j


def _stamp_over(text: str, where: tuple[int, int], stamps: Stamps) -> tuple[int, int] | None:
    """The stamp of ``stamps`` found from ``where[0]`` on that stands over ``where[1]`` (or
    ends there); None if none does."""
    for span in _stamp_spans(text, stamps, *where):
        if span[0] > where[1]:
            return None
        if span[1] >= where[1]:
            return span
    return None


def _common_start(newer: str, older: str, at: tuple[int, int]) -> int:
    """The length of the common start of ``newer`` from ``at[0]`` and ``older`` from
    ``at[1]``."""
    tail = (newer[at[0] :], older[at[1] :])
    return common_length(*tail, lambda n: tail[0][:n] == tail[1][:n])


class CommitStamps:
    """The stamps of a history's commits by committer time (Stamps), read on first use."""

    def __init__(self, git: Git) -> None:
        self._git = git
        self._facts: dict[int, list[CommitFacts]] | None = None
        self._stamps: dict[int, Stamps | None] = {}

    def stamps(self, time: int) -> Stamps | None:
        """The stamps of the commits at ``time`` (None: none known)."""
        if time not in self._stamps:
            self._stamps[time] = commit_stamps_of(self._commit_facts().get(time, []))
        return self._stamps[time]

    def commits(self, time: int) -> list[str]:
        """The ids of the commits at ``time`` (history.listings reads what each changed)."""
        return [facts.sha for facts in self._commit_facts().get(time, []) if facts.sha]

    def _commit_facts(self) -> dict[int, list[CommitFacts]]:
        """The facts of every commit, read from git once, when first asked."""
        if self._facts is None:
            self._facts = read_commit_facts(self._git)
        return self._facts

    def holds_stamp(self, text: str, time: int) -> bool:
        """Whether ``text`` holds a stamp of the commits at ``time``."""
        stamps = self.stamps(time)
        return stamps is not None and next(_stamp_spans(text, stamps), None) is not None

    def is_stamp_edit(self, newer: str, older: str, times: tuple[int, int]) -> bool:
        """Whether reduction ``older`` of the commit at ``times[1]`` became ``newer`` of the one
        at ``times[0]`` by stamps alone, read where they differ (stamps_alone)."""
        if newer == older:
            return False
        new, old = self.stamps(times[0]), self.stamps(times[1])
        return new is not None and old is not None and stamps_alone(newer, older, new, old)
