"""The part of a source file a reader sees: its body, its front matter's title and description."""
# Its body without front matter, plus the front matter's title and description (docs/lastmod.md,
# "Rung 2: the page's source"). The title and description are compared as written, lines and all,
# not as parsed values (sitemill.lastmod.sourcefiles._frontmatter reads YAML's plain shapes only: a
# folded description's edit would be invisible there). A change of quoting alone then counts as a
# change, which can only make a date newer, never older than the text's last change.

from __future__ import annotations

import json
import re
from typing import Final

# The front matter keys a reader sees on the page; every other key (dates, weight, tags,
# draft, layout, ...) changes nothing a reader reads in the text.
SHOWN_KEYS: Final = ("title", "description")
_BOM: Final = "\ufeff"
# YAML between "---" lines (closed by "---" or "..."), TOML between "+++" lines.
_FENCED: Final = re.compile(
    r"\A(?P<fence>---|\+\+\+)[ \t]*\r?\n(?P<head>.*?)^(?:(?P=fence)|\.\.\.)[ \t]*(?:\r?\n|\Z)",
    re.DOTALL | re.MULTILINE,
)
# A top-level key line of YAML (``title: x``) or TOML (``title = x``); its value goes on in
# the indented lines after it (a YAML block scalar, a folded string).
_KEY_LINE: Final = re.compile(r"""^["']?(?P<key>[A-Za-z0-9_-]+)["']?[ \t]*[:=]""")


def visible_text(text: str) -> str:
    """What a reader sees of a source's ``text``, in one spelling: the title and description
    lines of its front matter, then its body with line ends and trailing blanks made one."""
    shown, body = _split_shown(text.removeprefix(_BOM))
    lines = [line.rstrip() for line in body.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return "\0".join(shown) + "\0\0" + "\n".join(lines)


def _split_shown(text: str) -> tuple[tuple[str, ...], str]:
    """The shown front-matter entries (``key: value`` as written, in order) and the body."""
    fenced = _FENCED.match(text)
    if fenced is not None:
        return _shown_lines(fenced["head"]), text[fenced.end() :]
    if text.startswith("{"):
        try:
            data, end = json.JSONDecoder().raw_decode(text)
        except (ValueError, RecursionError):  # (as frontmatter's: objects nested too deep)
            return (), text
        if isinstance(data, dict):
            shown = tuple(f"{key}: {json.dumps(data[key])}" for key in SHOWN_KEYS if key in data)
            return shown, text[end:]
    return (), text


def _shown_lines(head: str) -> tuple[str, ...]:
    """The title and description entries of a YAML or TOML front matter, each with its
    continuation lines (indented, or inside a TOML multi-line string)."""
    shown: list[str] = []
    current: list[str] | None = None
    for line in head.replace("\r\n", "\n").split("\n"):
        found = _KEY_LINE.match(line)
        if found is not None and not line[:1].isspace():
            if current is not None:
                shown.append("\n".join(current).rstrip())
            current = [line.rstrip()] if found["key"].lower() in SHOWN_KEYS else None
        elif current is not None and (line[:1].isspace() or not line.strip() or found is None):
            current.append(line.rstrip())
    if current is not None:
        shown.append("\n".join(current).rstrip())
    return tuple(shown)
