"""A template edit stays one past its round: a stop that reaches it alone later is carried too."""
# history.templateedits carries the pages whose stop's edit is template past it, round after
# round (issue 79): each commit's edits a round carried pages past (the name and the exact moves)
# are remembered, and a stop a later round finds at that commit with that edit, named already
# (by a commit's census, beside the stops), is carried too, however few pages stop there then
# (rustdoc's copy button made words on 162 of a commit's 216 pages: a page whose own later edit
# stopped its walk sooner reached the commit after the others had been carried past it, alone).

from __future__ import annotations

from collections.abc import Mapping

from sitemill.lastmod.history._probes import commit_of
from sitemill.lastmod.history._stopedits import Edits
from sitemill.lastmod.history.walk import Run

# What a round judged of a stop it carried: its commit's time, its edit, its exact edit.
Judgement = tuple[int, str, str | None]


def judgement(
    stop: tuple[str, int], pages: Mapping[str, Run], tables: tuple[Edits, Edits]
) -> Judgement:
    """What a round judged of a stop it carried: its commit, its edit, its exact edit."""
    edits, exact = tables
    return commit_of(stop, pages), edits.get(stop) or "", exact.get(stop)


def judged_before(
    every: list[tuple[str, int]],
    taken: set[tuple[str, int]],
    pages: Mapping[str, Run],
    tables: tuple[Edits, Edits],
    judged: set[Judgement],
) -> list[tuple[str, int]]:
    """The stops of ``every`` not ``taken`` this round whose edit, named already, an earlier
    round carried pages past at their commit (``judged``: see above)."""
    edits = tables[0]
    return [
        stop
        for stop in every
        if stop not in taken
        and edits.get(stop) is not None
        and judgement(stop, pages, tables) in judged
    ]
