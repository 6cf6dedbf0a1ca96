"""URLs a page names (rel=canonical, meta refresh): resolved, compared, and the canonical gate.

A canonical written differently from the page's own URL (relative, ``index.html`` for ``/``,
other escapes, an upper-case host) is the page itself. A page whose canonical is another URL
of this site is left out only when that URL is listed; since the target may come later in
the walk, such a page waits in the gate, which gives entries back in their original order.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final
from urllib.parse import urljoin, urlsplit, urlunsplit

from sitemill.dedupe import SeenUrls
from sitemill.entries import Entry
from sitemill.errors import ConfigError
from sitemill.urls import encode_host, encode_uri_part

# At most this many entries wait behind an undecided canonical; past it, the oldest is
# kept (its target was not listed yet), so hostile pages cannot hold a whole site in memory.
MAX_HELD: Final = 100_000
_DEFAULT_PORTS: Final = {"http": 80, "https": 443}
_INDEX_SUFFIXES: Final = ("/index.html", "/index.htm")
_PAGE_SUFFIXES: Final = (".html", ".htm")
_BARE_SUFFIXES: Final = ("/.html", "/.htm")
# The URL parser removes these anywhere in a URL (https://url.spec.whatwg.org/#concept-basic-url-parser).
_REMOVED: Final = re.compile(r"[\t\n\r]")


def resolve_url(href: str, page_url: str, base_href: str | None = None) -> str | None:
    """``href`` resolved against the page's document base URL; None unless http(s)."""
    try:
        base = urljoin(page_url, _REMOVED.sub("", base_href)) if base_href else page_url
        target = urljoin(base, _REMOVED.sub("", href).strip(" \f"))
        scheme = urlsplit(target).scheme.lower()
    except ValueError:  # an invalid IPv6 host, a port that is not a number
        return None
    return target if scheme in _DEFAULT_PORTS else None


def url_key(url: str) -> str:
    """The URL in a form where two spellings of one page are equal: scheme and host lower
    case, default port and fragment dropped, escapes normalized, ``index.html`` and the
    ``.html`` of clean URLs removed. An unparsable URL is its own key."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return url
    scheme = parts.scheme.lower()
    try:
        host = encode_host(parts.hostname or "", "url")
    except ConfigError:
        return url
    if port is not None and port != _DEFAULT_PORTS.get(scheme):
        host = f"{host}:{port}"
    path = strip_page_suffix(encode_uri_part(parts.path) or "/")
    return urlunsplit((scheme, host, path, encode_uri_part(parts.query), ""))


def strip_page_suffix(path: str) -> str:
    """``/a/index.html`` -> ``/a/``, ``/a/b.html`` -> ``/a/b`` (one page, however written)."""
    if path.endswith(_INDEX_SUFFIXES):
        return path[: path.rindex("/") + 1]
    if path.endswith(_PAGE_SUFFIXES) and not path.endswith(_BARE_SUFFIXES):
        return path[: path.rindex(".")]
    return path


@dataclass
class _Held:
    entry: Entry
    path: str
    key: str
    target: str | None  # the canonical's key, while undecided
    listed: bool | None = None  # None: undecided


@dataclass
class CanonicalCounts:
    """Canonicals that leave their page listed: named off the site, or named a URL that this
    sitemap does not list (the first example of each)."""

    off_site: int = 0
    unlisted: int = 0
    examples: dict[str, str] = field(default_factory=dict)

    def count(self, kind: str, example: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)
        self.examples.setdefault(kind, example)


class CanonicalGate:
    """Decides pages whose canonical names another URL of the site, keeping entry order.

    ``offer`` each page that passed every other check (with the key of its canonical when
    that names another URL of the site, else None), ``drop`` the key of each page left out
    for another reason, and ``finish`` at the end; ``offer`` and ``finish`` give back the
    entries now decided, in their order. Pages left out are added to ``skipped``.
    """

    def __init__(self) -> None:
        self.counts = CanonicalCounts()
        self.skipped: list[tuple[str, str]] = []  # (path, canonical key), drained by the caller
        self._queue: deque[_Held] = deque()
        self._waiting: dict[str, list[_Held]] = {}
        self._listed = SeenUrls()
        self._dropped = SeenUrls()
        self._undecided: dict[str, _Held] = {}

    def drop(self, key: str) -> None:
        """A page with this URL is left out (noindex, redirect ...): it is not listed."""
        self._dropped.add(key)
        self._settle(key, listed=False)

    def offer(self, entry: Entry, path: str, key: str, target: str | None) -> Iterator[Entry]:
        held = _Held(entry, path, key, target)
        self._queue.append(held)
        if target is None:
            self._decide(held, listed=True)
        elif target in self._listed:
            self._decide(held, listed=False)
        elif target in self._dropped:
            self._decide(held, listed=True)
        else:
            self._undecided[key] = held
            self._waiting.setdefault(target, []).append(held)
            if len(self._queue) > MAX_HELD:  # the oldest waits no longer (one per page)
                self._decide(next(iter(self._undecided.values())), listed=True)
        return self._release()

    def finish(self) -> Iterator[Entry]:
        """Every page still waiting names a URL that is not listed: it stays listed (the first
        of a loop of canonicals is listed, and the others name it)."""
        while self._undecided:
            self._decide(next(iter(self._undecided.values())), listed=True)
        return self._release()

    def _decide(self, held: _Held, *, listed: bool) -> None:
        held.listed = listed
        self._undecided.pop(held.key, None)
        if held.target is not None and listed:
            self.counts.count("unlisted", f"{held.path} names {held.target}")
        elif not listed:
            self.skipped.append((held.path, held.target or ""))
        self._settle(held.key, listed=listed)

    def _settle(self, key: str, *, listed: bool) -> None:
        """Record whether the page at ``key`` is listed, and decide the pages waiting on it:
        left out if it is listed, kept if not (a loop: iterative, chains can be long)."""
        stack = [(key, listed)]
        while stack:
            key, listed = stack.pop()
            (self._listed if listed else self._dropped).add(key)
            for waiter in self._waiting.pop(key, ()):
                if waiter.listed is not None:
                    continue
                waiter.listed = not listed
                self._undecided.pop(waiter.key, None)
                if listed:
                    self.skipped.append((waiter.path, key))
                else:
                    self.counts.count("unlisted", f"{waiter.path} names {key}")
                stack.append((waiter.key, waiter.listed))

    def _release(self) -> Iterator[Entry]:
        queue = self._queue
        while queue and queue[0].listed is not None:
            held = queue.popleft()
            if held.listed:
                yield held.entry
