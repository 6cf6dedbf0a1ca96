"""The reduction's first pass over a page read line by line, with no Python call per tag."""
# The pass of fingerprint.reduction: the tags are found by one split (taggrammar.TAGS_PATTERN finds
# what NOT_TEXT finds, with the tag's name as its one group) and each becomes what its name makes
# it: an inline element's tag nothing, a region's or furniture's tag its marker (with
# ``main``), any other tag, comment or hidden element a space. That is what NOT_TEXT.sub with
# fingerprint.reduction's _flat_main or _flat_body gives, character for character
# (tests/lastmod/fingerprint/test_tagpass.py); a tag's replacement there depends on its tag's name
# alone, but for an element that may have role=main or a furniture role, which leaves its page to
# be read in order: first_pass then returns None, and the caller's own pass says so.

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache
from itertools import repeat
from typing import Final, cast

from sitemill.lastmod.fingerprint import regionselect
from sitemill.lastmod.fingerprint.taggrammar import INLINE_ELEMENTS, TAGS_PATTERN

_INLINE: Final = {name: "" for name in INLINE_ELEMENTS} | {
    "/" + name: "" for name in INLINE_ELEMENTS
}
_BODY: Final = _INLINE
# With ``main``: the markers of the regions and the furniture (fingerprint.regionselect).
_MAIN: Final = (
    _INLINE
    | regionselect.START_MARKERS
    | {"/" + name: marker for name, marker in regionselect.END_MARKERS.items()}
)


def first_pass(text: str, *, main: bool) -> str | None:
    """The first pass of ``text`` (see above), None where some element may have role=main or a
    furniture role (fingerprint.regionselect)."""
    if main and regionselect.may_have_role(text):
        return None
    parts = _tags().split(text)
    parts[1::2] = replacements(parts[1::2], main=main)
    return "".join(parts)


def replacements(names: Sequence[str | None], *, main: bool) -> list[str]:
    """What each tag of ``names`` (taggrammar.TAGS_PATTERN's, in order) becomes when no element
    has role=main or a furniture role: first_pass's replacements."""
    table = _MAIN if main else _BODY
    odd = {name for name in set(names) if name is not None and _unusual(name, table)}
    if odd:
        table = table | {name: _replacement(name, main) for name in odd}
    lookup = cast("Callable[[str | None, str], str]", table.get)  # (None: a space)
    return list(map(lookup, names, repeat(" ")))


@cache
def _tags() -> re.Pattern[str]:
    return re.compile(TAGS_PATTERN, re.VERBOSE)


def _unusual(name: str, table: dict[str, str]) -> bool:
    """Whether the ``table`` and its default may not say what ``name`` becomes: a name that
    is not in lower-case ASCII, or that a "=" follows."""
    return name not in table and not (name.isascii() and name.islower() and name[-1] != "=")


def _replacement(name: str, main: bool) -> str:
    """What the tag ``name`` (as taggrammar.TAGS_PATTERN captures it) becomes, when no element has
    a role: NOT_TEXT's inline alternative wants a name of an inline element in ASCII of any
    case, followed by its end (not "="); _flat_main lower-cases the name of a start or end tag
    (str.lower, as regionselect.flat_start and flat_end are given it)."""
    end = name.startswith("/")
    tag = name[1:] if end else name
    if tag.endswith("="):
        tag = tag[:-1]
    elif tag.isascii() and tag.lower() in INLINE_ELEMENTS:
        return ""
    if not main:
        return " "
    return (regionselect.END_MARKERS if end else regionselect.START_MARKERS).get(tag.lower(), " ")
