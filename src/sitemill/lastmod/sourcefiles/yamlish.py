"""The few YAML shapes a generator's settings and front matter use, read without a YAML library."""
# sitemill depends on no YAML library at run time; the settings the source map needs are plain
# scalars, flow or block lists and nested mappings (``docs_dir: docs``, ``permalink: pretty``,
# ``collections:`` with ``output: true``, ``categories: [a, b]``). Anything else (anchors, tags,
# multi-line scalars) is read as a plain string or skipped: a setting it misses takes its default.

from __future__ import annotations

import re
from typing import Final

Value = str | bool | list[str] | dict[str, object] | None

# Every run is possessive (``*+``, ``++``) and no pattern ends in a lazy run before trailing
# blanks: a line of a million spaces is read in one pass, not one pass per space (the line is
# stripped of its trailing blanks first, so the value and the key are stripped in Python).
_KEY: Final = re.compile(
    r"""^(?P<indent>[ ]*+)
    (?: "(?P<dq>[^"]*+)" | '(?P<sq>[^']*+)' | (?P<key>[^\s#:'"-][^:#]*+) )
    [ \t]*+:(?:[ \t]++(?P<value>.*))?$""",
    re.X,
)
_ITEM: Final = re.compile(r"^(?P<indent>[ ]*+)-[ \t]++(?P<value>.*)$")
_COMMENT: Final = re.compile(r"[ \t]#")
_MAX_LINES: Final = 20_000


def read_yaml(text: str) -> dict[str, object]:
    """The mapping ``text`` holds, as far as the simple shapes above go ({} for none)."""
    root: dict[str, object] = {}
    # (indent of the keys, the mapping) from the outermost in; a list under its key's indent.
    stack: list[tuple[int, dict[str, object]]] = [(-1, root)]
    last: tuple[int, dict[str, object], str] | None = None
    for raw in text.splitlines()[:_MAX_LINES]:
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#") or line.strip() in ("---", "..."):
            continue
        item = _ITEM.match(line)
        if item and last is not None and len(item["indent"]) >= last[0]:
            owner = last[1].get(last[2])
            if not isinstance(owner, list):
                owner = []
                last[1][last[2]] = owner
            owner.append(str(scalar(item["value"])))
            continue
        found = _KEY.match(line)
        if found is None:
            continue
        indent = len(found["indent"])
        while stack[-1][0] >= indent:
            stack.pop()
        mapping = stack[-1][1]
        key = (found["key"] or "").rstrip(" \t") or found["dq"] or found["sq"] or ""
        value = found["value"]
        if value is None or value == "" or value.startswith("#"):
            child: dict[str, object] = {}
            mapping[key] = child
            stack.append((indent, child))
            last = (indent, mapping, key)
        else:
            mapping[key] = scalar(value)
            last = None
    return root


def scalar(value: str) -> Value:
    """A YAML scalar or flow list as text: quotes taken off, a comment cut, booleans read."""
    value = value.strip()
    if value[:1] in ("'", '"'):
        end = value.find(value[0], 1)
        return value[1:end] if end > 0 else value[1:]
    comment = _COMMENT.search(value)
    value = value[: comment.start()].strip() if comment else value
    if value.startswith("[") and value.endswith("]"):
        return [str(scalar(part)) for part in value[1:-1].split(",") if part.strip()]
    lowered = value.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if lowered in ("null", "~"):
        return None
    return value
