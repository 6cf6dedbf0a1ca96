"""The one configuration model, read from flags, SITEMILL_* env and sitemill.toml."""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Final, TypeVar

from sitemill.errors import ConfigError
from sitemill.globs import Glob, GlobSyntaxError, compile_glob
from sitemill.protocol import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_SITEMAPS_PER_INDEX,
    MAX_BYTES_LIMIT,
    MAX_SITEMAPS_PER_INDEX_LIMIT,
    MAX_URLS_PER_SITEMAP,
    ChangeFreq,
    Precision,
    format_priority,
)
from sitemill.safefs import RefusedError, Root, read_regular, relative_inside
from sitemill.urls import UrlStyle, normalize_base_url

CONFIG_FILE_NAME: Final = "sitemill.toml"
ENV_PREFIX: Final = "SITEMILL_"
DEFAULT_INCLUDE: Final = ("**/*.html", "**/*.htm", "**/*.pdf")
# Smallest sensible file: the XML header, one <url> and the closing tag.
_MIN_MAX_BYTES: Final = 1_024
# A sitemill.toml is a few hundred bytes; the bound stops a link to a huge file or a device.
MAX_CONFIG_BYTES: Final = 1024 * 1024
_MAX_KEY_PARTS: Final = 32
# Strings (quoted keys too) and comments, which may hold dots that are not key separators.
_STRING_OR_COMMENT: Final = re.compile(
    r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*'
)
# A run of what a dotted key is made of: bare-key characters, dots, spaces and tabs.
_KEY_RUN: Final = re.compile(r"[A-Za-z0-9_. \t-]+")

E = TypeVar("E", bound=Enum)


class LastmodMode(Enum):
    GIT = "git"
    MTIME = "mtime"
    NONE = "none"


class OutputFormat(Enum):
    XML = "xml"
    TXT = "txt"


@dataclass(frozen=True, slots=True)
class Rule:
    """One ``[[rules]]`` table: the first rule whose pattern matches a page applies."""

    pattern: Glob
    changefreq: ChangeFreq | None = None
    priority: str | None = None  # formatted, e.g. "0.8"
    exclude: bool = False


@dataclass(frozen=True, slots=True)
class Config:
    """Everything a run needs to know; built only by ``load_config``."""

    base_url: str
    include: tuple[Glob, ...] = ()  # empty: the source's default (DEFAULT_INCLUDE for files)
    exclude: tuple[Glob, ...] = ()
    url_style: UrlStyle = UrlStyle.DIRECTORY
    lastmod: LastmodMode | None = None  # None: git inside a work tree, else mtime
    lastmod_precision: Precision = Precision.DATETIME
    rules: tuple[Rule, ...] = ()
    respect_noindex: bool = True
    respect_robots_txt: bool = True
    robots_txt: bool = False
    gzip: bool = False
    format: OutputFormat = OutputFormat.XML
    max_urls: int = MAX_URLS_PER_SITEMAP
    max_bytes: int = DEFAULT_MAX_BYTES
    max_sitemaps_per_index: int = DEFAULT_MAX_SITEMAPS_PER_INDEX
    templates_dir: Path | None = None


def parse_bool(key: str, value: object) -> bool:
    """The one boolean parser: TOML booleans, and true/false/yes/no/on/off/1/0 strings."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "yes", "on", "1"):
        return True
    if text in ("false", "no", "off", "0"):
        return False
    raise ConfigError(key, f"{value!r} is not a boolean (use true or false)")


def _parse_enum(enum: type[E]) -> Callable[[str, object], E]:
    def parse(key: str, value: object) -> E:
        text = str(value).strip().lower()
        for member in enum:
            if member.value == text:
                return member
        allowed = ", ".join(str(member.value) for member in enum)
        raise ConfigError(key, f"{value!r} is not one of: {allowed}")

    return parse


def _parse_int_range(low: int, high: int) -> Callable[[str, object], int]:
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


def _parse_globs(key: str, value: object) -> tuple[Glob, ...]:
    if isinstance(value, str):
        items = [part for line in value.splitlines() for part in line.split(",")]
    elif isinstance(value, list | tuple):
        items = [str(item) for item in value]
    else:
        raise ConfigError(key, f"{value!r} is not a list of glob patterns")
    globs = []
    for item in items:
        if not item.strip():
            continue
        try:
            globs.append(compile_glob(item))
        except GlobSyntaxError as exc:
            raise ConfigError(key, f"invalid glob {item!r}: {exc}") from exc
    return tuple(globs)


def _parse_base_url(key: str, value: object) -> str:
    return normalize_base_url(str(value))


def _parse_path(key: str, value: object) -> Path:
    text = str(value).strip()
    if not text:
        raise ConfigError(key, "is empty")
    return Path(text)


def _parse_priority(key: str, value: object) -> str:
    if isinstance(value, bool):
        raise ConfigError(key, f"{value!r} is not a number from 0.0 to 1.0")
    try:
        number = float(str(value))
    except ValueError as exc:
        raise ConfigError(key, f"{value!r} is not a number from 0.0 to 1.0") from exc
    if not 0.0 <= number <= 1.0:
        raise ConfigError(key, f"{number} is out of range (0.0 to 1.0)")
    return format_priority(number)


_RULE_KEYS: Final = frozenset({"pattern", "changefreq", "priority", "exclude"})


def _parse_rules(key: str, value: object) -> tuple[Rule, ...]:
    if not isinstance(value, list):
        raise ConfigError(key, "must be an array of tables ([[rules]])")
    rules = []
    for number, table in enumerate(value, start=1):
        where = f"{key}[{number}]"
        if not isinstance(table, dict):
            raise ConfigError(where, "must be a table with pattern, changefreq, priority, exclude")
        unknown = sorted(set(table) - _RULE_KEYS)
        if unknown:
            raise ConfigError(f"{where}.{unknown[0]}", "unknown key")
        if "pattern" not in table:
            raise ConfigError(f"{where}.pattern", "is required")
        (pattern,) = _parse_globs(f"{where}.pattern", [table["pattern"]]) or (None,)
        if pattern is None:
            raise ConfigError(f"{where}.pattern", "is empty")
        changefreq = table.get("changefreq")
        priority = table.get("priority")
        rules.append(
            Rule(
                pattern=pattern,
                changefreq=None
                if changefreq is None
                else _parse_enum(ChangeFreq)(f"{where}.changefreq", changefreq),
                priority=None
                if priority is None
                else _parse_priority(f"{where}.priority", priority),
                exclude=parse_bool(f"{where}.exclude", table.get("exclude", False)),
            )
        )
    return tuple(rules)


# key -> parser. The key is the TOML spelling; flags use --kebab-case, env SITEMILL_UPPER_CASE.
_PARSERS: Final[Mapping[str, Callable[[str, Any], Any]]] = {
    "base_url": _parse_base_url,
    "include": _parse_globs,
    "exclude": _parse_globs,
    "url_style": _parse_enum(UrlStyle),
    "lastmod": _parse_enum(LastmodMode),
    "lastmod_precision": _parse_enum(Precision),
    "rules": _parse_rules,
    "respect_noindex": parse_bool,
    "respect_robots_txt": parse_bool,
    "robots_txt": parse_bool,
    "gzip": parse_bool,
    "format": _parse_enum(OutputFormat),
    "max_urls": _parse_int_range(1, MAX_URLS_PER_SITEMAP),
    "max_bytes": _parse_int_range(_MIN_MAX_BYTES, MAX_BYTES_LIMIT),
    "max_sitemaps_per_index": _parse_int_range(1, MAX_SITEMAPS_PER_INDEX_LIMIT),
    "templates_dir": _parse_path,
}
CONFIG_KEYS: Final = tuple(_PARSERS)
_FILE_ONLY: Final = frozenset({"rules"})


def env_name(key: str) -> str:
    return ENV_PREFIX + key.upper()


def read_config_file(path: Path, *, root: Path | None = None) -> dict[str, Any]:
    """Read a sitemill.toml: a regular file (never a FIFO or a device) of at most 1 MiB.

    ``root`` is given for a file sitemill found, or was pointed to, inside a site or a
    workspace rather than one the operator named on a command line: then the file must
    resolve inside ``root`` (a committed link cannot make it read elsewhere), and so must the
    ``templates_dir`` it names. A relative ``templates_dir`` is taken relative to the file.
    """
    try:
        if root is None:
            raw = read_regular(path, MAX_CONFIG_BYTES, whole=True)
        else:
            found = Root(root, hidden=True).read(
                os.path.abspath(path), MAX_CONFIG_BYTES, whole=True
            )
            if found is None:
                raise FileNotFoundError(path)
            raw = found
    except FileNotFoundError as exc:
        raise ConfigError("config", f"{path} does not exist") from exc
    except RefusedError as exc:
        raise ConfigError("config", f"cannot read {exc}") from exc
    except OSError as exc:
        raise ConfigError("config", f"cannot read {path}: {exc.strerror or exc}") from exc
    data = _parse_toml(path, raw)
    unknown = sorted(set(data) - set(_PARSERS))
    if unknown:
        raise ConfigError(unknown[0], f"unknown key in {path} (known: {', '.join(CONFIG_KEYS)})")
    if "templates_dir" in data:
        templates = path.parent / str(data["templates_dir"])
        if root is not None:
            _require_inside(
                root, templates, "templates_dir", f"{data['templates_dir']!r} in {path}"
            )
        data["templates_dir"] = str(templates)
    return data


def _parse_toml(path: Path, raw: bytes) -> dict[str, Any]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError("config", f"{path} is not UTF-8 (at byte {exc.start})") from exc
    if _too_many_key_parts(text):
        raise ConfigError(
            "config", f"cannot read {path}: a dotted key of more than {_MAX_KEY_PARTS} parts"
        )
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError("config", f"cannot read {path}: {exc}") from exc
    except RecursionError as exc:
        raise ConfigError(
            "config", f"cannot read {path}: arrays or tables nested too deeply"
        ) from exc


def _too_many_key_parts(text: str) -> bool:
    """Whether a dotted key (``a.b.c``, outside strings and comments) has too many parts.

    tomllib's time and memory grow with the square of a key's length: 10 KiB of ``a.a.a``
    take seconds and gigabytes. sitemill's own keys have at most three parts.
    """
    bare = _STRING_OR_COMMENT.sub("s", text)
    return any(run.count(".") >= _MAX_KEY_PARTS for run in _KEY_RUN.findall(bare))


def _require_inside(root: Path, path: Path, key: str, what: str) -> None:
    real = os.path.realpath(path)
    if relative_inside(os.path.realpath(root), real) is None:
        raise ConfigError(key, f"{what} leads outside {root} (to {real})")


def load_config(
    flags: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    file_values: Mapping[str, Any] | None = None,
    *,
    require_base_url: bool = True,
) -> Config:
    """Merge the spellings (flag > env > file > default), validate each value, build Config.

    ``flags`` holds only values the user gave explicitly (None means not given).
    """
    merged: dict[str, Any] = {}
    for key, parse in _PARSERS.items():
        raw = _pick(key, flags or {}, env or {}, file_values or {})
        if raw is not None:
            merged[key] = parse(key, raw)
    if "base_url" not in merged:
        if require_base_url:
            raise ConfigError(
                "base_url",
                "is required (--base-url, SITEMILL_BASE_URL or base_url in sitemill.toml)",
            )
        merged["base_url"] = ""
    return Config(**merged)


def _pick(
    key: str, flags: Mapping[str, Any], env: Mapping[str, str], file_values: Mapping[str, Any]
) -> Any:
    value = flags.get(key)
    if value is not None and not (isinstance(value, Sequence | tuple) and not value):
        return value
    if key not in _FILE_ONLY:
        text = env.get(env_name(key))
        if text is not None and text.strip():
            return text
    return file_values.get(key)
