"""The IndexNow settings' values: the key (a secret from now on) and the endpoint."""

from __future__ import annotations

import re
from enum import Enum
from typing import Final
from urllib.parse import urlsplit

from sitemill.config.values import parse_bool, parse_enum
from sitemill.errors import ConfigError
from sitemill.messages import register_secret

DEFAULT_ENDPOINT: Final = "https://api.indexnow.org/indexnow"
_KEY: Final = re.compile(r"[A-Za-z0-9-]{8,128}")


def parse_indexnow_key(key: str, value: object) -> str:
    """8 to 128 of ``a-zA-Z0-9-``; a bad one is a ConfigError that does not quote it."""
    text = str(value).strip()
    if not _KEY.fullmatch(text):
        raise ConfigError(
            key, f"is not 8 to 128 characters of a-z, A-Z, 0-9 and '-' ({len(text)} given)"
        )
    register_secret(text)
    return text


def parse_endpoint(key: str, value: object) -> str:
    """An absolute http(s) URL without user info or fragment."""
    text = str(value).strip()
    parts = urlsplit(text)
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ConfigError(key, f"{text!r} is not an absolute http(s) URL")
    if parts.username is not None or parts.password is not None or parts.fragment:
        raise ConfigError(key, f"{text!r} must carry no user info and no fragment")
    return text


class IndexNowMode(Enum):
    """Whether a run announces its changed URLs (sitemill.indexnow); true is "send"."""

    OFF = "off"
    SEND = "send"  # right after publishing: the pages are live once written
    LATER = "later"  # kept pending in the state: `sitemill indexnow` sends them after a deploy


def parse_indexnow_mode(key: str, value: object) -> IndexNowMode:
    """off, send or later; a boolean too (true: send)."""
    if isinstance(value, bool) or str(value).strip().lower() in _BOOLEAN_WORDS:
        return IndexNowMode.SEND if parse_bool(key, value) else IndexNowMode.OFF
    return parse_enum(IndexNowMode)(key, value)


_BOOLEAN_WORDS: Final = frozenset({"true", "false", "yes", "no", "on", "1", "0"})
