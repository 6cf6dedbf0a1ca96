"""The bound of each wait of the requests in flight: what is left of a deadline, or the silence."""
# web.connection's sockets bound each wait by setting their timeout. On asyncio's streams a timer
# per request (asyncio.timeout, moved before each wait) cost more than a kept-alive request's own
# work; here each request says when its current wait must end (``Waits.arm``, two additions) and
# one ``Watch`` looks every _TICK seconds, while any request is watched, cancelling each request
# whose wait outlasted its bound: a bound is met up to _TICK late, never early. What ended a
# request says which bound it met (web.streams turns it into the error the sockets raised).

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Final

from sitemill.errors import FetchError

# How often the requests in flight are looked at (a bound is met up to this late).
_TICK: Final = 0.01


@dataclass(eq=False)
class Waits:
    """One request's bounds: its deadline and the silence allowed, whichever is sooner."""

    task: asyncio.Task[object]
    ends: float
    silence: float
    seconds: float  # the deadline as given, for the message
    when: float = 0.0  # the current wait's end
    last: bool = False  # the current wait is bounded by the deadline, not the silence
    connecting: bool = True  # no connection is made yet (or the request not yet sent)
    fired: bool = False  # the watch cancelled the request: its wait outlasted ``when``

    def arm(self) -> None:
        """Bound the next wait (FetchError once the deadline passed)."""
        now = time.monotonic()  # (the loop's clock)
        left = self.ends - now
        if left <= 0:
            raise self.expired()
        self.last = left <= self.silence
        self.when = now + (left if self.last else self.silence)

    def expired(self) -> FetchError:
        return FetchError(f"no complete answer within {self.seconds:g} s")

    def spent(self) -> bool:
        """After a CancelledError: whether it was the watch's alone (taken back then; False
        when the task was cancelled from elsewhere too, or only)."""
        return self.fired and self.task.uncancel() == 0


@dataclass(eq=False)
class Watch:
    """The requests in flight in one event loop, each cancelled once its wait outlasts it."""

    _watched: set[Waits] = field(default_factory=set)
    _timer: asyncio.TimerHandle | None = None

    def start(self, deadline: float, silence: float) -> Waits:
        """The bounds of the current task's request, watched until ``stop``."""
        task = asyncio.current_task()
        assert task is not None, "a request is asked from a task"
        waits = Waits(task, time.monotonic() + deadline, silence, deadline)
        self._watched.add(waits)
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(_TICK, self._look)
        return waits

    def stop(self, waits: Waits) -> None:
        self._watched.discard(waits)

    def _look(self) -> None:
        now = time.monotonic()
        for waits in self._watched:
            if waits.when <= now and not waits.fired:
                waits.fired = True
                waits.task.cancel()
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(_TICK, self._look) if self._watched else None
