"""How an edit between two versions of a page is named (history.templateedits)."""
# What it took out and put in, with targets that moved one way named by the move, whether it is
# site-wide, and the key a state remembers its name under.

from __future__ import annotations

import hashlib
from collections import Counter
from difflib import SequenceMatcher
from typing import Final

from sitemill.lastmod.fingerprint.targetmarks import MARK_EDGE, TITLE_END
from sitemill.lastmod.history._commonends import shared_ends
from sitemill.lastmod.history._respacing import (
    RECASED,
    RESPACED,
    recased,
    respaced,
    respaced_runs,
)
from sitemill.lastmod.history._sitelinks import links_by_kind
from sitemill.lastmod.history._targetmoves import (
    LEAF,
    REPEAT,
    host_moves,
    own_leaves,
    repointed_apart,
    rewrites,
    self_links,
    site_target,
    target_of,
)
from sitemill.lastmod.history._titlerestated import RESTATED, restated_title_words
from sitemill.lastmod.history.datevalues import (
    RESPELLED,
    is_respelled,
    mark_reduction_dates,
    named_by_kind,
)

# An edit's name says its kind in its first hex digit: a site-wide one's is 8 to f, one that
# changed the text's words 0 to 3, any other 4 to 7.
_KIND_DIGITS: Final = {"site-wide": "89abcdef", "words": "0123", "other": "4567"}
# How edits are named (edit_of, exact_of): a state's names given another way are not recalled.
_NAMING: Final = b"principles"
_LINK_END: Final = "E"  # (the token of a link's end: fingerprint.targetmarks.LINK_END_MARK)
# The person of an edit's key (edit_key), changed each time edits came to be named another way
# (`git log -L` names each: the last, a part of links to the site's pages taken out or put in
# whole is named by its kind, links_by_kind), so that a name an earlier sitemill remembered is
# not recalled. At most 9 bytes, so that with "/exact", "/parts" or "/sketch" it fits blake2b's
# person (16).
_KEYS: Final = b"restated"
# The tokens an edit took out and put in (moves_of).
Moves = tuple[list[str], list[str]]
SUM_BITS: Final = 48  # (a token_sum's size: a deploy's distinct edits never meet by chance)


def edit_of(newer: str, older: str, own: str = "") -> str:
    """The name of the edit that made reduction ``older`` into ``newer`` (what it took out and
    put in: each title word, target and description, and each word of the text whose count
    fell or rose, not by how much; targets that moved one way named by the move; a mark kept
    but repeated more or fewer times by its kind alone), hashed; its first digit says whether
    it changed the text's words beyond their letter case (rewords) or only what a site carries
    on every page (is_site_wide). ``own``: the page's site path: a link that moved onto the
    page itself is read as no link (fingerprint.selflinks), and is named by the move; white
    space moved alone is RESPACED, letter case changed alone RECASED (history.respacing). A
    date is its value (dates re-spelled alone: RESPELLED), and dates, and numbers put in or
    taken out alone, are named by their kind (history.datevalues). What it kept but moved is
    named too (moved_within)."""
    return names_of(newer, older, own)[0]


def names_of(newer: str, older: str, own: str = "") -> tuple[str, str, Moves, list[str]]:
    """edit_of, exact_of and moves_of of one edit at once, each version's tokens made once (a
    stop's edit is named all three ways: history.stopedits), and the targets of the site's own
    links it put in or took out, each as it is (not by a move: site_links)."""
    sequences, old, new = _versions(older, newer)
    moves, repeats = _moves_read(sequences, old, new, own)
    links = site_links(repeats, old, new)
    if respaced(newer, older):
        return RESPACED, RESPACED, moves, links
    if is_respelled(newer, older):
        return RESPELLED, RESPELLED, moves, links
    if recased(*sequences):
        return RECASED, RECASED, moves, links
    if (kind := links_by_kind(*sequences)) is not None:
        return kind, kind, moves, links
    if _repointed_alone(repeats, sequences, old, new):
        return REPOINTED, REPOINTED, moves, links
    exact = hash_edit(*named_by_kind(*host_moves(*repeats)))
    return _edit_name(new, old, moves), exact, moves, links


def site_links(repeats: Moves, old: Counter[str], new: Counter[str]) -> list[str]:
    """The targets of the site's own links (no scheme and host at their start: names_host)
    among the tokens an edit took out and put in (_repeats), as their reduction spells them,
    that one version alone holds (``old``, ``new``: one a list links twice, then once, it still
    lists): which pages a list page lists (history.listings)."""
    tokens = [t for t in (*repeats[0], *repeats[1]) if not (old[t] and new[t])]
    return sorted({t[1:] for t in tokens if target_of(t, "H") and site_target(t[1:])})


def _edit_name(new: Counter[str], old: Counter[str], moves: Moves) -> str:
    """edit_of's name of the edit from tokens ``old`` to ``new`` that made ``moves``."""
    removed, added = moves
    tokens = (*removed, *added)
    if _rewords(new, old):
        kind = "words"
    elif tokens and all(token[:1] in "RtD" for token in tokens):
        kind = "site-wide"
    else:
        kind = "other"
    name = hash_edit(removed, added)
    return _KIND_DIGITS[kind][int(name[0], 16) % len(_KIND_DIGITS[kind])] + name[1:]


def moves_of(newer: str, older: str, own: str = "") -> Moves:
    """The tokens edit_of's edit took out and put in (history.editparts names its parts): a
    mark's kind letter and value, "t" and a title word, "w" and a word, "R" and a move, or
    "O" and a token it kept but moved (moved_within)."""
    sequences, old, new = _versions(older, newer)
    return _moves_read(sequences, old, new, own)[0]


def _moves_read(
    sequences: tuple[list[str], list[str]], old: Counter[str], new: Counter[str], own: str
) -> tuple[Moves, Moves]:
    """moves_of of two versions read (_versions), and their _repeats, the title's words that
    restate the page (history.titlerestated) named by their kind in both."""
    restated = restated_title_words(sequences)
    repeats = _repeats(old, new, restated)
    return _ordered(_named_moves(new, old, own, (repeats, restated)), sequences, old, new), repeats


def _ordered(
    moves: Moves, sequences: tuple[list[str], list[str]], old: Counter[str], new: Counter[str]
) -> Moves:
    """``moves`` with what the edit kept but moved among what it put in (moved_within),
    where it took out or put in anything: an edit that only moved what the page holds is
    named apart (reorders)."""
    removed, added = moves
    if not (removed or added):
        return moves
    order = moved_within(*sequences, old, new)
    return (removed, sorted(added + order)) if order else moves


def _named_moves(
    new: Counter[str],
    old: Counter[str],
    own: str,
    repeated: tuple[Moves, frozenset[str]],
) -> Moves:
    """moves_of, from the two versions' tokens (``own``: edit_of's; ``repeated``: their _repeats
    and the title's words they name RESTATED), dates and numbers put in or taken out
    alone named by their kind (history.datevalues). The page's own URL, moved (onto the site's
    base, or in JSON-LD away from it too), is still the page's own URL: where one version holds
    it at the other host or base path and the other leaves it out, it is counted on both, so
    that it is named by the move; so are the links to it that moved onto it, however many (its
    table of contents: targetmoves.self_links)."""
    repeats, restated = repeated
    removed, added = rewrites(*repeats)
    lost = old[_LINK_END] - new[_LINK_END]
    if own and lost > 0 and (onto_self := self_links(repeats[0], own, lost)):
        new_self = new + onto_self + Counter({_LINK_END: lost})
        moved = rewrites(*_repeats(old, new_self, restated))
        if not any(target_of(token, "H") for token in (*moved[0], *moved[1])):
            removed, added = moved
            new = new_self
    if own:
        onto = own_leaves(old, new, own)  # (moved onto the site's base; else away from it)
        away = Counter() if onto else own_leaves(new, old, own)
        if onto or away:
            moved = rewrites(*_repeats(old + away, new + onto, restated))
            if not any(target_of(token, LEAF) for token in (*moved[0], *moved[1])):
                removed, added = moved
    return named_by_kind(removed, added)


def exact_of(newer: str, older: str) -> str:
    """The name of the same edit with every target named as it is, not by its move: pages
    whose edit_of is one may have made different exact moves (history.templateedits: a page
    whose own edit stands beside the site-wide one). Pages whose edit moved no target have
    one exact name when they have one edit; a respacing is RESPACED here too, a recasing
    RECASED, a re-spelling RESPELLED, and dates and numbers are named as edit_of names them.
    A kind of target whose every pair moved only another site's scheme and host is named by
    that move (targetmoves.host_moves): no page's own edit, whatever its paths."""
    return names_of(newer, older)[1]


def token_sum(reduction: str) -> int:
    """What edit_of names an edit by (the reduction's title words, marks and text words,
    counted), as one number: the sum of each token's hash, each as often as it stands, modulo
    2 ** SUM_BITS. The difference of two versions' sums names what the edit took out and put
    in, counted (sum_edit), without either version's text: what a bucket's state keeps
    (lastmod.deploys.templateedits). A target moved is named by both its ends, not by its move."""
    total = 0
    for token, count in _tokens(reduction, valued=False).items():
        data = token.encode("utf-8", "surrogatepass")
        named = hashlib.blake2b(data, digest_size=8, person=_NAMING).digest()
        total += count * int.from_bytes(named)
    return total % (1 << SUM_BITS)


def sum_edit(newer: int, older: int) -> int:
    """The name of the edit from a version whose token_sum is ``older`` to one whose is
    ``newer`` (0: it took out and put in nothing, as edit_of's reorders)."""
    return (newer - older) % (1 << SUM_BITS)


def _repeats(
    old: Counter[str], new: Counter[str], restated: frozenset[str] = frozenset()
) -> tuple[list[str], list[str]]:
    """The tokens taken out and put in (sorted), each named as it is but for those _by_kind
    names by their kind and whether they fell or rose, and the title's words of ``restated``
    (history.titlerestated) as RESTATED; a link re-pointed within the document it leads to is none
    (targetmoves.repointed_apart)."""
    removed: list[str] = []
    added: list[str] = []
    for token in _differing(old, new):
        if _by_kind(token, old, new):
            named = token[:1] + REPEAT + "repeat"
        elif token in restated:
            named = RESTATED
        else:
            named = token
        (removed if old[token] > new[token] else added).append(named)
    return repointed_apart(sorted(set(removed)), sorted(set(added)))


def _by_kind(token: str, old: Counter[str], new: Counter[str]) -> bool:
    """Whether _repeats names ``token``, counted differently in ``old`` and ``new``, by its kind.
    A link is named the same whether or not the page holds it elsewhere (issue 79): its target
    and words as they are, its end by its kind on either side (it says only that a link ends
    there). So the same links put in on a page that held none and on one that held some are
    one edit (bookdown's "Buy" buttons), and so is a sidebar's oldest post taken out where a
    page links it twice (a post whose prev/next link leads there, its category's page: 2 to 1)
    and where once (1 to 0). Any other mark kept on both sides (a description written twice,
    now once) is named by its kind: a repeat is no page's own."""
    return token == _LINK_END or (token[:1] not in "wtH" and bool(old[token] and new[token]))


# The name of an edit that only re-pointed links within the documents they lead to, their
# fragments (_repointed_alone): no content, as another site's host moved alone is none
# (history.stopedits names it STAMP_EDIT).
REPOINTED: Final = "7" + "0" * 31


def _repointed_alone(
    repeats: tuple[list[str], list[str]],
    sequences: tuple[list[str], list[str]],
    old: Counter[str],
    new: Counter[str],
) -> bool:
    """Whether the versions ``old`` and ``new`` (their tokens counted, and in order:
    ``sequences``) differ in their links' fragments alone (``repeats``, _repeats, is empty
    where they differ), what they kept in its order."""
    return (
        not (repeats[0] or repeats[1])
        and bool(_differing(old, new))
        and not moved_within(*sequences, old, new)
    )


def hash_edit(removed: list[str], added: list[str]) -> str:
    text = "\0".join((*removed, "\1", *added))
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def reorders(edit: str) -> bool:
    """Whether an edit (named by edit_of) took out and put in nothing: it moved what the page
    holds within it (a list's order), which no name tells from another page's: never template
    across a commit (history.probes.template_edits)."""
    return edit == _REORDERED


def names_a_kind(edit: str) -> bool:
    """Whether an edit is named by its kind alone (RESPELLED, RESPACED, RECASED, REPOINTED,
    STAMP_EDIT, LINKS_OUT, LINKS_IN: a digit, then zeros), not by what it took out and put in."""
    return len(edit) == 32 and edit.endswith("0" * 31)


def rewords(edit: str) -> bool:
    """Whether an edit (named by edit_of) changed the text's words beyond their letter case."""
    return edit[:1] in _KIND_DIGITS["words"]


def is_site_wide(edit: str) -> bool:
    """Whether an edit (named by edit_of) changed only what a site carries on every page: its
    addresses (targets that moved the same way: _rewrites), the words of its titles and its
    descriptions (the site's name, "Welcome to <name>"); its first hex digit is 8 to f (0 to 7
    for any other edit). Only the same edit on many pages of one commit is template."""
    return edit[:1] in _KIND_DIGITS["site-wide"]


def _versions(
    older: str, newer: str
) -> tuple[tuple[list[str], list[str]], Counter[str], Counter[str]]:
    """The token sequences of reductions ``older`` and ``newer`` (_sequence), the runs of words
    only respaced made one (respacing.respaced_runs), and their tokens counted."""
    sequences = (_sequence(older), _sequence(newer))
    old, new = Counter(sequences[0]), Counter(sequences[1])
    glued = respaced_runs(*sequences, old, new)
    if glued is None:
        return sequences, old, new
    return glued, Counter(glued[0]), Counter(glued[1])


def _tokens(reduction: str, *, valued: bool = True) -> Counter[str]:
    """A reduction's title words ("t"), marks (their kind letter and value) and text words
    ("w"), counted; ``valued``: each date as its value (history.datevalues.mark_date_values)."""
    return Counter(_sequence(reduction, valued=valued))


def _sequence(reduction: str, *, valued: bool = True) -> list[str]:
    """_tokens's tokens in the order they stand in ``reduction``."""
    if valued:
        reduction = mark_reduction_dates(reduction)
    title, marked, rest = reduction.partition(TITLE_END)
    if not marked:
        title, rest = "", reduction
    tokens = ["t" + word for word in title.split()]
    for index, part in enumerate(rest.split(MARK_EDGE)):
        if index % 2:
            tokens.append(part)
        else:
            tokens += ["w" + word for word in part.split()]  # (a list: 2x a generator's speed)
    return tokens


def _rewords(new: Counter[str], old: Counter[str]) -> bool:
    """Whether the text's words of ``new`` and ``old`` (_tokens), in lower case (what a
    template edit keeps), are counted differently: read from the tokens whose counts differ
    only, not from every word of both versions (a word counted alike on both sides adds as
    much to each)."""
    words: dict[str, int] = {}
    for token in _differing(old, new):
        if token[:1] == "w":
            word = token.casefold()
            words[word] = words.get(word, 0) + new[token] - old[token]
    return any(words.values())


def _differing(old: Counter[str], new: Counter[str]) -> set[str]:
    """The tokens counted differently in ``old`` and ``new``: (old - new) | (new - old), by the
    dicts' item views (C's speed; a Counter's subtraction is a Python loop over every token)."""
    return {token for token, _ in old.items() ^ new.items()}


def edit_key(path: str, newer: bytes, older: bytes, *, exact: bool = False, kind: str = "") -> str:
    """An edit's key among remembered fingerprints (a state's blob table): "e", the two
    blobs' ids, "-" and 8 hex digits of a hash of ``path`` and how edits are named
    (_KEYS: a name given another way is not recalled); ``exact``: its exact_of's key;
    ``kind`` "parts": its parts_of's."""
    person = _KEYS + (b"/exact" if exact else b"") + (b"/" + kind.encode() if kind else b"")
    where = hashlib.blake2b(
        path.encode("utf-8", "surrogatepass"), digest_size=4, person=person
    ).hexdigest()
    return f"e{newer.decode('ascii')}{older.decode('ascii')}-{where}"


_REORDERED: Final = edit_of("\1T\1", "\1T\1")  # (the name of an edit that changed no token)


# What an edit moved within a page: the words and targets it kept, in another order.
# Order is a list's content (issue 79, cluster 6). An edit is named by what it took out and put
# in, counted (above), so two posts of one day that swapped places on a tag page, in the
# commit that gave every page a new description, left that page's edit named as the description
# edit alone: template, and the page kept its older date. What the edit kept but moved is named
# too (ORDER and each such token), so the page's edit is its own; a block that a theme moved on
# every page (the same tokens) is still one edit. An edit that only moved what the page holds is
# named apart (reorders), as before.

ORDER: Final = "O"  # (the kind of a token an edit kept but moved)
# What a reader sees in order: the text's words, the links' and images' targets.
_ORDERED: Final = frozenset("wHIS")


def moved_within(
    older: list[str], newer: list[str], old: Counter[str], new: Counter[str]
) -> list[str]:
    """The tokens (ORDER and the token, sorted, once each) that the edit from the token
    sequence ``older`` to ``newer`` (counted: ``old``, ``new``) kept, each counted alike on
    both sides, but moved: those out of the longest runs the two versions keep in one order
    (difflib), past the start and the end they share. [] when what it kept is in order."""
    kept = {token for token, count in old.items() if new.get(token) == count}  # (counted alike)
    before = [token for token in older if token in kept and token[:1] in _ORDERED]
    after = [token for token in newer if token in kept and token[:1] in _ORDERED]
    if before == after:
        return []
    start, end = shared_ends(before, after)
    before, after = before[start : len(before) - end], after[start : len(after) - end]
    matcher = SequenceMatcher(None, before, after)
    moved = {
        ORDER + token
        for kind, first, last, _, _ in matcher.get_opcodes()
        if kind != "equal"
        for token in before[first:last]
    }
    return sorted(moved)
