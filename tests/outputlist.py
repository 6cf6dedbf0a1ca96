"""The core's doors as a run calls them, with the output features the front ends list
(sitemill.jobs.features.OUTPUTS): the jobs, a validation, a deletion's proof, a check's
options. The core writes none unless listed; these are the front ends' runs."""

from __future__ import annotations

from functools import partial
from typing import Any

from sitemill import validate
from sitemill.check import run
from sitemill.commands import diff
from sitemill.jobs.asked import RunAsked
from sitemill.jobs.features import OUTPUTS
from sitemill.library import asked_with_outputs
from sitemill.library import build_from_tree as build_from_tree
from sitemill.library import build_from_url_list as build_from_url_list
from sitemill.library import rebuild_bucket as rebuild_bucket
from sitemill.scaleout import distplan, partitioned, shardfull
from sitemill.writing import ownbytes

validate_paths = partial(validate.validate_paths, formats=OUTPUTS)
may_delete = partial(ownbytes.may_delete, outputs=OUTPUTS)
CheckOptions = partial(run.CheckOptions, outputs=OUTPUTS)
ASKED = RunAsked(OUTPUTS)  # (a run asked nothing but the outputs)
DistributedRun = partial(distplan.DistributedRun, asked=ASKED)
FullRun = partial(shardfull.FullRun, asked=ASKED)


def diff_bucket(*args: Any, **asked: Any) -> Any:
    """A bucket's diff, asked ``asked`` (RunAsked's fields) with the output features."""
    return diff.diff_bucket(*args, asked_with_outputs(asked))


def RebuildOptions(
    threads: int = partitioned.DEFAULT_THREADS,
    max_touched: int = partitioned.MAX_TOUCHED,
    **asked: Any,
) -> partitioned.RebuildOptions:
    """A partitioned rebuild's options, asked ``asked`` (RunAsked's fields) with the output
    features."""
    return partitioned.RebuildOptions(threads, max_touched, asked_with_outputs(asked))


rebuild_partitioned = partial(partitioned.rebuild_partitioned, options=RebuildOptions())
