"""The core's doors as a run calls them, with the output features the front ends list
(sitemill.jobs.features.OUTPUTS): a validation, a deletion's proof, a check's options."""

from __future__ import annotations

from functools import partial

from sitemill import validate
from sitemill.check import run
from sitemill.jobs.features import OUTPUTS
from sitemill.writing import ownbytes

validate_paths = partial(validate.validate_paths, formats=OUTPUTS)
may_delete = partial(ownbytes.may_delete, outputs=OUTPUTS)
CheckOptions = partial(run.CheckOptions, outputs=OUTPUTS)
