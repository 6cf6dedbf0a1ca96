"""The Action checks every input before it installs anything: action.yml's `inputs` step runs
action/inputs.py with the runner's Python and the action's own sources (no venv, no pip, no
site-packages: `-S` here), reads the inputs as the run step does, and fails a mistake with one
`::error::` line, in well under a second."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from enginestand import KEY

ROOT = Path(__file__).resolve().parents[2]


def step_of(action: dict[str, Any], step_id: str) -> dict[str, Any]:
    (found,) = [item for item in action["runs"]["steps"] if item.get("id") == step_id]
    return dict(found)


def test_the_inputs_step_comes_before_the_install_with_the_run_step_s_inputs(
    action: dict[str, Any],
) -> None:
    order = [item.get("id") for item in action["runs"]["steps"]]
    assert order.index("inputs") < order.index("install") < order.index("run")
    checked, run = step_of(action, "inputs")["env"], step_of(action, "run")["env"]
    inputs = {name: value for name, value in run.items() if "inputs." in str(value)}
    assert {name: checked[name] for name in inputs} == inputs
    assert step_of(action, "inputs")["run"] == (
        'PYTHONPATH="$GITHUB_ACTION_PATH" "$SITEMILL_ACTION_BASE_PYTHON" -P -m action.inputs'
    )


def check_inputs(tmp_path: Path, **inputs: str) -> subprocess.CompletedProcess[str]:
    """action/inputs.py as the step runs it, by a Python with no site-packages at all."""
    workspace = tmp_path / "workspace"
    workspace.mkdir(exist_ok=True)
    env = {key: value for key, value in os.environ.items() if not key.startswith("SITEMILL_")}
    env.update(GITHUB_WORKSPACE=str(workspace), PYTHONPATH=str(ROOT), **inputs)
    env["GITHUB_STEP_SUMMARY"] = str(tmp_path / "summary.md")
    done = subprocess.run(
        [sys.executable, "-S", "-P", "-m", "action.inputs"],
        capture_output=True, text=True, cwd=workspace, env=env, check=False,
    )  # fmt: skip
    return done


@pytest.mark.parametrize("command", ["build", "check", "indexnow", "diff"])
def test_good_inputs_pass_without_anything_installed(tmp_path: Path, command: str) -> None:
    done = check_inputs(
        tmp_path, SITEMILL_BASE_URL="https://www.example.com/", SITEMILL_ACTION_COMMAND=command
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == done.stderr == ""


@pytest.mark.parametrize(
    ("inputs", "said"),
    [
        ({"SITEMILL_URL_STYLE": "bogus"}, "url_style"),
        ({"SITEMILL_ACTION_COMMAND": "deploy"}, "command"),
        ({"SITEMILL_ACTION_PATH": "../elsewhere"}, "outside the workspace"),
        (
            {"SITEMILL_ACTION_COMMAND": "diff", "SITEMILL_ACTION_FAIL_ON_REMOVED": "maybe"},
            "fail-on-removed",
        ),
        ({"SITEMILL_ACTION_REDIRECTS_FORM": "apache"}, "redirects-form"),
    ],
)
def test_a_mistake_is_one_error_before_the_install(
    tmp_path: Path, inputs: dict[str, str], said: str
) -> None:
    done = check_inputs(tmp_path, SITEMILL_BASE_URL="https://www.example.com/", **inputs)
    assert done.returncode == 1
    (line,) = done.stdout.splitlines()
    assert line.startswith("::error title=sitemill::") and said in line
    assert "Traceback" not in done.stderr
    assert said in (tmp_path / "summary.md").read_text(encoding="utf-8")


def test_the_key_is_masked_first_and_shown_nowhere(tmp_path: Path) -> None:
    done = check_inputs(
        tmp_path, SITEMILL_INDEXNOW_KEY=KEY, SITEMILL_URL_STYLE="bogus", SITEMILL_BASE_URL="x"
    )
    lines = done.stdout.splitlines()
    assert lines[0] == f"::add-mask::{KEY}"
    assert KEY not in "\n".join(lines[1:]) + done.stderr
