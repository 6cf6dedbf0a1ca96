"""The GitHub Action's steps played as a runner plays them: every step of action.yml in order,
on a new runner (its own RUNNER_TEMP, HOME and pip cache), `run:` steps by bash with their `env:`
evaluated and their `if:` honoured, and the cache's two actions played by a folder that stands
for the cache service. Used by tests/github/test_action_steps.py and by `make bench`'s
action-install section (benchmarks/action_bench.py), which times it cold and warm.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
EXPRESSION = re.compile(r"\$\{\{\s*(.+?)\s*\}\}")
CONDITION = re.compile(r"(\S+) (==|!=) '([^']*)'")
# The inputs a job gives: the example site, built without committing.
INPUTS = {"base-url": "https://www.example.com/", "path": "site", "commit": "false"}
DATE = "2026-01-02T03:04:05+00:00"
# Files pip writes on an install that a wheel does not hold.
INSTALLED_ONLY = ("INSTALLER", "REQUESTED", "RECORD", "direct_url.json")


def parse_outputs(text: str) -> dict[str, str]:
    """Read $GITHUB_OUTPUT as the runner does: ``name=value`` or ``name<<DELIMITER`` blocks."""
    outputs: dict[str, str] = {}
    lines = iter(text.split("\n"))
    for line in lines:
        if not line:
            continue
        if "=" in line and ("<<" not in line or line.index("=") < line.index("<<")):
            name, _, value = line.partition("=")
            outputs[name] = value
            continue
        name, _, delimiter = line.partition("<<")
        body = []
        for body_line in lines:
            if body_line == delimiter:
                break
            body.append(body_line)
        else:
            raise AssertionError(f"output {name} is not terminated")
        assert name not in outputs, f"output {name} written twice"
        outputs[name] = "\n".join(body)
    return outputs


@dataclass
class Runner:
    """One job on a new runner: its folders, the steps' outputs, and the moments measured."""

    scratch: Path
    cache_service: Path
    extra: dict[str, str] = field(default_factory=dict)
    inputs: dict[str, str] = field(default_factory=lambda: dict(INPUTS))
    outputs: dict[str, dict[str, str]] = field(default_factory=dict)
    marks: dict[str, float] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)  # what each step printed
    root: Path = ROOT  # the action's folder (GITHUB_ACTION_PATH)

    def value(self, expression: str, defaults: dict[str, str]) -> str:
        for alternative in expression.split("||"):
            name = alternative.strip()
            if name.startswith("inputs."):
                found = {**defaults, **self.inputs}.get(name.removeprefix("inputs."), "")
            else:
                _, step, _, output = name.split(".", 3)
                found = self.outputs.get(step, {}).get(output, "")
            if found:
                return found
        return ""

    def holds(self, condition: str, defaults: dict[str, str]) -> bool:
        match = CONDITION.fullmatch(condition.strip())
        assert match, condition
        equal = self.value(match[1], defaults) == match[3]
        return equal if match[2] == "==" else not equal

    def env(self) -> dict[str, str]:
        base = Path(getattr(sys, "_base_executable", sys.executable)).resolve().parent
        return {
            "PATH": f"{base}{os.pathsep}{os.environ['PATH']}",
            "HOME": str(self.scratch / "home"),
            "RUNNER_TEMP": str(self.scratch / "temp"),
            "GITHUB_WORKSPACE": str(self.scratch / "workspace"),
            "GITHUB_ACTION_PATH": str(self.root),
            "GITHUB_STEP_SUMMARY": str(self.scratch / "summary.md"),
            "PIP_CACHE_DIR": str(self.scratch / "pip-cache"),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,
            **self.extra,
        }

    def run_step(self, step: dict[str, Any], defaults: dict[str, str]) -> None:
        name = step["id"]
        if "if" in step and not self.holds(step["if"], defaults):
            return
        if "uses" in step:
            self.use(step, defaults)
            return
        output = self.scratch / f"output-{name}"
        env = self.env() | {"GITHUB_OUTPUT": str(output)}
        for key, text in step.get("env", {}).items():
            env[key] = EXPRESSION.sub(lambda m: self.value(m[1], defaults), str(text))
        done = subprocess.run(
            ["bash", "-c", step["run"]], cwd=self.scratch / "workspace", env=env,
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        self.log.append(done.stdout + done.stderr)
        if done.returncode != 0:
            raise RuntimeError(
                f"step {name} failed: {done.stdout[-500:]} {done.stderr[-500:]}", self
            )
        text = output.read_text(encoding="utf-8") if output.exists() else ""
        self.outputs[name] = parse_outputs(text)

    def use(self, step: dict[str, Any], defaults: dict[str, str]) -> None:
        action = step["uses"].split("@")[0]
        given = {k: EXPRESSION.sub(lambda m: self.value(m[1], defaults), str(v))
                 for k, v in step.get("with", {}).items()}  # fmt: skip
        stored = self.cache_service / given.get("key", "-")
        if action == "actions/cache/restore":
            hit = stored.is_dir()
            if hit:
                shutil.copytree(stored, given["path"], symlinks=True)  # (as tar keeps them)
            self.outputs[step["id"]] = {"cache-hit": "true" if hit else "false"}
        elif action == "actions/cache/save":
            shutil.copytree(given["path"], stored, symlinks=True, dirs_exist_ok=True)
        else:
            raise RuntimeError(f"{action} is not played here (the runner's Python is new enough)")


def workspace(folder: Path) -> None:
    shutil.copytree(ROOT / "examples" / "site", folder / "site")
    dated = {**os.environ, "GIT_AUTHOR_DATE": DATE, "GIT_COMMITTER_DATE": DATE}
    who = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    for command in (["init", "-q", "-b", "main"], ["add", "-A"], [*who, "commit", "-qm", "site"]):
        subprocess.run(["git", *command], cwd=folder, env=dated, check=True)


def play(
    cache_service: Path,
    env: dict[str, str] | None = None,
    inputs: dict[str, str] | None = None,
    root: Path = ROOT,
) -> Runner:
    """The action's steps once, on a new runner, in a workspace that is a git repository of
    examples/site; ``env``: more of the runner's environment (a RUNNER_TEMP given is made);
    ``inputs``: the step's `with:` (INPUTS by default); ``root``: the action's folder (a copy
    with another lock: action_copy). Each step's end is marked in seconds from the start; a step
    that fails raises RuntimeError with the runner kept as its second argument."""
    spec = yaml.safe_load((root / "action.yml").read_text(encoding="utf-8"))
    defaults = {name: str(item.get("default", "")) for name, item in spec["inputs"].items()}
    scratch = Path(tempfile.mkdtemp(prefix="sitemill-runner-"))
    runner = Runner(
        scratch,
        cache_service,
        extra=env or {},
        inputs=dict(INPUTS if inputs is None else inputs),
        root=root,
    )
    for folder in ("home", "temp", "workspace"):
        (scratch / folder).mkdir()
    Path(runner.env()["RUNNER_TEMP"]).mkdir(parents=True, exist_ok=True)
    workspace(scratch / "workspace")
    started = time.monotonic()
    for step in spec["runs"]["steps"]:
        runner.run_step(step, defaults)
        runner.marks[step["id"]] = time.monotonic() - started
    return runner


def record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}\n"


def repacked(distribution: str, links: Path) -> tuple[str, Path]:
    """A wheel of ``distribution`` as this environment has it installed (its files but the
    bytecode and what pip wrote), into ``links``: the lock's line that pins it, and the wheel.
    Offline, it stands for the package index's own wheel of the release."""
    found = metadata.distribution(distribution)
    name = found.metadata["Name"].lower().replace("-", "_")
    files: dict[str, bytes] = {}
    for file in found.files or []:
        parts = file.parts
        if parts[0] == ".." or "__pycache__" in parts:
            continue
        if parts[0].endswith(".dist-info") and parts[-1] in INSTALLED_ONLY:
            continue
        files[file.as_posix()] = Path(str(found.locate_file(file))).read_bytes()
    info = next(item for item in files if item.split("/")[0].endswith(".dist-info"))
    record_name = f"{info.split('/')[0]}/RECORD"
    record = "".join(record_line(file, data) for file, data in files.items())
    wheel = links / f"{name}-{found.version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for item, data in {**files, record_name: f"{record}{record_name},,\n".encode()}.items():
            archive.writestr(item, data)
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    return f"{name}=={found.version} \\\n    --hash=sha256:{digest}\n", wheel


def action_copy(folder: Path, links: Path) -> Path:
    """The action's folder (action.yml, action/, the sources and templates) with a lock of its
    own: the wheels ``repacked`` writes into ``links`` of this environment's Jinja2 and
    MarkupSafe. A job given PIP_FIND_LINKS=``links`` and PIP_NO_INDEX installs it offline."""
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copy2(ROOT / "action.yml", folder / "action.yml")
    for part in ("action", "src/sitemill", "templates"):
        shutil.copytree(ROOT / part, folder / part, ignore=skip)
    links.mkdir(parents=True, exist_ok=True)
    lock = "".join(repacked(name, links)[0] for name in ("jinja2", "markupsafe"))
    (folder / "action" / "requirements.txt").write_text(lock, encoding="utf-8")
    return folder
