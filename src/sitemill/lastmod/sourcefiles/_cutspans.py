"""Spans from an opener to its closer (comments, template tags) taken out of a text in one pass."""
# A pattern ``<!--.*?-->`` scans to the end of the text for each opener that has no closer after
# it: 500 KB of ``<!--`` take minutes. Here a missing closer is looked for once per kind: an
# opener of that kind further on cannot have one either.

from __future__ import annotations

import re
from collections.abc import Mapping


def cut_spans(
    text: str, openers: re.Pattern[str], closers: Mapping[str, str | None], fill: str = " "
) -> str:
    """``text`` with each span from an opener (a match of ``openers``, leftmost first) to the
    first ``closers[opener]`` after it replaced by ``fill``, as a lazy ``open.*?close`` with
    ``re.S`` reads it: an opener with no closer after it stays as text. A closer of None ends
    the span at the end of its line (the line break stays), or of the text."""
    pieces: list[str] = []
    kept = at = 0
    unclosed: set[str] = set()
    while (found := openers.search(text, at)) is not None:
        opener, closer = found[0], closers[found[0]]
        end = -1
        if closer is None:
            end = text.find("\n", found.end())
            end = len(text) if end < 0 else end
        elif opener not in unclosed:
            end = text.find(closer, found.end())
            if end < 0:
                unclosed.add(opener)
            else:
                end += len(closer)
        if end < 0:
            at = found.start() + 1  # (another opener may start inside this one)
            continue
        pieces += (text[kept : found.start()], fill)
        kept = at = end
    pieces.append(text[kept:])
    return "".join(pieces)
