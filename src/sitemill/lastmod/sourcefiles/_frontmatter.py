"""A source file's front matter (YAML ``---``, TOML ``+++``, JSON ``{``) and the text after it."""

from __future__ import annotations

import json
import re
import tomllib
from typing import Final

from sitemill.config.file import too_many_key_parts
from sitemill.lastmod.sourcefiles._yamlish import read_yaml

_YAML: Final = re.compile(
    r"\A(?:\ufeff)?---[ \t]*\r?\n(.*?\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.S
)
_TOML: Final = re.compile(
    r"\A(?:\ufeff)?\+\+\+[ \t]*\r?\n(.*?\r?\n)?\+\+\+[ \t]*(?:\r?\n|\Z)", re.S
)
_MAX_FRONT_MATTER: Final = 64 * 1024


def split_front_matter(text: str) -> tuple[dict[str, object], str]:
    """The front matter of ``text`` as a mapping ({} when it has none or it cannot be read)
    and the text after it."""
    head = text[:_MAX_FRONT_MATTER]
    found = _YAML.match(head)
    if found:
        return read_yaml(found[1] or ""), text[found.end() :]
    found = _TOML.match(head)
    if found:
        if too_many_key_parts(found[1] or ""):  # tomllib's time grows with a key's square
            return {}, text[found.end() :]
        try:
            return tomllib.loads(found[1] or ""), text[found.end() :]
        except (tomllib.TOMLDecodeError, RecursionError):
            return {}, text[found.end() :]
    if head.startswith("{"):
        return _json_front_matter(text)
    return {}, text


def has_front_matter(text: str) -> bool:
    """Whether ``text`` opens with a YAML front matter block (Jekyll renders only those)."""
    return _YAML.match(text[:_MAX_FRONT_MATTER]) is not None


def _json_front_matter(text: str) -> tuple[dict[str, object], str]:
    try:
        value, end = json.JSONDecoder().raw_decode(text[:_MAX_FRONT_MATTER])
    except (ValueError, RecursionError):
        return {}, text
    return (value if isinstance(value, dict) else {}), text[end:]


def text_value(meta: dict[str, object], key: str) -> str | None:
    """A front matter value that is a non-empty string, else None."""
    value = meta.get(key)
    return value.strip() if isinstance(value, str) and value.strip() else None


def words_value(meta: dict[str, object], key: str) -> list[str]:
    """A list-valued front matter key (a list, or words split on white space), else []."""
    value = meta.get(key)
    if isinstance(value, list):
        return [str(part) for part in value if str(part).strip()]
    if isinstance(value, str):
        return value.split()
    return []
