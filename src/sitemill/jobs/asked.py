"""How a front end asks for a run: one value that every variant of the run takes whole."""
# A run reads a source (a tree, a bucket, a bucket's shards, a distributed rebuild's items) and
# writes the sitemaps with the output features its front end lists; `why` and `diff` are its dry
# modes. What a front end says of a run is the same whichever variant runs it, so it is built once
# (RunAsked) and handed down whole: no variant passes its fields on one by one.

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sitemill.outputs import OutputFeature
    from sitemill.report import Progress
    from sitemill.state.start import Previous
    from sitemill.state.store import StateStore


@dataclass(frozen=True, slots=True)
class RunAsked:
    """What a front end asks of a run: the ``outputs`` it writes beside the sitemaps
    (sitemill.outputs; none unless listed), whom to tell the ``progress``, a ``dry_run`` (its
    sink writes nothing; `why` and `diff` run so, and nothing removed is warned of since nothing
    is deployed), the ``state_store`` that keeps what it saw (None: beside the sitemaps, or
    where ``config.state`` names it) and a ``previous`` state a first run may start from. A
    bucket's run may be asked for its ``changed`` keys only (None: in full), told of
    sitemill's own files someone ``deleted``, and a partitioned state's full rebuild may be
    handed to a distributed one that ``distribute`` starts and names."""

    outputs: Sequence[OutputFeature] = ()
    progress: Progress | None = None
    dry_run: bool = False
    state_store: StateStore | None = None
    previous: Previous | None = None
    changed: Collection[str] | None = None
    deleted: Collection[str] = ()
    distribute: Callable[[str], str] | None = None


SITEMAPS_ALONE = RunAsked()  # (a run asked nothing more: the sitemaps alone, written)
