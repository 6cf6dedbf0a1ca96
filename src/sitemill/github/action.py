"""The GitHub Action adapter: inputs from env → Config → build → commit/push → outputs."""

from __future__ import annotations

import logging
import os
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, TextIO

from sitemill.config import CONFIG_KEYS, Config, env_name, load_config, parse_bool
from sitemill.config_file import CONFIG_FILE_NAME, read_config_file
from sitemill.errors import ConfigError, SinkError, SitemillError
from sitemill.github.push import Identity, Published, Repo, commit_and_push
from sitemill.github.summary import (
    render_failure,
    render_summary,
    skip_annotations,
    workflow_command,
)
from sitemill.jobs.tree import build_from_tree
from sitemill.outputs import ROBOTS_TXT, is_own_name
from sitemill.report import Report
from sitemill.sinks import LocalDirSink

# The Action's own inputs (not config keys) reach us as these env names (action.yml `env:`).
ACTION_INPUT_ENV: Final = {
    "path": "SITEMILL_ACTION_PATH",
    "output-dir": "SITEMILL_ACTION_OUTPUT_DIR",
    "config": "SITEMILL_ACTION_CONFIG",
    "commit": "SITEMILL_ACTION_COMMIT",
    "commit-message": "SITEMILL_ACTION_COMMIT_MESSAGE",
    "committer": "SITEMILL_ACTION_COMMITTER",
}
# Config keys as inputs: base_url -> base-url, read from SITEMILL_BASE_URL. Rules are file-only.
CONFIG_INPUT_ENV: Final = {
    key.replace("_", "-"): env_name(key) for key in CONFIG_KEYS if key != "rules"
}
DEFAULT_COMMIT_MESSAGE: Final = "Update sitemap"
DEFAULT_COMMITTER: Final = (
    "github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>"
)


@dataclass(frozen=True, slots=True)
class Settings:
    """A validated run: the config, the directories (inside the workspace) and how to commit."""

    config: Config
    workspace: Path
    site_dir: Path
    out_dir: Path
    commit: bool
    message: str
    committer: Identity


@dataclass
class Outcome:
    """The final build report and what happened in git."""

    report: Report
    published: Published | None = None
    not_committed: str = ""  # why, when commit was asked for and not done
    warnings: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        if self.published is not None:
            return self.published.sha is not None
        return self.report.result.changed


def main(env: Mapping[str, str], cwd: Path, stdout: TextIO, stderr: TextIO) -> int:
    """Run the Action once; 0 on success, 1 (after one ``::error::`` line) on a SitemillError."""
    with _log_lines(stderr):
        try:
            settings = read_settings(env, cwd)
            outcome = execute(settings, env)
        except SitemillError as exc:
            stdout.write(workflow_command("error", str(exc), title="sitemill") + "\n")
            _append(env.get("GITHUB_STEP_SUMMARY"), render_failure(str(exc)))
            return 1
    for line in skip_annotations(outcome.report, _relative(settings.site_dir, settings.workspace)):
        stdout.write(line + "\n")
    for warning in [*outcome.report.warnings, *outcome.warnings]:
        stdout.write(workflow_command("warning", warning, title="sitemill") + "\n")
    _write_outputs(env.get("GITHUB_OUTPUT"), action_outputs(settings, outcome))
    summary = render_summary(
        outcome.report,
        _file_paths(settings, outcome),
        outcome.published,
        outcome.not_committed,
        [*outcome.report.warnings, *outcome.warnings],
        _relative(settings.out_dir, settings.workspace),
    )
    _append(env.get("GITHUB_STEP_SUMMARY"), summary)
    return 0


def read_settings(env: Mapping[str, str], cwd: Path) -> Settings:
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
    return Settings(
        config=load_config(None, config_env, file_values),
        workspace=workspace,
        site_dir=site_dir,
        out_dir=out_dir,
        commit=parse_bool("commit", _input(env, "commit") or "true"),
        message=_input(env, "commit-message").strip() or DEFAULT_COMMIT_MESSAGE,
        committer=Identity.parse(_input(env, "committer").strip() or DEFAULT_COMMITTER),
    )


def execute(settings: Settings, env: Mapping[str, str]) -> Outcome:
    """Build the sitemaps; when asked, commit and push them (regenerating on a retry)."""
    reports: list[Report] = []

    def produce() -> list[str]:
        report = build_from_tree(
            settings.config,
            settings.site_dir,
            LocalDirSink(settings.out_dir),
            output_dir=settings.out_dir,
        )
        reports.append(report)
        return output_names(report, settings.config)

    if not settings.commit:
        produce()
        return Outcome(reports[-1], not_committed="commit is false")
    try:  # git needs a working directory to run in; the sink would create it anyway
        settings.out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SinkError(f"cannot create {settings.out_dir}: {exc.strerror or exc}") from exc
    repo = Repo.open(settings.out_dir, settings.committer, env)
    branch = repo.current_branch()
    if branch is None:
        # A pull_request checkout is a detached merge commit: nothing to push to.
        produce()
        why = "HEAD is detached (a pull_request or tag checkout?)"
        advice = "check out a branch (actions/checkout `ref:`) or set commit: false"
        return Outcome(
            reports[-1],
            not_committed=why,
            warnings=[f"{why}: the sitemaps were written but not committed; {advice}"],
        )
    published = commit_and_push(repo, branch, produce, settings.message)
    return Outcome(reports[-1], published)


def output_names(report: Report, config: Config) -> list[str]:
    """sitemill's own files in the output directory this run wrote, kept or deleted."""
    result = report.result
    names = [name for name in (*result.files, *result.deleted) if is_own_name(name)]
    if config.robots_txt:
        names.append(ROBOTS_TXT)
    return list(dict.fromkeys(names))


def action_outputs(settings: Settings, outcome: Outcome) -> dict[str, str]:
    """The step outputs of action.yml, as strings."""
    result = outcome.report.result
    files = _file_paths(settings, outcome)
    sha = outcome.published.sha if outcome.published is not None else None
    return {
        "sitemap": files[0] if files else "",
        "url-count": str(result.url_count),
        "files": "\n".join(files),
        "changed": "true" if outcome.changed else "false",
        "commit-sha": sha or "",
    }


def _file_paths(settings: Settings, outcome: Outcome) -> list[str]:
    prefix = _relative(settings.out_dir, settings.workspace)
    return [prefix + name for name in outcome.report.result.files]


def _relative(directory: Path, workspace: Path) -> str:
    """``directory`` relative to the workspace as a POSIX prefix: "" or "public/"."""
    text = directory.relative_to(workspace).as_posix()
    return "" if text == "." else text + "/"


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


def _write_outputs(path: str | None, outputs: Mapping[str, str]) -> None:
    """Append to $GITHUB_OUTPUT with the ``name<<DELIMITER`` syntax, safe for any value."""
    if not path:
        return
    lines = []
    for name, value in outputs.items():
        delimiter = f"ghadelimiter_{uuid.uuid4()}"  # random, so no value can end it early
        lines.append(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")
    _append(path, "".join(lines))


def _append(path: str | None, text: str) -> None:
    if not path:
        return
    try:
        with open(path, "a", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    except OSError as exc:
        raise SinkError(f"cannot write {path}: {exc.strerror or exc}") from exc


class _OneLine(logging.Formatter):
    """Log lines that can never start a workflow command: data cannot inject ``::…::``."""

    def format(self, record: logging.LogRecord) -> str:
        text = f"sitemill: {record.levelname.lower()}: {record.getMessage()}"
        return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


@contextmanager
def _log_lines(stream: TextIO) -> Iterator[None]:
    handler = logging.StreamHandler(stream)
    handler.setFormatter(_OneLine())
    logger = logging.getLogger("sitemill")
    logger.addHandler(handler)
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
