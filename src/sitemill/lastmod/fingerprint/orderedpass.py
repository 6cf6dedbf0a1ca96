"""The first pass over a page read in document order, by one split."""
# A page where some element has role=main or a furniture role (fingerprint.regionselect) is read in
# order: its ``Structure`` is told each tag, because where such an element ends depends on the tags
# before. Told by NOT_TEXT.sub, that is a Python call per tag (7,000 on a Material for MkDocs page,
# whose search box has role=search: every page of such a site), most of a fingerprint's time. Here
# one split finds the tags with their names (taggrammar.TAGS_PATTERN, the same matches as NOT_TEXT),
# each becomes its first-pass replacement (fingerprint.tagpass) and the Structure is told only the
# tags that can change what it answers: every <main> and </main>, every start tag that may have a
# role ("ole" in it), and the tags named as one of those. Its answers for the rest are their
# replacements already: a tag of another name, with no "ole" in it, changes no state of the
# Structure and gets its marker or a space (tests/lastmod/fingerprint/test_orderedpass.py).

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Mapping
from functools import cache
from itertools import compress, count, repeat
from operator import contains
from typing import Final, TypeAlias

from sitemill.lastmod.fingerprint import regionselect
from sitemill.lastmod.fingerprint.taggrammar import TAGS_PATTERN
from sitemill.lastmod.fingerprint.tagpass import replacements

_Told: TypeAlias = tuple[str, bool]
_TOLD: dict[tuple[frozenset[str | None], frozenset[str | None]], Mapping[str, _Told]] = {}
_TOLD_REMEMBERED: Final = 1024  # (the name sets of as many kinds of page; then forgotten)


def in_order(text: str) -> str:
    """NOT_TEXT.sub with regionselect.Structure told each tag in order, character for character."""
    parts = tags_and_names().split(text)
    tags: list[str] = parts[1::3]  # (the whole match: always a string)
    names: list[str | None] = parts[2::3]
    replaced = replacements(names, main=True)
    structure = regionselect.Structure()
    told = _told(tags, names)
    for at in compress(count(), map(told.__contains__, names)):
        told_name, end = told[names[at] or ""]
        replaced[at] = structure.end(told_name) if end else structure.start(told_name, tags[at])
    parts[1::3] = replaced
    parts[2::3] = repeat("", len(names))
    return "".join(parts)


def _told(tags: list[str], names: list[str | None]) -> Mapping[str, _Told]:
    """The names as spelled (taggrammar.TAGS_PATTERN's) of the tags the Structure is told (see
    above), each with its name as the Structure is told it and whether it ends an element.
    Not an inline element's tag (its replacement is nothing: NOT_TEXT's inline alternative,
    which no Structure sees). Telling it more tags than these changes nothing: NOT_TEXT.sub
    tells it every one. Remembered by the names the page spells and those of its tags with
    "ole" in them (the pages of a site spell the same few: 4 us a page, 1 us remembered)."""
    key = (frozenset(names), frozenset(compress(names, map(contains, tags, repeat("ole")))))
    told = _TOLD.get(key)
    if told is None:
        if len(_TOLD) >= _TOLD_REMEMBERED:
            _TOLD.clear()
        told = _TOLD[key] = _told_of(*key)
    return told


def _told_of(names: frozenset[str | None], roles: frozenset[str | None]) -> Mapping[str, _Told]:
    """_told of the pages that spell ``names``, the tags of ``roles`` with "ole" in them."""
    wanted = {"main"} | {tag_name(name) for name in roles if name is not None}
    spelled = {name for name in names if name is not None}
    return {
        name: (tag_name(name), name.startswith("/")) for name in told_spellings(spelled, wanted)
    }


def told_spellings(spellings: Iterable[str], wanted: Container[str]) -> list[str]:
    """The tag names of ``spellings`` (taggrammar.TAGS_PATTERN's) whose names are ``wanted``,
    but an inline element's: NOT_TEXT's inline alternative, which no Structure is told."""
    named = [name for name in spellings if tag_name(name) in wanted]
    kept = replacements(named, main=True)  # (an inline element's: nothing)
    return [name for name, into in zip(named, kept, strict=True) if into]


def tag_name(name: str) -> str:
    """The tag's name as NOT_TEXT's start or end group has it, lower-cased (as _not_text
    tells the Structure): no "/" before an end tag's, no "=" after."""
    return name.removeprefix("/").removesuffix("=").lower()


@cache
def tags_and_names() -> re.Pattern[str]:
    # TAGS_PATTERN with the whole match as a group before its own: the tag's text, its name.
    return re.compile(f"({TAGS_PATTERN})", re.VERBOSE)
