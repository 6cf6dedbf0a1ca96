"""The ``alternates`` setting: on or off, and the ``[alternates]`` table of language folders."""
# The table (``en = "**"``, ``fr = "fr/**"``) is for sites whose pages carry no hreflang links.
#
# Apart from sitemill.alternates so that reading the configuration costs no HTML machinery.

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from sitemill.config.values import parse_bool
from sitemill.errors import ConfigError
from sitemill.html.hreflang import X_DEFAULT, normalize_hreflang

_FOLDER_CHARS: Final = frozenset("*?[]{}!\\")


@dataclass(frozen=True, slots=True)
class AlternatesSetting:
    """``alternates``: on (from page heads) or off, and the language folders of the
    ``[alternates]`` table as (hreflang, folder prefix) pairs, longest prefix first."""

    enabled: bool = True
    folders: tuple[tuple[str, str], ...] = ()


def parse_alternates(key: str, value: object) -> AlternatesSetting:
    """``alternates = false``, or an ``[alternates]`` table of hreflang = "folder/**"."""
    if isinstance(value, bool):
        return AlternatesSetting(enabled=value)
    if isinstance(value, str):  # an environment variable, an Action input
        return AlternatesSetting(enabled=parse_bool(key, value))
    if not isinstance(value, dict):
        raise ConfigError(key, 'must be true, false or a table like { en = "en/**", fr = "fr/**" }')
    folders: list[tuple[str, str]] = []
    for language, pattern in value.items():
        hreflang = normalize_hreflang(str(language))
        if hreflang is None:
            raise ConfigError(
                f"{key}.{language}",
                "is not an hreflang value (an ISO 639-1 language, optionally -REGION or "
                "-Script, or x-default)",
            )
        folders.append((hreflang, _folder_prefix(f"{key}.{language}", pattern)))
    prefixes = [prefix for hreflang, prefix in folders if hreflang != X_DEFAULT]
    if len(folders) < 2:
        raise ConfigError(key, "needs at least two languages")
    if len(set(prefixes)) != len(prefixes):
        raise ConfigError(key, "gives two languages the same folder")
    folders.sort(key=lambda item: (-len(item[1]), item[0]))
    return AlternatesSetting(enabled=True, folders=tuple(folders))


def _folder_prefix(key: str, pattern: object) -> str:
    """``"fr/**"`` -> ``"fr/"``, ``"**"`` (the site root) -> ``""``."""
    if not isinstance(pattern, str):
        raise ConfigError(key, f'{pattern!r} is not a folder pattern like "fr/**"')
    text = pattern.strip().lstrip("/")
    if text.endswith("**"):
        text = text[:-2]
    if text and not text.endswith("/"):
        text += "/"
    if _FOLDER_CHARS & set(text) or "/../" in f"/{text}" or "//" in text:
        raise ConfigError(key, f'{pattern!r} is not a folder pattern like "fr/**"')
    return text
