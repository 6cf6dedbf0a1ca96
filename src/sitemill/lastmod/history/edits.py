"""How an edit between two versions of a page is named (history.templateedits)."""
# What it took out and put in, with targets that moved one way named by the move, whether it is
# site-wide, and the key a state remembers its name under.

from __future__ import annotations

import hashlib
from collections import Counter
from typing import Final

from sitemill.lastmod.fingerprint.marks import MARK, TITLE_END
from sitemill.lastmod.history.respacing import KEYS, RESPACED, respaced

# The mark kinds that hold a target: a link's, an image's source, a srcset's first candidate;
# and a JSON-LD leaf, "path=value" (fingerprint.structureddata: its URLs are targets), whose
# values are compared as targets when their paths are one.
TARGET_KINDS: Final = ("H", "I", "S", "J")
_LEAF: Final = "J"
# A move is named alike whatever kind of target made it (after "R"): a site that moved its
# addresses moved them in its links, images and JSON-LD alike, and a page that holds only some
# kinds (no image, only its own URL in its JSON-LD) made the same move as the others.
_MOVED: Final = "M"
# An edit's name says its kind in its first hex digit: a site-wide one's is 8 to f, one that
# changed the text's words 0 to 3, any other 4 to 7.
_KIND_DIGITS: Final = {"site-wide": "89abcdef", "words": "0123", "other": "4567"}
# How edits are named (edit_of, exact_of): a state's names given another way are not recalled.
_NAMING: Final = b"principles"
_LINK_END: Final = "E"  # (the token of a link's end: marks.LINK_END_MARK)
SUM_BITS: Final = 48  # (a token_sum's size: a deploy's distinct edits never meet by chance)
_REPEAT: Final = "\2"  # (after a mark's kind: it was repeated more or fewer times, _repeats)


def edit_of(newer: str, older: str, own: str = "") -> str:
    """The name of the edit that made reduction ``older`` into ``newer`` (what it took out and
    put in: each title word, target and description, and each word of the text whose count
    fell or rose, not by how much; targets that moved one way named by the move; a mark kept
    but repeated more or fewer times by its kind alone), hashed; its first digit says whether
    it changed the text's words beyond their letter case (rewords) or only what a site carries
    on every page (is_site_wide). ``own``: the page's site path: a link that moved onto the
    page itself is read as no link (fingerprint.selflinks), and is named by the move; white
    space moved alone is RESPACED (history.respacing)."""
    if respaced(newer, older):
        return RESPACED
    new, old = _tokens(newer), _tokens(older)
    removed, added = _named_moves(new, old, own)
    tokens = (*removed, *added)
    if _words(new) != _words(old):
        kind = "words"
    elif tokens and all(token[:1] in "RtD" for token in tokens):
        kind = "site-wide"
    else:
        kind = "other"
    name = hashed(removed, added)
    return _KIND_DIGITS[kind][int(name[0], 16) % len(_KIND_DIGITS[kind])] + name[1:]


def moves_of(newer: str, older: str, own: str = "") -> tuple[list[str], list[str]]:
    """The tokens edit_of's edit took out and put in (history.editparts names its parts): a
    mark's kind letter and value, "t" and a title word, "w" and a word, or "R" and a move."""
    return _named_moves(_tokens(newer), _tokens(older), own)


def _named_moves(new: Counter[str], old: Counter[str], own: str) -> tuple[list[str], list[str]]:
    """moves_of, from the two versions' tokens (``own``: edit_of's)."""
    removed, added = _rewrites(*_repeats(old, new))
    if own and old[_LINK_END] == new[_LINK_END] + 1:
        new_self = new + Counter({_LINK_END: 1, "H/" + own.lstrip("/"): 1})
        moved = _rewrites(*_repeats(old, new_self))
        if not any(_target_of(token, "H") for token in (*moved[0], *moved[1])):
            removed, added = moved
            new = new_self
    if own and (own_leaves := _own_leaves(old, new, own)):
        moved = _rewrites(*_repeats(old, new + own_leaves))
        if not any(_target_of(token, _LEAF) for token in (*moved[0], *moved[1])):
            removed, added = moved
    return removed, added


def exact_of(newer: str, older: str) -> str:
    """The name of the same edit with every target named as it is, not by its move: pages
    whose edit_of is one may have made different exact moves (history.templateedits: a page
    whose own edit stands beside the site-wide one). Pages whose edit moved no target have
    one exact name when they have one edit; a respacing is RESPACED here too."""
    if respaced(newer, older):
        return RESPACED
    return hashed(*_repeats(_tokens(older), _tokens(newer)))


def token_sum(reduction: str) -> int:
    """What edit_of names an edit by (the reduction's title words, marks and text words,
    counted), as one number: the sum of each token's hash, each as often as it stands, modulo
    2 ** SUM_BITS. The difference of two versions' sums names what the edit took out and put
    in, counted (sum_edit), without either version's text: what a bucket's state keeps
    (lastmod.deployedits). A target moved is named by both its ends, not by its move."""
    total = 0
    for token, count in _tokens(reduction).items():
        data = token.encode("utf-8", "surrogatepass")
        named = hashlib.blake2b(data, digest_size=8, person=_NAMING).digest()
        total += count * int.from_bytes(named)
    return total % (1 << SUM_BITS)


def sum_edit(newer: int, older: int) -> int:
    """The name of the edit from a version whose token_sum is ``older`` to one whose is
    ``newer`` (0: it took out and put in nothing, as edit_of's reorders)."""
    return (newer - older) % (1 << SUM_BITS)


def _repeats(old: Counter[str], new: Counter[str]) -> tuple[list[str], list[str]]:
    """The tokens taken out and put in (sorted), a mark on both sides (a description written
    twice, now once) named by its kind and whether it fell or rose: a repeat is no page's own."""
    removed: list[str] = []
    added: list[str] = []
    for token in (old - new).keys() | (new - old).keys():
        if token[:1] not in "wt" and old[token] and new[token]:
            (removed if old[token] > new[token] else added).append(token[:1] + _REPEAT + "repeat")
        else:
            (removed if old[token] > new[token] else added).append(token)
    return sorted(set(removed)), sorted(set(added))


def hashed(removed: list[str], added: list[str]) -> str:
    text = "\0".join((*removed, "\1", *added))
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def reorders(edit: str) -> bool:
    """Whether an edit (named by edit_of) took out and put in nothing: it moved what the page
    holds within it (a list's order), which no name tells from another page's: never template
    across a commit (history.probes.template_edits)."""
    return edit == _REORDERED


def rewords(edit: str) -> bool:
    """Whether an edit (named by edit_of) changed the text's words beyond their letter case."""
    return edit[:1] in _KIND_DIGITS["words"]


def is_site_wide(edit: str) -> bool:
    """Whether an edit (named by edit_of) changed only what a site carries on every page: its
    addresses (targets that moved the same way: _rewrites), the words of its titles and its
    descriptions (the site's name, "Welcome to <name>"); its first hex digit is 8 to f (0 to 7
    for any other edit). Only the same edit on many pages of one commit is template."""
    return edit[:1] in _KIND_DIGITS["site-wide"]


def _rewrites(removed: list[str], added: list[str]) -> tuple[list[str], list[str]]:
    """``removed`` and ``added`` tokens (sorted) with each kind of target that the edit moved
    one to one named by its move instead: the site moved its addresses (a new base path or
    host, ``.png`` made ``.webp``), and each page's targets moved the same way.

    For a kind of target (link, image, srcset) with as many removed as added, the i-th removed
    and the i-th added (in sorted order, which a common rewrite of a start or an end keeps) are
    a pair, named by _rewrite (a JSON-LD leaf's value at the same path only: _move). When
    every pair has one name, that name, once, stands for them, alike for every kind (_MOVED);
    any other token, and every target of a kind whose pairs are not all one move, stays as it
    is, so a page whose own links changed keeps an edit of its own."""
    out_removed, out_added = list(removed), list(added)
    for kind in TARGET_KINDS:
        gone = [token for token in removed if _target_of(token, kind)]
        come = [token for token in added if _target_of(token, kind)]
        if not gone or len(gone) != len(come):
            continue
        names = {_move(old, new) for old, new in zip(gone, come, strict=True)}
        if len(names) != 1 or None in names:
            continue
        out_removed = [token for token in out_removed if not _target_of(token, kind)]
        out_added = [token for token in out_added if not _target_of(token, kind)]
        out_removed.append("R" + _MOVED + str(names.pop()))
    return sorted(set(out_removed)), sorted(out_added)


def _own_leaves(old: Counter[str], new: Counter[str], own: str) -> Counter[str]:
    """JSON-LD leaves ``new`` would hold if the values it has fewer of at a path than ``old``
    had led to the page itself (site path ``own``), which the reduction leaves out: a page's
    own URL at a host or base path the site moved from is counted with the move."""
    fewer: Counter[str] = Counter()
    for tokens, sign in ((old, 1), (new, -1)):
        for token, count in tokens.items():
            if token[:1] == _LEAF:
                fewer[_leaf_path(token)] += sign * count
    spelled = "/" + own.lstrip("/")
    return Counter({f"{path}={spelled}": count for path, count in fewer.items() if count > 0})


def _leaf_path(token: str) -> str:
    """A JSON-LD leaf's kind and path (fingerprint.structureddata), without its value."""
    return token.partition("=")[0]


def _move(old: str, new: str) -> str | None:
    """How a target token moved (_rewrite); a JSON-LD leaf's value only at the same path."""
    if old[:1] != _LEAF:
        return _rewrite(old[1:], new[1:])
    old_path, _, old_value = old.partition("=")
    new_path, _, new_value = new.partition("=")
    return _rewrite(old_value, new_value) if old_path == new_path else None


def _target_of(token: str, kind: str) -> bool:
    """Whether ``token`` is a target of ``kind`` that came or went (not a repeat: _repeats)."""
    return token[:1] == kind and token[1:2] != _REPEAT


def _rewrite(old: str, new: str) -> str | None:
    """How a target moved: its host's change, then what differs between its paths once their
    common start and end are cut off (an insertion or a deletion as far left as it can stand:
    "/" made "/base" and "/posts" made "/base/posts" are one move); None when the query or the
    fragment changed. A site's own paths are compared without a trailing "/", "index.html" or
    ".html", which the reduction leaves off its own links (fingerprint.targets) but not another
    host's."""
    old_host, old_path, old_rest = _split(old)
    new_host, new_path, new_rest = _split(new)
    if old_rest != new_rest:
        return None
    start, limit = 0, min(len(old_path), len(new_path))
    while start < limit and old_path[start] == new_path[start]:
        start += 1
    end = 0
    while end < limit - start and old_path[-1 - end] == new_path[-1 - end]:
        end += 1
    cut, put = old_path[start : len(old_path) - end], new_path[start : len(new_path) - end]
    while (cut == "") != (put == "") and start:  # (slide a pure insertion or deletion left)
        moved = cut or put
        if old_path[start - 1] != moved[-1]:
            break
        start -= 1
        moved = moved[-1] + moved[:-1]
        cut, put = (moved, "") if cut else ("", moved)
    return f"{old_host}\2{new_host}\2{cut}\2{put}"


def _split(target: str) -> tuple[str, str, str]:
    """A target's scheme and host (empty for the site's own), its path without a trailing
    "/", "index.html" or ".html", and its query and fragment."""
    host, sep, rest = target.partition("://")
    if sep:
        authority, slash, path = rest.partition("/")
        host, path = host.lower() + sep + authority.lower(), slash + path
    else:
        host, path = "", target
    cut = min((i for i in (path.find("?"), path.find("#")) if i >= 0), default=len(path))
    path, tail = path[:cut], path[cut:]
    for ending in ("index.html", ".html", "/"):
        path = path.removesuffix(ending)
    return host, path, tail


def _tokens(reduction: str) -> Counter[str]:
    """A reduction's title words ("t"), marks (their kind letter and value) and text words
    ("w"), counted."""
    title, marked, rest = reduction.partition(TITLE_END)
    if not marked:
        title, rest = "", reduction
    tokens: Counter[str] = Counter("t" + word for word in title.split())
    for index, part in enumerate(rest.split(MARK)):
        if index % 2:
            tokens[part] += 1
        else:
            tokens.update("w" + word for word in part.split())
    return tokens


def _words(tokens: Counter[str]) -> Counter[str]:
    """The text's words of ``tokens`` (_tokens), in lower case: what a template edit keeps."""
    words: Counter[str] = Counter()
    for token, count in tokens.items():
        if token[:1] == "w":
            words[token.casefold()] += count
    return words


def edit_key(path: str, newer: bytes, older: bytes, *, exact: bool = False, kind: str = "") -> str:
    """An edit's key among remembered fingerprints (a state's blob table): "e", the two
    blobs' ids, "-" and 8 hex digits of a hash of ``path`` and how edits are named
    (respacing.KEYS: a name given another way is not recalled); ``exact``: its exact_of's key;
    ``kind`` "parts": its parts_of's."""
    person = KEYS + (b"/exact" if exact else b"") + (b"/" + kind.encode() if kind else b"")
    where = hashlib.blake2b(
        path.encode("utf-8", "surrogatepass"), digest_size=4, person=person
    ).hexdigest()
    return f"e{newer.decode('ascii')}{older.decode('ascii')}-{where}"


_REORDERED: Final = edit_of("\1T\1", "\1T\1")  # (the name of an edit that changed no token)
