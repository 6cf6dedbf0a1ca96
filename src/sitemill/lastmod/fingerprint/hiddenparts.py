"""What no reader sees: elements hidden by an attribute or an inline style (fingerprint v7)."""
# An element with the ``hidden`` attribute (not ``hidden=until-found``, which a find in the page
# shows) or an inline style of ``display: none`` or ``visibility: hidden`` is shown to no reader:
# its text, links and images are no content (a theme's hidden search template, a collapsed
# copy of a menu, a counter's placeholder). ``aria-hidden`` is not: it hides from a screen reader
# what the eye reads. Such an element is cut from the page's bytes before the reduction, to the
# end tag that closes it (the elements of its name nested in it counted); a void element
# (``<img hidden>``) is its tag alone, and so is an element whose end tag is not found (what follows
# it stays counted). A tag inside a script, a style or a comment is not read as one.

from __future__ import annotations

import re
from typing import Final

_HIDING: Final = re.compile(rb"hidden|display|visibility", re.IGNORECASE)
_START_TAG: Final = re.compile(rb"<([a-zA-Z][^\t\n\f\r />]*)([^>]*)>")
_HIDDEN_ATTRIBUTE: Final = re.compile(
    rb"""[\t\n\f\r /]hidden(?:[\t\n\f\r ]*=[\t\n\f\r ]*("[^"]*"|'[^']*'|[^\t\n\f\r >]*))?
    (?=[\t\n\f\r />]|\Z)""",
    re.IGNORECASE | re.VERBOSE,
)
_STYLE: Final = re.compile(
    rb"""[\t\n\f\r /]style[\t\n\f\r ]*=[\t\n\f\r ]*("[^"]*"|'[^']*'|[^\t\n\f\r >]*)""",
    re.IGNORECASE,
)
_HIDING_STYLE: Final = re.compile(
    rb"(?:^|[;\s\"'])(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$|[\"'])",
    re.IGNORECASE,
)
_WORDS: Final = (b"hidden", b"display", b"visibility")
_CODE: Final = ((b"<!--", b"-->"), (b"<script", b"</script"), (b"<style", b"</style"))
_VOID: Final = frozenset(b"area base br col embed hr img input link meta source track wbr".split())


def leave_out_hidden(data: bytes) -> bytes:
    """``data`` (a page's bytes) with each hidden element (see above) a space."""
    lowered = data.lower()  # (plain searches: a case-insensitive pattern is several times slower)
    places = sorted(at for word in _WORDS for at in _places(lowered, word))
    pieces: list[bytes] = []
    done = 0
    for place in places:
        if place < done:
            continue
        opening = data.rfind(b"<", done, place)
        tag = _START_TAG.match(data, opening) if opening >= 0 else None
        if tag is None or tag.end() <= place or not _hides(tag[2]) or _in_code(lowered, opening):
            continue
        name = tag[1].lower()
        end = tag.end() if name in _VOID else _closing(data, name, tag.end())
        pieces += (data[done : tag.start()], b" ")
        done = end
    if not pieces:
        return data
    pieces.append(data[done:])
    return b"".join(pieces)


def _places(lowered: bytes, word: bytes) -> list[int]:
    """Where ``word`` stands in ``lowered``, in order."""
    found = []
    at = lowered.find(word)
    while at >= 0:
        found.append(at)
        at = lowered.find(word, at + len(word))
    return found


def _in_code(lowered: bytes, at: int) -> bool:
    """Whether the place ``at`` of a page's ``lowered`` bytes is inside a comment, a script or
    a style (opened before it and not closed between)."""
    for opening, closing in _CODE:
        start = lowered.rfind(opening, 0, at)
        if start >= 0 and lowered.find(closing, start, at) < 0:
            return True
    return False


def _hides(attributes: bytes) -> bool:
    """Whether a start tag's ``attributes`` hide its element (see above)."""
    if _HIDING.search(attributes) is None:
        return False
    hidden = _HIDDEN_ATTRIBUTE.search(attributes)
    if hidden is not None:
        value = (hidden[1] or b"").strip(b"\"'").strip().lower()
        if value != b"until-found":
            return True
    style = _STYLE.search(attributes)
    return style is not None and _HIDING_STYLE.search(style[1].strip(b"\"'")) is not None


def _closing(data: bytes, name: bytes, start: int) -> int:
    """Where the end tag that closes the element of ``name`` opened before ``start`` ends (its
    start tag's end: ``start``, when none does)."""
    tags = re.compile(rb"<(/?)" + re.escape(name) + rb"(?=[\t\n\f\r />])[^>]*>", re.IGNORECASE)
    depth = 1
    for found in tags.finditer(data, start):
        depth += -1 if found[1] else 1
        if not depth:
            return found.end()
    return start
