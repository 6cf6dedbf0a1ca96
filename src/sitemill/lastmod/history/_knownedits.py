"""An edit judged template at a commit is the template's on every page that made it there."""
# history.templateedits judges a commit's edits round after round, each time among the stops of
# that round: by the stops of a section, by the commit's census, by the section's census. A page
# whose walk reaches the commit a round after the others (its own later edit, template too,
# carried first: three talks of aea's deploy that gave 86 talks a language line), or the one page
# of a section of its own (``categories/``, whose author sidebar lost the link 30 posts lost),
# made the same edit there: what is known of the commit holds for it (dating rules 9, issue 79;
# read92's fault (a) 2). Its exact edit must be one judged too (a page whose own link moved
# beside the site's move keeps the commit's date).

from __future__ import annotations

from collections.abc import Callable, Mapping

from sitemill.lastmod.history._probes import commit_of
from sitemill.lastmod.history._stopedits import STAMP_EDIT, StopEdits
from sitemill.lastmod.history.walk import Run

# The edits judged template at each commit (by its time), each as its name and exact name.
Known = dict[int, set[tuple[str | None, str | None]]]


def known_edits(
    every: list[tuple[str, int]],
    template: list[tuple[str, int]],
    pages: Mapping[str, Run],
    known: tuple[Known, Callable[[list[tuple[str, int]]], int]],
    tables: StopEdits,
) -> tuple[list[tuple[str, int]], int]:
    """The stops of ``every`` not in ``template`` (this round's template stops, added to
    ``known[0]``) whose edit, exact edit too, is one judged template at their commit in this
    round or an earlier one, by whatever count (dating rules 9): a commit's template edit is
    the template's on every page that made it, a page that reaches the commit a round after
    the others (its later edit carried first: three talks of a deploy that gave 86 talks a
    language line) or in a section of its own (the author sidebar's link dropped from 30
    posts and from the one page of ``categories/``); and the blobs read naming them
    (``known[1]``: only stops at such commits are named)."""
    judged, name = known
    edits, exact = tables[0], tables[1]
    for stop in template:
        if (edit := edits.get(stop)) is not None and edit != STAMP_EDIT:
            judged.setdefault(commit_of(stop, pages), set()).add((edit, exact.get(stop)))
    taken = set(template)
    late = [stop for stop in every if stop not in taken and commit_of(stop, pages) in judged]
    unnamed = [stop for stop in late if stop not in edits]
    read = name(unnamed) if unnamed else 0
    found = [
        stop
        for stop in late
        if edits.get(stop) is not None
        and (edits[stop], exact.get(stop)) in judged[commit_of(stop, pages)]
    ]
    return found, read
