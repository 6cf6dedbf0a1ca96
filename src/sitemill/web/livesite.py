"""Requests sitemill makes: GETs of the live site, few at a time, each and all under a deadline;
one-off requests (the state's download, an IndexNow POST), each under one deadline."""
# No redirect is followed: a <loc> that redirects is a problem to report, not a page to read, and a
# redirect to another host is never a request. Only the site's own origins are asked (whatever a
# page names elsewhere is not read), with a user agent that says who asks and why. Each body is
# read no further than its caller's limit; a response is handed to a ``process`` function as soon
# as it is read (in the one event loop that asks them all: web.inflight, web.streams), and only
# what that returns is kept, so memory is bounded by the number of requests in flight, not by the
# size of the site. (That one loop's coroutines alone touch the bookkeeping: no lock.) A one-off
# request (``exchange``) goes the same way on a connection of its own, closed after its answer:
# the first answer is the response, whatever its status; a redirect is an answer its caller
# reports (with where it leads), never a request to another host.

from __future__ import annotations

import http.client
import time
import urllib.error
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, TypeVar

from sitemill.errors import FetchError, SitemillError
from sitemill.urls import url_origin
from sitemill.version import __version__

if TYPE_CHECKING:
    from sitemill.web._streams import Streams
    from sitemill.web.answers import BodyWanted, Reply

_T = TypeVar("_T")

USER_AGENT: Final = f"sitemill/{__version__} (sitemap check of the site's own pages)"
_HEADERS: Final = MappingProxyType({"User-Agent": USER_AGENT, "Accept-Encoding": "identity"})
RUN_DEADLINE: Final = "not asked: the check's deadline came first"
OFF_SITE: Final = "not asked: not on the site's hosts"
UNREACHED: Final = "not asked: its host could not be reached"
TOO_LARGE: Final = "larger than"
# Requests that found no connection to an origin that never answered, after which it is taken as
# unreachable (DNS, a refused or dropped connection, TLS) and asked no more: one cause, said once.
UNREACHABLE_AFTER: Final = 3
# The statuses that name another URL in their Location: reported, never followed.
REDIRECTS: Final = frozenset({301, 302, 303, 307, 308})


def origin_or_blank(url: str) -> str:
    """``url``'s origin (urls.url_origin), or "" when it is no absolute http(s) URL."""
    try:
        return url_origin(url)
    except (SitemillError, ValueError):
        return ""


@dataclass(frozen=True, slots=True)
class Limits:
    """How hard a check may press a site: requests at once, seconds of silence, per request
    and for the whole check."""

    concurrency: int = 8
    timeout: float = 10.0
    request_deadline: float = 30.0
    run_deadline: float = 900.0


@dataclass(frozen=True, slots=True)
class LiveAnswer:
    """One GET's answer: its status and headers, its body when it is a 200 within the limit;
    ``status`` None when there was no answer (``problem`` says why)."""

    url: str
    status: int | None = None
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""
    problem: str = ""  # no answer, or (status 200) why the body was not read
    asked: bool = True  # False: not requested (off the site's hosts, the deadline)

    def header(self, name: str) -> str:
        """Every value of header ``name``, joined by ", " as HTTP allows; "" when none."""
        low = name.lower()
        return ", ".join(value for key, value in self.headers if key.lower() == low)

    @property
    def too_large(self) -> bool:
        return self.problem.startswith(TOO_LARGE)


@dataclass
class LiveSite:
    """Asks the site at ``origins`` (``scheme://host[:port]``) within ``limits``.

    ``connect`` sends the requests for an origin to another one (``https://example.org`` ->
    ``http://127.0.0.1:8000``) with the first's Host header: a site checked on a staging
    server, or a real site's build served on loopback by a benchmark."""

    origins: frozenset[str]
    limits: Limits = field(default_factory=Limits)
    connect: Mapping[str, str] = field(default_factory=dict)
    requests: int = 0
    started: float = field(default_factory=time.monotonic)
    _answered: set[str] = field(default_factory=set, repr=False)  # origins that answered
    _unreached: dict[str, tuple[int, str]] = field(default_factory=dict, repr=False)
    _origin_of: dict[str, str] = field(default_factory=dict, repr=False)

    def unreachable(self) -> dict[str, str]:
        """The origins asked that never answered, none of their requests finding a
        connection: origin -> the first reason."""
        return {
            origin: reason
            for origin, (_, reason) in self._unreached.items()
            if origin not in self._answered
        }

    def on_site(self, url: str) -> bool:
        """Whether ``url`` is on one of the site's origins (and so may be asked)."""
        return bool(self._site_origin(url))

    def _site_origin(self, url: str) -> str:
        """``url``'s origin when it is one of the site's, else "" (remembered by what the
        URL says before its path: the scheme and the authority, as written)."""
        written = "/".join(url.split("/", 3)[:3])
        origin = self._origin_of.get(written)
        if origin is None:
            origin = origin_or_blank(url)
            if not origin:
                return ""
            self._origin_of[written] = origin
        return origin if origin in self.origins else ""

    def remaining(self) -> float:
        return self.limits.run_deadline - (time.monotonic() - self.started)

    def get(self, url: str, limit: int, *, head: bool = False) -> LiveAnswer:
        """One GET of ``url``: the body of a 200, at most ``limit`` bytes (``head``: its first
        ``limit`` bytes, however long it is)."""
        (answer,) = self.get_many([url], limit, _as_is, head=head)
        return answer

    def get_many(
        self,
        urls: Iterable[str],
        limit: int,
        process: Callable[[LiveAnswer], _T],
        *,
        head: bool = False,
    ) -> Iterator[_T]:
        """``process`` of each URL's answer, in the order they come, at most
        ``limits.concurrency`` requests at once (and as many answers held): one event loop in
        this thread, ``process`` run in it as each answer is read, its connections kept alive
        between the requests of these URLs, then closed."""
        from sitemill.web._inflight import in_flight
        from sitemill.web._streams import Streams
        from sitemill.web.answers import BodyWanted  # (asyncio: imported when a site is asked)

        connections = Streams()
        reading = BodyWanted(limit, head)

        async def asked(url: str) -> _T:
            return process(await self._get(url, reading, connections))

        return in_flight(urls, asked, self.limits.concurrency, after=connections.close)

    def answers(self, urls: Iterable[str], limit: int = 1) -> Iterator[LiveAnswer]:
        """Each URL's answer (``get_many`` that keeps them, the first ``limit`` bytes of a
        body read: a status is all most callers ask)."""
        return self.get_many(urls, limit, _as_is, head=True)

    async def _get(self, url: str, reading: BodyWanted, connections: Streams) -> LiveAnswer:
        origin = self._site_origin(url)
        if not origin:
            return LiveAnswer(url, problem=OFF_SITE, asked=False)
        deadline = min(self.limits.request_deadline, self.remaining())
        if deadline <= 0:
            return LiveAnswer(url, problem=RUN_DEADLINE, asked=False)
        failures, _ = self._unreached.get(origin, (0, ""))
        if failures >= UNREACHABLE_AFTER and origin not in self._answered:
            return LiveAnswer(url, problem=UNREACHED, asked=False)
        self.requests += 1
        try:
            answer = await self._ask(url, origin, reading, deadline, connections)
        except urllib.error.URLError as exc:  # (no connection: no answer came at all)
            reason = _one_line(exc.reason)
            failures, first = self._unreached.get(origin, (0, reason))
            self._unreached[origin] = (failures + 1, first)
            return LiveAnswer(url, problem=reason)
        except (FetchError, OSError, http.client.HTTPException, ValueError) as exc:
            if isinstance(exc, TimeoutError):
                return LiveAnswer(url, problem=f"no answer within {self.limits.timeout:g} s")
            return LiveAnswer(url, problem=_one_line(exc) or type(exc).__name__)
        self._answered.add(origin)
        return answer

    async def _ask(
        self, url: str, origin: str, reading: BodyWanted, deadline: float, connections: Streams
    ) -> LiveAnswer:
        target = url
        headers: Mapping[str, str] = _HEADERS
        if origin in self.connect:
            target = self.connect[origin] + url[len(origin) :]
            headers = {**_HEADERS, "Host": origin.partition("://")[2]}
        timeout = self.limits.timeout
        reply = await connections.ask(target, headers, reading, timeout=timeout,
                          deadline=deadline)  # fmt: skip
        if reply.too_large:
            limit = reading.limit
            return LiveAnswer(url, 200, reply.headers, problem=f"{TOO_LARGE} {limit:,} bytes")
        return LiveAnswer(url, reply.status, reply.headers, reply.body)


def exchange(
    method: str,
    url: str,
    headers: Mapping[str, str],
    reading: BodyWanted,
    data: bytes = b"",
    *,
    timeout: float,
    deadline: float,
) -> Reply:
    """One request (``data`` its body) on a connection of its own, closed after it: the answer,
    whatever its status (no redirect is followed), its body read as ``reading`` says (FetchError
    for one larger than its limit). All of it ends by ``deadline`` seconds from now (FetchError
    otherwise); ``timeout`` bounds each silence (TimeoutError); URLError when no connection could
    be made. The environment's proxies are read for it."""
    from sitemill.web._inflight import in_flight  # (asyncio: imported when a request is made)
    from sitemill.web._streams import Streams

    connections = Streams()
    sent = {"Accept-Encoding": "identity", **headers, "Connection": "close"}  # (as http.client)
    if data or method != "GET":
        sent["Content-Length"] = str(len(data))

    async def asked(_: str) -> Reply:
        return await connections.ask(url, sent, reading, timeout=timeout, deadline=deadline,
                                     method=method, data=data)  # fmt: skip

    (reply,) = in_flight([url], asked, 1, after=connections.close)
    if reply.too_large:
        raise FetchError(f"{TOO_LARGE} {reading.limit:,} bytes")
    return reply


def _as_is(answer: LiveAnswer) -> LiveAnswer:
    return answer


def _one_line(value: object) -> str:
    return " ".join(str(value).split())[:200]
