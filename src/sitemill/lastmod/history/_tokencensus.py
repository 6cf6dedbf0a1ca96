"""Two template edits on one page: the census of a commit's tokens (history.templateedits)."""
# A page whose edit at a commit is two template edits (a release swapped in the title and the
# caption beside the generator's version in the footer; the footer's year beside a library's
# links re-pointed) stands on fewer pages than either, and a page that made both beside its own
# edits has too large an edit to hold them (editparts.contains). So each edit is also named by its
# tokens (editparts.edit_tokens), and a commit whose pages are all named counts them: an edit
# whose every token most of its pages made alike, or, for a move of another site's links, most
# of those that changed a link there, is the template's (issue 79, read92 fault 1).

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping

from sitemill.lastmod.history._blockcensus import Whole, read_blocks
from sitemill.lastmod.history._editparts import BY_KIND, NO_KIND, census_tokens
from sitemill.lastmod.history._probes import commit_of, exact_kept, telling
from sitemill.lastmod.history._stopedits import STAMP_EDIT, TOKENS_AT, Edits, StopEdits
from sitemill.lastmod.history.sections import MIN_SECTION
from sitemill.lastmod.history.walk import Run


def by_tokens(
    named: list[tuple[str, int]],
    chosen: list[tuple[str, int]],
    pages: Mapping[str, Run],
    counts: tuple[dict[int, list[tuple[str, int]]], Counter[int]],
    tokens: Callable[[list[tuple[str, int]]], int],
    tables: StopEdits,
    whole: Whole | None = None,
) -> tuple[list[tuple[str, int]], set[tuple[str, int]], int]:
    """``chosen`` and the stops of ``named`` whose edit is template by the census of their
    commit's tokens (token_templates: each token made by most of its pages, or of those
    of its kind), and the blobs read. Counted where at least MIN_SECTION pages stop at a commit,
    one of them not yet template, and every page the commit changed is named (``counts``: the
    pages each commit changed, by commit, as stops, and their number): the others by
    templateedits' commit census. A census is per commit: the tokens of its pages are read again
    only where an earlier run's state recalled their names without them (``tokens``:
    stopedits.read_tokens). Of those whose edit is one (edits.edit_of: its moves named by the
    move), a page whose exact moves are not the ones most of them made is its own (a repair of
    its own beside the move). ``whole``: reads pages' versions, whole or not, the base URL
    and the block censuses made (history.blockcensus: a block's edit counted wherever it
    stood on each page); None: never.
    Also returned apart: the stops judged so, by their blocks (their edit's name may be another
    page's whose blocks are its own: it is judged template nowhere else)."""
    commits, changed = counts
    edits, exact = tables[0], tables[1]
    taken = set(chosen)
    at: dict[int, list[tuple[str, int]]] = {}
    for stop in named:
        if stop not in taken and telling(edits.get(stop)):
            at.setdefault(commit_of(stop, pages), []).append(stop)
    per_commit = Counter(commit_of(stop, pages) for stop in named) if at else Counter[int]()
    counted = [
        (when, commits[when])
        for when, stops in sorted(at.items())
        if len(commits.get(when, ())) >= MIN_SECTION
        and all(stop in edits for stop in commits[when])
        and per_commit[when] >= MIN_SECTION
    ]
    blocked: set[tuple[str, int]] = set()
    if not counted:
        return chosen, blocked, 0
    every = [stop for _, stops in counted for stop in stops]
    read = tokens(every)
    unmade = unmade_tokens(every, pages, tables[TOKENS_AT], changed)
    found = token_templates(unmade)
    for when, stops in counted if whole is not None else ():
        left = [stop for stop in at[when] if stop not in found]
        blocks, also = _blocks(left, stops, (unmade, tables[TOKENS_AT]), whole)
        found, blocked, read = found | blocks, blocked | blocks, read + also
    more = [stop for stops in at.values() for stop in stops if stop in found]
    # (the commit's pages whose edit is one, stops or not)
    kept = exact_kept(more, found, lambda stop: (commit_of(stop, pages), edits.get(stop)), exact)
    return chosen + kept, blocked & set(kept), read


def _blocks(
    left: list[tuple[str, int]],
    commit: list[tuple[str, int]],
    counts: tuple[Mapping[tuple[str, int], frozenset[str]], Edits],
    whole: Whole | None,
) -> tuple[set[tuple[str, int]], int]:
    """The stops of ``left`` (at one commit, not template by its token census) that made no
    edit of their own beside the blocks most of the commit's pages (``commit``) took out or put
    in, in their region or in their body (history.blockcensus: a block's edit, wherever it
    stood), and the blobs read (none where an earlier round asked the same: ``whole``'s).
    ``counts``: the census's tokens each stop made alone (unmade_tokens), and the edits' tokens."""
    unmade, table = counts
    asked = (tuple(left), tuple(commit))
    if not left or whole is None or asked in whole[2]:
        return (set(whole[2][asked]) if left and whole else set()), 0
    wanted = {stop: unmade[stop] for stop in left if unmade.get(stop)}
    region = {stop: tokens_of(stop, table) for stop in commit}
    alike = 2 * sum(not table.get(stop) for stop in commit) > len(commit)  # (their change: none)
    found, read = read_blocks(wanted, commit, region, whole[:2], alike)
    whole[2][asked] = found
    return set(found), read


def token_templates(unmade: Mapping[tuple[str, int], frozenset[str]]) -> set[tuple[str, int]]:
    """The stops counted (``unmade``: unmade_tokens of every page their commits changed, each
    named) whose every token (editparts.edit_tokens: each word, mark or move the edit took out
    or put in) is one at least MIN_SECTION of the commit's pages took out or put in alike, more
    than half of the pages it changed or of those whose edit took out or put in a token of its
    kind (a move of another site's targets: of the pages that changed a target there): two
    template edits on one page (a release swapped in the title and the caption beside the
    footer's generator version; the footer's year beside a library's links re-pointed, each
    page its own set) are the template's. A page with a token of its own (a word, its list's
    order) keeps its edit's date; so does one whose edit is too large to count
    (editparts.MANY)."""
    return {stop for stop, alone in unmade.items() if not alone}


def unmade_tokens(
    stops: list[tuple[str, int]],
    pages: Mapping[str, Run],
    tokens: Edits,
    changed: Mapping[int, int],
) -> dict[tuple[str, int], frozenset[str]]:
    """token_templates's count: the tokens of each stop of ``stops`` whose edit could be
    counted that too few of its commit's pages made (none: a template edit)."""
    counts: Counter[tuple[int, str]] = Counter()
    kinds: Counter[tuple[int, str]] = Counter()
    named: Counter[int] = Counter()
    held: dict[tuple[str, int], list[str]] = {}
    for stop in stops:
        name = tokens.get(stop)
        when = commit_of(stop, pages)
        named[when] += 1
        if not name or name == STAMP_EDIT:
            continue
        many, found = census_tokens(name)
        kinds.update((when, kind) for kind in {token[:4] for token in found} - {NO_KIND})
        if not many and found:
            counts.update((when, token) for token in found)
            held[stop] = found

    def made(when: int, token: str) -> bool:
        count = counts[when, token]
        most = max(changed.get(when, 0), named[when])
        by_kind = token[:4] != NO_KIND and token[4:5] == BY_KIND
        return count >= MIN_SECTION and (
            2 * count > most or (by_kind and 2 * count > kinds[when, token[:4]])
        )

    return {
        stop: frozenset(token for token in found if not made(commit_of(stop, pages), token))
        for stop, found in held.items()
    }


def tokens_of(stop: tuple[str, int], tokens: Edits) -> frozenset[str]:
    """The tokens of a stop's edit (editparts.edit_tokens), none for one too large to count."""
    name = tokens.get(stop)
    if not name or name == STAMP_EDIT:
        return frozenset()
    many, found = census_tokens(name)
    return frozenset() if many else frozenset(found)
