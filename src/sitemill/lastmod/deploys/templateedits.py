"""Template edits of one bucket deploy: an edit on most of the pages it changed moves no date."""
# The git walk names the edit at each page's stop from its two versions (history.templateedits). A
# bucket keeps no older bytes (a deploy overwrites them), so its state keeps, per page, what names
# the page's next edit without them (``parts``, at most 25 characters: no text, no name):
#
# - the token sum (history.edits.token_sum: the tokens edit_of names an edit by, summed as hashes)
#   of the page's reduction with its deploy's stamps (history.stamps: its LastModified's date in
#   any form) made one placeholder, 12 hex digits;
# - where the page printed such a stamp, "." and the first 12 hex digits of that reduction's
#   fingerprint (of a page without one, its fingerprint is that).
#
# A run over a bucket (an S3-event batch, a rebuild, one shard's worker) is one deploy: the pages
# whose fingerprint changed are its changed pages. A page whose reduction, stamps made placeholders,
# is the one remembered changed its stamps only: no content, its date stays. Of the others, each
# page's edit is the difference of its two token sums (history.edits.sum_edit); one edit made on at
# least MIN_SECTION of them and on more than half (a footer's version string, a link target moved
# on every page, a button moved into the content) is template: those pages keep their dates. A
# page whose edit differs (its own paragraph changed beside the footer) is dated by the deploy, as
# is a page whose record holds no parts (a state of an earlier sitemill), and an edit that took out
# and put in nothing (a reorder) is never template. Unlike the git walk, a target is named by its
# two ends, not by its move: pages whose own targets moved alike (a new base path) keep an edit
# each. The reduction and the edits' names are imported when a page is read or judged: a run that
# reads no page (its objects uploaded again with the same bytes) starts without them.

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from typing import Final

from sitemill.lastmod.history.sections import MIN_SECTION
from sitemill.lastmod.history.stamps import deploy_stamps, unstamped

_HEX: Final = 12
# Characters read on each side of a year for a date around it (a stamp is shorter: "Wednesday,
# 2 September 2026 at 08:30:00 +00:00" is 31 before its year and 22 after).
_REACH: Final = 48


def page_parts(reduction: str, lastmod: str | None) -> str:
    """What the state keeps of a page whose reduction (fingerprint.digest.reduce_html) is
    ``reduction`` and whose LastModified is ``lastmod`` (W3C, UTC; None: none): see above."""
    stamps = None if lastmod is None else _stamps(lastmod[:10])
    text, stamped = (reduction, False)
    if stamps is not None and lastmod is not None:
        text, stamped = _unstamped(reduction, stamps, lastmod[:4])
    from sitemill.lastmod.fingerprint.digest import reduction_fingerprint
    from sitemill.lastmod.history.edits import token_sum

    parts = f"{token_sum(text):0{_HEX}x}"
    return parts + "." + reduction_fingerprint(text)[:_HEX] if stamped else parts


def _unstamped(text: str, stamps: re.Pattern[str], year: str) -> tuple[str, bool]:
    """history.stamps.unstamped, read only around each place ``year`` stands (every form of a
    date holds its year): a page without it costs one scan, not the whole expression."""
    spans: list[list[int]] = []
    at = text.find(year)
    while at >= 0:
        start, end = _word_start(text, at - _REACH), _word_end(text, at + len(year) + _REACH)
        if spans and start <= spans[-1][1]:
            spans[-1][1] = end
        else:
            spans.append([start, end])
        at = text.find(year, end)
    if not spans:
        return text, False
    pieces, last, stamped = [], 0, False
    for start, end in spans:
        piece, found = unstamped(text[start:end], stamps)
        pieces += [text[last:start], piece]
        last, stamped = end, stamped or found
    return "".join(pieces) + text[last:], stamped


def _word_start(text: str, at: int) -> int:
    """``at`` (at least 0) moved back to the start of the word it stands in."""
    while at > 0 and not text[at - 1].isspace():
        at -= 1
    return max(at, 0)


def _word_end(text: str, at: int) -> int:
    """``at`` (at most the text's end) moved on to the end of the word it stands in."""
    while at < len(text) and not text[at].isspace():
        at += 1
    return min(at, len(text))


@lru_cache(maxsize=64)
def _stamps(day: str) -> re.Pattern[str] | None:
    """The stamps of a deploy on ``day`` (YYYY-MM-DD); None: not a date."""
    try:
        moment = datetime.strptime(day, "%Y-%m-%d").replace(tzinfo=UTC)
    except ValueError:
        return None
    return deploy_stamps(int(moment.timestamp()))


def stamps_only(parts: str, remembered: str, fingerprint: str) -> bool:
    """Whether a page whose parts are now ``parts`` changed only its stamps since the record
    of ``remembered`` parts and ``fingerprint``."""
    _, dot, now = parts.partition(".")
    _, was_dot, was = remembered.partition(".")
    return bool(dot) and now == (was if was_dot else fingerprint[:_HEX])


@dataclass
class DeployEdits:
    """One deploy's pages: their LastModified (noted before each is read), their parts and
    resemblance sketches (noted by the readers, one key each) and, once judged, those whose
    edit moves no date."""

    times: dict[str, str | None] = field(default_factory=dict)
    parts: dict[str, str] = field(default_factory=dict)
    sketches: dict[str, str] = field(default_factory=dict)  # (fingerprint.resemblance)
    kept: frozenset[str] = frozenset()

    def fingerprint(
        self,
        data: bytes,
        *,
        path: str,
        ignore: tuple[re.Pattern[str], ...] = (),
        main: bool = True,
        base: str = "",
    ) -> str:
        """The page's fingerprint (fingerprint.digest.fingerprint_html, its links resolved
        from the site's ``base`` URL), its parts and its sketch (from the same reduction) noted."""
        from sitemill.lastmod.fingerprint.digest import file_url, reduce_html, reduction_fingerprint
        from sitemill.lastmod.fingerprint.resemblance import sketch_text

        reduction = reduce_html(data, ignore, main=main, url=file_url(base, path))
        self.parts[path] = page_parts(reduction, self.times.get(path))
        if (sketch := sketch_text(reduction)) is not None:
            self.sketches[path] = sketch
        return reduction_fingerprint(reduction)

    def judge(self, changed: Iterable[tuple[str, str | None, str]]) -> None:
        """Judge the deploy's ``changed`` pages (path, the parts and the fingerprint its record
        holds), each one whose fingerprint changed: see above."""
        edits: dict[str, int | None] = {}
        stamped = set()
        for path, remembered, fingerprint in changed:
            parts = self.parts.get(path)
            if parts is None or remembered is None:
                edits[path] = None
            elif stamps_only(parts, remembered, fingerprint):
                stamped.add(path)
            else:
                from sitemill.lastmod.history.edits import sum_edit

                edits[path] = sum_edit(int(parts[:_HEX], 16), int(remembered[:_HEX], 16))
        counts = Counter(edit for edit in edits.values() if edit)  # (0: a reorder)
        template = {edit for edit, n in counts.items() if n >= MIN_SECTION and 2 * n > len(edits)}
        self.kept = frozenset(stamped | {path for path, edit in edits.items() if edit in template})

    def unchanged(self, path: str) -> bool:
        """Whether the page at ``path`` changed by a template edit or its stamps only."""
        return path in self.kept
