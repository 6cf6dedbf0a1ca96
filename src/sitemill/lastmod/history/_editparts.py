"""An edit between two versions of a page named by its parts (history.templateedits)."""
# What it did to the title's words, to the descriptions, to the targets and to the rest, each
# named apart, so that an edit most pages of a commit made beside their own edits is found.

from __future__ import annotations

import hashlib
from typing import Final
from urllib.parse import urlsplit

from sitemill.lastmod.history._targetmoves import TARGET_KINDS, page_path
from sitemill.lastmod.history.edits import Moves, hash_edit, moves_of

# The parts of an edit named apart (edit_parts): the title's words, descriptions, targets, the rest.
_PARTS: Final = ("t", "D", "targets", "rest")
NO_PART: Final = "0" * 8
# An edit's sketch (edit_sketch): how many tokens it took out and put in (its first byte, at most
# 255), and each token as _SKETCH_PROBES bits of the other _SKETCH_BITS (a Bloom filter): 128 bits,
# the size of every name a state remembers. An edit of more than SKETCH_MOST tokens fills so many
# of them that it would seem to hold any other: it contains none (a page rewritten is its own).
_SKETCH_BITS: Final = 120
_SKETCH_PROBES: Final = 2
SKETCH_MOST: Final = 40


def edit_parts(newer: str, older: str, own: str = "") -> str:
    """The edit of edits.edit_of in its parts, each named in 8 hex digits, "0" * 8 for a part
    it has not: what it did to the title's words, to the descriptions, to the targets (moves
    named by the move), and to the rest (the text's words, any other mark). A page's edit is
    template when each of its parts is one most pages of the commit made, beside their own
    (history.templateedits: a release number bumped in every title, five pages of twelve
    also given a note of their own)."""
    return parts_named(moves_of(newer, older, own))


def parts_named(moves: Moves) -> str:
    """edit_parts's name of an edit from its moves (edits.moves_of)."""
    removed, added = moves
    names = []
    for part in _PARTS:
        gone = [token for token in removed if _part_of(token) == part]
        come = [token for token in added if _part_of(token) == part]
        names.append(hash_edit(gone, come)[:8] if gone or come else NO_PART)
    return "".join(names)


def part_names(parts: str) -> list[tuple[int, str]]:
    """The parts an edit_parts name holds: (the part's place, its name)."""
    found = [(at, parts[8 * at : 8 * at + 8]) for at in range(len(_PARTS))]
    return [(at, name) for at, name in found if name != NO_PART]


def _part_of(token: str) -> str:
    kind = token[:1]
    if kind == "R" or kind in TARGET_KINDS:  # (a move, of whatever kinds of target)
        return "targets"
    return kind if kind in ("t", "D") else "rest"


def edit_sketch(moves: Moves) -> str:
    """A sketch of the edit of ``moves`` (edits.moves_of), in 32 hex digits: what tells whether
    it holds another edit (contains): each token it took out and each it put in, apart."""
    removed, added = moves
    tokens = {"-" + token for token in removed} | {"+" + token for token in added}
    bits = 0
    for token in tokens:
        named = hashlib.blake2b(token.encode("utf-8", "surrogatepass"), digest_size=8).digest()
        for probe in range(_SKETCH_PROBES):
            bits |= 1 << (int.from_bytes(named[4 * probe : 4 * probe + 4]) % _SKETCH_BITS)
    return f"{min(len(tokens), 255):02x}{bits:030x}"


# An edit's tokens for its commit's census (edit_tokens): each as _TOKEN_DIGITS hex digits, the
# first 4 its kind's (_kind_of; NO_KIND: a word, an order, a target of the site's own), the 5th
# BY_KIND for a move judged among the pages of its kind ("0" for a token only counted there;
# LISTED for a page of the site's own a link to was put in or taken out, never counted: what
# the page lists, history.listings), the others its own. An edit of more than TOKENS_MOST
# tokens is kept by its kinds alone (MANY before them): its tokens are counted for no page, its
# kinds are (a bound on a run's memory); so is one that listed more than TOKENS_MOST pages.
_TOKEN_DIGITS: Final = 16
NO_KIND: Final = "0000"
BY_KIND: Final = "1"
LISTED: Final = "2"
TOKENS_MOST: Final = 512
MANY: Final = "m"


def edit_tokens(moves: Moves, links: list[str]) -> str:
    """The tokens an edit (``moves``: edits.moves_of) took out and put in, for the census of
    its commit's tokens (history.tokencensus.token_templates): each named apart, a title's word as
    the word it is (a word swapped in the title and in the caption is one swap), sorted; and
    the pages of the site's own whose links it put in or took out (``links``: edits.site_links,
    each listed_token)."""
    removed, added = moves
    tokens = {"-" + _as_word(token) for token in removed} | {
        "+" + _as_word(token) for token in added
    }
    listed = {listed_token(link) for link in links} if len(links) <= TOKENS_MOST else set()
    if len(tokens) > TOKENS_MOST:
        kinds = {_kind_of(token)[:5] + "0" * 11 for token in tokens}
        return MANY + "".join(sorted(kinds | listed))
    return "".join(sorted({_kind_of(token) + _hex(token, 6)[:11] for token in tokens} | listed))


def title_tokens(moves: Moves) -> frozenset[str]:
    """The tokens (as edit_tokens names them) of the title's words an edit (``moves``) took out
    and put in, when it took out some and put in others (a page retitled), else none."""
    removed, added = moves
    gone = ["-" + _as_word(token) for token in removed if token[:1] == "t"]
    come = ["+" + _as_word(token) for token in added if token[:1] == "t"]
    if not gone or not come:
        return frozenset()
    return frozenset(_kind_of(token) + _hex(token, 6)[:11] for token in gone + come)


def words_alone(parts: str) -> bool:
    """Whether the edit edit_parts named ``parts`` changed words alone: no description, no
    target, but the title's words or the rest."""
    return len(parts) == 8 * len(_PARTS) and parts[8:24] == 2 * NO_PART and parts != 4 * NO_PART


def retitles(parts: str) -> bool:
    """Whether the edit edit_parts named ``parts`` changed the title's words."""
    return len(parts) == 8 * len(_PARTS) and parts[:8] != NO_PART


def listed_token(target: str) -> str:
    """The token of a link of the site's own to the page at ``target`` (as a reduction spells
    it, or as stopedits.own_path spells a page), however the link spelled that page
    (targetmoves.page_path)."""
    return NO_KIND + LISTED + _hex(page_path(target), 6)[:11]


def census_tokens(name: str) -> tuple[bool, list[str]]:
    """What an edit_tokens name holds: whether its edit was too large to count its tokens, and
    its tokens (each its kind's 4 hex digits, whether it is judged by it, and its own 11), but
    the pages it listed (listed_pages)."""
    many, tokens = _tokens_in(name)
    return many, [token for token in tokens if token[4:5] != LISTED]


def listed_pages(name: str) -> frozenset[str]:
    """The listed_token of each page of the site's own a link to which the edit that
    edit_tokens named ``name`` put in or took out."""
    return frozenset(token for token in _tokens_in(name)[1] if token[4:5] == LISTED)


def _tokens_in(name: str) -> tuple[bool, list[str]]:
    many = name.startswith(MANY)
    body = name[len(MANY) :] if many else name
    size = _TOKEN_DIGITS
    return many, [body[at : at + size] for at in range(0, len(body) - size + 1, size)]


def _as_word(token: str) -> str:
    """A title's word as the text's word it is: a release swapped in the index pages' titles and
    in every page's caption is one swap (issue 79, lens-haddock)."""
    return "w" + token[1:] if token[:1] == "t" else token


def _kind_of(token: str) -> str:
    """The kind a token (with its "-" or "+") is counted among beside the commit's pages, in 4
    hex digits, and whether it is judged among them (BY_KIND): a move of another site's targets
    is of that site (its scheme and host: a move rewrites exactly the pages that link there, the
    Kotlin library's links re-pointed on every page that holds one), judged among the pages that
    changed a target there, moved or not (a link retargeted there is counted as of that site,
    and judged among all the commit's pages); any other token is of none (NO_KIND: a page's own
    words, its own site's targets, images re-encoded, its list's order)."""
    body = token[1:]
    if body.startswith("RM"):
        host, flag = body[2:].partition("\2")[0], BY_KIND
    elif body[:1] in TARGET_KINDS:
        parts = urlsplit(body[1:])
        host, flag = f"{parts.scheme}://{parts.netloc}" if parts.scheme else "", "0"
    else:
        host, flag = "", "0"
    return _hex(host, 2) + flag if "//" in host else NO_KIND + "0"


def _hex(text: str, size: int) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=size).hexdigest()


def contains(outer: str, inner: str) -> bool:
    """Whether the edit sketched ``outer`` (edit_sketch) took out and put in all that the one
    sketched ``inner`` did, and perhaps more (a page's own edit beside a release bumped on every
    page); never when ``outer`` made more than SKETCH_MOST (it would seem to hold any edit) or
    ``inner`` made nothing."""
    if len(outer) != 32 or len(inner) != 32:
        return False
    many, few = int(outer[:2], 16), int(inner[:2], 16)
    if not 0 < few <= many <= SKETCH_MOST:
        return False
    wanted = int(inner[2:], 16)
    return wanted & int(outer[2:], 16) == wanted
