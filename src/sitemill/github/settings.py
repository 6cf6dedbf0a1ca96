"""The Action's inputs, read from the env that action.yml sets, validated into Settings."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Final

from sitemill.config import CONFIG_FILE_NAME
from sitemill.config.file import read_config_file
from sitemill.config.model import CONFIG_KEYS, FILE_ONLY, Config, env_name, load_config
from sitemill.config.values import PREVIOUS_NONE, parse_bool, parse_enum
from sitemill.errors import ConfigError
from sitemill.github._repo import GitIdentity
from sitemill.redirects.model import RedirectForm

# The Action's own inputs (not config keys) reach us as these env names (action.yml `env:`).
ACTION_INPUT_ENV: Final = {
    "command": "SITEMILL_ACTION_COMMAND",
    "path": "SITEMILL_ACTION_PATH",
    "output-dir": "SITEMILL_ACTION_OUTPUT_DIR",
    "config": "SITEMILL_ACTION_CONFIG",
    "commit": "SITEMILL_ACTION_COMMIT",
    "commit-message": "SITEMILL_ACTION_COMMIT_MESSAGE",
    "committer": "SITEMILL_ACTION_COMMITTER",
    "allow-base-url-mismatch": "SITEMILL_ACTION_ALLOW_BASE_URL_MISMATCH",
    "deepen": "SITEMILL_ACTION_DEEPEN",
    "check-all": "SITEMILL_ACTION_CHECK_ALL",
    "warn-only": "SITEMILL_ACTION_WARN_ONLY",
    "fail-on-removed": "SITEMILL_ACTION_FAIL_ON_REMOVED",
    "redirects-form": "SITEMILL_ACTION_REDIRECTS_FORM",
}
# Config keys as inputs: base_url -> base-url, read from SITEMILL_BASE_URL. Rules are file-only.
CONFIG_INPUT_ENV: Final = {
    key.replace("_", "-"): env_name(key) for key in CONFIG_KEYS if key not in FILE_ONLY
}
DEFAULT_COMMIT_MESSAGE: Final = "Update sitemap"
# The message of `command: indexnow`'s commit when commit-message is left at its default.
INDEXNOW_COMMIT_MESSAGE: Final = "IndexNow: update the URLs still to announce"
DEFAULT_COMMITTER: Final = (
    "github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>"
)


class Command(Enum):
    """What a run of the Action does (the ``command`` input)."""

    BUILD = "build"  # the sitemaps, and IndexNow as the indexnow input says
    INDEXNOW = "indexnow"  # send what the state holds pending (a job after the deploy)
    CHECK = "check"  # the live site against the build, then IndexNow for what passed
    DIFF = "diff"  # a pull request's site against the live site's state: nothing committed


@dataclass(frozen=True, slots=True)
class Settings:
    """A validated run: the config, the directories (inside the workspace) and how to commit."""

    config: Config
    workspace: Path
    site_dir: Path
    out_dir: Path
    commit: bool
    message: str
    committer: GitIdentity
    command: Command = Command.BUILD
    # Commit even when most pages' canonicals declare another base URL (github.mismatch).
    allow_base_url_mismatch: bool = False
    # Fetch the history of a shallow checkout before the build (github.deepen).
    deepen: bool = True
    # `command: check`: every URL, not the changed ones and a sample; exit 0 whatever it finds.
    check_all: bool = False
    warn_only: bool = False
    # `command: diff`: a removed URL without a redirect fails the step (an error, not a warning).
    fail_on_removed: bool = False
    # `command: diff`: the form of the suggested redirects (None: the site's generator's, else
    # `_redirects` lines).
    redirects_form: RedirectForm | None = None


def read_inputs(env: Mapping[str, str], cwd: Path) -> Settings:
    """Validate every input; inputs override the config file, empty inputs count as unset."""
    workspace = Path(env.get("GITHUB_WORKSPACE") or cwd).resolve()
    site_dir = _inside(workspace, _input(env, "path") or ".", "path")
    if not site_dir.is_dir():
        what = "is not a directory" if site_dir.exists() else "does not exist"
        raise ConfigError("path", f"{_input(env, 'path')!r} {what} (in {workspace})")
    out_text = _input(env, "output-dir")
    out_dir = _inside(workspace, out_text, "output-dir") if out_text else site_dir
    if out_dir.exists() and not out_dir.is_dir():
        raise ConfigError("output-dir", f"{out_text!r} is not a directory")
    config_file = _config_file(env, workspace, site_dir)
    # Inside the workspace, and so must be the templates_dir it names.
    file_values = read_config_file(config_file, root=workspace) if config_file is not None else {}
    config_env = {name: env[name] for name in CONFIG_INPUT_ENV.values() if name in env}
    templates = config_env.get(env_name("templates_dir"), "")
    if templates.strip():  # relative to the workspace, like every other path input
        config_env[env_name("templates_dir")] = str(_inside(workspace, templates, "templates_dir"))
    if not config_env.get(env_name("base_url"), "").strip() and "base_url" not in file_values:
        raise ConfigError("base_url", "is required: set the base-url input or sitemill.toml")
    command = parse_enum(Command)("command", _input(env, "command").strip() or "build")
    message = _input(env, "commit-message").strip() or DEFAULT_COMMIT_MESSAGE
    if command is not Command.BUILD and message == DEFAULT_COMMIT_MESSAGE:
        message = INDEXNOW_COMMIT_MESSAGE
    return Settings(
        config=_state_in_workspace(load_config(None, config_env, file_values), workspace),
        workspace=workspace,
        site_dir=site_dir,
        out_dir=out_dir,
        commit=parse_bool("commit", _input(env, "commit") or "true"),
        message=message,
        committer=GitIdentity.parse(_input(env, "committer").strip() or DEFAULT_COMMITTER),
        command=command,
        allow_base_url_mismatch=parse_bool(
            "allow-base-url-mismatch", _input(env, "allow-base-url-mismatch") or "false"
        ),
        deepen=parse_bool("deepen", _input(env, "deepen") or "true"),
        check_all=parse_bool("check-all", _input(env, "check-all") or "false"),
        warn_only=parse_bool("warn-only", _input(env, "warn-only") or "false"),
        fail_on_removed=parse_bool("fail-on-removed", _input(env, "fail-on-removed") or "false"),
        redirects_form=_redirects_form(_input(env, "redirects-form").strip()),
    )


def _state_in_workspace(config: Config, workspace: Path) -> Config:
    """``state`` and a ``previous_state`` path, relative to the workspace and inside it (a
    sitemill.toml in the repository must not make the Action write elsewhere); the Action
    has no S3 client, so an s3:// state is a ConfigError."""
    state, previous = config.state, config.previous_state
    if state is not None:
        if state.startswith("s3://"):
            raise ConfigError("state", f"{state!r}: the Action keeps the state in a file")
        path = _inside(workspace, state, "state")
        if ".git" in path.relative_to(workspace).parts:
            raise ConfigError("state", f"{state!r} is inside .git")
        state = str(path)
    if previous is not None and "://" not in previous and previous != PREVIOUS_NONE:
        previous = str(_inside(workspace, previous, "previous_state"))
    return replace(config, state=state, previous_state=previous)


def _redirects_form(text: str) -> RedirectForm | None:
    return parse_enum(RedirectForm)("redirects-form", text) if text else None


def _input(env: Mapping[str, str], name: str) -> str:
    return env.get(ACTION_INPUT_ENV[name], "")


def _inside(workspace: Path, text: str, key: str) -> Path:
    """Resolve a path input against the workspace; it may not lead anywhere outside it.

    Every link on the way is followed first: a committed link out of the workspace is refused.
    """
    if any(ord(char) < 0x20 for char in text):
        raise ConfigError(key, f"{text!r} contains a control character")
    named = workspace / text.strip()
    path = named.resolve()
    if not path.is_relative_to(workspace):
        if Path(os.path.normpath(named)).is_relative_to(workspace):
            raise ConfigError(
                key, f"{text!r} leads outside the workspace through a symbolic link (to {path})"
            )
        raise ConfigError(key, f"{text!r} is outside the workspace ({workspace})")
    return path


def _config_file(env: Mapping[str, str], workspace: Path, site_dir: Path) -> Path | None:
    """The ``config`` input, else a sitemill.toml at the workspace root or in ``path``.

    Either must resolve inside the workspace: a link leading out is a ConfigError, never read.
    """
    text = _input(env, "config").strip()
    if text:
        path = _inside(workspace, text, "config")
        if not path.is_file():
            raise ConfigError("config", f"{text!r} is not a file (in {workspace})")
        return path
    for directory in (workspace, site_dir):
        found = directory / CONFIG_FILE_NAME
        if not os.path.lexists(found):
            continue
        path = _inside(workspace, os.path.relpath(found, workspace), "config")
        if path.is_file():
            return path
    return None
