"""The few YAML shapes a generator's settings and front matter use, read without a YAML library."""
# sitemill depends on no YAML library at run time; the settings the source map needs are plain
# scalars, flow or block lists and nested mappings (``docs_dir: docs``, ``permalink: pretty``,
# ``collections:`` with ``output: true``, ``categories: [a, b]``), and block scalars and quoted
# strings must be read whole so that no line inside them passes for a key (an excerpt's
# ``date:``). A value of any other shape (anchors, aliases, tags, flow mappings, lists of
# mappings) is left out with its key: a setting it misses takes its default. Every key read has
# the value PyYAML gives (tests/lastmod/sourcefiles/test_yamlish_oracle.py).

from __future__ import annotations

import re
from typing import Final

Value = str | bool | list[str] | dict[str, object] | None

# Every run is possessive (``*+``, ``++``) and no pattern ends in a lazy run before trailing
# blanks: a line of a million spaces is read in one pass, not one pass per space (the line is
# stripped of its trailing blanks first, so the value and the key are stripped in Python).
_KEY: Final = re.compile(
    r"""^(?P<indent>[ ]*+)
    (?: "(?P<dq>[^"\\]*+)" | '(?P<sq>[^']*+)' | (?P<key>[^\s#:'"\-?&*!|>%@`\[\]{},][^:#]*+) )
    [ \t]*+:(?:[ \t]++(?P<value>.*))?$""",
    re.X,
)
_ITEM: Final = re.compile(r"^(?P<indent>[ ]*+)-(?:[ \t]++(?P<value>.*))?$")
_COMMENT: Final = re.compile(r"[ \t]#")
_BLOCK_HEADER: Final = re.compile(r"^[|>](?:[1-9][+-]?|[+-][1-9]?)?(?:[ \t]+#.*)?$")
_MAX_LINES: Final = 20_000
_MAX_QUOTED_LINES: Final = 200
_SINGLE_RUN: Final = re.compile(r"[^'\n]++")
_DOUBLE_RUN: Final = re.compile(r'[^"\\\n]++')
# YAML 1.1's booleans and nulls, as PyYAML resolves them (case variants beyond these are strings).
_TRUE: Final = frozenset({"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"})
_FALSE: Final = frozenset({"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"})
_NULL: Final = frozenset({"null", "Null", "NULL", "~", ""})
_ESCAPES: Final = {"\\": "\\", '"': '"', "/": "/", "n": "\n", "t": "\t", "0": "\0", " ": " "}


class _Unreadable(Exception):
    """A value of a shape the reader does not take: its key is left out."""


def read_yaml(text: str) -> dict[str, object]:
    """The mapping ``text`` holds, as far as the simple shapes above go ({} for none)."""
    lines = text.splitlines()[:_MAX_LINES]  # (a block scalar keeps its lines' blanks)
    start = _next_line(lines, 0)
    if start >= len(lines):
        return {}
    mapping, _ = _read_mapping(lines, start, _indent(lines[start]))
    return mapping


def _read_mapping(lines: list[str], start: int, indent: int) -> tuple[dict[str, object], int]:
    """The keys at ``indent`` from ``start`` on, and the index of the first line past them.
    A line indented deeper than the keys belongs to the value above it, never a key."""
    mapping: dict[str, object] = {}
    i = _next_line(lines, start)
    while i < len(lines) and _indent(lines[i]) >= indent:
        found = _KEY.match(lines[i])
        if _indent(lines[i]) > indent or found is None:
            i = _next_line(lines, i + 1)  # (not YAML that PyYAML reads)
            continue
        key = (found["key"] or "").rstrip(" \t") or found["dq"] or found["sq"] or ""
        try:
            value, i = _read_value(lines, i, indent, found["value"] or "")
        except _Unreadable:
            i = _next_line(lines, _past_value(lines, i + 1, indent))
            mapping.pop(key, None)
            continue
        i = _next_line(lines, i)
        if found["key"] is None or scalar(key) == key:  # (a key "yes" is True to PyYAML)
            mapping[key] = value
    return mapping, i


def _read_value(lines: list[str], at: int, indent: int, text: str) -> tuple[object, int]:
    """The value of the key on line ``at`` (``text`` after its colon) and the next line."""
    text = text.strip()
    if text == "" or text.startswith("#"):
        following = _next_line(lines, at + 1)
        if following < len(lines):
            line = lines[following]
            if _indent(line) > indent and _KEY.match(line):
                return _read_mapping(lines, following, _indent(line))
            if _indent(line) >= indent and _ITEM.match(line):
                return _read_list(lines, following, _indent(line))
            if _indent(line) > indent or (_indent(line) == indent and not _KEY.match(line)):
                raise _Unreadable  # (a scalar on the lines below its key: not read)
        return None, _past_value(lines, at + 1, indent)
    if _BLOCK_HEADER.match(text):
        return _read_block(lines, at + 1, indent, text)
    if text[0] in "'\"":
        return _read_quoted(lines, at, text)
    if text[0] in "[":
        return _read_flow_list(lines, at, indent, text)
    if text[0] in "{&*!|>%@`":
        raise _Unreadable
    return _read_plain(lines, at, indent, text)


def _read_plain(lines: list[str], at: int, indent: int, text: str) -> tuple[object, int]:
    comment = _COMMENT.search(text)
    words = [text[: comment.start()] if comment else text]
    end = _past_value(lines, at + 1, indent)
    for line in lines[at + 1 : end]:  # a plain scalar folded over deeper lines
        if comment or ": " in line or _COMMENT.search(line) or line.strip().startswith("#"):
            raise _Unreadable
        words.append(line.strip())
    value = _fold(words)
    if value.endswith(":") or ": " in value or value.startswith(("- ", "? ")):
        raise _Unreadable
    return scalar(value), end


def _read_list(lines: list[str], start: int, indent: int) -> tuple[list[str], int]:
    """A block list of scalars whose dashes stand at ``indent``."""
    items: list[str] = []
    i = start
    while i < len(lines):
        item = _ITEM.match(lines[i])
        if item is None or _indent(lines[i]) != indent:
            break
        text = (item["value"] or "").strip()
        value: object
        if not text or text[0] in "[{&*!|>%@`-?#" or _KEY.match(" " * (indent + 2) + text):
            raise _Unreadable  # a list of mappings, of lists, or anchored
        if text[0] in "'\"":
            value, i = _read_quoted(lines, i, text)
        else:
            value, i = _read_plain(lines, i, indent, text)
        items.append(str(value))
        i = _next_line(lines, i)
    return items, i


def _read_flow_list(lines: list[str], at: int, indent: int, text: str) -> tuple[list[str], int]:
    end = _past_value(lines, at + 1, indent)
    whole = " ".join([text, *(line.strip() for line in lines[at + 1 : end])])
    items: list[str] = []
    at = _skip_blanks(whole, 1)
    while whole[at : at + 1] != "]":
        if whole[at : at + 1] in ("'", '"'):
            quoted, at = _quoted_at(whole, at)
            items.append(quoted)
        else:
            cut = min((found for c in ",]" if (found := whole.find(c, at)) >= 0), default=-1)
            plain = whole[at:cut].strip()
            if cut < 0 or not plain or plain[0] in "[{&*!|>%@`" or ": " in plain or "#" in plain:
                raise _Unreadable
            items.append(str(scalar(plain)))
            at = cut
        at = _skip_blanks(whole, at)
        if whole[at : at + 1] == ",":
            at = _skip_blanks(whole, at + 1)
        elif whole[at : at + 1] != "]":
            raise _Unreadable
    after = whole[at + 1 :].strip()
    if after and not after.startswith("#"):
        raise _Unreadable
    return items, end


def _skip_blanks(text: str, at: int) -> int:
    return len(text) - len(text[at:].lstrip()) if text[at : at + 1].isspace() else at


def _read_block(lines: list[str], start: int, indent: int, header: str) -> tuple[str, int]:
    """A ``|`` or ``>`` block scalar: its lines deeper than the key, then chomped."""
    flags = header[1:3]
    chomp = "-" if "-" in flags else "+" if "+" in flags else ""
    digit = next((c for c in flags if c.isdigit()), None)
    end = start
    while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > indent):
        end += 1
    body = lines[start:end]
    content = [line for line in body if line.strip()]
    inner = indent + 1 if not content else _indent(content[0])
    if digit:
        inner = indent + int(digit)
    if any(_indent(line) < inner for line in content) or any("\t" in line for line in body):
        raise _Unreadable
    last = len(body)
    while last and not body[last - 1].strip():
        last -= 1
    if any(len(line) > inner for line in body[last:]) or any(
        line.strip() == "" and len(line) > inner for line in body[:last]
    ):
        raise _Unreadable  # (blanks past the indentation: text of their own, not read)
    kept = [line[inner:] for line in body[:last]]
    if header[0] == ">":
        if any(line[:1] in (" ", "\t") for line in kept):
            raise _Unreadable  # (a deeper line keeps its breaks: not read)
        text = _fold(kept)
    else:
        text = "\n".join(kept)
    if chomp == "+":
        return text + "\n" * (len(body) - last + (1 if kept else 0)), end
    return text + ("\n" if kept and chomp == "" else ""), end


def _read_quoted(lines: list[str], at: int, text: str) -> tuple[str, int]:
    """A quoted scalar that may go on over the following lines (200 at most), and the line
    after it."""
    whole = "\n".join([text, *lines[at + 1 : at + _MAX_QUOTED_LINES]])
    value, end = _quoted_at(whole, 0)
    line_end = whole.find("\n", end)
    rest = whole[end : line_end if line_end >= 0 else len(whole)].strip()
    if rest and not rest.startswith("#"):
        raise _Unreadable
    return value, at + whole.count("\n", 0, end) + 1


def _quoted(text: str) -> tuple[str, str]:
    """The string a quoted scalar at the start of ``text`` holds, and the text after it."""
    value, end = _quoted_at(text, 0)
    return value, text[end:]


def _quoted_at(text: str, start: int) -> tuple[str, int]:
    """The string of the quoted scalar at ``start`` and the index past its closing quote."""
    quote, i = text[start], start + 1
    plain = _SINGLE_RUN if quote == "'" else _DOUBLE_RUN
    lines: list[list[str]] = [[]]
    while i < len(text):
        run = plain.match(text, i)
        if run:
            lines[-1].append(run.group())
            i = run.end()
            continue
        char = text[i]
        if char == quote and quote == "'" and text[i + 1 : i + 2] == "'":
            lines[-1].append("'")
            i += 2
        elif char == quote:
            return _fold_quoted(["".join(line) for line in lines]), i + 1
        elif char == "\\":
            escaped = text[i + 1 : i + 2]
            if escaped not in _ESCAPES:
                raise _Unreadable
            lines[-1].append(_ESCAPES[escaped])
            i += 2
        else:  # a line break
            lines.append([])
            i += 1
    raise _Unreadable


def _fold_quoted(lines: list[str]) -> str:
    """A quoted scalar's lines folded: blanks around each break go, as YAML says."""
    if len(lines) == 1:
        return lines[0]
    mark = "\x01"  # (the first and last lines count as lines with text, even when empty)
    inner = [line.strip(" \t") for line in lines[1:-1]]
    first, last = lines[0].rstrip(" \t"), lines[-1].lstrip(" \t")
    return _fold([mark + first, *inner, last + mark])[1:-1]


def _fold(lines: list[str]) -> str:
    """Lines joined as YAML folds them: one break is a space, each blank line a break."""
    out: list[str] = []
    breaks = 0
    for line in lines:
        if not line:
            breaks += 1
            continue
        if out:
            out.append("\n" * breaks if breaks else " ")
        else:
            out.append("\n" * breaks)
        out.append(line)
        breaks = 0
    return "".join(out)


def _past_value(lines: list[str], start: int, indent: int) -> int:
    """The first line from ``start`` on that is not deeper than ``indent`` (blank lines skipped)."""
    i = start
    while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > indent):
        i += 1
    while i > start and not lines[i - 1].strip():
        i -= 1
    return i


def _next_line(lines: list[str], start: int) -> int:
    """The first line from ``start`` on that holds something (no blank, comment or marker)."""
    i = start
    while i < len(lines):
        stripped = lines[i].strip()
        if stripped and not stripped.startswith("#") and stripped not in ("---", "..."):
            break
        i += 1
    return i


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def scalar(value: str) -> Value:
    """A YAML scalar or flow list as text: quotes taken off, a comment cut, booleans read."""
    value = value.strip()
    if value[:1] in ("'", '"'):
        try:
            return _quoted(value)[0]
        except _Unreadable:
            return value[1:]
    comment = _COMMENT.search(value)
    value = value[: comment.start()].strip() if comment else value
    if value.startswith("[") and value.endswith("]"):
        return [str(scalar(part)) for part in value[1:-1].split(",") if part.strip()]
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    if value in _NULL:
        return None
    return value
