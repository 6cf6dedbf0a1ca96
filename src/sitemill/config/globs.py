"""Glob patterns over site paths, read with git's .gitignore pattern rules (wildmatch)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from sitemill.errors import GlobSyntaxError


@dataclass(frozen=True, slots=True)
class Glob:
    """A compiled pattern, matched against one page's own path.

    Like .gitignore: a pattern without "/" matches a name at any depth (``*.pdf``); with a
    "/" it is anchored at the site root (a leading "/" is allowed); a trailing "/" matches
    only directories, so it covers everything below them (``drafts/``, ``a/**/``).
    Unlike git, which skips whatever is below an ignored directory, a pattern without a
    trailing "/" is matched against the page's own path: ``blog/*`` matches blog/a.html but
    not blog/2024/a.html, and ``*.html`` does not take in x.html/logo.png. A "#" is a
    character, not a comment; a leading "!" (negation) is an error; whitespace around a
    pattern is dropped (``\\ `` keeps a trailing space).
    tests/config/test_globs_pathspec.py pins every difference from git and from pathspec.
    """

    pattern: str
    regex: re.Pattern[str]

    def matches(self, path: str) -> bool:
        return self.regex.fullmatch(path) is not None


def compile_glob(pattern: str) -> Glob:
    """Compile one pattern; raises GlobSyntaxError with the reason."""
    text = _strip(pattern)
    if not text:
        raise GlobSyntaxError("empty pattern")
    if text.startswith("!"):
        raise GlobSyntaxError(
            "'!' negation is not supported: list the pattern under exclude "
            "(write '\\!' for a file name that starts with '!')"
        )
    body = text.removeprefix("/")
    directories_only = body.endswith("/")
    body = body.removesuffix("/")
    if not body:
        raise GlobSyntaxError("'/' alone names no file")
    anchored = text.startswith("/") or "/" in body
    regex = _translate(body)
    if directories_only:
        regex += "/.*"  # the pattern names a directory: everything below it
    if not anchored:
        regex = f"(?:.*/)?{regex}"
    return Glob(pattern, re.compile(regex, re.DOTALL))


def compile_globs(patterns: Iterable[str]) -> tuple[Glob, ...]:
    return tuple(compile_glob(pattern) for pattern in patterns)


def matches_any(globs: Iterable[Glob], path: str) -> bool:
    return any(glob.matches(path) for glob in globs)


def _strip(pattern: str) -> str:
    """Drop surrounding whitespace (lists are "a, b" or one per line), but keep the space of
    a trailing "\\ ", which git reads as an escaped space."""
    text = pattern.strip()
    rest = pattern.lstrip()[len(text) :]
    trailing_backslashes = len(text) - len(text.rstrip("\\"))
    if trailing_backslashes % 2 and rest:
        text += rest[0]
    return text


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
            raise GlobSyntaxError("unmatched ']' (write '\\]' for the character)")
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
    """Read ``[...]`` as git's wildmatch does and return the index after its "]".

    The first member may be "]" (``[]]``, ``[!]]``); a backslash escapes the next
    character; "a-z" is a range unless the "-" comes first, last or right after a range.
    Every member is regex-escaped, so no Python set syntax (``&&``, ``--``) leaks through.
    """
    n = len(body)
    i = start + 1
    negate = i < n and body[i] in "!^"
    if negate:
        i += 1
    members: list[str] = []
    spans_slash = False
    first = i
    while i < n and (i == first or body[i] != "]"):
        if body.startswith("[:", i) and _is_posix_class(body, i):
            raise GlobSyntaxError("POSIX classes such as [[:digit:]] are not supported")
        low, i = _class_char(body, i)
        high = low
        if i + 1 < n and body[i] == "-" and body[i + 1] != "]":
            high, i = _class_char(body, i + 1)
        if "/" in (low, high):
            raise GlobSyntaxError("a character class cannot match '/'")
        if high < low:
            raise GlobSyntaxError(f"bad character class: range {low}-{high} is reversed")
        spans_slash = spans_slash or low < "/" < high
        members.append(re.escape(low) if high == low else f"{re.escape(low)}-{re.escape(high)}")
    if i >= n:
        raise GlobSyntaxError("unclosed '[' character class")
    inner = "".join(members)
    if negate:
        out.append(f"[^/{inner}]")
    else:
        out.append(f"(?!/)[{inner}]" if spans_slash else f"[{inner}]")
    return i + 1


def _class_char(body: str, i: int) -> tuple[str, int]:
    """The class member at ``i`` (a backslash escapes the next character) and the index after."""
    if body[i] != "\\":
        return body[i], i + 1
    if i + 1 >= len(body):
        raise GlobSyntaxError("unclosed '[' character class")
    return body[i + 1], i + 2


def _is_posix_class(body: str, i: int) -> bool:
    """Whether ``[:`` at ``i`` opens a ``[:name:]`` class: git reads it so only when a ":]"
    closes it; otherwise the "[" is an ordinary member."""
    close = body.find("]", i + 2)
    return close >= i + 3 and body[close - 1] == ":"
