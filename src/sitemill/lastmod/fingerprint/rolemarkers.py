"""The first pass line by line on a page whose elements have roles (fingerprint.regionselect)."""
# Where an element with role=main or a furniture role ends depends on the tags before its end tag,
# so such a page used to be read in order (fingerprint.orderedpass), never line by line, and no line
# of it was remembered (fingerprint.linememo): Material for MkDocs gives its search box role=search,
# Docusaurus its announcement bar role=banner, Minimal Mistakes its content role=main, so every page
# of those sites and every version of them in git history cost its whole reduction, 3.6 times
# version 2's on a Material site. Here each tag still becomes what its name alone makes it, so lines
# are reduced and remembered as on any page:
#
# - the page's role names (role_names): the lower-case names of the elements that have such a role,
#   from the page's bytes;
# - every start and end tag of one of those names becomes a name marker (start or end, the name's
#   index), and a start tag with such a role a role marker (its kind: role=main, a furniture role,
#   or both, and its name's index), whatever came before;
# - once the page's lines are joined, ``resolve_roles`` tells regionselect.Structure the markers in
#   order, as the call per tag would have told it those tags, and writes what it answers.
#
# The Structure is told no other tag: one of another name, without a role, changes none of its
# states (as in fingerprint.orderedpass). Where this cannot be the same as reading in order,
# IN_ORDER is raised and the page is read in order: an element of the page with a role whose name
# role_names did not find, or a marker that a link, image or meta tag left open would copy into a
# value (``<a title="<div>"``), where the call per tag writes a space.
# tests/lastmod/fingerprint/test_rolemarkers.py compares the two on generated pages.

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import compress, count, repeat
from operator import contains
from typing import Final

from sitemill.lastmod.fingerprint import regionmarkers, regionselect
from sitemill.lastmod.fingerprint.orderedpass import tag_name, tags_and_names, told_spellings
from sitemill.lastmod.fingerprint.taggrammar import INLINE_ELEMENTS
from sitemill.lastmod.fingerprint.tagpass import replacements
from sitemill.lastmod.fingerprint.targetmarks import KEPT_TAG, LINK_END_MARK, LINK_END_TAG

# A name marker: U+0002 U+0005, s (start tag) or e (end tag), the name's index, U+0003; a role
# marker: M (role=main), F (a furniture role) or B (both) for s. Neither U+0002 nor U+0005 is
# left in the text the passes read (fingerprint.reduction), so a marker is found only where one was
# put; U+0002 makes a line's reduction noted (fingerprint.regionkey), as the region markers do.
_MARK: Final = "\x02\x05"
_MARKER: Final = re.compile("\x02\x05([seMFB])([0-9]+)\x03")
_NAME_MARKER: Final = re.compile("\x02\x05[se][0-9]+\x03")
_ROLE_MARKER: Final = re.compile("\x02\x05[MFB][0-9]+\x03")
# A tag that gives each kind of role to regionselect.Structure as the page's tag did.
_ROLE_TAGS: Final = {
    "M": "< role=main>",
    "F": "< role=navigation>",
    "B": "< role=main role=navigation>",
}
# Names whose roles regionselect.Structure never reads: they get their own markers, or none. A
# <main>'s: the first <main> is the region, whatever its role, and a page read line by line
# has one <main> at most (fingerprint.regionkey.same_in_order; else it is read in order).
_NO_ROLE: Final = frozenset(regionselect.START_MARKERS) | INLINE_ELEMENTS
_NAME: Final = re.compile(rb"[a-zA-Z][^\t\n\f\r />=]*")


class _ReadInOrder(Exception):
    """This page is read in order (see above): a signal between this module and the
    reduction's, which never reaches a user."""


IN_ORDER: Final[type[Exception]] = _ReadInOrder  # (what the reduction catches)


def role_names(data: bytes) -> tuple[str, ...]:
    """The lower-case names of the elements of ``data`` (a page's UTF-8) that may have
    role=main or a furniture role and whose roles regionselect.Structure reads, sorted. The name
    before each such attribute: one a quoted "<" hides is not found, and first_pass then
    raises IN_ORDER."""
    names = set()
    for at in regionmarkers.role_attributes(data):
        if regionselect.has_role_at(data, at):
            start = data.rfind(b"<", 0, at)
            found = _NAME.match(data, start + 1) if start >= 0 else None
            if found is not None:
                names.add(found[0].decode("utf-8", "replace").lower())
    return tuple(sorted(names - _NO_ROLE))


def first_pass_with_roles(names: Sequence[str], text: str) -> str:
    """tagpass.first_pass with the role ``names``' markers (see above)."""
    parts = tags_and_names().split(text)
    tags: list[str] = parts[1::3]
    spelled: list[str | None] = parts[2::3]
    replaced = replacements(spelled, main=True)
    index = {name: str(number) for number, name in enumerate(names)}
    table = _name_markers({name for name in set(spelled) if name is not None}, index)
    if table:
        replaced = list(map(table.get, spelled, replaced))
    for at in compress(count(), map(contains, tags, repeat("ole"))):
        name = spelled[at]
        if name is None or name.startswith("/") or not replaced[at]:
            continue
        kind = _kind(tags[at])
        lowered = tag_name(name)
        if kind is None or lowered in _NO_ROLE:
            continue
        if lowered not in index:
            raise _ReadInOrder
        replaced[at] = f"{_MARK}{kind}{index[lowered]}\x03"
    parts[1::3] = replaced
    parts[2::3] = repeat("", len(spelled))
    first = "".join(parts)
    if _MARK in first and _in_a_value(first):
        raise _ReadInOrder
    return first


def resolve_roles(names: Sequence[str], text: str) -> str:
    """``text`` with its markers (see above) as regionselect.Structure answers them, in order.
    While no element with a role is open (``listening`` False), a name marker is a space and changes
    nothing: those are replaced in one pass, and the Structure is told the markers from each
    role marker until it stops listening (a Material page: 2 of its 900)."""
    if _MARK not in text:
        return text
    structure = regionselect.Structure()
    pieces, at = [], 0
    while (role := _ROLE_MARKER.search(text, at)) is not None:
        pieces.append(_NAME_MARKER.sub(" ", text[at : role.start()]))
        at = role.start()
        for found in _MARKER.finditer(text, at):
            pieces.append(text[at : found.start()])
            kind, name = found[1], names[int(found[2])]
            if kind == "e":
                pieces.append(structure.end(name))
            else:
                pieces.append(structure.start(name, _ROLE_TAGS.get(kind, "")))
            at = found.end()
            if not structure.listening():
                break
    pieces.append(_NAME_MARKER.sub(" ", text[at:]))
    return "".join(pieces)


def _name_markers(spellings: set[str], index: dict[str, str]) -> dict[str | None, str]:
    """The name markers of the tags spelled as ``spellings`` whose names are the role names
    (``index``); an inline element's tags stay nothing (no Structure is told them)."""
    return {
        name: f"{_MARK}{'e' if name.startswith('/') else 's'}{index[tag_name(name)]}\x03"
        for name in told_spellings(spellings, index)
    }


def _kind(tag: str) -> str | None:
    """The role marker's kind of a start tag (see above), None for no such role: what
    regionselect.Structure reads of it."""
    main = regionmarkers.has_role_main(tag)
    furniture = regionselect.has_furniture_role(tag)
    if main:
        return "B" if furniture else "M"
    return "F" if furniture else None


def _in_a_value(first: str) -> bool:
    """Whether a marker is inside a link's end tag or a link, image or meta tag, whose values
    the reduction copies (fingerprint.reduction._rest: link ends first, then the kept tags, which
    may run on over a link end's mark): there the call per tag writes a space."""
    if any(_MARK in found[0] for found in LINK_END_TAG.finditer(first)):
        return True
    linked = LINK_END_TAG.sub(LINK_END_MARK, first)
    return any(_MARK in found[0] for found in KEPT_TAG.finditer(linked))
