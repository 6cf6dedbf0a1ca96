"""How each configuration value is read and checked: one parser per kind, each naming its key."""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Final, TypeVar

from sitemill.config.globs import Glob, compile_glob
from sitemill.errors import ConfigError, GlobSyntaxError
from sitemill.protocol import format_priority
from sitemill.urls import encode_host, normalize_base_url
from sitemill.workers.workpool import MAX_WORKERS

_E = TypeVar("_E", bound=Enum)


_TRUE_WORDS: Final = ("true", "yes", "on", "1")
_FALSE_WORDS: Final = ("false", "no", "off", "0")


def parse_bool(key: str, value: object) -> bool:
    """The one boolean parser: TOML booleans, and true/false/yes/no/on/off/1/0 strings."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE_WORDS:
        return True
    if text in _FALSE_WORDS:
        return False
    raise ConfigError(key, f"{value!r} is not a boolean (use true or false)")


def parse_enum(enum: type[_E]) -> Callable[[str, object], _E]:
    def parse(key: str, value: object) -> _E:
        text = str(value).strip().lower()
        for member in enum:
            if member.value == text:
                return member
        allowed = ", ".join(str(member.value) for member in enum)
        raise ConfigError(key, f"{value!r} is not one of: {allowed}")

    return parse


def parse_enum_or_bool(on: _E, off: _E) -> Callable[[str, object], _E]:
    """A parser of the values of ``on``'s enum, and of a boolean too (parse_bool; true:
    ``on``, false: ``off``)."""
    members = parse_enum(type(on))

    def parse(key: str, value: object) -> _E:
        if isinstance(value, bool) or str(value).strip().lower() in (*_TRUE_WORDS, *_FALSE_WORDS):
            return on if parse_bool(key, value) else off
        return members(key, value)

    return parse


def parse_int_range(low: int, high: int) -> Callable[[str, object], int]:
    def parse(key: str, value: object) -> int:
        if isinstance(value, bool):
            raise ConfigError(key, f"{value!r} is not a whole number")
        try:
            number = int(str(value).strip().replace("_", ""))
        except ValueError as exc:
            raise ConfigError(key, f"{value!r} is not a whole number") from exc
        if not low <= number <= high:
            raise ConfigError(key, f"{number} is out of range ({low:,} to {high:,})")
        return number

    return parse


def parse_workers(key: str, value: object) -> int | None:
    """ "auto" (None: the machine's cores) or a number of worker processes."""
    if isinstance(value, str) and value.strip().lower() == "auto":
        return None
    return parse_int_range(1, MAX_WORKERS)(key, value)


def _items(key: str, value: object, what: str, split: Callable[[str], list[str]]) -> list[str]:
    """A list's items: a list's or tuple's as strings, a string's cut by ``split``; anything
    else a ConfigError (``what``: what the list holds)."""
    if isinstance(value, str):
        return split(value)
    if isinstance(value, list | tuple):
        return [str(item) for item in value]
    raise ConfigError(key, f"{value!r} is not a list of {what}")


def parse_globs(key: str, value: object) -> tuple[Glob, ...]:
    items = _items(key, value, "glob patterns", _lines_and_commas)
    globs = []
    for item in items:
        if not item.strip():
            continue
        try:
            globs.append(compile_glob(item))
        except GlobSyntaxError as exc:
            raise ConfigError(key, f"invalid glob {item!r}: {exc}") from exc
    return tuple(globs)


def parse_base_url(key: str, value: object) -> str:
    return normalize_base_url(str(value))


def parse_path(key: str, value: object) -> Path:
    text = str(value).strip()
    if not text:
        raise ConfigError(key, "is empty")
    return Path(text)


def parse_priority(key: str, value: object) -> str:
    if isinstance(value, bool):
        raise ConfigError(key, f"{value!r} is not a number from 0.0 to 1.0")
    try:
        number = float(str(value))
    except ValueError as exc:
        raise ConfigError(key, f"{value!r} is not a number from 0.0 to 1.0") from exc
    if not 0.0 <= number <= 1.0:
        raise ConfigError(key, f"{number} is out of range (0.0 to 1.0)")
    return format_priority(number)


def parse_share(key: str, value: object) -> float:
    """A share of a whole: a number above 0 and at most 1 (0.5 is half)."""
    problem = f"{value!r} is not a number above 0 and at most 1 (0.5 is half)"
    if isinstance(value, bool):
        raise ConfigError(key, problem)
    try:
        number = float(str(value).strip())
    except ValueError as exc:
        raise ConfigError(key, problem) from exc
    if not 0.0 < number <= 1.0:  # (NaN is neither)
        raise ConfigError(key, problem)
    return number


def parse_regexes(key: str, value: object) -> tuple[re.Pattern[str], ...]:
    items = _items(key, value, "regular expressions", _nonblank_lines)
    patterns = []
    for item in items:
        try:
            patterns.append(re.compile(item))
        except re.error as exc:
            raise ConfigError(key, f"invalid regular expression {item!r}: {exc}") from exc
    return tuple(patterns)


def parse_location(key: str, value: object) -> str:
    text = str(value).strip()
    if not text:
        raise ConfigError(key, "is empty")
    return text


# ``previous_state = "none"``: no previous state at all, not even the Action's default (the
# live site's copy), for runners that must not reach the site. A file named "none": ./none.
PREVIOUS_NONE: Final = "none"


def names_no_previous_state(text: str) -> bool:
    """Whether a ``previous_state`` value is ``none`` (in any case, spaces around)."""
    return text.strip().lower() == PREVIOUS_NONE


def parse_previous_state(key: str, value: object) -> str:
    text = parse_location(key, value)
    return PREVIOUS_NONE if names_no_previous_state(text) else text


# A host name (or an IPv4 address): letters, digits, hyphens and dots, or non-ASCII (IDNA).
_HOST: Final = re.compile(r"[^\s/:@?#\[\]]+")


def parse_hosts(key: str, value: object) -> tuple[str, ...]:
    """Host names (``cdn.example.com``), a list or a comma/newline string; a URL's host is
    taken (``https://cdn.example.com/``), but a URL with a path is an error."""
    hosts: list[str] = []
    for item in _listed(key, value, "host names"):
        host = item
        if "://" in item:
            scheme, _, rest = item.partition("://")
            host, _, path = rest.partition("/")
            if scheme.lower() not in ("http", "https") or path:
                raise ConfigError(key, f"{item!r} is not a host name (like cdn.example.com)")
        host = host.rstrip(".")
        if not _HOST.fullmatch(host):
            raise ConfigError(key, f"{item!r} is not a host name (like cdn.example.com)")
        hosts.append(encode_host(host, key))
    return tuple(dict.fromkeys(hosts))


# Characters no sitemap URL holds raw: spaces and controls (a URL is encoded before it is named).
_NOT_IN_URL: Final = re.compile(r"[\x00-\x20\x7f]")


def parse_sitemaps(key: str, value: object) -> tuple[str, ...]:
    """The user's sitemaps to name (``sitemaps``): names relative to the base URL
    (``blog-sitemap.xml``) or absolute http(s) URLs, a list or a comma/newline string; checked
    here for their spelling, resolved against the base URL by sitemill.config.model."""
    names: list[str] = []
    for item in _listed(key, value, "sitemap names or URLs"):
        if item.encode("utf-8", "ignore").decode("utf-8") != item:  # (argv's non-UTF-8 bytes)
            raise ConfigError(key, f"{item!r} is not UTF-8 text")
        if _NOT_IN_URL.search(item) or "#" in item:
            raise ConfigError(
                key, f"{item!r} is not a sitemap's name or URL (no spaces, controls or #)"
            )
        names.append(item)
    return tuple(dict.fromkeys(names))


def _listed(key: str, value: object, what: str) -> list[str]:
    """The items of a list, or of a comma/newline string, each stripped, empty ones left out
    (``what``: what the error says the value is not a list of)."""
    if isinstance(value, str):
        items = [part.strip() for line in value.splitlines() for part in line.split(",")]
    elif isinstance(value, list | tuple):
        items = [str(item).strip() for item in value]
    else:
        raise ConfigError(key, f"{value!r} is not a list of {what}")
    return list(filter(None, items))


def _lines_and_commas(text: str) -> list[str]:
    return [part for line in text.splitlines() for part in line.split(",")]


def _nonblank_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]
