"""The bound of each wait of one request: what is left of its deadline, or the silence allowed."""
# web.connection's sockets bound each wait by setting their timeout; on asyncio's streams one
# asyncio.Timeout per request is moved before each wait instead (web.streams, web.answers,
# web.dialing), and what ended a request says which bound it met.

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import dataclass
from typing import Final

from sitemill.errors import FetchError

# A silence is measured again only after this long (Waits.arm).
_SLACK: Final = 0.01


@dataclass
class Waits:
    """The bound of each of a request's waits: what is left of its deadline, or the silence
    allowed, whichever is shorter (as web.connection.Clock)."""

    scope: asyncio.Timeout
    ends: float
    silence: float
    seconds: float  # the deadline as given, for the message
    last: bool = False  # the last wait armed was bounded by the deadline, not the silence
    connecting: bool = True  # no connection is made yet (or the request not yet sent)
    armed: float = -math.inf  # when the silence was last measured from

    def arm(self) -> None:
        """Bound the next wait (FetchError once the deadline passed). The timer is moved only
        when the silence was last measured more than _SLACK ago: a wait on data already read
        costs no timer, and each silence allowed is at most _SLACK shorter than said."""
        now = time.monotonic()  # (the loop's clock)
        left = self.ends - now
        if left <= 0:
            raise self.expired()
        if self.last or now - self.armed < _SLACK:
            return  # (the deadline's bound does not move; the silence's nearly did not)
        self.armed = now
        self.last = left <= self.silence
        self.scope.reschedule(now + min(self.silence, left))

    def expired(self) -> FetchError:
        return FetchError(f"no complete answer within {self.seconds:g} s")
