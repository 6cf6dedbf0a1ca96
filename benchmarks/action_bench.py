"""`make bench` section action-install: the GitHub Action's steps run as a runner runs them, timed.

Every step of action.yml in order, on a new runner each time (an empty RUNNER_TEMP and pip
cache): the `run:` steps with bash and their `env:` evaluated, `if:` conditions honoured, and
the cache's two actions played by a folder that stands for the cache service. A cold run finds
nothing in it (the dependencies come from the package index), a warm run finds what a cold run
saved. The workspace is a git repository of examples/site; the run builds its sitemap without
committing. Measured: from the step's start to the end of the input check, to the end of the
install, and to done. Beside it, in the same run, what the install cost before (a venv with pip,
then `pip install` of the action's folder, a build of the wheel), cold and with pip's cache warm.

Needs the package index (the cold runs): `make bench` has it, the test suite does not run this.
The cache service's own transfer on GitHub (the folder is 1.5 MB, 0.4 MB compressed) is not
part of these figures.
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
EXPRESSION = re.compile(r"\$\{\{\s*(.+?)\s*\}\}")
CONDITION = re.compile(r"(\S+) (==|!=) '([^']*)'")
INPUTS = {"base-url": "https://www.example.com/", "path": "site", "commit": "false"}
DATE = "2026-01-02T03:04:05+00:00"


@dataclass
class Runner:
    """One job on a new runner: its folders, the steps' outputs, and the moments measured."""

    scratch: Path
    cache_service: Path
    outputs: dict[str, dict[str, str]] = field(default_factory=dict)
    marks: dict[str, float] = field(default_factory=dict)

    def value(self, expression: str, defaults: dict[str, str]) -> str:
        for alternative in expression.split("||"):
            name = alternative.strip()
            if name.startswith("inputs."):
                found = {**defaults, **INPUTS}.get(name.removeprefix("inputs."), "")
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
            "GITHUB_ACTION_PATH": str(ROOT),
            "GITHUB_STEP_SUMMARY": str(self.scratch / "summary.md"),
            "PIP_CACHE_DIR": str(self.scratch / "pip-cache"),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,
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
        if done.returncode != 0:
            raise RuntimeError(f"step {name} failed: {done.stdout[-500:]} {done.stderr[-500:]}")
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
                shutil.copytree(stored, given["path"])
            self.outputs[step["id"]] = {"cache-hit": "true" if hit else "false"}
        elif action == "actions/cache/save":
            shutil.copytree(given["path"], stored, dirs_exist_ok=True)
        else:
            raise RuntimeError(f"{action} is not played here (the runner's Python is new enough)")


def parse_outputs(text: str) -> dict[str, str]:
    """GITHUB_OUTPUT's lines: name=value, or name<<DELIMITER, the value's lines, DELIMITER."""
    found: dict[str, str] = {}
    lines = iter(text.splitlines())
    for line in lines:
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            key, delimiter = line.split("<<", 1)
            found[key] = "\n".join(iter(lines.__next__, delimiter))
        elif "=" in line:
            key, value = line.split("=", 1)
            found[key] = value
    return found


def workspace(folder: Path) -> None:
    shutil.copytree(ROOT / "examples" / "site", folder / "site")
    dated = {**os.environ, "GIT_AUTHOR_DATE": DATE, "GIT_COMMITTER_DATE": DATE}
    who = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    for command in (["init", "-q", "-b", "main"], ["add", "-A"], [*who, "commit", "-qm", "site"]):
        subprocess.run(["git", *command], cwd=folder, env=dated, check=True)


def job(cache_service: Path) -> dict[str, float]:
    """The action's steps once, on a new runner; seconds from the start to each mark."""
    spec = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    defaults = {name: str(item.get("default", "")) for name, item in spec["inputs"].items()}
    with tempfile.TemporaryDirectory(prefix="sitemill-action-bench-") as name:
        runner = Runner(Path(name), cache_service)
        for folder in ("home", "temp", "workspace"):
            (runner.scratch / folder).mkdir()
        workspace(runner.scratch / "workspace")
        started = time.monotonic()
        for step in spec["runs"]["steps"]:
            runner.run_step(step, defaults)
            runner.marks[step["id"]] = time.monotonic() - started
        if "sitemap.xml" not in runner.outputs["run"].get("sitemap", ""):
            raise RuntimeError(f"the run wrote no sitemap: {runner.outputs['run']}")
        return {"checked": runner.marks["inputs"], "installed": runner.marks["deps-save"],
                "done": runner.marks["run"]}  # fmt: skip


def pip_install_before(pip_cache: Path) -> float:
    """The install step before: a venv with pip and `pip install` of the action's folder."""
    with tempfile.TemporaryDirectory(prefix="sitemill-action-before-") as name:
        env = {**os.environ, "PIP_CACHE_DIR": str(pip_cache)}
        started = time.monotonic()
        subprocess.run([sys.executable, "-m", "venv", f"{name}/venv"], check=True)
        subprocess.run(
            [f"{name}/venv/bin/python", "-m", "pip", "install", "--quiet",
             "--disable-pip-version-check", "--no-input", str(ROOT)],
            env=env, check=True, capture_output=True,
        )  # fmt: skip
        return time.monotonic() - started


def bench_action(section: object, *, repeat: int) -> None:
    """Fill ``section`` (run.Section) with the cold and warm figures."""
    add = section.check  # type: ignore[attr-defined]
    notes: list[str] = section.notes  # type: ignore[attr-defined]
    runs: dict[str, list[dict[str, float]]] = {"cold": [], "warm": []}
    before: dict[str, list[float]] = {"cold": [], "warm": []}
    for _ in range(repeat):
        with tempfile.TemporaryDirectory(prefix="sitemill-cache-service-") as service:
            runs["cold"].append(job(Path(service)))
            runs["warm"].append(job(Path(service)))
        with tempfile.TemporaryDirectory(prefix="sitemill-pip-cache-") as pip_cache:
            before["cold"].append(pip_install_before(Path(pip_cache)))
            before["warm"].append(pip_install_before(Path(pip_cache)))
    median = {kind: {mark: statistics.median(run[mark] for run in found) for mark in found[0]}
              for kind, found in runs.items()}  # fmt: skip
    for kind, marks in median.items():
        install = marks["installed"] - marks["checked"]
        was = statistics.median(before[kind])
        add(f"{kind}: start to the input check", "≤ 1 s", f"{marks['checked']:.2f} s",
            marks["checked"] <= 1)  # fmt: skip
        add(f"{kind}: the install (before: {was:.1f} s)", "≤ 5 s" if kind == "cold" else "≤ 1 s",
            f"{install:.2f} s, {was / install:.0f}× faster",
            install <= (5 if kind == "cold" else 1))  # fmt: skip
        add(f"{kind}: start to done", "reported", f"{marks['done']:.2f} s", True)
    notes.append("  (not in these figures: the cache service's transfer, 0.4 MB compressed)")
