"""Glob patterns over site paths: `*`, `?`, `[...]` within a segment and `**` across them."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from sitemill.errors import GlobSyntaxError


@dataclass(frozen=True, slots=True)
class Glob:
    """A compiled pattern.

    Like .gitignore: a pattern without "/" matches a name at any depth (``*.pdf``); with a
    "/" it is anchored at the site root (a leading "/" is allowed); a trailing "/" matches
    everything below a directory (``drafts/`` is ``drafts/**``).
    """

    pattern: str
    regex: re.Pattern[str]

    def matches(self, path: str) -> bool:
        return self.regex.fullmatch(path) is not None


def compile_glob(pattern: str) -> Glob:
    """Compile one pattern; raises GlobSyntaxError with the reason."""
    text = pattern.strip()
    if not text:
        raise GlobSyntaxError("empty pattern")
    body = text.removeprefix("/")
    if body.endswith("/"):
        body += "**"
    anchored = "/" in text.rstrip("/") or text.startswith("/")
    regex = _translate(body)
    if not anchored:
        regex = f"(?:.*/)?{regex}"
    return Glob(pattern, re.compile(regex, re.DOTALL))


def compile_globs(patterns: Iterable[str]) -> tuple[Glob, ...]:
    return tuple(compile_glob(pattern) for pattern in patterns)


def matches_any(globs: Iterable[Glob], path: str) -> bool:
    return any(glob.matches(path) for glob in globs)


def _translate(body: str) -> str:
    out: list[str] = []
    i, n = 0, len(body)
    while i < n:
        char = body[i]
        if body.startswith("**", i):
            before_ok = i == 0 or body[i - 1] == "/"
            after = body[i + 2 : i + 3]
            if not before_ok or after not in ("", "/"):
                raise GlobSyntaxError("'**' must be a whole path segment, as in 'a/**/b'")
            if after == "/":
                out.append("(?:[^/]*/)*")  # zero or more directories
                i += 3
            else:
                out.append(".*")
                i += 2
        elif char == "*":
            out.append("[^/]*")
            i += 1
        elif char == "?":
            out.append("[^/]")
            i += 1
        elif char == "[":
            i = _translate_class(body, i, out)
        elif char == "]":
            raise GlobSyntaxError("unmatched ']'")
        elif char == "\\":
            if i + 1 >= n:
                raise GlobSyntaxError("pattern ends with a lone backslash")
            out.append(re.escape(body[i + 1]))
            i += 2
        else:
            out.append(re.escape(char))
            i += 1
    return "".join(out)


def _translate_class(body: str, start: int, out: list[str]) -> int:
    end = start + 1
    if end < len(body) and body[end] in "!^":
        end += 1
    if end < len(body) and body[end] == "]":
        end += 1
    end = body.find("]", end)
    if end < 0:
        raise GlobSyntaxError("unclosed '[' character class")
    inner = body[start + 1 : end]
    negate = inner[:1] in ("!", "^")
    if negate:
        inner = inner[1:]
    if "/" in inner:
        raise GlobSyntaxError("a character class cannot match '/'")
    escaped = inner.replace("\\", "\\\\").replace("^", "\\^").replace("[", "\\[")
    try:
        re.compile(f"[{escaped}]")
    except re.error as exc:
        raise GlobSyntaxError(f"bad character class [{inner}]: {exc}") from exc
    out.append(f"[^/{escaped}]" if negate else f"(?!/)[{escaped}]")
    return end + 1
