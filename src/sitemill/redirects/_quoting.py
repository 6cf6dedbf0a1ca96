"""Strings quoted for the formats the forms are written in (YAML, TOML, JSON), so that no
value can end its line, its string or its file early."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Final

# What a YAML stream may hold raw (YAML 1.1 and 1.2 "printable"), less the characters YAML
# reads as line breaks (NEL, LS, PS) and the byte order mark; everything else is escaped.
_YAML_RAW: Final = re.compile(
    "[\\x20-\\x21\\x23-\\x5b\\x5d-\\x7e\\xa0-\\u2027\\u202a-\\ud7ff\\ue000-\\ufefe"
    "\\uff00-\\ufffd\\U00010000-\\U0010ffff]"
)


def yaml_string(text: str) -> str:
    """``text`` as a YAML double-quoted scalar: printable characters raw, the rest escaped."""
    return (
        '"' + "".join(char if _YAML_RAW.match(char) else _yaml_escape(char) for char in text) + '"'
    )


def _yaml_escape(char: str) -> str:
    if char in '"\\':
        return "\\" + char
    code = ord(char)
    return (
        f"\\x{code:02x}"
        if code < 0x100
        else f"\\u{code:04x}"
        if code < 0x10000
        else f"\\U{code:08x}"
    )


def yaml_list(items: Sequence[str]) -> str:
    """A YAML flow sequence of double-quoted strings."""
    return "[" + ", ".join(yaml_string(item) for item in items) + "]"


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string: what YAML would not take raw escaped too, so the
    string may also stand in a YAML comment."""
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif _YAML_RAW.match(char):
            out.append(char)
        else:
            code = ord(char)
            out.append(f"\\u{code:04X}" if code < 0x10000 else f"\\U{code:08X}")
    return '"' + "".join(out) + '"'


def toml_list(items: Sequence[str]) -> str:
    """A TOML array of basic strings."""
    return "[" + ", ".join(toml_string(item) for item in items) + "]"


def json_text(value: object) -> str:
    """Deterministic JSON, ASCII only: valid JavaScript too (no raw U+2028 or U+2029)."""
    return json.dumps(value, ensure_ascii=True, indent=2, sort_keys=False) + "\n"
