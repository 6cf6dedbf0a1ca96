"""action.yml and the workflows: valid for GitHub, injection-free, and the design's contract."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml

from sitemill.config.model import CONFIG_KEYS, FILE_ONLY
from sitemill.github.settings import (
    ACTION_INPUT_ENV,
    CONFIG_INPUT_ENV,
    DEFAULT_COMMIT_MESSAGE,
    DEFAULT_COMMITTER,
)

ROOT = Path(__file__).resolve().parents[2]
ACTION = ROOT / "action.yml"
WORKFLOW = ROOT / ".github" / "workflows" / "ci.yml"
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.y*ml"))

# docs/action.md, Inputs: the config keys in kebab-case (rules are file-only) plus these.
CONFIG_INPUTS = {key.replace("_", "-") for key in CONFIG_KEYS} - FILE_ONLY
ACTION_INPUT_DEFAULTS = {
    "command": "build",
    "path": ".",
    "output-dir": "",  # empty: the same as path
    "config": "",
    "commit": "true",
    "commit-message": "Update sitemap",
    "committer": "github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>",
    "allow-base-url-mismatch": "false",
    "deepen": "true",
    "check-all": "false",
    "warn-only": "false",
    "fail-on-removed": "false",
    "redirects-form": "",
}
OUTPUTS = {
    "sitemap",
    "url-count",
    "files",
    "changed",
    "commit-sha",
    "indexnow-sent",
    "indexnow-pending",
    "problems",
    "added",
    "removed",
    "gone",
}
INPUT_EXPRESSION = re.compile(r"\$\{\{\s*inputs\.([a-z0-9-]+)\s*\}\}")


def load(path: Path) -> dict[Any, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def action() -> dict[Any, Any]:
    return load(ACTION)


@pytest.fixture(scope="module")
def workflow() -> dict[Any, Any]:
    return load(WORKFLOW)


def steps(action: dict[Any, Any]) -> list[dict[str, Any]]:
    return list(action["runs"]["steps"])


def step(action: dict[Any, Any], step_id: str) -> dict[str, Any]:
    (found,) = [item for item in steps(action) if item.get("id") == step_id]
    return found


def run_scripts() -> list[Any]:
    """Every run: script of action.yml and of each workflow, named by where it is."""
    named = [(f"action.yml-{item.get('id')}", item) for item in steps(load(ACTION))]
    for path in WORKFLOWS:
        for job_name, job in load(path)["jobs"].items():
            named += [(f"{path.name}-{job_name}-{n}", item) for n, item in enumerate(job["steps"])]
    return [pytest.param(item["run"], id=where) for where, item in named if "run" in item]


def check_schema(schema: str, path: Path) -> subprocess.CompletedProcess[str]:
    """check-jsonschema on ``path``: --builtin-schema uses the copy vendored in
    check-jsonschema, so no network is needed."""
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", schema, str(path)],
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize(
    ("schema", "path"),
    [("vendor.github-actions", ACTION)] + [("vendor.github-workflows", path) for path in WORKFLOWS],
    ids=["action.yml", *(path.name for path in WORKFLOWS)],
)
def test_valid_against_githubs_schema_offline(schema: str, path: Path) -> None:
    done = check_schema(schema, path)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("script", run_scripts())
def test_no_expression_inside_run(script: str) -> None:
    # An expression in run: is pasted into the script before bash parses it: script injection.
    assert "${{" not in script, "pass the value through env: instead"


def test_inputs_are_the_design_inputs(action: dict[Any, Any]) -> None:
    assert set(action["inputs"]) == CONFIG_INPUTS | set(ACTION_INPUT_DEFAULTS)
    for name, spec in action["inputs"].items():
        assert spec.get("description", "").strip(), f"input {name} has no description"


def test_config_inputs_have_no_default(action: dict[Any, Any]) -> None:
    # A default would always be set and so override the user's sitemill.toml.
    for name in CONFIG_INPUTS:
        assert "default" not in action["inputs"][name], name


@pytest.mark.parametrize(("name", "default"), ACTION_INPUT_DEFAULTS.items())
def test_action_input_defaults(action: dict[Any, Any], name: str, default: str) -> None:
    assert str(action["inputs"][name].get("default", "")) == default


def test_python_defaults_match_action_yml(action: dict[Any, Any]) -> None:
    assert action["inputs"]["commit-message"]["default"] == DEFAULT_COMMIT_MESSAGE
    assert action["inputs"]["committer"]["default"] == DEFAULT_COMMITTER


def test_outputs_are_the_design_outputs(action: dict[Any, Any]) -> None:
    assert set(action["outputs"]) == OUTPUTS
    for name, spec in action["outputs"].items():
        assert spec["description"].strip()
        assert spec["value"] == f"${{{{ steps.run.outputs.{name} }}}}"


def test_every_input_reaches_the_code_by_its_env_name(action: dict[Any, Any]) -> None:
    env = step(action, "run")["env"]
    passed = {}
    for name, value in env.items():
        match = INPUT_EXPRESSION.fullmatch(str(value))
        if match:
            passed[match[1]] = name
    assert passed == {**CONFIG_INPUT_ENV, **ACTION_INPUT_ENV}


def test_no_expression_in_a_description(action: dict[Any, Any]) -> None:
    # The runner evaluates ${{ }} in every field of action.yml as it loads it, descriptions
    # too, where no context (secrets, inputs) exists: the action would fail to load.
    described = [("action", action)]
    described += [(f"input {name}", spec) for name, spec in action["inputs"].items()]
    described += [(f"output {name}", spec) for name, spec in action["outputs"].items()]
    for where, spec in described:
        assert "${{" not in spec["description"], where


def test_the_indexnow_inputs_reach_the_code_by_their_env_names(action: dict[Any, Any]) -> None:
    env = step(action, "run")["env"]
    for name in (
        "indexnow",
        "indexnow-key",
        "indexnow-endpoint",
        "indexnow-key-location",
        "indexnow-write-key-file",
    ):
        variable = "SITEMILL_" + name.replace("-", "_").upper()
        assert env[variable] == f"${{{{ inputs.{name} }}}}"
        assert "default" not in action["inputs"][name]
    assert env["SITEMILL_ACTION_COMMAND"] == "${{ inputs.command }}"
    assert "secrets.INDEXNOW_KEY" in action["inputs"]["indexnow-key"]["description"]


def test_inputs_are_used_only_in_the_run_steps_env(action: dict[Any, Any]) -> None:
    for item in steps(action):
        text = yaml.safe_dump({key: value for key, value in item.items() if key != "env"})
        assert "inputs." not in text, item.get("id")


def test_every_run_step_is_bash(action: dict[Any, Any]) -> None:
    # bash exists on Linux, macOS and Windows runners (Git Bash) alike.
    for item in steps(action):
        if "run" in item:
            assert item["shell"] == "bash", item.get("id")


def test_composite_with_branding(action: dict[Any, Any]) -> None:
    assert action["runs"]["using"] == "composite"
    assert {"icon", "color"} <= set(action["branding"])


def test_setup_python_is_only_a_fallback(action: dict[Any, Any]) -> None:
    setup = step(action, "setup-python")
    assert re.fullmatch(r"actions/setup-python@[0-9a-f]{40}", setup["uses"])
    assert "steps.probe.outputs.python" in setup["if"]
    # The user's later steps keep seeing their own Python.
    assert setup["with"]["update-environment"] is False
    for name in ("inputs", "deps", "install"):  # (the venv goes under RUNNER_TEMP: install.py)
        assert "steps.setup-python.outputs.python-path" in str(step(action, name)["env"])
        assert "GITHUB_ACTION_PATH" in step(action, name)["run"]


def test_entry_runs_off_the_workspace_path(action: dict[Any, Any]) -> None:
    script = step(action, "run")["run"]
    assert "-P -m action" in script
    assert 'PYTHONPATH="$GITHUB_ACTION_PATH"' in script


def test_workflow_is_read_only(workflow: dict[Any, Any]) -> None:
    assert workflow["permissions"] == {"contents": "read"}
    for name, job in workflow["jobs"].items():
        assert job.get("permissions", {"contents": "read"}) == {"contents": "read"}, name


def test_workflow_runs_make_test(workflow: dict[Any, Any]) -> None:
    scripts = [item.get("run", "") for job in workflow["jobs"].values() for item in job["steps"]]
    assert "make test" in scripts


def test_workflow_self_tests_the_action(workflow: dict[Any, Any]) -> None:
    uses = [
        (item, job)
        for job in workflow["jobs"].values()
        for item in job["steps"]
        if item.get("uses") == "./"
    ]
    assert uses
    for item, job in uses:
        assert item["with"]["path"] == "examples/site"
        assert item["with"]["commit"] is False
        later = job["steps"][job["steps"].index(item) + 1 :]
        checked = " ".join(str(s.get("env", "")) for s in later)
        assert f"steps.{item['id']}.outputs." in checked, "the outputs are not checked"


@pytest.mark.parametrize(
    ("python3_ok", "python_ok", "expected"),
    [(True, True, "python3"), (False, True, "python"), (False, False, "")],
    ids=["python3", "python-only", "none"],
)
def test_probe_finds_a_new_enough_python(
    action: dict[Any, Any],
    tmp_path: Path,
    python3_ok: bool,
    python_ok: bool,
    expected: str,
) -> None:
    # Fakes on an otherwise empty PATH: an old Python (or the Windows store stub) exits 1.
    fakes = tmp_path / "bin"
    fakes.mkdir()
    for name, ok in (("python3", python3_ok), ("python", python_ok)):
        script = f'#!/bin/sh\nexec "{sys.executable}" "$@"\n' if ok else "#!/bin/sh\nexit 1\n"
        (fakes / name).write_text(script, encoding="utf-8")
        (fakes / name).chmod(0o755)
    output = tmp_path / "output"
    done = subprocess.run(
        ["/bin/bash", "-c", step(action, "probe")["run"]],
        env={"PATH": str(fakes), "GITHUB_OUTPUT": str(output)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found = str(fakes / expected) if expected else ""
    assert output.read_text(encoding="utf-8") == f"python={found}\n"


# The README's quick start and the docs pages the Action's workflows moved to (docs/action.md,
# docs/indexnow.md): every workflow a user may copy.
USER_PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_YAML_BLOCK = re.compile(r"^ *```yaml\n(.*?)^ *```$", re.MULTILINE | re.DOTALL)


def readme_blocks() -> list[str]:
    """Every ```yaml block of the README and docs/, dedented (a fragment of steps is indented)."""
    texts = [page.read_text(encoding="utf-8") for page in USER_PAGES]
    return [textwrap.dedent(block) for text in texts for block in _YAML_BLOCK.findall(text)]


def readme_yaml() -> list[Any]:
    return [yaml.safe_load(block) for block in readme_blocks()]


def test_the_readme_opens_its_action_quick_start_with_a_whole_workflow() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    (block,) = _YAML_BLOCK.findall(text)  # the basic workflow; the rest is in docs/
    (item,) = sitemill_steps(yaml.safe_load(block))
    assert set(item["with"]) == {"base-url", "path"}


def sitemill_steps(data: Any) -> list[dict[str, Any]]:
    found = data if isinstance(data, list) else []
    if isinstance(data, dict):
        found = [item for job in data.get("jobs", {}).values() for item in job["steps"]]
    pattern = re.compile(r"[\w.-]+/sitemill@v\d+")  # (OWNER/sitemill until the name is set)
    return [item for item in found if pattern.fullmatch(str(item.get("uses", "")))]


def test_the_readme_uses_only_the_actions_inputs(action: dict[Any, Any]) -> None:
    steps_found = [item for data in readme_yaml() for item in sitemill_steps(data)]
    assert len(steps_found) >= 5
    for item in steps_found:
        assert set(item.get("with", {})) <= set(action["inputs"]), item["with"]


def test_the_readme_workflows_are_valid_for_github(tmp_path: Path) -> None:
    # Whole workflows only: YAML 1.1 reads the key `on` as true.
    workflows = [block for block in readme_blocks() if True in yaml.safe_load(block)]
    assert len(workflows) >= 2
    for number, block in enumerate(workflows):
        path = tmp_path / f"workflow-{number}.yml"
        path.write_text(block, encoding="utf-8")
        done = check_schema("vendor.github-workflows", path)
        assert done.returncode == 0, done.stdout + done.stderr


def test_the_readme_builds_deploys_then_checks_and_announces() -> None:
    jobs_wanted = {"build", "deploy", "check-and-announce"}
    (workflow,) = [
        data
        for data in readme_yaml()
        if isinstance(data, dict) and set(data.get("jobs", {})) == jobs_wanted
    ]
    jobs = workflow["jobs"]
    assert (jobs["deploy"]["needs"], jobs["check-and-announce"]["needs"]) == ("build", "deploy")
    (build,) = sitemill_steps({"jobs": {"build": jobs["build"]}})
    (announce,) = sitemill_steps({"jobs": {"announce": jobs["check-and-announce"]}})
    assert build["with"]["indexnow"] == "later"
    served = build["with"]["path"] + "/"
    assert not build["with"]["state"].startswith(served)  # a state outside it is private
    assert announce["with"]["command"] == "check"  # (then IndexNow for what passed)
    assert announce["with"]["indexnow-key"] == "${{ secrets.INDEXNOW_KEY }}"
    for name in ("path", "state", "base-url"):  # where the build keeps the pending URLs
        assert announce["with"][name] == build["with"][name]
    build_steps = [item.get("uses", "") for item in jobs["build"]["steps"]]
    assert any(uses.startswith("actions/upload-pages-artifact@") for uses in build_steps)
    assert jobs["deploy"]["steps"][0]["uses"].startswith("actions/deploy-pages@")
    assert jobs["build"]["steps"][0]["with"]["fetch-depth"] == 0
