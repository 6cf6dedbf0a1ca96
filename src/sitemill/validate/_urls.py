"""The protocol rules for each <loc> and <lastmod>: form, length, host, location, repeats."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit

from sitemill.errors import ConfigError
from sitemill.protocol import MAX_URL_LENGTH
from sitemill.urls import split_url
from sitemill.validate.violation import Violation, WarningsOfOneKind, short

_DEFAULT_PORTS: Final = {"http": 80, "https": 443}

# RFC 3986 admits none of these anywhere in a URL: they must arrive percent-encoded.
_MUST_ENCODE = re.compile(r'[\x00-\x20\x7f<>"{}|\\^`]|[^\x00-\x7f]|%(?![0-9A-Fa-f]{2})')
# The URLs nearly every sitemap holds: RFC 3986 characters only, no brackets (an IPv6 host takes
# the full check). With at most one '#' and no stray '%' such a URL needs no further form check.
_PLAIN = re.compile(r"[-A-Za-z0-9._~:/?#@!$&'()*+,;=%]*")
_STRAY_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
_PLAIN_PART: Final = (
    r"[-A-Za-z0-9._~:/?@!$&'()*+,;=]*(?:%[0-9A-Fa-f]{2}[-A-Za-z0-9._~:/?@!$&'()*+,;=]*)*"
)
# What may start a dot segment ("." or "..", "%2e" spelled or not): such a URL is resolved first.
_MAYBE_DOT_SEGMENT = re.compile(r"/(?:\.|%2[eE])")

# What W3C Datetime allows and the XSD accepts: a date, or a date-time with seconds and a zone.
_W3C_LASTMOD = re.compile(r"\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2}))?")
# A batch of NUL-terminated W3C values, spelled for speed (ASCII digits, no captures).
_W3C_BATCH = re.compile(
    r"(?:[ \t\r\n]*[0-9]{4}-[0-9]{2}-[0-9]{2}"
    r"(?:T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?(?:Z|[+-][0-9]{2}:[0-9]{2}))?[ \t\r\n]*\0)*"
)
# Lexical xsd:date | xsd:dateTime. Values outside it are the XSD's to report, not ours.
_XSD_LASTMOD = re.compile(r"-?\d{4,}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?")


@functools.cache
def _plain_batch(prefix: str) -> re.Pattern[str]:
    """NUL-terminated plain URLs under ``prefix`` (NUL: a character XML text cannot hold)."""
    return re.compile(f"(?:{re.escape(prefix)}{_PLAIN_PART}(?:#{_PLAIN_PART})?\\0)*")


# --- where URLs must live ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Place:
    """The origin and directory of a URL: what the host and location rules compare."""

    origin: tuple[str, str, int]
    directory: str  # a path ending in "/"

    @property
    def origin_url(self) -> str:
        scheme, host, port = self.origin
        return f"{scheme}://{host}" + ("" if _DEFAULT_PORTS[scheme] == port else f":{port}")

    @property
    def url(self) -> str:
        return self.origin_url + self.directory

    def holds(self, other: Place) -> bool:
        return other.origin == self.origin and other.directory.startswith(self.directory)


def place_of(url: str) -> Place | None:
    """The place of an absolute http(s) URL, or None when it is not one. Its directory is that
    of the resolved path (server_path); a query or fragment is no part of it."""
    parts = split_url(url)
    if parts is None:
        return None
    port = parts.port
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    path = server_path(parts.path)
    origin = (parts.scheme, parts.hostname.lower(), port or _DEFAULT_PORTS[parts.scheme])
    return Place(origin, path[: path.rindex("/") + 1])


def base_place(base_url: str) -> Place:
    """The place of the ``base_url`` the sitemaps are served from; a ConfigError if it has none."""
    parts = urlsplit(base_url)
    place = place_of(base_url if base_url.endswith("/") else base_url + "/")
    if place is None or parts.query or parts.fragment:
        raise ConfigError("base_url", f"must be an absolute http(s) URL, got {base_url!r}")
    return place


# --- the rules ----------------------------------------------------------------------------------


class ChildrenLocs:
    """Fingerprints of the URLs in every child of a directory's indexes, to find duplicates."""

    def __init__(self) -> None:
        self.files: list[str] = []
        self.seen: dict[int, int] = {}  # fingerprint -> file number << 32 | line


class LocRules:
    """Checks each URL of one file: form, length, host, location rule; repeats are warnings."""

    def __init__(
        self, file: str, sink: list[Violation], place: Place | None, group: ChildrenLocs | None
    ) -> None:
        self.file, self.sink = file, sink
        self.place = place  # where every URL must lie; None: learnt from the first URL
        self.prefix = place.url if place else None  # what a URL in self.place starts with
        self.first_line: int | None = None  # the line that taught self.place
        self.index = False  # the file is a <sitemapindex>: its locs are children
        # The extensions' rules of a urlset (sitemill.validate._extensions), when checked.
        self.extensions: Callable[[Any, Sequence[Any], list[str]], None] | None = None
        self.seen: dict[int, int] = {}  # fingerprint -> line
        self.kinds: dict[str, WarningsOfOneKind] = {}  # warnings by kind, counted past a few
        self.group, self.number = group, 0
        if group is not None:
            self.number = len(group.files)
            group.files.append(file)

    def check(self, loc: str, line: int) -> None:
        self.check_all([loc], [line])

    def check_all(self, locs: list[str], lines: list[int]) -> None:
        """Check each loc (stripped) at its line: a batch at once when all are plainly fine."""
        if self.prefix is None and locs:  # the first URL teaches the place; then the batch
            self._check_one(locs[0], lines[0])
            locs, lines = locs[1:], lines[1:]
        if not self._all_plain(locs, lines):
            for loc, line in zip(locs, lines, strict=True):
                self._check_one(loc, line)

    def _all_plain(self, locs: list[str], lines: list[int]) -> bool:
        """The common case, decided in C loops: plain URLs under the place, none seen before."""
        if self.prefix is None or not locs or max(map(len, locs)) > MAX_URL_LENGTH:
            return False
        joined = "\0".join(locs) + "\0"
        if not _plain_batch(self.prefix).fullmatch(joined) or _MAYBE_DOT_SEGMENT.search(joined):
            return False
        fingerprints = list(map(hash, locs))
        if len(set(fingerprints)) < len(fingerprints) or not self.seen.keys().isdisjoint(
            fingerprints
        ):
            return False
        if self.group is not None:
            if not self.group.seen.keys().isdisjoint(fingerprints):
                return False
            packed = (self.number << 32 | line for line in lines)
            self.group.seen.update(zip(fingerprints, packed, strict=True))
        self.seen.update(zip(fingerprints, lines, strict=True))
        return True

    def _check_one(self, loc: str, line: int) -> None:
        prefix = self.prefix  # learnt from the first URL when not given
        if not (
            prefix is not None
            and len(loc) <= MAX_URL_LENGTH
            and loc.startswith(prefix)
            and _PLAIN.fullmatch(loc) is not None
            and loc.count("#") < 2
            and ("%" not in loc or _STRAY_PERCENT.search(loc) is None)
            and _MAYBE_DOT_SEGMENT.search(loc) is None
        ):
            self.sink.extend(Violation(self.file, line, text) for text in self._problems(loc, line))
        repeat = self._repeat(loc, hash(loc), line)
        if repeat is not None:
            # The protocol lets a URL appear twice and every consumer reads such a file.
            self.warn("duplicate loc", line, repeat)

    def warn(self, kind: str, line: int | None, message: str) -> None:
        """A warning of ``kind`` about this file: the first few each a line, the rest counted
        (finish)."""
        counted = self.kinds.get(kind)
        if counted is None:
            counted = self.kinds[kind] = WarningsOfOneKind(self.file, kind, self.sink)
        counted.add(line, message)

    def finish(self) -> None:
        """After the file's last URL: for each kind, the line that counts those not shown."""
        for counted in self.kinds.values():
            counted.finish()

    def _problems(self, loc: str, line: int) -> Iterator[str]:
        if len(loc) > MAX_URL_LENGTH:
            yield f"loc is {len(loc):,} characters long; the maximum is {MAX_URL_LENGTH:,}"
        _, _, rest = loc.partition("://")
        after_host = rest[min((i for i in map(rest.find, "/?#") if i >= 0), default=len(rest)) :]
        bad = sorted(set(_MUST_ENCODE.findall(loc)) | (set("[]") & set(after_host)))
        if loc.count("#") > 1:
            bad.append("'#' after the fragment's")
        if bad:
            shown = ", ".join(repr(char) for char in bad[:5])
            yield f"loc {short(loc)!r} has characters that must be percent-encoded: {shown}"
        place = place_of(loc)
        if place is None:
            yield f"loc {short(loc)!r} is not an absolute http(s) URL"
        else:
            yield from self._place_problems(loc, place, line)

    def _place_problems(self, loc: str, place: Place, line: int) -> Iterator[str]:
        if self.place is None:  # no base_url: the URLs reveal the host, not the directory
            self.place = Place(place.origin, "/")
            self.prefix, self.first_line = self.place.url, line
            return
        expected = self.place
        if place.origin != expected.origin:
            why = ", where this sitemap is served"
            if self.first_line is not None:
                why = f" like the first loc (line {self.first_line})"
            yield f"loc {short(loc)} is on {place.origin_url}, not {expected.origin_url}{why}"
        elif not expected.holds(place):
            # sitemaps.org location rule: the sitemap's directory or below it, no other.
            # https://www.sitemaps.org/protocol.html#location
            path = urlsplit(loc).path or "/"
            shown = short(loc)
            if server_path(path) != path:
                shown += f" (resolved: {short(place.origin_url + server_path(path))})"
            if self.index:
                yield (
                    f"index child {shown} is outside {expected.url}, the directory this index "
                    "is served from; a child must be there or below it (sitemaps.org location "
                    "rule)"
                )
            else:
                yield (
                    f"loc {shown} is outside {expected.url}, the directory this sitemap "
                    "is served from (sitemaps.org location rule)"
                )

    def _repeat(self, loc: str, fingerprint: int, line: int) -> str | None:
        # 64-bit fingerprints (str hashes, stable within a run) instead of the strings keep a
        # million URLs in tens of MB; a false match needs a 64-bit collision.
        first = self.seen.get(fingerprint)
        if first is not None:
            return f"duplicate loc {short(loc)} (first at line {first})"
        self.seen[fingerprint] = line
        if self.group is not None:
            packed = self.group.seen.setdefault(fingerprint, self.number << 32 | line)
            if packed >> 32 != self.number:
                other = f"{self.group.files[packed >> 32]}:{packed & 0xFFFFFFFF}"
                return f"duplicate loc {short(loc)}: also listed in {other}"
        return None


def lastmod_problem(value: str) -> str | None:
    """Flag the forms the XSD accepts but W3C Datetime does not (no zone, a date with a zone)."""
    if _W3C_LASTMOD.fullmatch(value) or not _XSD_LASTMOD.fullmatch(value):
        return None
    if "T" in value and not re.search(r"(Z|[+-]\d{2}:\d{2})$", value):
        return f"lastmod {value!r} has no time zone; W3C Datetime needs one (e.g. +00:00)"
    return f"lastmod {value!r} is not W3C Datetime: use YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+hh:mm"


def lastmod_problems(values: list[str]) -> Iterator[tuple[int, str]]:
    """(index, problem) for each flagged value; a batch of W3C values passes in one C match."""
    if _W3C_BATCH.fullmatch("\0".join(values) + "\0"):
        return
    for number, value in enumerate(values):
        if problem := lastmod_problem(value.strip()):
            yield number, problem


# URL paths as a server resolves them: what the location rule compares (RFC 3986 6.2.2).
_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
_UNRESERVED: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


def _normal_escape(match: re.Match[str]) -> str:
    char = chr(int(match.group()[1:], 16))
    return char if char in _UNRESERVED else match.group().upper()


def server_path(path: str) -> str:
    """The path as a server resolves it (RFC 3986 6.2.2): unreserved characters decoded, other
    escapes in upper case, then dot segments removed (5.2.4), so ``%2e%2e`` climbs as ``..``
    does (WHATWG URL reads it so too); never above the root."""
    if "%" in path:
        path = _ESCAPE.sub(_normal_escape, path)
    if not path.startswith("/"):
        path = "/" + path
    if "/." not in path:
        return path
    segments = path.split("/")[1:]
    kept: list[str] = []
    for number, segment in enumerate(segments, 1):
        if segment == "..":
            if kept:
                kept.pop()
        elif segment != ".":
            kept.append(segment)
            continue
        if number == len(segments):  # "a/.." and "a/." name a directory
            kept.append("")
    return "/" + "/".join(kept)
