"""What a page's content fingerprint hashes: its title, text, description and link targets."""

# A few regular-expression passes over the whole page, each linear: every construct still open
# where the page ends runs to the end, so no position is scanned twice.

from __future__ import annotations

import html
import re
from functools import lru_cache
from typing import Final

from sitemill.lastmod.fingerprint import (
    _contents as contents,
)
from sitemill.lastmod.fingerprint import (
    _regionselect as regionselect,
)
from sitemill.lastmod.fingerprint import (
    targets,
)
from sitemill.lastmod.fingerprint._articles import HEADING_MARKERS
from sitemill.lastmod.fingerprint._comments import InCode, join_around_comments
from sitemill.lastmod.fingerprint._declaredroot import DeclaredRoot, declared_root
from sitemill.lastmod.fingerprint._regionmarkers import ANY_MARKER, REGION_MARKS
from sitemill.lastmod.fingerprint._structure import Structure, has_furniture_role
from sitemill.lastmod.fingerprint._taggrammar import NOT_TEXT
from sitemill.lastmod.fingerprint._whitespace import collapse_whitespace, drop_invisible
from sitemill.lastmod.fingerprint.targetmarks import (
    KEPT_TAG,
    LINK_END_MARK,
    LINK_END_TAG,
    MARK_EDGE,
    NEIGHBOUR_MARK,
    descriptions,
    mark_targets,
    read_copies,
    unspace_marks,
    without_placeholder_glyphs,
)

_UTF8_BOM: Final = b"\xef\xbb\xbf"
_HEADING_MARKS: Final = frozenset(
    (*HEADING_MARKERS[0].values(), *HEADING_MARKERS[1].values())
)  # (not counted by marked_region_text: fingerprint.contents may leave one out)


def reduce_markup(
    data: bytes,
    ignore: tuple[re.Pattern[str], ...],
    version: int,
    *,
    main: bool,
    url: str = "",
) -> str:
    """What fingerprint_html hashes (digest.reduce_html: the same, escaped first; the JSON-LD
    after): the page's text with its marked link and image targets;
    with ``main``, only the title, the meta description and the main region less its furniture
    (fingerprint.regionselect); targets spelled as a reader follows them from ``url``
    (fingerprint.targets). ``version``: 12 or 13 (fingerprint.versions)."""
    text = passes_text(data, ignore)
    root = declared_root(text, url) if version >= 13 and url else None  # (its targets' root)
    first = in_order(text, version) if main else NOT_TEXT.sub(_flat_body, text)
    return _finished(_rest(first, version), main=main, url=url, version=version, root=root)


def passes_text(data: bytes, ignore: tuple[re.Pattern[str], ...] = ()) -> str:
    """The text the passes read of a page's bytes ``data`` (escaped: digest.reduce_html): its
    hidden elements and the comments in its text left out, decoded, the ``ignore`` patterns'
    matches removed, the marks' characters spaces (each one character for one: a position in
    it is one in the decoded page less those cuts)."""
    raw = data.removeprefix(_UTF8_BOM)
    raw = leave_out_hidden(raw)  # (what no reader sees: a tab panel's seen by choosing its tab)
    raw = join_around_comments(raw)  # (a comment parts no words)
    text = _ignored(raw.decode("utf-8", "replace"), ignore)
    for mark in (MARK_EDGE, *REGION_MARKS):
        if mark in text:
            text = text.replace(mark, " ")
    return text


def marked_region_text(text: str, url: str, version: int, positions: list[int]) -> str:
    """The marked text ``regionselect.select`` is given for ``text`` (passes_text's) with
    ``main`` by fingerprint version ``version``, each region and furniture marker's tag's
    position in ``text`` appended to ``positions`` in order (a heading's markers aside:
    fingerprint.contents may leave a heading out before the region is selected), for
    fingerprint.regionplan."""
    return _marked(_rest(in_order(text, version, positions), version), main=True, url=url)


def _finished(text: str, *, main: bool, url: str, version: int, root: DeclaredRoot | None) -> str:
    """After the passes: its region (fingerprint.regionselect) and targets
    (fingerprint.targets, read at the ``root`` the page declares), a post's neighbours left
    out (read_neighbours).
    Links read as no link go before the spaces beside marks (fingerprint.targets)."""
    text = _marked(text, main=main, url=url)
    if main:
        text = regionselect.select(text, descriptions, url, version, root)
    text = targets.spaced_targets(drop_invisible(text))  # (no reader sees; a target's spaces)
    return unspace_marks(targets.finish_reduction(collapse_whitespace(text), url, version, root))


def _marked(text: str, *, main: bool, url: str) -> str:
    """The passes' text before its region is selected: a post's neighbours and the copies
    of pictures left out, an empty description a space; with ``main``, its table of contents
    out (version 11: fingerprint.contents)."""
    text = read_neighbours(read_copies(text))
    if targets.EMPTY_DESCRIPTION in text:
        text = text.replace(targets.EMPTY_DESCRIPTION, " ")
    if main:
        text = contents.leave_out_contents(text, url)
    return text


def _ignored(text: str, ignore: tuple[re.Pattern[str], ...]) -> str:
    for pattern in ignore:
        text = pattern.sub("", text)
    return text


def in_order(text: str, version: int, positions: list[int] | None = None) -> str:
    """The first pass with ``main``: NOT_TEXT.sub with structure.Structure told each start
    and end tag in document order (its name lower-cased), which answers what it becomes: a
    marker where a main region or furniture starts or ends, else a space; an inline element's
    tag nothing (``version``: the fingerprint's, which tells the furniture). With
    ``positions``, each marker's tag's start in ``text`` is appended to it, in order, a
    heading's aside (marked_region_text). (Issue 80 retired the speed twins of this pass, a
    split by tag names and a reading line by line with a memo: at full size 0.85x to 1.19x its
    CPU, not the 1.5x a second way of doing one job must earn.)"""
    structure = Structure(version)

    def told(found: re.Match[str]) -> str:
        if found.start("inline") >= 0:
            return ""
        name = found["start"]
        if name is not None:
            return structure.start(name.lower(), found[0])
        name = found["end"]
        return " " if name is None else structure.end(name.lower())

    if positions is None:
        return NOT_TEXT.sub(told, text)

    def recorded(found: re.Match[str]) -> str:
        replaced = told(found)
        if "\x02" in replaced and replaced not in _HEADING_MARKS:
            positions.extend([found.start()] * replaced.count("\x02"))
        return replaced

    return NOT_TEXT.sub(recorded, text)


def _rest(text: str, version: int) -> str:
    """After the first pass (tags, comments and hidden elements out): link ends and kept tags
    as marks, character references decoded. After the tags are gone: a reference decoded
    before would be read as markup. Values in the marks are still raw too, so this one pass
    decodes them with the text. From version 13, a placeholder link of glyphs is left out
    (targetmarks.without_placeholder_glyphs)."""
    if version >= 13:
        text = without_placeholder_glyphs(text)
    text = LINK_END_TAG.sub(LINK_END_MARK, text)  # (no "<" in a mark: read once)
    text = KEPT_TAG.sub(mark_kept_tag if version >= 13 else mark_targets, text)
    return html.unescape(text)


# A link that is furniture itself (fingerprint version 13, amended, issue 79: hugo99): an <a> whose
# own role is a furniture role (navigation, complementary, search, banner, contentinfo: any element
# so marked is furniture wherever it stands, fingerprint.regionselect) is left out as a post's
# neighbour is (read_neighbours), its target and its words. The element-level rule never sees it:
# a link is inline, its tags no markers (in_order). Hexo Anatole writes a post's pager as
# ``<a role="navigation" href="/next-post/">下一篇</a>`` with no rel: a new post re-pointed its
# neighbour's "next" link, and dated it (7 posts of a Hexo blog).
def mark_kept_tag(tag: re.Match[str]) -> str:
    """A kept tag as its marks (targetmarks.mark_targets), a link with a furniture role of
    its own marked as a neighbour (see above)."""
    marks = mark_targets(tag)
    if tag["link"] is None or marks == " " or marks.startswith(NEIGHBOUR_MARK):
        return marks
    start = tag[0]
    return NEIGHBOUR_MARK + marks if "ole" in start and has_furniture_role(start) else marks


def _flat_body(found: re.Match[str]) -> str:
    """NOT_TEXT's replacement for content_scope = "body": an inline element's tag is nothing,
    any other tag, comment or hidden element a space."""
    return "" if found.start("inline") >= 0 else " "


# What no reader sees: elements hidden by an attribute or an inline style (fingerprint v7).
# An element with the ``hidden`` attribute (not ``hidden=until-found``, which a find in the page
# shows) or an inline style of ``display: none`` or ``visibility: hidden`` is shown to no reader:
# its text, links and images are no content (a theme's hidden search template, a collapsed
# copy of a menu, a counter's placeholder). ``aria-hidden`` is not: it hides from a screen reader
# what the eye reads. Such an element is cut from the page's bytes before the reduction, to the
# end tag that closes it (the elements of its name nested in it counted); a void element
# (``<img hidden>``) is its tag alone, and so is an element whose end tag is not found (what follows
# it stays counted). A tag inside a script, a style or a comment is not read as one.
# From fingerprint v8, a tab panel (role="tabpanel", among other roles too) is content however it
# is hidden: a reader sees each tab's panel by choosing its tab (a Docusaurus page's inactive tabs
# are ``<div role="tabpanel" hidden>``: version 7 kept 296 of an install page's 718 words).

_HIDING: Final = re.compile(rb"hidden|display|visibility", re.IGNORECASE)
_START_TAG: Final = re.compile(rb"<([a-zA-Z][^\t\n\f\r />]*)([^>]*)>")
# A start tag's attribute, its name and value as a browser's tokenizer reads them (from v8).
_ATTRIBUTE: Final = re.compile(
    rb"""([^\t\n\f\r /=>][^\t\n\f\r />=]*)
    (?:[\t\n\f\r ]*=[\t\n\f\r ]*("[^"]*"|'[^']*'|[^\t\n\f\r >]*))?""",
    re.VERBOSE,
)
_HIDING_STYLE: Final = re.compile(
    rb"(?:^|[;\s\"'])(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$|[\"'])",
    re.IGNORECASE,
)
_WORDS: Final = (b"hidden", b"display", b"visibility")  # (none overlaps itself or another)
_VOID: Final = frozenset(b"area base br col embed hr img input link meta source track wbr".split())
# Start tags' attributes judged (_hides), by their bytes: a template's tags are the same on every
# page. Forgotten past this many.
_JUDGED: dict[bytes, bool] = {}
_JUDGED_REMEMBERED: Final = 4096


def leave_out_hidden(data: bytes) -> bytes:
    """``data`` (a page's bytes) with each hidden element (see above) a space, a hidden tab
    panel kept (from version 8; version 7's reading is no longer computable). Each place one of
    the words stands is judged in the start tag opened by the last "<" before it: the places up
    to the next "<" are judged alike, so each stretch between two "<" is judged once, and each
    start tag's attributes once a process (a CSS block full of ``display`` costs one search);
    the tags of a name are paired once a page (_Closings) and the places in code found in
    order (_comments.InCode): thousands of hidden elements left open cost one scan, not one
    each."""
    lowered = data.lower()  # (plain searches: a case-insensitive pattern is several times slower)
    pieces: list[bytes] = []
    done = 0
    words = _Places(lowered)
    closings, code = _Closings(data), InCode(lowered)
    place = words.next(0)
    while place >= 0:
        opening = data.rfind(b"<", done, place)
        tag = _START_TAG.match(data, opening) if opening >= 0 else None
        if tag is None or tag.end() <= place or not _judged(tag[2]) or code.holds(opening):
            following = data.find(b"<", place)  # (the next stretch: judged by another tag)
            place = -1 if following < 0 else words.next(following)
            continue
        name = tag[1].lower()
        end = tag.end() if name in _VOID else closings.closing(name, tag.start(), tag.end())
        pieces += (data[done : tag.start()], b" ")
        done = end
        place = words.next(done)
    if not pieces:
        return data
    pieces.append(data[done:])
    return b"".join(pieces)


class _Places:
    """Where the words stand in a page's lowered bytes, from a place on: each word's next place
    found by bytes.find (memchr's speed; one pattern of three words is ten times slower) and
    kept until the reading passes it."""

    __slots__ = ("found", "lowered")

    def __init__(self, lowered: bytes) -> None:
        self.lowered = lowered
        self.found = [-2] * len(_WORDS)  # (-2: not looked for; -1: none further)

    def next(self, start: int) -> int:
        """The first place at or after ``start`` where a word stands (-1: none)."""
        first = -1
        for index, at in enumerate(self.found):
            if -1 < at < start or at == -2:
                at = self.found[index] = self.lowered.find(_WORDS[index], start)
            if at >= 0 and (first < 0 or at < first):
                first = at
        return first


def _judged(attributes: bytes) -> bool:
    """_hides, remembered by the attributes' bytes."""
    hides = _JUDGED.get(attributes)
    if hides is None:
        if len(_JUDGED) >= _JUDGED_REMEMBERED:
            _JUDGED.clear()
        hides = _JUDGED[attributes] = _hides(attributes)
    return hides


def _hides(attributes: bytes) -> bool:
    """Whether a start tag's ``attributes``, read one by one (the first of a name counts), hide
    its element (see above) from fingerprint version 8: a tab panel's never do."""
    if _HIDING.search(attributes) is None:
        return False
    values: dict[bytes, bytes] = {}
    for found in _ATTRIBUTE.finditer(attributes):
        values.setdefault(found[1].lower(), (found[2] or b"").strip(b"\"'"))
    hidden = values.get(b"hidden")
    style = values.get(b"style")
    hides = (hidden is not None and hidden.strip().lower() != b"until-found") or (
        style is not None and _HIDING_STYLE.search(style) is not None
    )
    return hides and b"tabpanel" not in values.get(b"role", b"").lower().split()


class _Closings:
    """Where the end tag that closes each element of a name in a page's ``data`` ends: its
    start and end tags paired once a name, as _closing pairs them from one element on (a
    page of thousands of hidden elements left open scans its tags once, not once each)."""

    __slots__ = ("data", "ends")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.ends: dict[bytes, dict[int, int]] = {}

    def closing(self, name: bytes, opening: int, start: int) -> int:
        """_closing's answer for the element of ``name`` whose start tag opens at ``opening``
        and ends at ``start``."""
        ends = self.ends.get(name)
        if ends is None:
            ends = self.ends[name] = _paired(self.data, name)
        end = ends.get(opening)
        if end is None:  # (a start tag its name's pattern does not read alike: as before)
            return _closing(self.data, name, start)
        return start if end < 0 else end


def _paired(data: bytes, name: bytes) -> dict[int, int]:
    """Each start tag of ``name`` in ``data`` (by where it opens) with where the end tag that
    closes it ends (the tags between counted), -1 when none does."""
    ends: dict[int, int] = {}
    open_tags: list[int] = []
    for found in _end_tags(name).finditer(data):
        if not found[1]:
            open_tags.append(found.start())
        elif open_tags:
            ends[open_tags.pop()] = found.end()
    ends.update(dict.fromkeys(open_tags, -1))
    return ends


def _closing(data: bytes, name: bytes, start: int) -> int:
    """Where the end tag that closes the element of ``name`` opened before ``start`` ends (its
    start tag's end: ``start``, when none does)."""
    depth = 1
    for found in _end_tags(name).finditer(data, start):
        depth += -1 if found[1] else 1
        if not depth:
            return found.end()
    return start


@lru_cache(maxsize=256)
def _end_tags(name: bytes) -> re.Pattern[bytes]:
    """The start and end tags of the elements of ``name`` (its name lower-cased)."""
    return re.compile(rb"<(/?)" + re.escape(name) + rb"(?=[\t\n\f\r />])[^>]*>", re.IGNORECASE)


# A post's neighbours: links to the page before and after it (fingerprint version 6).
# A link whose rel is "prev" or "next" (HTML's link types: the page is part of a sequence and
# the link leads to the one before or after it) says which page stands beside this one: a post's
# "previous post"/"next post" links, whose words are the neighbour's title (its words, not this
# page's: a Gatsby blog re-dated 7 posts when a neighbour was published or retitled). What
# another page says is that page's: version 6 leaves such a link out, its target and words, and
# keeps the markers inside it; version 5 reads the link as any other.
def read_neighbours(text: str) -> str:
    """``text`` (a reduction before its region is selected) with each link marked as a
    neighbour left out. A link left open: only its mark."""
    if NEIGHBOUR_MARK not in text:
        return text
    pieces: list[str] = []
    done = 0
    at = text.find(NEIGHBOUR_MARK)
    while at >= 0:
        end = text.find(LINK_END_MARK, at)
        pieces.append(text[done:at])
        if end < 0:
            done = at + len(NEIGHBOUR_MARK)
            break
        pieces += (" ", *ANY_MARKER.findall(text, at, end), " ")
        done = end + len(LINK_END_MARK)
        at = text.find(NEIGHBOUR_MARK, done)
    pieces.append(text[done:].replace(NEIGHBOUR_MARK, ""))
    return "".join(pieces)
