"""The Action's state: where a first run starts from, and whether the state is committed."""
# A site built fresh by a workflow and deployed to GitHub Pages has no state in its output folder:
# without the ``previous-state`` input, the Action starts from the copy the last deploy published,
# ``<base-url>sitemill-state.json.gz``. Nothing there (the first deploy) or a network failure is a
# notice and a first run; a ``previous-state`` the user named that cannot be fetched is a warning.

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sitemill.config.model import Config, LastmodMode
from sitemill.config.values import PREVIOUS_NONE
from sitemill.errors import StateError
from sitemill.filenames.outputs import STATE_NAME
from sitemill.github.settings import Settings
from sitemill.messages import redact
from sitemill.state.download import download
from sitemill.state.previous import PreviousState, previous_state


@dataclass
class Messages:
    """What fetching a previous state had to say: notices (expected) and warnings."""

    notices: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def keeps_state_beside(config: Config) -> bool:
    """Whether this run keeps a state file beside the sitemaps (to commit with them)."""
    return config.state is None and config.content_dates and config.lastmod is not LastmodMode.NONE


def state_name(settings: Settings) -> str:
    """Where the state is (or would be), relative to the output directory: beside the
    sitemaps, or the ``state`` input's file (which may lie outside that directory)."""
    if settings.config.state is None:
        return STATE_NAME
    return Path(os.path.relpath(settings.config.state, settings.out_dir)).as_posix()


def action_previous(settings: Settings, messages: Messages) -> PreviousState | None:
    """The ``previous-state`` input, else the live site's copy when the output folder holds
    no state; fetched only if the run needs it."""
    config = settings.config
    if config.previous_state == PREVIOUS_NONE:
        return None  # the runner must not reach the site
    if config.previous_state is not None:
        return previous_state(config.previous_state, fetch=_fetching(messages.warnings, None))
    if not keeps_state_beside(config) or (settings.out_dir / STATE_NAME).exists():
        return None
    url = config.base_url + STATE_NAME
    missing = (
        f"no state at {url} yet (the first deploy with content dates?): a first run dates "
        "pages from evidence only, never by the build's time; the next deploy publishes the "
        "state with the sitemaps"
    )
    return previous_state(url, fetch=_fetching(messages.notices, missing))


def _fetching(messages: list[str], missing: str | None) -> Callable[[str], bytes | None]:
    """A fetch that adds what went wrong, and a 404 (``missing``, else a warning that names
    the URL: the user named it), to ``messages``."""

    def fetch(url: str) -> bytes | None:
        try:
            data = download(url)
        except StateError as exc:
            messages.append(f"{exc}; a first run")
            return None
        if data is None:
            messages.append(
                missing or f"no previous state at {redact(url)} (HTTP 404 or 410); a first run"
            )
        return data

    return fetch
