"""Comments in a page's text, which part no words (fingerprint version 9)."""

from __future__ import annotations

import re
from typing import Final

# A comment is no word boundary (fingerprint v9): a browser renders nothing where it stands, so
# ``tutorials<!-- --><span>1</span>`` reads "tutorials1" as ``tutorials<span>1</span>`` does (React
# writes ``<!-- -->`` between two pieces of text of one element: answer's tag list at 952ab004c2).
# Versions before 9 read a comment as a space, as any tag that is not an inline element's. A
# comment that stands in a tag (a value holding "<!--"), in a script, a style or another comment is
# not one; one left open is read by the passes, to the page's end.
_COMMENT_END: Final = re.compile(rb"-?>|.*?--!?>", re.DOTALL)
_CODE: Final = ((b"<!--", b"-->"), (b"<script", b"</script"), (b"<style", b"</style"))


def join_around_comments(data: bytes) -> bytes:
    """``data`` (a page's bytes) without its comments that stand in text (see above): the
    words on either side joined, as a reader reads them. One walk: each comment, script and
    style found once, in order, by bytes.find (a page with hundreds of React's comments reads
    each place once)."""
    at = data.find(b"<!--")
    if at < 0:
        return data
    lowered = data.lower()
    pieces: list[bytes] = []
    done = 0
    code = _Code(lowered)
    while at >= 0:
        skipped = code.skip(at)
        if skipped > at:  # (inside a script or a style)
            at = data.find(b"<!--", skipped)
            continue
        end = _COMMENT_END.match(data, at + 4)
        if end is None:  # (left open: the passes read it to the page's end)
            break
        if data.rfind(b">", 0, at) >= data.rfind(b"<", 0, at):  # (not in a tag)
            pieces.append(data[done:at])
            done = end.end()
        at = data.find(b"<!--", end.end())
    if not pieces:
        return data
    pieces.append(data[done:])
    return b"".join(pieces)


class _Code:
    """Where the scripts and styles of a page's ``lowered`` bytes stand, found in order and
    kept until the reading passes them."""

    __slots__ = ("found", "lowered")

    def __init__(self, lowered: bytes) -> None:
        self.lowered = lowered
        self.found = [-2, -2]  # (each opening's next place; -1: none further)

    def skip(self, at: int) -> int:
        """``at`` (each call's later than the last's), or the end of the script or style open
        there (past its end tag's name; the page's end if it has none)."""
        for index, (opening, closing) in enumerate(_CODE[1:]):
            start = self.found[index]
            if start == -2:
                start = self.lowered.find(opening)
            while 0 <= start < at:
                end = self.lowered.find(closing, start)
                if end < 0:
                    return len(self.lowered)
                if end >= at:
                    return end + len(closing)
                start = self.lowered.find(opening, end)
            self.found[index] = start
        return at


def in_code(lowered: bytes, at: int) -> bool:
    """Whether the place ``at`` of a page's ``lowered`` bytes is inside a comment, a script or
    a style (opened before it and not closed between)."""
    for opening, closing in _CODE:
        start = lowered.rfind(opening, 0, at)
        if start >= 0 and lowered.find(closing, start, at) < 0:
            return True
    return False


class InCode:
    """in_code for places asked in order (each at or after the last), each construct's last
    opening and its closing remembered: the page's bytes before a place are searched once in
    all, not once a place (a page of thousands of hidden elements asks thousands)."""

    __slots__ = ("_asked", "_closed", "_last", "lowered")

    def __init__(self, lowered: bytes) -> None:
        self.lowered = lowered
        self._asked = 0  # (the last place asked)
        self._last = [-1] * len(_CODE)  # (each construct's last opening before it)
        self._closed = [-1] * len(_CODE)  # (where that opening's closing starts; -1: not yet)

    def holds(self, at: int) -> bool:
        """in_code(lowered, at): whether ``at`` is inside a comment, a script or a style."""
        if at < self._asked:
            return in_code(self.lowered, at)
        inside = False
        for index, (opening, closing) in enumerate(_CODE):
            found = self.lowered.rfind(opening, max(0, self._asked - len(opening) + 1), at)
            since = max(self._last[index], self._asked - len(closing) + 1)
            if found >= 0 and found != self._last[index]:
                self._last[index], self._closed[index], since = found, -1, found
            if self._last[index] < 0:
                continue
            if self._closed[index] < 0:
                self._closed[index] = self.lowered.find(closing, since, at)
            if self._closed[index] < 0:
                inside = True
        self._asked = at
        return inside
