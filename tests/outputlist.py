"""The core's doors as a run calls them, with the output features the front ends list
(sitemill.jobs.features.OUTPUTS): the jobs, a validation, a deletion's proof, a check's
options. The core writes none unless listed; these are the front ends' runs."""

from __future__ import annotations

from functools import partial

from sitemill import validate
from sitemill.check import run
from sitemill.commands import diff
from sitemill.jobs import bucket, tree, urllist
from sitemill.jobs.features import OUTPUTS, URL_LIST_OUTPUTS
from sitemill.scaleout import distplan, partitioned, shardfull
from sitemill.writing import ownbytes

validate_paths = partial(validate.validate_paths, formats=OUTPUTS)
may_delete = partial(ownbytes.may_delete, outputs=OUTPUTS)
CheckOptions = partial(run.CheckOptions, outputs=OUTPUTS)
build_from_tree = partial(tree.build_tree, asked=tree.TreeAsked(OUTPUTS))
build_from_url_list = partial(urllist.build_url_list, outputs=URL_LIST_OUTPUTS)
rebuild_bucket = partial(bucket.build_bucket, outputs=OUTPUTS)
diff_bucket = partial(diff.diff_bucket, outputs=OUTPUTS)
RebuildOptions = partial(partitioned.RebuildOptions, outputs=OUTPUTS)
rebuild_partitioned = partial(partitioned.rebuild_partitioned, options=RebuildOptions())
DistributedRun = partial(distplan.DistributedRun, outputs=OUTPUTS)
FullRun = partial(shardfull.FullRun, outputs=OUTPUTS)
