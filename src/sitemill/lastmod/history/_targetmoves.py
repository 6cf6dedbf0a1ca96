"""How a page's targets moved between two versions: one move named for all of a kind's pairs."""
# A site that moved its addresses (a new base path or host, ``.png`` made ``.webp``) moved each
# page's targets the same way; history.edits names such an edit by the move, so that every page
# that made it has one edit (history.templateedits).

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Final
from urllib.parse import unquote

from sitemill.lastmod.fingerprint.targets import SCHEME
from sitemill.lastmod.history._commonends import shared_ends
from sitemill.lastmod.history._targetpairs import BESIDE_MOVES
from sitemill.lastmod.history._targetpairs import paired as pairs

# The mark kinds that hold a target: a link's, an image's source, a srcset's first candidate;
# and a JSON-LD leaf, "path=value" (fingerprint.structureddata: its URLs are targets), whose
# values are compared as targets when their paths are one.
TARGET_KINDS: Final = ("H", "I", "S", "J")
LEAF: Final = "J"
# A move is named alike whatever kind of target made it (after "R"): a site that moved its
# addresses moved them in its links, images and JSON-LD alike, and a page that holds only some
# kinds (no image, only its own URL in its JSON-LD) made the same move as the others.
_MOVED: Final = "M"
REPEAT: Final = "\2"  # (after a mark's kind: it was repeated more or fewer times)
# A JSON-LD leaf's value that is a URL, as fingerprint.structureddata spells one (a link's
# spelling: the site's own path, or another origin's URL as written).
_URL_VALUE: Final = re.compile(r"(?:[a-z][a-z0-9+.-]*:)?//|/", re.IGNORECASE)


def rewrites(removed: list[str], added: list[str]) -> tuple[list[str], list[str]]:
    """``removed`` and ``added`` tokens (sorted) with each kind of target that the edit moved
    one to one named by its move instead: the site moved its addresses (a new base path or
    host, ``.png`` made ``.webp``), and each page's targets moved the same way.

    For a kind of target (link, image, srcset) with as many removed as added, the i-th removed
    and the i-th added (in sorted order, which a common rewrite of a start or an end keeps) are
    a pair, named by _rewrite (a JSON-LD leaf's value at the same path only: _move): by what
    moved, the part between the common start and end of its two ends, not by the page's own
    path around it. When every pair is a move, their names, each once, stand for them, alike
    for every kind (_MOVED): a deploy that moved a release tag in each page's source link
    (``blob/v1.11.1/<the page's own file>`` made ``blob/v1.12.0/…``) and another library's
    version in its links (``api/2.13.12/…`` made ``api/2.13.14/…``) made one edit on every
    page that holds both (issue 79, endpoints4s). Any other token, and every target of a kind
    whose pairs are not all moves, stays as it is, so a page whose own links changed keeps an
    edit of its own (a link retargeted to another page is named by the two pages: no other
    page made that move). A kind with a few more removed than added, or added than removed,
    pairs by one move beside the targets that came or went (_moved_beside)."""
    return _named_pairs(removed, added, _move, BESIDE_MOVES)


def host_moves(removed: list[str], added: list[str]) -> tuple[list[str], list[str]]:
    """``removed`` and ``added`` tokens (sorted) with each kind of target whose every pair
    moved only another site's scheme and host, the rest kept (``https://gcore.example/gh/x.png``
    made ``https://cdn.example/gh/x.png``), named by that move instead, as rewrites names it:
    the exact name (history.edits.exact_of) of a page whose own pictures moved so beside the
    ones every page shows is the others' (issue 79, a CDN's host moved on all 101 pages of a
    Hexo blog). A kind with any other pair, or a target that came or went, keeps its targets as
    they are: a page whose own target changed beside the move is its own."""
    return _named_pairs(removed, added, _host_move, 0)


def _named_pairs(
    removed: list[str], added: list[str], move: Callable[[str, str], str | None], beside: int
) -> tuple[list[str], list[str]]:
    """rewrites and host_moves: each kind of target whose pairs (the i-th removed and the i-th
    added, sorted, or paired by one move beside at most ``beside`` that came or went) ``move``
    names, named by those names, each once."""
    out_removed, out_added = list(removed), list(added)
    for kind in TARGET_KINDS:
        gone = [token for token in removed if target_of(token, kind)]
        come = [token for token in added if target_of(token, kind)]
        paired = pairs(gone, come, move, beside)
        if paired is None:
            continue
        names, left = paired
        moved = {token for token in (*gone, *come) if token not in left}
        out_removed = [token for token in out_removed if token not in moved]
        out_added = [token for token in out_added if token not in moved]
        out_removed.extend("R" + _MOVED + str(name) for name in names)
    return sorted(set(out_removed)), sorted(out_added)


def hosts_moved_alone(moves: tuple[list[str], list[str]]) -> bool:
    """Whether an edit's ``moves`` (edits.moves_of) are only moves of another site's scheme
    and host, the rest of each target kept: no content (dating rules 12), wherever it stands
    and on however few pages whose reading changed (a CDN's host moved on every picture of a
    deploy re-rendering every page, most of them reading alike before and after). From dating
    rules 15 (issue 79) also a move from another host onto the site's own, the rest kept: a
    link written at the host the site was built for, now the site's own (a Ghost export's
    ``http://localhost:8089`` made ``/`` on its 404 pages, two of the deploy's three pages
    that still read apart once its JSON-LD reads the host as the site's: a custom domain
    dropped), as the site's host moving is one edit wherever it stands."""
    removed, added = moves
    return bool(removed) and not added and all(_names_host_move(token) for token in removed)


def _names_host_move(token: str) -> bool:
    if not token.startswith("R" + _MOVED):
        return False
    old_host, _new_host, *middle = token[2:].split(REPEAT)  # (a new host "": the site's own)
    return bool(old_host) and middle == ["", ""]


def _host_move(old: str, new: str) -> str | None:
    """_move's name of a pair that moved only another site's scheme and host (both another
    site's: the site's own targets name no host), else None."""
    (old_host, *old_rest), (new_host, *new_rest) = _split(old[1:]), _split(new[1:])
    if old[:1] == LEAF or not old_host or not new_host or old_rest != new_rest:
        return None
    return _rewrite(old[1:], new[1:])


def self_links(removed: list[str], own: str, lost: int) -> Counter[str]:
    """The link tokens a newer version would hold if ``lost`` of the ``removed`` link targets
    had moved onto the page itself (site path ``own``, spelled as the reduction spells it),
    which the reduction reads as no link: the page's own table of contents, its sections'
    anchors, at a host or base path the site moved from. They are ``lost`` removed links that
    moved to the page's own path (each with its fragment) by one move, the least one of those
    (a link to another page moved there would also change the path's own part); an empty
    Counter when none or two such moves are. history.edits keeps them only where they make
    the edit one move. ``removed`` names a target once however often it stood: one link that
    moved onto the page stands for all ``lost`` (a post whose title and a sentence both linked to
    it at the host the site moved from: issue 79, cluster 7).

    A link that named no part of the page (none ends with the page's last path segment: a
    badge's link to another site's root, removed from every post) is no link to it at an
    older address, unless other links of the page moved the same way (the site's root page,
    linked from itself as from every other page, at the host it moved from): else each page
    would name its own move, and a badge removed from most pages of a commit would date them
    all (issue 79, cluster 6). Other links moved the same way only where more targets went than
    the links lost: one target that stood three times and went is one link lost thrice, not
    three that moved (DocFX's ``⟨Object⟩`` made plain ``System.Object`` on every API page, three
    times on some: issue 79, yarp)."""
    spelled = "H/" + own.lstrip("/")
    last = _split(own)[1].rpartition("/")[2]
    moved: dict[str, list[str]] = {}
    named: dict[str, bool] = {}  # (whether a link moved by the move named a part of the page)
    links = 0
    for token in removed:
        if target_of(token, "H"):
            links += 1
            onto = spelled + "".join(token.partition("#")[1:])
            name = _rewrite(token[1:], onto[1:])
            if name is not None:
                moved.setdefault(name, []).append(onto)
                names_page = bool(last) and _split(token[1:])[1].endswith("/" + last)
                named[name] = named.get(name, False) or names_page
    found = sorted(
        (len(name), name)
        for name, onto in moved.items()
        if len(onto) == lost or (len(onto) == 1 and lost > 1)
    )
    if not found or (len(found) > 1 and found[0][0] == found[1][0]):
        return Counter()
    if not named[found[0][1]] and links <= lost:
        return Counter()
    landed = moved[found[0][1]]
    return Counter({landed[0]: lost}) if len(landed) == 1 else Counter(landed)


def own_leaves(old: Counter[str], new: Counter[str], own: str) -> Counter[str]:
    """JSON-LD leaves ``new`` would hold if the values it has fewer of at a path than ``old``
    had led to the page itself (site path ``own``), which the reduction leaves out: a page's
    own URL at a host or base path the site moved from is counted with the move. (With the
    versions swapped: the leaves the older version would hold, its own URL at the site's base
    left out, when the site moved away to another host: still the page's own URL, moved.)"""
    fewer: Counter[str] = Counter()
    # (the leaves counted differently, from the item views at C's speed: the others add nothing)
    for token in {token for token, _ in old.items() ^ new.items()}:
        if token[:1] == LEAF:
            fewer[_leaf_path(token)] += old[token] - new[token]
    spelled = "/" + own.lstrip("/")
    return Counter({f"{path}={spelled}": count for path, count in fewer.items() if count > 0})


def _leaf_path(token: str) -> str:
    """A JSON-LD leaf's kind and path (fingerprint.structureddata), without its value."""
    return token.partition("=")[0]


def _move(old: str, new: str) -> str | None:
    """How a target token moved (_rewrite); a JSON-LD leaf's value only at the same path."""
    if old[:1] != LEAF:
        return _rewrite(old[1:], new[1:])
    old_path, _, old_value = old.partition("=")
    new_path, _, new_value = new.partition("=")
    return _rewrite(old_value, new_value) if old_path == new_path else None


def target_of(token: str, kind: str) -> bool:
    """Whether ``token`` is a target of ``kind`` that came or went (not a repeat: _repeats);
    a JSON-LD leaf only where its value is a URL (a description beside the URLs is words,
    not a target that moved with them)."""
    if token[:1] != kind or token[1:2] == REPEAT:
        return False
    return kind != LEAF or _URL_VALUE.match(token.partition("=")[2]) is not None


def _rewrite(old: str, new: str) -> str | None:
    """How a target moved: its host's change, then what differs between its paths once their
    common start and end are cut off (_middle: "/" made "/base" and "/posts" made "/base/posts"
    are one move), and between its queries alike where they differ (``via=X&`` dropped before
    each page's own ``title=``: a query rewritten one way on most pages of a commit is the
    template's, as a path moved is); None when the fragment of a link to the site's own page
    changed with its path or query. A fragment alone changed re-pointed the link within the
    document it leads to (RFC 3986 section 3.5: a part of the same document): every such pair
    is one move, whatever the fragments (a generator that makes each cross-reference lead to
    its target's top section anchor, "faq.html" made "faq.html#faq", on most pages). A link to
    another site's document whose path or query moved is named by that move alone, its
    fragment changed or not: the fragment is a place in that document (a line of a source file,
    a section's number) and moved with it (Codox's "view source" links at
    ``blob/1.12.1/x.clj#L91`` made ``blob/1.13.0/x.clj#L90``, LDoc's links into the Lua manual
    at ``5.1/manual.html#5.4`` made ``5.4/manual.html#6.4``: what another document says is
    that document's; issue 79). A site's own paths are compared without a trailing "/",
    "index.html" or ".html", which the reduction leaves off its own links
    (fingerprint.targets) but not another host's."""
    old_host, old_path, old_rest = _split(old)
    new_host, new_path, new_rest = _split(new)
    old_query, old_hash, old_fragment = old_rest.partition("#")
    new_query, new_hash, new_fragment = new_rest.partition("#")
    if (old_hash, old_fragment) != (new_hash, new_fragment):
        if (old_host, old_path, old_query) == (new_host, new_path, new_query):
            return f"{old_host}\2{new_host}\2#\2#"  # (re-pointed within its document: see above)
        if not (old_host and new_host):
            return None  # (the site's own page: its fragment a heading of that page's)
    name = f"{old_host}\2{new_host}\2" + "\2".join(_middle(old_path, new_path))
    if old_query != new_query:
        name += "\2?\2" + "\2".join(_middle(old_query, new_query))
    return name


def repointed_apart(removed: list[str], added: list[str]) -> tuple[list[str], list[str]]:
    """``removed`` and ``added`` tokens (sorted) without the links that were re-pointed within
    the document they lead to: a link's target taken out and one put in that differ in their
    fragment alone (or one has none), paired in order. A fragment is a place in the document
    the link leads to, named by that document (RFC 3986 section 3.5): where a reader lands in
    it is that document's, and what the link says and which document it opens are the page's.
    A generator that names each member's anchor by a hash of its declaration re-points every
    link to the member when the declaration changes on the member's page (Doxygen:
    ``basic_poly.html#ae757efa…`` made ``#af1ee362…`` on the class's member list and the
    index pages, their words the same; issue 79), and a link to another site's section may
    lose its fragment: neither is the linking page's edit. Links only: an image's fragment
    picks what it shows (an icon of a sprite)."""
    gone: dict[str, list[str]] = {}
    come: dict[str, list[str]] = {}
    for tokens, by_base in ((removed, gone), (added, come)):
        for token in tokens:
            if target_of(token, "H"):
                by_base.setdefault(token.partition("#")[0], []).append(token)
    paired: set[str] = set()
    for base, taken in gone.items():
        put = come.get(base, [])
        for old, new in zip(taken, put, strict=False):
            paired.update((old, new))
    if not paired:
        return removed, added
    return (
        [token for token in removed if token not in paired],
        [token for token in added if token not in paired],
    )


def _middle(old: str, new: str) -> tuple[str, str]:
    """What differs between ``old`` and ``new`` once their common start and end are cut off,
    an insertion or a deletion as far left as it can stand."""
    start, end = shared_ends(old, new)
    cut, put = old[start : len(old) - end], new[start : len(new) - end]
    while (cut == "") != (put == "") and start:  # (slide a pure insertion or deletion left)
        moved = cut or put
        if old[start - 1] != moved[-1]:
            break
        start -= 1
        moved = moved[-1] + moved[:-1]
        cut, put = (moved, "") if cut else ("", moved)
    return cut, put


def page_path(target: str) -> str:
    """The page a target of the site's own leads to: its path without a trailing "/",
    "index.html" or ".html", its query and fragment, percent-decoded (history.listings: a
    page's links however spelled, ``%20`` or a space)."""
    return unquote(_split(target)[1])


def names_host(target: str) -> bool:
    """Whether ``target`` names a scheme and host, another site's, as the reduction spells it
    (the site's own are paths): a scheme at its start only (fingerprint.targets.SCHEME), then
    "//". A ``://`` anywhere else is the path's: ``href=";https://host/x"`` is a relative
    path, the site's own (a 404 under the page's path), so leading it to ``https://host/x``
    led the link to another page, no host's move (dating rules 19: issue 79, genieblog)."""
    return _host_end(target) > 0


def site_target(target: str) -> bool:
    """Whether ``target`` is the site's own, as the reduction spells it: no scheme and host
    at its start (names_host), no "//" (a scheme-relative URL: another host)."""
    return not names_host(target) and not target.startswith("//")


def _host_end(target: str) -> int:
    """Where the "//" after a scheme at the start of ``target`` ends; 0 when it has none."""
    scheme = SCHEME.match(target)
    if scheme is None or not target.startswith("//", scheme.end()):
        return 0
    return scheme.end() + 2


def _split(target: str) -> tuple[str, str, str]:
    """A target's scheme and host (empty for the site's own: names_host), its path without a
    trailing "/", "index.html" or ".html", and its query and fragment."""
    end = _host_end(target)
    if end:
        authority, slash, path = target[end:].partition("/")
        host, path = target[:end].lower() + authority.lower(), slash + path
    else:
        host, path = "", target
    cut = min((i for i in (path.find("?"), path.find("#")) if i >= 0), default=len(path))
    path, tail = path[:cut], path[cut:]
    for ending in ("index.html", ".html", "/"):
        path = path.removesuffix(ending)
    return host, path, tail
