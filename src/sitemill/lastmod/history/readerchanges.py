"""The pages a commit changed for a reader: the whole that history.templateedits's census of a
commit's edits divides by."""
# An edit on most pages of a commit is template (history.probes.template_edits, shared_parts):
# most of the pages whose reading the commit changed, not of the files it wrote. A deploy that
# renamed a stylesheet rewrote every file; a list page whose only change is another page's teaser
# beyond its link and title (decision 2) changed its file and nothing the fingerprint reads. A
# version the walk went past (inside a page's run) reads like the one before it: the commit did
# not change that page for a reader, unless the walk was carried past it (``crossed``: its edit
# was template, which the commit made). A stop, a creation, a deletion and a version the walk has
# not reached are counted: an edit is taken as template on less evidence than it has, never on
# more. The count is taken again each round, as the runs grow past template edits.
# Copies of one page are one page: versions with the same bytes before and after the commit (a
# docs tree copied under version and language folders, spyder-docs's 5/, 5/en/, current/, ...)
# count once, among the edits (``distinct``) as among the pages changed. A deploy that re-rendered
# every file and changed one page's words in its six copies (two blobs: English and Spanish)
# made one page's edit, however few other pages it changed for a reader.

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Set

from sitemill.lastmod.history.walk import Run

# A stop's form: a page's path and the index of the older of two versions in its chain.
Pair = tuple[str, int]


def reader_changes(pages: Mapping[str, Run], crossed: Set[Pair]) -> Counter[int]:
    """The number of pages each commit (by its time) changed for a reader (see above): each
    version not inside its page's run, or ``crossed``; copies once."""
    changed: set[tuple[int, bytes | None, bytes | None]] = set()
    for path, run in pages.items():
        for index in range(len(run.chain)):
            if index + 1 >= run.end or (path, index + 1) in crossed:
                changed.add(_copy(path, run, index + 1))
    return Counter(when for when, _, _ in changed)


def distinct(stops: list[Pair], pages: Mapping[str, Run]) -> list[Pair]:
    """The ``stops`` less the copies of another's edit (the same bytes before and after)."""
    found: dict[tuple[int, bytes | None, bytes | None], Pair] = {}
    for path, end in stops:
        found.setdefault(_copy(path, pages[path], end), (path, end))
    return list(found.values())


def _copy(path: str, run: Run, end: int) -> tuple[int, bytes | None, bytes | None]:
    """What copies of the version before ``end`` share: its commit, its blob and the one before
    (a creation's or a deletion's: the page's path, never a copy's)."""
    chain = run.chain
    newer = chain[end - 1].blob
    older = chain[end].blob if end < len(chain) else None
    if newer is None or older is None:
        return chain[end - 1].time, path.encode("utf-8", "surrogatepass"), None
    return chain[end - 1].time, newer, older
