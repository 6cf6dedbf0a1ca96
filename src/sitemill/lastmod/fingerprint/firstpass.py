"""The reduction's first pass over a page read line by line, with no Python call per tag."""
# The pass of fingerprint.reduction: the tags are found by one split (grammar.TAGS_PATTERN finds
# what NOT_TEXT finds, with the tag's name as its one group) and each becomes what its name makes
# it: an inline element's tag nothing, a <main>, <article> or <title> tag its marker (with
# ``main``), any other tag, comment or hidden element a space. That is what NOT_TEXT.sub with
# fingerprint.reduction's _flat_main or _flat_body gives, character for character
# (tests/lastmod/fingerprint/test_firstpass.py); a tag's replacement there depends on its tag's name
# alone, but for an element that may have role=main, which leaves its page to be read in order:
# first_pass then returns None, and the caller's own pass says so.

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache
from itertools import repeat
from typing import Final, cast

from sitemill.lastmod.fingerprint import contentregion
from sitemill.lastmod.fingerprint.grammar import INLINE_ELEMENTS, TAGS_PATTERN
from sitemill.lastmod.fingerprint.regions import END_MARKERS, START_MARKERS, may_have_role_main

_INLINE: Final = {name: "" for name in INLINE_ELEMENTS} | {
    "/" + name: "" for name in INLINE_ELEMENTS
}
_BODY: Final = _INLINE
_MAIN: Final = (
    _INLINE | START_MARKERS | {"/" + name: marker for name, marker in END_MARKERS.items()}
)
# Version 3 (fingerprint.contentregion): markers for the furniture elements too.
_MAIN3: Final = (
    _INLINE
    | contentregion.START_MARKERS
    | {"/" + name: marker for name, marker in contentregion.END_MARKERS.items()}
)


def first_pass(text: str, *, main: bool, version: int = 2) -> str | None:
    """The first pass of ``text`` (see above), None where some element may have role=main
    (from ``version`` 3, or a furniture role: fingerprint.contentregion)."""
    if main and (may_have_role_main(text) if version < 3 else contentregion.may_have_role(text)):
        return None
    parts = _tags().split(text)
    parts[1::2] = replacements(parts[1::2], main=main, version=version)
    return "".join(parts)


def replacements(names: Sequence[str | None], *, main: bool, version: int) -> list[str]:
    """What each tag of ``names`` (grammar.TAGS_PATTERN's, in order) becomes when no element
    has role=main (or, from ``version`` 3, a furniture role): first_pass's replacements."""
    table = (_MAIN if version < 3 else _MAIN3) if main else _BODY
    odd = {name for name in set(names) if name is not None and _unusual(name, table)}
    if odd:
        table = table | {name: _replacement(name, main, version) for name in odd}
    lookup = cast("Callable[[str | None, str], str]", table.get)  # (None: a space)
    return list(map(lookup, names, repeat(" ")))


@cache
def _tags() -> re.Pattern[str]:
    return re.compile(TAGS_PATTERN, re.VERBOSE)


def _unusual(name: str, table: dict[str, str]) -> bool:
    """Whether the ``table`` and its default may not say what ``name`` becomes: a name that
    is not in lower-case ASCII, or that a "=" follows."""
    return name not in table and not (name.isascii() and name.islower() and name[-1] != "=")


def _replacement(name: str, main: bool, version: int) -> str:
    """What the tag ``name`` (as grammar.TAGS_PATTERN captures it) becomes, when no element has
    role=main: NOT_TEXT's inline alternative wants a name of an inline element in ASCII of
    any case, followed by its end (not "="); _flat_main lower-cases the name of a start or
    end tag (str.lower, as regions.flat_start and flat_end are given it)."""
    end = name.startswith("/")
    bare = name[1:] if end else name
    if bare.endswith("="):
        bare = bare[:-1]
    elif bare.isascii() and bare.lower() in INLINE_ELEMENTS:
        return ""
    if not main:
        return " "
    if version >= 3:
        return (contentregion.END_MARKERS if end else contentregion.START_MARKERS).get(
            bare.lower(), " "
        )
    return (END_MARKERS if end else START_MARKERS).get(bare.lower(), " ")
