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
        regex = _DIRECTORIES_REGEX + regex
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


# Tokens of a pattern besides one-character regexes: a segment's "*", a "/", a "**/" (zero or
# more directories) and a final "**" (anything).
_STAR, _SLASH, _DIRECTORIES, _ANYTHING = "*", "/", "**/", "**"
_STAR_REGEX = "[^/]*"
_DIRECTORIES_REGEX = "(?:[^/]*/)*"


def _translate(body: str) -> str:
    """The regex of a pattern's body, built so that matching is linear in the path.

    Python's re backtracks: ``(?:[^/]*/)*`` six times over 60 folders, or ``*a*a*a*a*a*ab``
    over one long name, tries every way to split the path (10 s and more). Each choice a
    pattern leaves open is therefore closed as soon as it is made: consecutive ``**/`` are
    one; a piece between two ``**/`` takes the first folder where it fits, as does a piece
    between two ``*`` in a name (an atomic group). Taking the first place loses no match, as
    whatever follows such a piece could also follow it there (see test_globs.py's linearity
    and agreement tests). What is left backtracks over one choice at a time.
    """
    pieces = _split(_collapse(_tokenize(body)), _DIRECTORIES)
    out = [_piece_regex(pieces[0])]
    for index, piece in enumerate(pieces[1:], start=1):
        if index < len(pieces) - 1:  # another "**/" follows: the first place is the best
            out.append(f"(?>{_DIRECTORIES_REGEX}?{_piece_regex(piece)})")
        else:
            out.append(_DIRECTORIES_REGEX + _piece_regex(piece))
    return "".join(out)


def _collapse(tokens: list[str]) -> list[str]:
    """``**/**/`` is ``**/``, and ``**/**`` is ``**``."""
    out: list[str] = []
    for token in tokens:
        if token in (_DIRECTORIES, _ANYTHING) and out and out[-1] == _DIRECTORIES:
            out.pop()
        out.append(token)
    return out


def _piece_regex(piece: list[str]) -> str:
    """The regex of the segments between two ``**/``: each segment's inner ``*`` pieces take
    their first place in the name, the last one ends the name."""
    return "/".join(_segment_regex(segment) for segment in _split(piece, _SLASH))


def _split(tokens: list[str], separator: str) -> list[list[str]]:
    """``tokens`` cut at each ``separator`` (left out), as str.split cuts a string."""
    parts: list[list[str]] = [[]]
    for token in tokens:
        if token == separator:
            parts.append([])
        else:
            parts[-1].append(token)
    return parts


def _segment_regex(segment: list[str]) -> str:
    if segment == [_ANYTHING]:
        return ".*"
    parts = [""]
    for token in segment:
        if token == _STAR:
            parts.append("")
        else:
            parts[-1] += token
    if len(parts) == 1:
        return parts[0]
    first, *middle, last = parts
    inner = "".join(f"(?>{_STAR_REGEX}?{part})" for part in middle if part)
    return f"{first}{inner}{_STAR_REGEX}{last}"


def _tokenize(body: str) -> list[str]:
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
                out.append(_DIRECTORIES)
                i += 3
            else:
                out.append(_ANYTHING)
                i += 2
        elif char == "*":
            out.append(_STAR)
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
            out.append(_SLASH if body[i + 1] == "/" else re.escape(body[i + 1]))
            i += 2
        elif char == "/":
            out.append(_SLASH)
            i += 1
        else:
            out.append(re.escape(char))
            i += 1
    return out


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
