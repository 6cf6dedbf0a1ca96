"""The IndexNow settings' values: the key (a secret), the endpoint, where the key file is."""
# The key is a secret from now on; the key location is where engines read the key file.

from __future__ import annotations

import re
from enum import Enum
from typing import Final, Protocol
from urllib.parse import urlsplit, urlunsplit

from sitemill.config.values import parse_enum_or_bool
from sitemill.errors import ConfigError
from sitemill.messages import register_secret
from sitemill.urls import url_origin

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
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018  (a ValueError for a "port" that is no number: a password?)
    except ValueError:
        raise ConfigError(key, "the URL given has user info or a port that is no number") from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ConfigError(key, f"{text!r} is not an absolute http(s) URL")
    if parts.username is not None or parts.password is not None or parts.fragment:
        raise ConfigError(key, f"{text!r} must carry no user info and no fragment")
    return text


def parse_key_location(key: str, value: object) -> str:
    """The key file's URL (parse_endpoint), its scheme and host spelt as the base URL's are
    (urls.normalize_base_url), so that it compares with the site's origin."""
    text = parse_endpoint(key, value)
    parts = urlsplit(text)
    try:
        origin = url_origin(text)
    except ConfigError as exc:
        raise ConfigError(key, f"{text!r} has no valid host") from exc
    return urlunsplit((*urlsplit(origin)[:2], parts.path or "/", parts.query, ""))


def check_key_location(base_url: str, location: str | None) -> None:
    """A key location on another origin than the site's is refused: engines accept a key
    file only on the host of the URLs announced (sitemill used to put ``/<key>.txt`` in its
    place without a word)."""
    if location is None or not base_url:
        return
    site, where = url_origin(base_url), url_origin(location)
    if where != site:
        raise ConfigError(
            "indexnow_key_location",
            f"is on {where}, not on the site's {site}: engines accept a key file only on the "
            f"host of the URLs announced; give a URL on {site}, or leave it out for "
            f"{site}/<key>.txt",
        )


class IndexNowMode(Enum):
    """Whether a run announces its changed URLs (sitemill.indexnow); true is "send"."""

    OFF = "off"
    SEND = "send"  # right after publishing: the pages are live once written
    LATER = "later"  # kept pending in the state: `sitemill indexnow` sends them after a deploy


# off, send or later; a boolean too (true: send).
parse_indexnow_mode: Final = parse_enum_or_bool(IndexNowMode.SEND, IndexNowMode.OFF)


class IndexNowConfig(Protocol):
    """The settings IndexNow's checks read (sitemill.config.model.Config has them)."""

    @property
    def base_url(self) -> str: ...
    @property
    def indexnow(self) -> IndexNowMode: ...
    @property
    def indexnow_key(self) -> str: ...
    @property
    def indexnow_key_location(self) -> str | None: ...
    @property
    def indexnow_write_key_file(self) -> bool: ...


def check_indexnow(config: IndexNowConfig, *, dated: bool) -> None:
    """IndexNow announces what content dates tell changed: it needs them, and a key to send;
    its key file lies on the site's host. ``dated``: whether the run has content dates."""
    check_key_location(config.base_url, config.indexnow_key_location)
    if config.indexnow_write_key_file and not config.indexnow_key:
        raise ConfigError(
            "indexnow_write_key_file", "needs indexnow_key (SITEMILL_INDEXNOW_KEY) to write"
        )
    if config.indexnow is IndexNowMode.OFF:
        return
    if config.indexnow is IndexNowMode.SEND and not config.indexnow_key:
        raise ConfigError(
            "indexnow_key",
            "is required to send (SITEMILL_INDEXNOW_KEY from a secret; or indexnow = later, "
            "and `sitemill indexnow` with the key after the deploy)",
        )
    if not dated:
        raise ConfigError(
            "indexnow",
            "needs content dates (content_dates = true and lastmod not none): they tell which "
            "pages changed",
        )
