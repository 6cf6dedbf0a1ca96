"""The canonical gate: a page whose canonical is another listed URL waits for it, then goes."""
# A page whose canonical is another URL of this site is left out only when that URL is listed; since
# the target may come later in the walk, such a page waits here, and entries come back in their
# original order. A canonical naming a redirect stub of the site names the stub's target (a
# multi-version docs site's old copies name ``/x.html``, a stub to ``/stable/x.html``): chains are
# followed, a loop leads nowhere. (Resolving and comparing the URLs is sitemill.html.links.)

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Final

from sitemill.bounded.dedupe import SeenUrls
from sitemill.entries import Entry
from sitemill.listing._aliases import FolderAliases
from sitemill.messages import KindCounts

# At most this many entries wait behind an undecided canonical; past it, the oldest is
# kept (its target was not listed yet), so hostile pages cannot hold a whole site in memory.
MAX_HELD: Final = 100_000
# Redirect stubs followed from a canonical at most (a browser stops at about 20 redirects).
MAX_STUB_HOPS: Final = 20


@dataclass(eq=False, slots=True)
class _Held:
    entry: Entry
    path: str
    key: str
    target: str | None  # the canonical's key, when it names another URL of the site
    seq: int  # its place in the order of pages
    listed: bool | None = None  # None: undecided
    waiting: bool = False  # in CanonicalGate._waiting until decided


class CanonicalCounts(KindCounts[str]):
    """Canonicals that leave their page listed: named off the site, or named a URL that this
    sitemap does not list (the first example of each)."""

    @property
    def off_site(self) -> int:
        return self.counts["off_site"]

    @property
    def unlisted(self) -> int:
        return self.counts["unlisted"]


class CanonicalGate:
    """Decides pages whose canonical names another URL of the site, keeping entry order.

    ``offer`` each page that passed every other check (with the key of its canonical when
    that names another URL of the site, else None), ``drop`` the key of each page left out
    for another reason, and ``finish`` at the end; ``offer`` and ``finish`` give back the
    entries now decided, in their order. Pages left out are added to ``skipped``.
    """

    def __init__(
        self, aliases: FolderAliases | None = None, outside: Callable[[str], bool] | None = None
    ) -> None:
        """``outside``: whether a URL no page here has is listed elsewhere (another shard's
        sitemap, as the last build left it)."""
        self.counts = CanonicalCounts()
        self._aliases = aliases  # a canonical to /x may name the folder page /x/
        self._outside = outside
        self.skipped: list[tuple[str, str]] = []  # (path, canonical key), drained by the caller
        self._queue: deque[_Held] = deque()  # every entry not given back yet, in order
        self._order: deque[_Held] = deque()  # waiting entries, oldest first (and some decided)
        self._waiting: dict[str, dict[int, _Held]] = {}  # by the key they wait on, then id
        self._waiting_count = 0
        self._offered = 0
        self._listed = SeenUrls()
        self._dropped = SeenUrls()
        self._redirects: dict[str, str] = {}  # a stub's key -> its target's key (on the site)

    def drop(self, key: str) -> None:
        """A page with this URL is left out (noindex, redirect ...): it is not listed."""
        self._dropped.add(key)
        self._settle(key, listed=False)

    def redirect(self, key: str, target: str | None) -> None:
        """The page at ``key`` is a redirect stub to ``target`` (a key of the site; None: off
        it): it is not listed, and a canonical naming it names where it leads."""
        if target is None or target == key:
            self.drop(key)
            return
        self._redirects[key] = target
        self._dropped.add(key)
        end = self.follow(key)
        if end == key:  # a loop of stubs: leads nowhere
            self._settle(key, listed=False)
        elif key in self._waiting:
            self._move_waiters(key, end)
            self._settle_known(end)

    def follow(self, key: str) -> str:
        """Where the stubs from ``key`` lead: the first key that is no stub (``key`` when
        it is none), or ``key`` itself when they loop or go on too long."""
        seen = {key}
        end = key
        while (after := self._redirects.get(end)) is not None:
            if after in seen or len(seen) > MAX_STUB_HOPS:
                return key
            seen.add(after)
            end = after
        return end

    def waiting_targets(self) -> list[str]:
        """The keys that pages wait on (undecided yet)."""
        return list(self._waiting)

    def lists(self, key: str) -> bool:
        """Whether the page at ``key`` was decided listed."""
        return key in self._listed

    def offer(self, entry: Entry, path: str, key: str, target: str | None) -> Iterator[Entry]:
        if target is not None and target in self._redirects:
            target = self.follow(target)
            if target == key:  # through a stub to the page itself: the current page
                target = None
        held = _Held(entry, path, key, target, self._offered)
        self._offered += 1
        self._queue.append(held)
        if target is None or target in self._listed or target in self._dropped:
            self._decide(held, listed=target is None or target not in self._listed)
        else:
            held.waiting = True
            self._order.append(held)
            self._waiting.setdefault(target, {})[id(held)] = held
            self._waiting_count += 1
            if len(self._queue) > MAX_HELD:  # the oldest waits no longer (one per page)
                self._decide(self._oldest_waiting(), listed=True)
        return self._release()

    def finish(self) -> Iterator[Entry]:
        """Decide the pages still waiting. A page naming a URL that no waiting page has will
        never see it listed: it stays listed, and the pages waiting on it follow (in
        A -> B -> nowhere, B is listed and A left out). What remains are loops of
        canonicals: the first page of each is listed, and the rest follow."""
        self._retarget_to_folders()
        pending: dict[str, _Held] = {}
        for held in self._order:
            if held.listed is None:
                pending.setdefault(held.key, held)
        for held in list(self._order):
            if held.listed is None and held.target not in pending:
                target = held.target
                if self._outside is not None and target is not None and self._outside(target):
                    self._settle(target, listed=True)  # (decides every page waiting on it)
                else:
                    self._decide(held, listed=True)
        while self._waiting_count:
            self._decide(_first_of_loop(self._oldest_waiting(), pending), listed=True)
        return self._release()

    def _retarget_to_folders(self) -> None:
        """Every page is known: a canonical to ``/x`` that no page has names ``/x/``."""
        aliases = self._aliases
        if aliases is None:
            return
        for target in list(self._waiting):
            if target in self._waiting and not aliases.knows(target):
                named = aliases.names(target, final=True)
                if named != target:
                    self._move_waiters(target, self.follow(named))
                    self._settle_known(self.follow(named))

    def _settle_known(self, key: str) -> None:
        """Decide the pages now waiting on ``key`` if it was decided already."""
        if key in self._listed or key in self._dropped:
            self._settle(key, listed=key in self._listed)

    def _move_waiters(self, target: str, named: str) -> None:
        waiters = self._waiting.pop(target)
        moved: dict[int, _Held] = {}
        for ident, held in waiters.items():
            if held.key == named:  # through a stub to itself: listed, as its own canonical
                held.target = None
                self._set(held, True, unlink=False)
                self._settle(held.key, listed=True)
            else:
                held.target = named
                moved[ident] = held
        if moved:
            self._waiting.setdefault(named, {}).update(moved)

    def _oldest_waiting(self) -> _Held:
        order = self._order
        while order[0].listed is not None:  # decided since: dropped here, once each
            order.popleft()
        return order[0]

    def _decide(self, held: _Held, *, listed: bool) -> None:
        self._set(held, listed, unlink=True)
        if held.target is not None and listed:
            self.counts.count("unlisted", f"{held.path} names {held.target}")
        elif not listed:
            self.skipped.append((held.path, held.target or ""))
        self._settle(held.key, listed=listed)

    def _set(self, held: _Held, listed: bool, *, unlink: bool) -> None:
        """Decide ``held``; ``unlink``: take it out of the pages waiting on its target (a
        decision forced by finish or MAX_HELD), so that nothing decided stays in memory."""
        held.listed = listed
        if held.waiting:
            self._waiting_count -= 1
            if unlink and held.target is not None:
                waiters = self._waiting[held.target]
                del waiters[id(held)]
                if not waiters:
                    del self._waiting[held.target]

    def _settle(self, key: str, *, listed: bool) -> None:
        """Record whether the page at ``key`` is listed, and decide the pages waiting on it:
        left out if it is listed, kept if not (a loop: iterative, chains can be long)."""
        stack = [(key, listed)]
        while stack:
            key, listed = stack.pop()
            (self._listed if listed else self._dropped).add(key)
            if self._aliases is not None:  # pages waiting on /x wait on this /x/
                for source in self._aliases.sources(key):
                    if source in self._waiting and self._aliases.names(source) == key:
                        self._move_waiters(source, key)
            for waiter in self._waiting.pop(key, {}).values():
                self._set(waiter, not listed, unlink=False)
                if listed:
                    self.skipped.append((waiter.path, key))
                else:
                    self.counts.count("unlisted", f"{waiter.path} names {key}")
                stack.append((waiter.key, not listed))

    def _release(self) -> Iterator[Entry]:
        queue = self._queue
        while queue and queue[0].listed is not None:
            held = queue.popleft()
            if held.listed:
                yield held.entry


def _first_of_loop(held: _Held, pending: dict[str, _Held]) -> _Held:
    """The first page, in order, of the loop of canonicals that ``held`` leads into."""
    path: dict[int, _Held] = {}
    while id(held) not in path:
        path[id(held)] = held
        after = pending.get(held.target or "")
        if after is None or after.listed is not None:
            return held  # (two pages of one URL) it waits on nothing that can be listed
        held = after
    walked = list(path.values())
    return min(walked[walked.index(held) :], key=lambda item: item.seq)
