"""The README's quick starts print what they show: the CLI's console block is run as written
(on a copy of examples/site, in a folder outside any git work tree) and its output compared
line by line; the Action's job summary is made by the Action's run step on the same site."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
BIN = Path(sys.executable).parent
sys.path.insert(0, str(ROOT / "tests" / "github"))  # (the Action's test harness)

from test_action import make_project, run_action  # noqa: E402

from gitutil import git  # noqa: E402


def fenced_block(heading: str, language: str) -> list[str]:
    """The lines of the first ``language`` fenced block below ``heading``."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index(f"\n{heading}\n") :]
    found = re.search(rf"^```{language}\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)
    assert found is not None, f"no {language} block below {heading}"
    return found.group(1).splitlines()


def console_runs(lines: list[str]) -> list[tuple[str, list[str]]]:
    """Each ``$ command`` with the lines shown after it."""
    runs: list[tuple[str, list[str]]] = []
    for line in lines:
        if line.startswith("$ "):
            runs.append((line[2:], []))
        else:
            runs[-1][1].append(line)
    return runs


def test_the_cli_quick_start_prints_what_the_readme_shows(tmp_path: Path) -> None:
    runs = console_runs(fenced_block("## Quick start: the CLI", "console"))
    assert runs[0][0] == "cp -r examples/site public"
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SITEMILL_", "GIT_"))}
    env |= {"PATH": f"{BIN}{os.pathsep}{env.get('PATH', '')}", "GIT_CEILING_DIRECTORIES": "/"}
    for command, shown in runs:
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stdout
        assert done.stdout.splitlines() == shown, command


def test_the_action_quick_start_writes_the_summary_the_readme_shows(tmp_path: Path) -> None:
    """The example site in public/, pushed; the Action's run step with the quick start's
    inputs: the README's summary lines are the summary's, in order (it is shortened), the
    commit's SHA aside; and the annotation it names is made."""
    project = make_project(tmp_path)
    git(project.workspace, "rm", "-q", "-r", ".")
    shutil.copytree(ROOT / "examples" / "site", project.workspace / "public")
    git(project.workspace, "add", "-A")
    git(project.workspace, "commit", "-qm", "Site")
    git(project.workspace, "push", "-q", "origin", "main")
    inputs = {"base-url": "https://www.example.com/", "path": "public"}

    run = run_action(project.workspace, inputs)

    assert run.returncode == 0, run.stdout + run.stderr
    annotation = "not in the sitemap: noindex (robots meta noindex)"
    assert any(
        line.startswith("::warning file=public/docs/private.html,") and line.endswith(annotation)
        for line in run.stdout.splitlines()
    )
    assert f"(`{annotation}` on `public/docs/private.html`)" in " ".join(
        README.read_text(encoding="utf-8").split()
    )
    sha = re.compile(r"`[0-9a-f]{12}`")
    actual = iter(sha.sub("`SHA`", line) for line in run.summary.splitlines())
    for line in fenced_block("## Quick start: the GitHub Action", "text"):
        wanted = sha.sub("`SHA`", line)
        assert any(got == wanted for got in actual), f"not in the summary (in order): {line}"


def test_the_install_section_says_to_clone_first() -> None:
    """``pip install .`` installs the folder it runs in: until a release is on the index, a
    reader must be told to clone first, before the first such line; the index's commands
    come first, for the day it is."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("\n## Install\n") :]
    before = section[: section.index("pip install .")]
    assert "Until then, clone this repository" in before
    assert before.index("pipx install sitemill") < before.index("Until then")


def test_the_development_section_states_no_suite_time_that_drifts() -> None:
    """``make test``'s time depends on the machine and grows with the suite: a figure in the
    README ("about 5 minutes on two cores") went stale; pytest prints the real one."""
    text = README.read_text(encoding="utf-8")
    block = text[text.index("\n## Development\n") :]
    block = block[: block.index("make lint")]
    assert re.search(r"\d+\s*(?:s|seconds?|minutes?)\b", block) is None, block


def test_the_readme_names_every_command_and_llms_txt() -> None:
    """A reader learns from the README alone what sitemill can do: each command of the CLI's
    parser stands in it as ``sitemill NAME``, and so does llms.txt."""
    from sitemill.cli.main import build_parser

    parser = build_parser()
    (commands,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    text = README.read_text(encoding="utf-8")
    assert sorted(commands.choices) == sorted(
        ["build", "urls", "s3", "validate", "check", "why", "diff", "indexnow"]
    )
    assert [name for name in commands.choices if f"`sitemill {name}" not in text] == []
    assert "`llms.txt`" in text
