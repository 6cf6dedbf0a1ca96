"""Where a first run may start from (``previous_state``): a file, or the live site's copy."""
# A site built fresh in CI has no state beside its new sitemaps; the copy the last deploy published
# (``https://example.com/sitemill-state.json.gz``) keeps its dates. Reading it may fail in every way
# a network can: each is one warning and a first run, never a failure.

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from sitemill.config.model import Config
from sitemill.config.values import PREVIOUS_NONE
from sitemill.errors import ConfigError, RefusedError, StateError
from sitemill.filenames.outputs import MAX_STATE_READ_BYTES
from sitemill.messages import redact
from sitemill.safefs import read_regular

log = logging.getLogger(__name__)

_SCHEME: Final = re.compile(r"([A-Za-z][A-Za-z0-9+.-]+):")  # one letter: a Windows drive


@dataclass(frozen=True)
class PreviousState:
    """A state to start from; ``read`` gives its bytes, or None when there is none there
    (a first run) or it could not be read (after a warning)."""

    location: str
    read: Callable[[], bytes | None]


def previous_state(
    location: str, *, fetch: Callable[[str], bytes | None] | None = None
) -> PreviousState:
    """A path or an http(s) URL (read with ``fetch``, default state.download.fetch_url); any other
    scheme is a ConfigError naming ``previous_state``."""
    text = location.strip()
    scheme = _SCHEME.match(text)
    if scheme is None:
        path = Path(text)
        return PreviousState(text, lambda: read_previous_file(path))
    parts = urlsplit(text)
    try:
        parts.port  # noqa: B018  (a "port" that is no number: a password holding "/" or "#"?)
    except ValueError:
        raise ConfigError(
            "previous_state", "the URL given has user info or a port that is no number"
        ) from None
    if scheme[1].lower() not in ("http", "https") or not parts.hostname:
        raise ConfigError(
            "previous_state", f"{redact(text)!r} is neither a path nor an http:// or https:// URL"
        )
    if "@" in parts.netloc:  # urllib would take "user:token@host" for a host name
        raise ConfigError(
            "previous_state",
            f"{redact(text)!r} carries user info; the state is public and is fetched without "
            "credentials: name its URL without 'user@'",
        )
    get = _fetch_url if fetch is None else fetch
    return PreviousState(text, lambda: get(text))


def open_previous(config: Config) -> PreviousState | None:
    """The ``previous_state`` of ``config``, if it names one (``none`` names none)."""
    location = config.previous_state
    if location is None or location == PREVIOUS_NONE:
        return None
    return previous_state(location)


def compared_state(location: str) -> PreviousState:
    """The state ``location`` names to compare with (`sitemill diff --against`): with no first
    run to fall back to, one that is not there or cannot be read is a StateError (one line),
    never a warning."""
    text = location.strip()
    if _SCHEME.match(text) is None:
        path = Path(text)
        return PreviousState(text, lambda: _read_compared(path))
    return previous_state(text, fetch=_download_compared)


def _read_compared(path: Path) -> bytes:
    try:
        return read_regular(path, MAX_STATE_READ_BYTES, whole=True)
    except FileNotFoundError:
        raise StateError(f"no state at {path} (no such file)") from None
    except RefusedError as exc:
        raise StateError(str(exc)) from None
    except OSError as exc:
        raise StateError(f"cannot read {path}: {exc.strerror or exc}") from None


def _download_compared(url: str) -> bytes:
    from sitemill.state.download import download  # the network's modules, only when needed

    data = download(url)
    if data is None:
        raise StateError(f"no state at {redact(url)} (HTTP 404 or 410)")
    return data


def read_previous_file(path: Path, limit: int = MAX_STATE_READ_BYTES) -> bytes | None:
    """The bytes of a regular file (at most ``limit``); None, after a warning when it exists,
    when it cannot be read."""
    try:
        return read_regular(path, limit, whole=True)
    except FileNotFoundError:
        log.warning("no previous state at %s (no such file); a first run", path)
        return None
    except RefusedError as exc:
        log.warning("ignoring the previous state %s; a first run", exc)
    except OSError as exc:
        log.warning("cannot read the previous state %s: %s; a first run", path, exc.strerror)
    return None


def _fetch_url(url: str) -> bytes | None:
    from sitemill.state.download import fetch_url  # the network's modules, only when needed

    return fetch_url(url)
