"""Stamps at a commit few pages stop at: a page whose deploy changed only its stamps."""
# What the commit knows of itself is a stamp on however few pages (issue 79): a deploy that
# changed two FAQ pages' "Published: <the deploy's day>" and nothing else, or three tag pages whose
# only change is a listed post's date printed as the deploy's day (2026年7月8日), moves no date.
# history.templateedits names the stops where at least MIN_SECTION pages, or most of a section,
# stop at one commit; any other stop (most are a page's own edit, and reducing both versions of
# every one would cost a first run most of its time again) is read here as bytes only: the part
# of its two versions, as git keeps them, between their common start and end (commonends.differing),
# compared with the commits' stamps (history.stamps). Two versions whose first or last
# difference stands near no digit and no month name are told apart without a stamp looked for
# (_near_a_date): a lone stop's stamp is a date (an author's name or a hash changed alone is
# judged where the counts name stops). Where they differ in the commits' stamps alone, the
# stop is named so (STAMP_EDIT) and remembered, as stopedits.name_stops names one; a stop an
# earlier run named is recalled, never read. Where they differ in their links' and images'
# targets alone (_targets_alone), the stop is named from its reductions (stopedits.name_stops):
# a link re-pointed within the document it leads to, or another site's host moved alone, is no
# content there as a stamp is (STAMP_EDIT), on however few pages (issue 79, dating rules 17).
#
# A page whose every deploy printed a new stamp (aea's LICENSE-template.html: "Published: <the
# deploy's day>" on 180 deploys, nothing else) is followed past all of them at once: the older
# versions' stops are read the same way, one after the other, while they changed stamps alone,
# and the page is carried past the last (its fingerprint taken from its reduction), not one
# version a round (a round reads every stop of the site again: 203 rounds took aea's first run
# from 5.6 to 21 s of CPU). So is a page whose stamp stop a round named (its deploy changed at
# least MIN_SECTION pages: history.commitcensus) and carried: aea's guidance pages, re-stamped
# with every guide's head on each deploy, were carried one deploy a round (173 rounds, 24 before
# such stops were named: LoneStamps.followed_on).

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Final

from sitemill.git.run import GitBatch
from sitemill.lastmod.fingerprint.digest import reduction_fingerprint
from sitemill.lastmod.history._commonends import common_ends, differing
from sitemill.lastmod.history._dateforms import MONTHS
from sitemill.lastmod.history._stopedits import (
    STAMP_EDIT,
    HeldReductions,
    Reduce,
    StopEdits,
    StopReader,
    recall_name,
    stop_keys,
)
from sitemill.lastmod.history.blobs import read_blobs
from sitemill.lastmod.history.stamps import CommitStamps
from sitemill.lastmod.history.versions import Version
from sitemill.lastmod.history.walk import Run, blob_key

# Month names (dateforms.MONTHS, whole or cut to three letters), looked for near where two
# versions differ (_near_a_date).
_MONTH_NAMES: Final = re.compile(
    "|".join(sorted({*MONTHS, *(name[:3] for name in MONTHS)}, key=len, reverse=True))
)
# Bytes on each side of where two versions differ that a date's digit or month name stands in
# if the difference is in a date (_near_a_date: "September 30th" from its S to its 3 is 10).
_NEAR: Final = 16
# Bytes an edit changes at most that its reductions are read for when it holds a stamp beside
# more than stamps (a footer put in with the deploy's day: _stamps_alone).
_SHORT: Final = 512
# A link's or an image's target, its attribute's value (_targets_alone).
_TARGET_VALUE: Final = re.compile(
    rb"""([\t\n\f\r ](?:href|src|srcset)[\t\n\f\r ]*=[\t\n\f\r ]*)"""
    rb"""(?:"[^"]*+"|'[^']*+'|[^\t\n\f\r "'>]++)""",
    re.IGNORECASE,
)
# Versions read at once where a page's stamps are followed back (LoneStamps._ahead).
_AHEAD: Final = 16
# A stop: a page's path and its run's end there.
Stop = tuple[str, int]
# What a stop's two versions are: stamps alone (True), something else (False), not yet read
# (None).
_Verdict = bool | None


class LoneStamps:
    """The stops no round named, each read once for its stamps alone (see above), with the
    ``reader`` stops are named with (stopedits.StopReader: the git batch, the reduction, the
    commits' stamps, the reductions held) and the tables it names into (``edits``), of the
    ``site``'s pages (their runs, and what an earlier run and this one remembered)."""

    def __init__(
        self,
        reader: StopReader,
        edits: StopEdits,
        name: Callable[[list[Stop]], int],
        site: tuple[Mapping[str, Run], tuple[Mapping[str, str], dict[str, str]]],
    ) -> None:
        self._reader = reader
        self._edits = edits
        self._name_stops = name
        self._pages, self._remembered = site
        self._tried: set[Stop] = set()
        self.read = 0  # (blobs read)

    def stamped(self, every: list[Stop]) -> list[Stop]:
        """Of the stops of ``every`` no round has named nor read here before, those whose edit
        changed only their commits' stamps, each carried as far back as its page's versions
        changed stamps alone: the last such stop of each (see above), named. None without the
        commits' stamps."""
        edits, pages = self._edits[0], self._pages
        if self._reader[2] is None:
            return []
        lone = [stop for stop in every if stop not in self._tried and stop not in edits]
        self._tried.update(lone)
        verdicts = {stop: _recalled(stop, pages, self._remembered) for stop in lone}
        unread = [stop for stop, verdict in verdicts.items() if verdict is None]
        verdicts.update(self._read(unread, pages))
        return [self._back(stop) for stop, verdict in verdicts.items() if verdict]

    def followed_on(self, carried: list[Stop]) -> list[Stop]:
        """``carried`` (a round's stops carried past), each that a round named a stamp edit
        and that was not followed here before followed as far back as its page's versions
        changed stamps alone, as a stop no round named is (stamped): the last such stop of
        each."""
        edits = self._edits[0]
        return [
            self._back(stop) if edits.get(stop) == STAMP_EDIT and stop not in self._tried else stop
            for stop in carried
        ]

    def _back(self, stop: Stop) -> Stop:
        """The last stop of ``stop``'s page from it on whose edit changed stamps alone
        (_followed), each of them tried."""
        path, end = stop
        last = self._followed(path, self._pages[path], end, self._remembered)
        self._tried.update((path, at) for at in range(end, last + 1))
        return path, last

    def _read(self, stops: list[Stop], pages: Mapping[str, Run]) -> dict[Stop, _Verdict]:
        """Whether each of ``stops`` changed its commits' stamps alone, read from its two
        versions' bytes (their blobs read at once)."""
        batch, stamps = self._reader[0], self._reader[2]
        blobs = {version.blob for stop in stops for version in _around(pages[stop[0]], stop[1])}
        wanted = sorted(blob for blob in blobs if blob is not None)
        data = dict(read_blobs(batch, wanted))
        self.read += len(wanted)
        verdicts: dict[Stop, _Verdict] = {}
        for path, end in stops:
            newer, older = _around(pages[path], end)
            texts = (data.get(newer.blob or b""), data.get(older.blob or b""))
            verdicts[path, end] = stamps is not None and _stamps_alone(
                texts, (newer, older), stamps
            )
        unclear = [stop for stop, verdict in verdicts.items() if verdict is None]
        if unclear:  # (their reductions tell: stopedits.name_stops, the others' naming)
            self.read += self._name_stops(unclear)
            verdicts.update({stop: self._edits[0].get(stop) == STAMP_EDIT for stop in unclear})
        return verdicts

    def _followed(
        self,
        path: str,
        run: Run,
        end: int,
        remembered: tuple[Mapping[str, str], dict[str, str]],
    ) -> int:
        """The last stop of the page at ``path`` from ``end`` on whose edit, as each before
        it, changed stamps alone, all of them named so; ``end`` itself when the fingerprint
        of the version before that one cannot be taken as the walk takes it."""
        batch, reduce, stamps, held = self._reader[:4]
        last, data = end, dict[bytes | None, bytes | None]()
        while (next_end := last + 1) < len(run.chain):
            verdict = _recalled((path, next_end), {path: run}, remembered)
            if verdict is None and stamps is not None:
                newer, older = _around(run, next_end)
                if older.blob not in data:  # (the next _AHEAD versions, in one request)
                    data = {newer.blob: data.get(newer.blob), **self._ahead(run, next_end)}
                texts = (data.get(newer.blob), data.get(older.blob))
                verdict = _stamps_alone(texts, (newer, older), stamps) or False
            if not verdict:
                break
            last = next_end
        for at in range(end, last + 1):
            self._name(path, run, at, remembered)
        if last == end:
            return end
        found = _fingerprint(path, run, (end, last), (batch, reduce, held), remembered)
        if found is None:
            return end
        remembered[1][blob_key(path, run.chain[last].blob or b"")] = found
        return last

    def _ahead(self, run: Run, end: int) -> dict[bytes | None, bytes | None]:
        """The bytes of the versions of ``run`` from the one before ``end`` on, _AHEAD of them
        (those of the newer ones read: a page that printed its deploy's day on every deploy is
        read in a few requests, not one a version)."""
        versions = run.chain[end - 1 : end + _AHEAD]
        wanted = list(dict.fromkeys(v.blob for v in versions if v.blob is not None))
        self.read += len(wanted)
        return dict(read_blobs(self._reader[0], wanted))

    def _name(
        self, path: str, run: Run, end: int, remembered: tuple[Mapping[str, str], dict[str, str]]
    ) -> None:
        """Name the stop at ``end`` of ``path``'s run a stamp edit, and remember it so."""
        for table in self._edits:
            table[path, end] = STAMP_EDIT
        for key in stop_keys(path, run, end) or ():
            remembered[1][key] = STAMP_EDIT


def _recalled(
    stop: Stop, pages: Mapping[str, Run], remembered: tuple[Mapping[str, str], dict[str, str]]
) -> _Verdict:
    """What an earlier run (or this one) named the edit at ``stop``: stamps alone, something
    else, or nothing yet (None); a deleted version's stop is none."""
    keys = stop_keys(stop[0], pages[stop[0]], stop[1])
    if keys is None:
        return False
    names = [recall_name(remembered, key) for key in keys]
    if None in names:
        return None
    return all(name == STAMP_EDIT for name in names)


def _stamps_alone(
    texts: tuple[bytes | None, bytes | None],
    versions: tuple[Version, Version],
    stamps: CommitStamps,
) -> _Verdict:
    """Whether ``texts`` (the bytes of the newer and the older of ``versions``) differ in
    their commits' stamps alone (history.stamps), read where they differ, digits and month
    names near their first and last difference first (_near_a_date); None when their
    reductions are to tell: a short edit that is more than stamps in bytes and holds one (a
    footer put in with the deploy's day: its tags are no words), or one of targets alone
    (_targets_alone: no content, perhaps)."""
    newer, older = texts
    if newer is None or older is None or newer == older:
        return False
    start, end = common_ends(newer, older)
    if _targets_alone(newer, older, (start, end)):
        return None  # (no content, perhaps: stopedits.stop_names tells from the reductions)
    times = (versions[0].time, versions[1].time)
    short = max(len(newer), len(older)) - end - start <= _SHORT
    edges = (start, len(newer) - end - 1), (start, len(older) - end - 1)
    if not short and not all(
        _near_a_date(text, at) for text, ats in zip(texts, edges, strict=True) for at in ats
    ):
        return False  # (an edit whose first or last change is no date's: no page scanned)
    parts = differing(newer, older, (start, end))  # (alike around them: no stamp there counts)
    decoded = (parts[0].decode("utf-8", "replace"), parts[1].decode("utf-8", "replace"))
    if stamps.is_stamp_edit(*decoded, times):
        return True
    return None if short and stamps.holds_stamp(decoded[0], times[0]) else False


def _fingerprint(
    path: str,
    run: Run,
    ends: tuple[int, int],
    reading: tuple[GitBatch, Reduce, HeldReductions],
    remembered: tuple[Mapping[str, str], dict[str, str]],
) -> str | None:
    """The fingerprint of the older version at the stop ``ends[1]``, from its reduction;
    None unless the older version at ``ends[0]``, whose fingerprint the walk took, gives that
    one so too (a reduction that is not what the walk's fingerprint hashes)."""
    batch, reduce, held = reading
    first, last = run.chain[ends[0]].blob, run.chain[ends[1]].blob
    known = None if first is None else recall_name(remembered, blob_key(path, first))
    if first is None or last is None or known is None:
        return None
    found = {}
    for blob in (first, last):
        kept = held.get(blob, path)
        if kept is not None:
            found[blob] = kept
    wanted = [blob for blob in (first, last) if blob not in found]
    for blob, data in read_blobs(batch, wanted):
        if data is None:
            return None
        found[blob] = reduce(path, data)
        held.add(blob, path, found[blob])
    if reduction_fingerprint(found[first]) != known:
        return None
    return reduction_fingerprint(found[last])


def _targets_alone(newer: bytes, older: bytes, ends: tuple[int, int]) -> bool:
    """Whether ``newer`` and ``older`` (their common start and end: ``ends``) differ in their
    links' and images' targets alone, read from the first tag their difference stands in to
    the end of the last. Such an edit may be no content, whatever its page's commit changed
    (issue 79): a link re-pointed within the document it leads to (ESDoc's "source" links,
    ``#lineNumber60`` made ``#lineNumber59`` where the source file lost a line, on one class's
    page), another site's host moved alone; or a page's own edit (a link led elsewhere), which
    the reductions tell (stopedits.stop_names names the first two as it names a stamp)."""
    start, end = ends
    first = newer.rfind(b"<", 0, start)
    tail = len(newer) - end  # (where their common end starts in ``newer``)
    if first < newer.rfind(b">", 0, start) or -1 < newer.find(b"<", tail) < newer.find(b">", tail):
        return False  # (their difference starts or ends outside a tag: in the text)
    lasts = [text.find(b">", len(text) - end) for text in (newer, older)]
    parts = [
        _TARGET_VALUE.sub(rb"\1", text[max(first, 0) : len(text) if last < 0 else last + 1])
        for text, last in zip((newer, older), lasts, strict=True)
    ]
    return parts[0] == parts[1]


def _near_a_date(text: bytes | None, at: int) -> bool:
    """Whether a digit or a month's name stands within _NEAR bytes of ``at`` in ``text``
    (every character of a date does: 2024年3月9日, September 30th, 2024)."""
    if text is None or not 0 <= at < len(text) + 1:
        return False
    near = text[max(0, at - _NEAR) : at + _NEAR + 1].decode("utf-8", "replace")
    return any(character.isdigit() for character in near) or bool(_MONTH_NAMES.search(near))


def _around(run: Run, end: int) -> tuple[Version, Version]:
    """The newer and the older version around the stop at ``end``."""
    return run.chain[end - 1], run.chain[end]
