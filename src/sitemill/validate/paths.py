"""URL paths as a server resolves them: what the location rule compares (RFC 3986 6.2.2)."""

from __future__ import annotations

import re
from typing import Final

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
