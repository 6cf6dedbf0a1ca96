"""Read a sitemill.toml: a bounded regular file, inside its root where it was found."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Final

from sitemill.config.model import CONFIG_KEYS
from sitemill.config.names import did_you_mean
from sitemill.config.values import names_no_previous_state
from sitemill.errors import ConfigError, RefusedError
from sitemill.safefs import Root, read_regular, relative_inside

# A sitemill.toml is a few hundred bytes; the bound stops a link to a huge file or a device.
MAX_CONFIG_BYTES: Final = 1024 * 1024
_MAX_KEY_PARTS: Final = 32
# Strings (quoted keys too) and comments, which may hold dots that are not key separators.
_STRING_OR_COMMENT: Final = re.compile(
    r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*'
)
# A run of what a dotted key is made of: bare-key characters, dots, spaces and tabs.
_KEY_RUN: Final = re.compile(r"[A-Za-z0-9_. \t-]+")


def read_config_file(path: Path, *, root: Path | None = None) -> dict[str, Any]:
    """Read a sitemill.toml: a regular file (never a FIFO or a device) of at most 1 MiB.

    ``root`` is given for a file sitemill found, or was pointed to, inside a site or a
    workspace rather than one the operator named on a command line: then the file must
    resolve inside ``root`` (a committed link cannot make it read elsewhere), and so must the
    ``templates_dir`` it names. A relative ``templates_dir``, ``state`` or ``previous_state``
    path is taken relative to the file.
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
    unknown = sorted(set(data) - set(CONFIG_KEYS))
    if unknown:
        hint = did_you_mean(unknown[0], CONFIG_KEYS) or f" (known: {', '.join(CONFIG_KEYS)})"
        raise ConfigError(unknown[0], f"unknown key in {path}{hint}")
    if "templates_dir" in data:
        templates = path.parent / str(data["templates_dir"])
        if root is not None:
            _require_inside(
                root, templates, "templates_dir", f"{data['templates_dir']!r} in {path}"
            )
        data["templates_dir"] = str(templates)
    # A found file may name where the state goes, but not outside its own folder: a checkout
    # must not choose a file for sitemill to replace. (An s3:// or http(s) location is no path.)
    for key in ("state", "previous_state"):
        value = data.get(key)
        if (
            isinstance(value, str)
            and value.strip()
            and "://" not in value
            and not (key == "previous_state" and names_no_previous_state(value))
        ):
            location = path.parent / value.strip()
            if root is not None:
                _require_inside(root, location, key, f"{value!r} in {path}")
            data[key] = str(location)
    return data


def _parse_toml(path: Path, raw: bytes) -> dict[str, Any]:
    import tomllib  # (only a run with a config file reads one)

    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError("config", f"{path} is not UTF-8 (at byte {exc.start})") from exc
    if too_many_key_parts(text):
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


def too_many_key_parts(text: str) -> bool:
    """Whether a dotted key (``a.b.c``, outside strings and comments) has too many parts
    (every TOML text sitemill reads is asked first: a sitemill.toml, a generator's config,
    a page's front matter).

    tomllib's time and memory grow with the square of a key's length: 10 KiB of ``a.a.a``
    take seconds and gigabytes. sitemill's own keys have at most three parts.
    """
    bare = _STRING_OR_COMMENT.sub("s", text)
    return any(run.count(".") >= _MAX_KEY_PARTS for run in _KEY_RUN.findall(bare))


def _require_inside(root: Path, path: Path, key: str, what: str) -> None:
    real = os.path.realpath(path)
    if relative_inside(os.path.realpath(root), real) is None:
        raise ConfigError(key, f"{what} leads outside {root} (to {real})")
