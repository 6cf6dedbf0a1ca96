"""Staging names: each run's own, saying when it began."""
# So no two writers share a copy, and a crashed run's leftovers can be told from another writer's
# copies in use.

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final

from sitemill.filenames.groupnames import GROUP_CHILD
from sitemill.filenames.outputs import STAGING_NAME, staging_name

# A staging copy lives for one publish (seconds; a Lambda runs 15 minutes at most): one this
# much older than the run that finds it is a crashed run's leftover, never another writer's
# copy in use. One stamped this far in the future is no clock's: a leftover too.
STAGING_MAX_AGE: Final = timedelta(hours=1)
_STAMP: Final = "%Y%m%d%H%M%S"


@dataclass(frozen=True, slots=True)
class Staging:
    """This run's staging names: unique to the run, and saying when it began."""

    began: datetime
    token: str

    @classmethod
    def new(cls, now: datetime | None = None) -> Staging:
        """A run beginning ``now`` (default: the clock), with a random token."""
        moment = (now or datetime.now(UTC)).astimezone(UTC).replace(microsecond=0)
        return cls(moment, secrets.token_hex(3))

    def name(self, child: str) -> str:
        """The staging name of ``child`` in this run."""
        return staging_name(child, f"{self.began.strftime(_STAMP)}-{self.token}")

    def is_leftover(self, name: str) -> bool:
        """Whether the staging copy ``name`` (not this run's) is a crashed run's: older than
        STAGING_MAX_AGE, stamped impossibly far ahead, or named as earlier versions did."""
        match = STAGING_NAME.fullmatch(name) or GROUP_CHILD.fullmatch(name)
        if match is None or match["staging"] is None:
            return False
        stamp = match["stamp"]
        if stamp is None:
            return True
        try:
            began = datetime.strptime(stamp, _STAMP).replace(tzinfo=UTC)
        except ValueError:  # month 13 and the like: no run's stamp
            return True
        return abs(self.began - began) > STAGING_MAX_AGE
