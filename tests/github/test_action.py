"""The Action run as a runner runs it: action.yml's run step in bash, real git, a bare remote."""

from __future__ import annotations

import functools
import io
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

from actionsteps import EXPRESSION, parse_outputs
from clirun import run_here
from gitutil import commit, git, head, make_repo
from scriptmodule import load_script
from sitemill.config.model import LastmodMode
from sitemill.entries import SkipReason
from sitemill.errors import ConfigError
from sitemill.github._repo import GitIdentity, redact
from sitemill.github.action import run_github_action
from sitemill.github.commands import escape_data, escape_property, workflow_command
from sitemill.github.settings import (
    ACTION_INPUT_ENV,
    CONFIG_INPUT_ENV,
    DEFAULT_COMMITTER,
    read_inputs,
)
from sitemill.github.summary import SKIP_REASONS, markdown_text, render_summary
from sitemill.report import Report, WriteResult

ROOT = Path(__file__).resolve().parents[2]
# A shard's child (sitemill.shards): what split output is named by default.
SHARD_CHILD = re.compile(r"sitemap-r[a-z2-7]{8}\.xml")
BASE_URL = "https://example.com/"
SEED_TIME = "2024-01-01T10:00:00+00:00"
RUN_TIME = "2024-06-01T12:00:00+00:00"
CONCURRENT_TIME = "2024-05-01T09:30:00+00:00"
BOT = DEFAULT_COMMITTER
STATE = "sitemill-state.json.gz"  # committed with the sitemaps


def page(title: str, head_html: str = "") -> str:
    return (
        f"<!doctype html><html><head><title>{title}</title>{head_html}</head><body></body></html>"
    )


SITE: dict[str | bytes, str | bytes | None] = {
    "index.html": page("Home"),
    "about.html": page("About"),
    "blog/post.html": page("Post"),
    "private.html": page("Private", '<meta name="robots" content="noindex">'),
    "drafts/wip.html": page("WIP"),
    "404.html": page("Not found"),
    "robots.txt": "User-agent: *\nDisallow: /drafts/\n",
    "README.md": "not a page\n",
}
# In the sorted order of the tree walk: about.html, blog/post.html, index.html.
LISTED = (
    "https://example.com/about.html",
    "https://example.com/blog/post.html",
    "https://example.com/",
)


# --- running the action --------------------------------------------------------------------

# The Action's tests never reach the network: the live site's state (the default
# previous-state, <base-url>sitemill-state.json.gz) goes through a proxy nobody runs, on the
# discard port of the loopback, so a fetch fails at once; a local server is reached directly.
DEAD_PROXY = {
    "http_proxy": "http://127.0.0.1:9",
    "https_proxy": "http://127.0.0.1:9",
    "no_proxy": "127.0.0.1",
}


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """For runs in this process: urllib reads proxies from os.environ (runs in bash get
    DEAD_PROXY from runner_env)."""
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    for name, value in DEAD_PROXY.items():
        monkeypatch.setenv(name, value)
    yield


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    outputs: dict[str, str]
    summary: str

    def lines(self, prefix: str) -> list[str]:
        return [line for line in self.stdout.splitlines() if line.startswith(prefix)]


@dataclass
class Project:
    root: Path
    remote: Path
    workspace: Path


def action_run_step() -> dict[str, Any]:
    spec = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    (run_step,) = [step for step in spec["runs"]["steps"] if step.get("id") == "run"]
    assert isinstance(run_step, dict)
    run_step["defaults"] = {
        name: str(item.get("default", "")) for name, item in spec["inputs"].items()
    }
    return run_step


def runner_env(tmp_path: Path) -> dict[str, str]:
    """What a runner provides, and nothing of the developer's git configuration."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "RUNNER_TEMP": str(tmp_path),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_AUTHOR_DATE": RUN_TIME,
        "GIT_COMMITTER_DATE": RUN_TIME,
        **DEAD_PROXY,  # the live site's state is never fetched from the network
    }


def run_action(
    workspace: Path,
    inputs: dict[str, str],
    *,
    cwd: Path | None = None,
    inherited: dict[str, str] | None = None,
    process: bool = False,
) -> Run:
    """Do what the runner does for the `run` step: evaluate its env: with these inputs, run
    its command, `python -P -m action` with the action's folder on PYTHONPATH: the action's
    entry module in this process (tests/clirun.run_here), or with ``process`` the step's own
    line in bash (as tests/github/test_action_steps.py plays every step).

    ``inherited`` are further variables of the runner's environment.
    """
    step = action_run_step()
    env = action_env(workspace, inputs, inherited)
    if process:
        done = subprocess.run(
            ["bash", "-c", step["run"]],
            cwd=cwd or workspace,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    else:
        assert step["run"] == RUN_LINE, step["run"]  # (what the entry below stands for)
        env["PYTHONPATH"] = str(ROOT)
        entry = _action_entry().main
        done = run_here(entry, [str(ROOT / "action" / "__main__.py")], cwd or workspace, None, env)
    output, summary = Path(env["GITHUB_OUTPUT"]), Path(env["GITHUB_STEP_SUMMARY"])
    return Run(
        done.returncode,
        done.stdout,
        done.stderr,
        parse_outputs(output.read_text(encoding="utf-8") if output.exists() else ""),
        summary.read_text(encoding="utf-8") if summary.exists() else "",
    )


RUN_LINE = 'PYTHONPATH="$GITHUB_ACTION_PATH" "$SITEMILL_ACTION_PYTHON" -P -m action'


@functools.cache
def _action_entry() -> ModuleType:
    """action/__main__.py, the module `python -m action` runs (loaded once)."""
    return load_script(ROOT / "action" / "__main__.py", "_action_main")


def action_env(
    workspace: Path, inputs: dict[str, str], inherited: dict[str, str] | None = None
) -> dict[str, str]:
    """The `run` step's environment as the runner makes it: its env: evaluated with these
    inputs, over the runner's own variables (and ``inherited``); the output and summary files
    numbered after those already there."""
    step = action_run_step()
    unknown = set(inputs) - set(step["defaults"])
    assert not unknown, f"not inputs of action.yml: {unknown}"
    values: dict[str, str] = {**step["defaults"], **inputs}
    known = {"steps.install.outputs.python": action_python(workspace.parent)}

    def evaluate(match: re.Match[str]) -> str:
        name = match[1]
        if name.startswith("inputs."):
            return values[name.removeprefix("inputs.")]
        return known[name]

    scratch = workspace.parent
    number = len(list(scratch.glob("output-*"))) + 1
    output, summary = scratch / f"output-{number}", scratch / f"summary-{number}"
    env = runner_env(scratch) | (inherited or {})
    env.update({name: EXPRESSION.sub(evaluate, str(value)) for name, value in step["env"].items()})
    env.update(
        GITHUB_WORKSPACE=str(workspace),
        GITHUB_ACTION_PATH=str(ROOT),
        GITHUB_OUTPUT=str(output),
        GITHUB_STEP_SUMMARY=str(summary),
    )
    return env


def action_python(scratch: Path) -> str:
    """The Python the install step makes: one that imports sitemill from this checkout, as
    `pip install "$GITHUB_ACTION_PATH"` installs it (the run step sets PYTHONPATH to the
    action's folder only, so the test venv's own install, perhaps of another checkout such as
    a worktree's main, would be used otherwise)."""
    wrapper = scratch / "action-python"
    if not wrapper.exists():
        source = shlex.quote(str(ROOT / "src"))
        wrapper.write_text(
            f'#!/bin/sh\nPYTHONPATH="$PYTHONPATH"{os.pathsep}{source} '
            f'exec {shlex.quote(sys.executable)} "$@"\n',
            encoding="utf-8",
        )
        wrapper.chmod(0o755)
    return str(wrapper)


# --- repositories ----------------------------------------------------------------------------


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path)


def make_project(tmp_path: Path) -> Project:
    """A bare remote holding the site (two commits), and a clone of it as the workspace."""
    seed = make_repo(tmp_path / "seed")
    commit(seed, {"index.html": page("Home")}, when="2023-12-01T08:00:00+00:00", message="Start")
    commit(seed, SITE, when=SEED_TIME, message="Site")
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(remote, "symbolic-ref", "HEAD", "refs/heads/main")
    git(seed, "push", "-q", str(remote), "main")
    git(tmp_path, "clone", "-q", str(remote), "workspace")
    return Project(tmp_path, remote, tmp_path / "workspace")


def remote_commit(remote: Path, rev: str = "main") -> dict[str, Any]:
    fields = git(remote, "show", "-s", "--format=%an <%ae>%n%cn <%ce>%n%B", rev).decode()
    author, committer, message = fields.split("\n", 2)
    changes = git(remote, "show", "--format=", "--name-status", rev).decode().split("\n")
    return {
        "author": author,
        "committer": committer,
        "message": message.strip(),
        "changes": sorted(line for line in changes if line),
    }


def remote_file(remote: Path, path: str, rev: str = "main") -> str:
    return git(remote, "show", f"{rev}:{path}").decode()


def subjects(remote: Path) -> list[str]:
    return git(remote, "log", "--format=%s", "main").decode().split("\n")[:-1]


# --- behaviour -------------------------------------------------------------------------------


def test_commits_and_pushes_the_sitemap(project: Project) -> None:
    run = run_action(project.workspace, {"base-url": BASE_URL})

    assert run.returncode == 0, run.stdout + run.stderr
    sha = head(project.remote)
    assert run.outputs == {
        "sitemap": "sitemap.xml",
        "url-count": "3",
        "files": "sitemap.xml",
        "changed": "true",
        "commit-sha": sha,
        "indexnow-sent": "",  # IndexNow is off
        "indexnow-pending": "",
    }
    assert remote_commit(project.remote) == {
        "author": BOT,
        "committer": BOT,
        "message": "Update sitemap",
        "changes": ["A\tsitemap.xml", f"A\t{STATE}"],
    }
    sitemap = remote_file(project.remote, "sitemap.xml")
    assert sitemap == (project.workspace / "sitemap.xml").read_text(encoding="utf-8")
    assert re.findall(r"<loc>(.*?)</loc>", sitemap) == list(LISTED)
    # lastmod is the page's commit time, not the time of the run.
    assert "<lastmod>2024-01-01T10:00:00+00:00</lastmod>" in sitemap
    assert "2024-06-01" not in sitemap
    assert run.lines("::error") == []


def test_reports_skipped_pages_as_annotations_and_in_the_summary(project: Project) -> None:
    run = run_action(project.workspace, {"base-url": BASE_URL})

    assert run.returncode == 0, run.stderr
    assert sorted(run.lines("::warning")) == [
        "::warning file=drafts/wip.html,title=sitemill skipped this page::"
        "not in the sitemap: robots.txt (disallowed for User-agent: *)",
        "::warning file=private.html,title=sitemill skipped this page::"
        "not in the sitemap: noindex (robots meta noindex)",
    ]
    summary = run.summary
    # The first line says what needs the user: the skips a user may not expect, not 404.html.
    assert summary.startswith(
        "### sitemill: 3 URLs in 1 file; needs you: 2 pages left out (robots.txt 1, noindex 1)\n"
    )
    assert "- Entry file: `sitemap.xml` (lastmod from git)" in summary
    # At a glance: the listed pages by their lastmod's month, the skipped ones by reason.
    assert charts(summary) == [
        [
            "xychart-beta",
            '    title "Listed pages by the month of their lastmod"',
            '    x-axis ["2023-12", "2024-01"]',
            '    y-axis "pages"',
            "    bar [1, 2]",
        ],
        [
            "pie title Pages left out, by reason",
            '    "excluded" : 1',
            '    "robots.txt" : 1',
            '    "noindex" : 1',
        ],
    ]
    # 404.html too: counted, not annotated (every site has one)
    assert "Skipped 3 pages:" in summary
    assert "| excluded | 1 |" in summary
    assert "| noindex | 1 |" in summary
    assert "| robots.txt | 1 |" in summary
    assert f"Committed `{head(project.remote)[:12]}` to `main`: `sitemap.xml`" in summary


def test_a_second_run_commits_nothing(project: Project) -> None:
    first = run_action(project.workspace, {"base-url": BASE_URL})
    pushed = head(project.remote)

    second = run_action(project.workspace, {"base-url": BASE_URL})

    assert first.returncode == second.returncode == 0, second.stderr
    assert head(project.remote) == pushed
    assert second.outputs["changed"] == "false"
    assert second.outputs["commit-sha"] == ""
    assert second.outputs["files"] == "sitemap.xml"
    assert "Nothing changed: no commit" in second.summary
    assert git(project.workspace, "status", "--porcelain") == b""


def push_concurrently_before_each_push(project: Project, times: int) -> Path:
    """A real pre-receive hook on the remote (sitemill runs no hook of the workspace's, but a
    server runs its own): for the first ``times`` pushes, another job pushes a new page to
    the remote while sitemill's push is being received, so that it loses the race.

    Returns the file that counts the hook's runs (one line each).
    """
    counter, q = project.root / "pushes", shlex.quote
    hook = project.remote / "hooks" / "pre-receive"
    hook.write_text(
        f"""#!/bin/sh
cat >/dev/null
[ -n "$CONCURRENT_JOB" ] && exit 0
echo push >> {q(str(counter))}
n=$(wc -l < {q(str(counter))} | tr -d ' ')
[ "$n" -gt {times} ] && exit 0
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_PREFIX GIT_QUARANTINE_PATH
unset GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES GIT_PUSH_OPTION_COUNT
export CONCURRENT_JOB=1 GIT_AUTHOR_DATE={CONCURRENT_TIME} GIT_COMMITTER_DATE={CONCURRENT_TIME}
other={q(str(project.root))}/other-$n
git clone -q {q(str(project.remote))} "$other" &&
printf '%s' {q(page("New"))} > "$other/new-$n.html" &&
git -C "$other" add . &&
git -C "$other" -c user.name=Other -c user.email=other@example.com \\
    commit -q -m "Concurrent page $n" &&
git -C "$other" push -q origin HEAD:main
""",
        encoding="utf-8",
    )
    hook.chmod(0o755)
    return counter


def test_a_concurrent_push_is_replayed_and_retried(project: Project) -> None:
    counter = push_concurrently_before_each_push(project, times=1)

    run = run_action(project.workspace, {"base-url": BASE_URL})

    assert run.returncode == 0, run.stdout + run.stderr
    assert counter.read_text().count("push") == 2
    assert subjects(project.remote)[:3] == ["Update sitemap", "Concurrent page 1", "Site"]
    assert run.outputs["commit-sha"] == head(project.remote)
    assert run.outputs["url-count"] == "4"
    sitemap = remote_file(project.remote, "sitemap.xml")
    # Regenerated on top of the concurrent commit: its page is listed, with its own date.
    assert (
        "<loc>https://example.com/new-1.html</loc><lastmod>2024-05-01T09:30:00+00:00</lastmod>"
        in "".join(sitemap.split())
    )
    assert remote_commit(project.remote)["changes"] == ["A\tsitemap.xml", f"A\t{STATE}"]
    assert "after 2 attempts" in run.summary
    assert "moved during the run" in run.stderr


def test_a_remote_that_keeps_moving_is_retried_a_bounded_number_of_times(
    project: Project,
) -> None:
    counter = push_concurrently_before_each_push(project, times=99)

    run = run_action(project.workspace, {"base-url": BASE_URL})

    assert run.returncode == 1
    (error,) = run.lines("::error")
    assert "rejected 3 times because refs/heads/main kept moving" in error
    assert counter.read_text().count("push") == 3
    assert subjects(project.remote)[0] == "Concurrent page 3"
    assert run.outputs == {}


def test_a_genuinely_rejected_push_is_an_error_and_not_retried(project: Project) -> None:
    attempts = project.root / "attempts"
    hook = project.remote / "hooks" / "pre-receive"
    hook.write_text(
        f"#!/bin/sh\necho x >> {shlex.quote(str(attempts))}\n"
        "echo 'GH006: Protected branch update failed' >&2\nexit 1\n",
        encoding="utf-8",
    )
    hook.chmod(0o755)
    before = head(project.remote)

    run = run_action(project.workspace, {"base-url": BASE_URL})

    assert run.returncode == 1
    (error,) = run.lines("::error")
    assert "GH006: Protected branch update failed" in error
    assert "If the branch is protected" in error  # (and what to do about it)
    assert attempts.read_text() == "x\n"
    assert head(project.remote) == before


def test_push_without_credentials_fails_clearly_and_never_prints_the_token(
    project: Project,
) -> None:
    # Port 9 on loopback refuses at once: a push that cannot authenticate or connect.
    url = "https://x-access-token:ghs_s3cr3tT0ken@127.0.0.1:9/owner/site.git"
    git(project.workspace, "remote", "set-url", "origin", url)

    run = run_action(project.workspace, {"base-url": BASE_URL})

    assert run.returncode == 1
    (error,) = run.lines("::error")
    assert "git push to origin failed" in error
    assert "permissions: contents: write" in error
    assert "ghs_s3cr3tT0ken" not in run.stdout + run.stderr + run.summary


def test_a_remote_that_is_a_url_with_a_token_is_never_printed(project: Project) -> None:
    # branch.<name>.remote may name a URL instead of a remote; sitemill names it in messages.
    url = "https://x-access-token:ghs_s3cr3tT0ken@127.0.0.1:9/owner/site.git"
    branch = git(project.workspace, "branch", "--show-current").decode().strip()
    git(project.workspace, "config", f"branch.{branch}.remote", url)

    run = run_action(project.workspace, {"base-url": BASE_URL})

    assert run.returncode == 1
    (error,) = run.lines("::error")
    assert "git push to https://***@127.0.0.1:9/owner/site.git failed" in error
    assert "ghs_s3cr3tT0ken" not in run.stdout + run.stderr + run.summary


def test_git_variables_of_a_hook_redirect_nothing(project: Project) -> None:
    # A job that runs inside a git hook inherits these; they name another repository and person.
    other = make_repo(project.root / "other")
    commit(other, {"x.txt": "x"}, when=SEED_TIME)
    before = head(other)
    git_dir = other / ".git"
    hook = {
        "GIT_DIR": str(git_dir),
        "GIT_WORK_TREE": str(other),
        "GIT_INDEX_FILE": str(git_dir / "index"),
        "GIT_COMMON_DIR": str(git_dir),
        "GIT_OBJECT_DIRECTORY": str(git_dir / "objects"),
        "GIT_AUTHOR_NAME": "Someone Else",
        "GIT_COMMITTER_EMAIL": "else@example.invalid",
        "GIT_GLOB_PATHSPECS": "1",
    }

    run = run_action(project.workspace, {"base-url": BASE_URL}, inherited=hook)

    assert run.returncode == 0, run.stdout + run.stderr
    assert run.outputs["commit-sha"] == head(project.remote)
    pushed = remote_commit(project.remote)
    assert (pushed["author"], pushed["committer"]) == (BOT, BOT)
    assert pushed["changes"] == ["A\tsitemap.xml", f"A\t{STATE}"]
    assert head(other) == before


def test_a_detached_head_writes_but_does_not_commit(project: Project) -> None:
    git(project.workspace, "checkout", "-q", "--detach")
    before = head(project.remote)

    run = run_action(project.workspace, {"base-url": BASE_URL})

    assert run.returncode == 0, run.stderr
    assert head(project.remote) == before
    assert run.outputs["changed"] == "true"
    assert run.outputs["commit-sha"] == ""
    (warning,) = [line for line in run.lines("::warning") if "detached" in line]
    assert "set commit: false" in warning
    assert "Not committed: HEAD is detached" in run.summary
    assert (project.workspace / "sitemap.xml").is_file()


def test_only_sitemill_outputs_are_committed(project: Project) -> None:
    (project.workspace / "README.md").write_text("edited\n", encoding="utf-8")
    git(project.workspace, "add", "README.md")
    (project.workspace / "notes.txt").write_text("untracked\n", encoding="utf-8")

    run = run_action(project.workspace, {"base-url": BASE_URL})

    assert run.returncode == 0, run.stderr
    assert remote_commit(project.remote)["changes"] == ["A\tsitemap.xml", f"A\t{STATE}"]
    staged = git(project.workspace, "diff", "--cached", "--name-only").decode().split()
    assert staged == ["README.md"]


def test_ignored_outputs_are_an_error_not_a_forced_add(project: Project) -> None:
    (project.workspace / ".git" / "info" / "exclude").write_text("sitemap.xml\n", encoding="utf-8")
    before = head(project.remote)

    run = run_action(project.workspace, {"base-url": BASE_URL})

    assert run.returncode == 1
    (error,) = run.lines("::error")
    assert "git ignores sitemap.xml" in error
    assert "set commit: false" in error
    assert head(project.remote) == before


def test_index_children_and_robots_txt_are_committed_and_stale_ones_deleted(
    project: Project,
) -> None:
    split = run_action(
        project.workspace, {"base-url": BASE_URL, "max-urls": "1", "robots-txt": "true"}
    )
    assert split.returncode == 0, split.stderr
    index, *children = split.outputs["files"].split("\n")
    assert index == "sitemap.xml"
    assert len(children) == 3 and all(SHARD_CHILD.fullmatch(name) for name in children)
    assert remote_commit(project.remote)["changes"] == [
        *(f"A\t{name}" for name in sorted(children)),
        "A\tsitemap.xml",
        f"A\t{STATE}",
        "M\trobots.txt",
    ]
    robots = remote_file(project.remote, "robots.txt")
    assert robots.startswith("User-agent: *\nDisallow: /drafts/\n")
    assert "Sitemap: https://example.com/sitemap.xml" in robots

    merged = run_action(project.workspace, {"base-url": BASE_URL, "robots-txt": "true"})

    assert merged.returncode == 0, merged.stderr
    assert merged.outputs["files"] == "sitemap.xml"
    assert remote_commit(project.remote)["changes"] == [
        *(f"D\t{name}" for name in sorted(children)),
        "M\tsitemap.xml",
        f"M\t{STATE}",  # it remembers sitemill's files: now only sitemap.xml
    ]


def test_config_file_is_honoured_and_inputs_override_it(project: Project) -> None:
    conf = project.workspace / "conf" / "site.toml"
    conf.parent.mkdir()
    conf.write_text(
        f'base_url = "{BASE_URL}"\nformat = "txt"\nurl_style = "file"\n', encoding="utf-8"
    )

    run = run_action(
        project.workspace,
        {
            "config": "conf/site.toml",
            "url-style": "clean",
            "output-dir": "public/maps",
            "commit": "false",
            "gzip": "",  # empty: not set
        },
    )

    assert run.returncode == 0, run.stdout + run.stderr
    assert run.outputs["sitemap"] == "public/maps/sitemap.txt"
    text = (project.workspace / "public" / "maps" / "sitemap.txt").read_text(encoding="utf-8")
    assert text.split() == [
        "https://example.com/about",
        "https://example.com/blog/post",
        "https://example.com/",
    ]
    assert run.outputs["changed"] == "true"
    assert run.outputs["commit-sha"] == ""
    assert "Not committed: commit is false; the files changed" in run.summary
    assert len(subjects(project.remote)) == 2


def test_a_shallow_clone_warns_and_falls_back_to_mtime(project: Project) -> None:
    shallow = project.root / "shallow"
    git(project.root, "clone", "-q", "--depth", "1", f"file://{project.remote}", str(shallow))

    # (deepened by default: test_action_deepen.py)
    run = run_action(shallow, {"base-url": BASE_URL, "commit": "false", "deepen": "false"})

    assert run.returncode == 0, run.stderr
    (warning,) = [line for line in run.lines("::warning") if "shallow" in line]
    assert "fetch-depth: 0" in warning
    assert "lastmod from mtime" in run.summary
    assert "[!WARNING]" in run.summary
    assert "shallow clone" not in run.stderr  # (said once: the annotation)


def test_a_shallow_clone_with_lastmod_git_is_an_error(project: Project) -> None:
    shallow = project.root / "shallow"
    git(project.root, "clone", "-q", "--depth", "1", f"file://{project.remote}", str(shallow))

    run = run_action(shallow, {"base-url": BASE_URL, "lastmod": "git", "deepen": "false"})

    assert run.returncode == 1
    (error,) = run.lines("::error")
    assert "fetch-depth: 0" in error
    assert not (shallow / "sitemap.xml").exists()


def test_hostile_input_values_are_data(project: Project) -> None:
    pwned = project.root / "pwned"
    injection = f"$(touch {pwned}-1) `touch {pwned}-2` ; touch {pwned}-3"
    message = f"Update sitemap {injection}\n\nsecond line ${{{{ github.token }}}} %0A::error::x"
    run = run_action(
        project.workspace,
        {
            "base-url": BASE_URL,
            "commit-message": message,
            "committer": f"Eve {injection} <eve@example.com>",
            "exclude": f"{injection}\nnothing/**",
            "include": "**/*.html\n$(touch x)",
        },
    )

    assert run.returncode == 0, run.stdout + run.stderr
    assert not list(project.root.glob("pwned*"))
    assert not (project.workspace / "x").exists()
    pushed = remote_commit(project.remote)
    assert pushed["message"] == message
    assert pushed["author"] == f"Eve {injection} <eve@example.com>"
    assert run.lines("::error") == []


@pytest.mark.parametrize(
    ("inputs", "expected"),
    [
        ({"base-url": ""}, "base_url: is required"),
        ({"gzip": "maybe"}, "gzip: 'maybe' is not a boolean"),
        ({"path": "../outside"}, "path: '../outside' is outside the workspace"),
        ({"path": "/"}, "path: '/' is outside the workspace"),
        ({"path": "missing"}, "path: 'missing' does not exist"),
        ({"output-dir": "../elsewhere"}, "output-dir: '../elsewhere' is outside the workspace"),
        ({"config": "nope.toml"}, "config: 'nope.toml' is not a file"),
        ({"config": "../outside.toml"}, "config: '../outside.toml' is outside the workspace"),
        ({"config": "/etc/hostname"}, "config: '/etc/hostname' is outside the workspace"),
        ({"templates-dir": "../outside"}, "templates_dir: '../outside' is outside the workspace"),
        ({"commit": "perhaps"}, "commit: 'perhaps' is not a boolean"),
        ({"committer": "just a name"}, "committer: 'just a name' is not of the form"),
        ({"url-style": "pretty"}, "url_style: 'pretty' is not one of"),
        ({"max-urls": "0"}, "max_urls: 0 is out of range"),
        ({"base-url": "ftp://example.com/"}, "base_url: 'ftp://example.com/' must be"),
    ],
    ids=lambda value: str(value)[:30],
)
def test_bad_inputs_give_one_error_and_commit_nothing(
    project: Project, inputs: dict[str, str], expected: str
) -> None:
    (project.root / "outside").mkdir()
    before = head(project.remote)

    run = run_action(project.workspace, {"base-url": BASE_URL, **inputs})

    assert run.returncode == 1
    (error,) = run.lines("::error")
    assert error.startswith("::error title=sitemill::")
    assert expected.replace(":", "") in error.replace(":", ""), error
    assert head(project.remote) == before
    assert git(project.workspace, "status", "--porcelain") == b""
    assert run.outputs == {}


def test_the_entry_ignores_an_action_folder_in_the_workspace(project: Project) -> None:
    # With plain `python -m`, the current directory would shadow the action's own entry.
    decoy = project.workspace / "action"
    decoy.mkdir()
    (decoy / "__main__.py").write_text("raise SystemExit('decoy ran')\n", encoding="utf-8")

    run = run_action(project.workspace, {"base-url": BASE_URL, "commit": "false"})

    assert run.returncode == 0, run.stderr
    assert "decoy" not in run.stderr


# --- the pieces ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "data", "prop"),
    [
        ("plain", "plain", "plain"),
        ("50% done", "50%25 done", "50%25 done"),
        ("a\r\nb", "a%0D%0Ab", "a%0D%0Ab"),
        ("dir/a:b,c.html", "dir/a:b,c.html", "dir/a%3Ab%2Cc.html"),
        ("%0A", "%250A", "%250A"),
        ("::error::x", "::error::x", "%3A%3Aerror%3A%3Ax"),
    ],
)
def test_workflow_command_escaping(text: str, data: str, prop: str) -> None:
    assert escape_data(text) == data
    assert escape_property(text) == prop


def test_an_annotation_stays_on_one_line() -> None:
    line = workflow_command("warning", "two\nlines", file="a,b:c\n.html", title="t")
    # The message's newline is shown as an escape; the file's is escaped for the runner.
    assert line == "::warning file=a%2Cb%3Ac%0A.html,title=t::two\\x0alines"


@pytest.mark.parametrize(
    ("text", "name", "email"),
    [
        (BOT, "github-actions[bot]", "41898282+github-actions[bot]@users.noreply.github.com"),
        ("  Jane Q. Doe <jane@example.com> ", "Jane Q. Doe", "jane@example.com"),
    ],
)
def test_identity_parse(text: str, name: str, email: str) -> None:
    assert GitIdentity.parse(text) == GitIdentity(name, email)


@pytest.mark.parametrize("text", ["", "Jane", "<jane@example.com>", "Jane <jane>", "A\nB <a@b.c>"])
def test_identity_parse_rejects(text: str) -> None:
    with pytest.raises(ConfigError, match="committer"):
        GitIdentity.parse(text)


def test_redact_hides_user_info_in_urls() -> None:
    text = "fatal: unable to access 'https://x-access-token:abc123@github.com/o/r.git/'"
    assert redact(text) == "fatal: unable to access 'https://***@github.com/o/r.git/'"


def test_empty_inputs_leave_the_config_file_in_charge(tmp_path: Path) -> None:
    (tmp_path / "sitemill.toml").write_text(
        f'base_url = "{BASE_URL}"\ngzip = true\nmax_urls = 10\n', encoding="utf-8"
    )
    env = {
        "GITHUB_WORKSPACE": str(tmp_path),
        "SITEMILL_GZIP": "",
        "SITEMILL_MAX_URLS": "20",
        "SITEMILL_ACTION_PATH": ".",
        "SITEMILL_ACTION_COMMIT": "",
    }

    settings = read_inputs(env, Path("/nonexistent"))

    assert settings.config.gzip is True
    assert settings.config.max_urls == 20
    assert settings.commit is True
    assert settings.site_dir == settings.out_dir == tmp_path.resolve()


def test_outputs_survive_values_that_look_like_syntax(project: Project) -> None:
    # Run in-process: the multi-line files output and a delimiter-like line come back intact.
    (project.workspace / "a<<EOF.html").write_text(page("odd"), encoding="utf-8")
    output = project.root / "out.txt"
    output.write_text("earlier=1\n", encoding="utf-8")
    env = {
        **runner_env(project.root),
        "GITHUB_WORKSPACE": str(project.workspace),
        "GITHUB_OUTPUT": str(output),
        "SITEMILL_BASE_URL": BASE_URL,
        "SITEMILL_MAX_URLS": "2",
        "SITEMILL_ACTION_COMMIT": "false",
    }
    stdout, stderr = io.StringIO(), io.StringIO()

    assert run_github_action(env, project.workspace, stdout, stderr) == 0, stdout.getvalue()
    outputs = parse_outputs(output.read_text(encoding="utf-8"))
    assert outputs["earlier"] == "1"
    index, *children = outputs["files"].split("\n")
    assert index == "sitemap.xml"
    assert len(children) == 2 and all(SHARD_CHILD.fullmatch(name) for name in children)
    assert outputs["url-count"] == "4"


def test_summary_code_spans_hold_backticks() -> None:
    report = Report(WriteResult(files=["sitemap.xml"], url_count=1), LastmodMode.GIT)
    text = render_summary(report, ["we`ird/sitemap.xml"], None, "commit is false", [])
    assert "- Entry file: `` we`ird/sitemap.xml `` (lastmod from git)" in text


# --- what a checkout may link to ---------------------------------------------------------------


def settings_env(workspace: Path, **inputs: str) -> dict[str, str]:
    env = {"GITHUB_WORKSPACE": str(workspace), "SITEMILL_BASE_URL": BASE_URL}
    for name, value in inputs.items():
        key = name.replace("_", "-")
        env[ACTION_INPUT_ENV.get(key) or CONFIG_INPUT_ENV[key]] = value
    return env


def test_a_config_linked_out_of_the_workspace_is_an_error(tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    outside = tmp_path / "outside.toml"
    outside.write_text(f'base_url = "{BASE_URL}"\n', encoding="utf-8")
    (workspace / "conf.toml").symlink_to(outside)
    with pytest.raises(
        ConfigError,
        match=r"config: 'conf\.toml' leads outside the workspace through a symbolic link",
    ):
        read_inputs(settings_env(workspace, config="conf.toml"), tmp_path)
    # Found rather than named: a sitemill.toml linked out is refused the same way.
    (workspace / "sitemill.toml").symlink_to(outside)
    with pytest.raises(
        ConfigError, match=r"'sitemill\.toml' leads outside the workspace through a symbolic link"
    ):
        read_inputs(settings_env(workspace), tmp_path)
    # A linked directory on the way counts the same.
    (workspace / "conf").symlink_to(tmp_path)
    with pytest.raises(ConfigError, match=r"config: 'conf/outside\.toml' leads outside"):
        read_inputs(settings_env(workspace, config="conf/outside.toml"), tmp_path)


def test_an_output_dir_linked_out_of_the_workspace_is_an_error(tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (tmp_path / "elsewhere").mkdir()
    (workspace / "public").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(ConfigError, match="output-dir: 'public' leads outside the workspace"):
        read_inputs(settings_env(workspace, output_dir="public"), tmp_path)


def test_a_config_linked_inside_the_workspace_is_read(tmp_path: Path) -> None:
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github" / "sitemill.toml").write_text('url_style = "file"\n', encoding="utf-8")
    (tmp_path / "sitemill.toml").symlink_to(".github/sitemill.toml")
    settings = read_inputs(settings_env(tmp_path), tmp_path)
    assert settings.config.url_style.value == "file"


@pytest.mark.parametrize("value", ["../tpl", "/", "linked"])
def test_templates_dir_must_stay_in_the_workspace(tmp_path: Path, value: str) -> None:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (tmp_path / "tpl").mkdir()
    (workspace / "linked").symlink_to(tmp_path / "tpl")
    with pytest.raises(ConfigError, match=r"templates_dir: .*outside the workspace"):
        read_inputs(settings_env(workspace, templates_dir=value), tmp_path)
    (workspace / "sitemill.toml").write_text(f'templates_dir = "{value}"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"templates_dir: .* leads outside"):
        read_inputs(settings_env(workspace), tmp_path)


def leaked(remote: Path, secret: str) -> bool:
    history = git(remote, "log", "--all", "-p", "--format=%H %s").decode()
    return secret in history


def test_a_robots_txt_linked_to_the_git_config_is_never_committed(project: Project) -> None:
    secret = "ghp_SECRETTOKEN0123456789"
    git(project.workspace, "config", "http.extraheader", f"AUTHORIZATION: basic {secret}")
    robots = project.workspace / "robots.txt"
    robots.unlink()
    robots.symlink_to(".git/config")
    before = head(project.remote)

    run = run_action(project.workspace, {"base-url": BASE_URL, "robots-txt": "true"})

    # robots.txt is merged, not replaced: a link there is refused, neither read nor written.
    assert run.returncode == 1
    (error,) = run.lines("::error")
    assert "refusing to read or replace" in error and "symbolic link" in error
    assert secret not in run.stdout + run.stderr
    assert head(project.remote) == before and not leaked(project.remote, secret)
    assert robots.is_symlink()


def test_a_robots_txt_linked_out_of_the_site_is_ignored_with_a_warning(project: Project) -> None:
    secret = "ghp_SECRETTOKEN0123456789"
    git(project.workspace, "config", "http.extraheader", f"AUTHORIZATION: basic {secret}")
    robots = project.workspace / "robots.txt"
    robots.unlink()
    robots.symlink_to(".git/config")

    run = run_action(
        project.workspace, {"base-url": BASE_URL, "robots-txt": "true", "output-dir": "public"}
    )

    assert run.returncode == 0, run.stdout + run.stderr
    (warning,) = [line for line in run.lines("::warning") if "ignoring the site's" in line]
    assert "robots.txt leads to a hidden path" in warning
    assert remote_file(project.remote, "public/robots.txt") == (f"Sitemap: {BASE_URL}sitemap.xml\n")
    assert not leaked(project.remote, secret)
    # its "Disallow: /drafts/" was not read either: the drafts are listed
    assert "drafts/wip.html" in remote_file(project.remote, "public/sitemap.xml")


# --- which pages are listed: the page checks as the Action reports them -----------------------

# The shape of the Jinja macro file pydata-sphinx-theme generates (webpack.config.js).
MACRO_FILE = (
    "<!--\n  AUTO-GENERATED from webpack.config.js, do **NOT** edit by hand.\n-->\n"
    "{# Load FontAwesome icons #}\n"
    "{% macro head_pre_icons() %}\n"
    '  <link href="{{ pathto(\'_static/styles/theme.css\', 1) }}" rel="stylesheet">\n'
    "{% endmacro %}\n"
)
CHECKED_PAGES: dict[str | bytes, str | bytes | None] = {
    # mkdocs-redirects: a stub at the old address of a page that moved
    "old/index.html": page("Redirecting", '<meta http-equiv="refresh" content="1; url=../">'),
    # Hugo's paginator: page 2 names the section as its canonical
    "posts/index.html": page("Posts"),
    "posts/page/2/index.html": page(
        "Posts", '<link rel="canonical" href="https://example.com/posts/">'
    ),
    # the Jinja macro file pydata-sphinx-theme ships (in _static/, a built-in exclude), copied
    # where no built-in exclude leaves it out
    "layouts/macros.html": MACRO_FILE,
    "google0123456789abcdef.html": "google-site-verification: google0123456789abcdef.html",
    "node_modules/pkg/README.html": page("A package's readme"),
    # a wrong site URL in the generator's config
    "guide.html": page("Guide", '<link rel="canonical" href="https://old.example/guide.html">'),
}


def test_page_checks_are_counted_annotated_and_warned(project: Project) -> None:
    commit(project.workspace, CHECKED_PAGES, when=SEED_TIME, message="More pages")

    run = run_action(project.workspace, {"base-url": BASE_URL, "commit": "false"})

    assert run.returncode == 0, run.stdout + run.stderr
    warnings = run.lines("::warning")
    # The run's warnings come first: the runner shows only a step's first few annotations.
    assert warnings[:2] == [
        "::warning title=sitemill::1 listed page(s) declare a canonical URL off this site "
        "(https://example.com/), e.g. guide.html names https://old.example/guide.html: check "
        "the generator's site URL setting (site_url, baseURL, html_baseurl, url)",
        "::warning title=sitemill::listed 1 page(s) under node_modules/, e.g. "
        "node_modules/pkg/README.html: third-party files? exclude them with "
        'exclude = ["**/node_modules/**"]',
    ]
    assert sorted(warnings[2:]) == [
        "::warning file=drafts/wip.html,title=sitemill skipped this page::"
        "not in the sitemap: robots.txt (disallowed for User-agent: *)",
        "::warning file=layouts/macros.html,title=sitemill skipped this page::"
        "not in the sitemap: not a page (not an HTML document)",
        # (the redirect stub and the paginator's canonical: routine, in the summary only)
        "::warning file=private.html,title=sitemill skipped this page::"
        "not in the sitemap: noindex (robots meta noindex)",
    ]
    assert run.outputs["url-count"] == "6"
    summary = run.summary
    assert "Skipped 7 pages:" in summary
    rows = [line for line in summary.splitlines() if line.startswith("| ")]
    assert rows == [
        "| reason | pages | why |",
        "| --- | ---: | --- |",
        # the project's 404.html and the verification file: counted, never annotated
        "| excluded | 2 | a 404 page, a `_static/` theme asset, a search-engine verification file, "
        "or a `[[rules]]` exclude |",
        "| not a page | 1 | an .html file that is no HTML document (a template, a macro file) |",
        "| robots.txt | 1 | the site's robots.txt disallows it (`respect-robots-txt`) |",
        "| noindex | 1 | its robots meta tag says noindex (`respect-noindex`) |",
        "| redirect | 1 | a meta refresh redirect stub (`respect-redirects`) |",
        "| canonical | 1 | its canonical is another page of this sitemap (`respect-canonical`) |",
    ]
    # Each warning once, as plain text: no bold "/node_modules/" from the glob's stars.
    assert summary.count("> [!WARNING]") == 2
    assert (
        "> listed 1 page(s) under node\\_modules/, e.g. node\\_modules/pkg/README.html: "
        'third-party files? exclude them with exclude = \\["\\*\\*/node\\_modules/\\*\\*"\\]'
    ) in summary
    assert "e.g. guide.html names https://old.example/guide.html: check" in summary
    assert summary.index("[!WARNING]") < summary.index("Skipped 7 pages")


def test_a_healthy_sites_routine_skips_make_no_annotation(project: Project) -> None:
    """Hugo writes a redirect stub for each list's page/1/ (45 on a healthy blog): on every push
    45 warnings taught a user to ignore the annotations. Routine skips are counted in the
    summary; what a user may not expect (noindex) is still annotated."""
    stubs: dict[str | bytes, str | bytes | None] = {
        f"tags/t{n}/page/1/index.html": page(
            "Redirect", f'<meta http-equiv="refresh" content="0; url=/tags/t{n}/">'
        )
        for n in range(45)
    }
    commit(project.workspace, stubs, when=SEED_TIME, message="Aliases")

    run = run_action(project.workspace, {"base-url": BASE_URL, "commit": "false"})

    assert run.returncode == 0, run.stdout + run.stderr
    assert [line for line in run.lines("::warning") if "redirect" in line] == []
    assert sorted(run.lines("::warning")) == [
        "::warning file=drafts/wip.html,title=sitemill skipped this page::"
        "not in the sitemap: robots.txt (disallowed for User-agent: *)",
        "::warning file=private.html,title=sitemill skipped this page::"
        "not in the sitemap: noindex (robots meta noindex)",
    ]
    assert "| redirect | 45 | a meta refresh redirect stub (`respect-redirects`) |" in run.summary


def test_a_base_url_the_canonicals_contradict_is_asked_about(project: Project) -> None:
    # A site served over https (its canonicals say so), built with http:// by mistake.
    pages = {
        name: page(name, f'<link rel="canonical" href="https://example.com/{name}">')
        for name in ("about.html", "blog/post.html", "guide.html")
    }
    commit(project.workspace, pages, when=SEED_TIME, message="Canonicals")

    # (without allow-base-url-mismatch the step fails: tests/github/test_action_mistakes.py)
    inputs = {"base-url": "http://example.com/", "commit": "false"}
    run = run_action(project.workspace, {**inputs, "allow-base-url-mismatch": "true"})

    assert run.returncode == 0, run.stdout + run.stderr
    question = (
        "all 3 pages with a canonical URL declare it under https://example.com/, not under the "
        "base URL http://example.com/, e.g. about.html names https://example.com/about.html: "
        "is --base-url right? If it is, fix the generator's site URL setting (site_url, "
        "baseURL, html_baseurl, url)"
    )
    assert run.lines("::warning")[0] == f"::warning title=sitemill::{question}"
    assert not [line for line in run.lines("::warning") if "off this site" in line]
    assert f"> {markdown_text(question)}" in run.summary


def test_a_project_site_built_at_its_owners_root_is_asked_about(project: Project) -> None:
    inputs = {"base-url": "https://owner.github.io/", "commit": "false"}
    repository = {"GITHUB_REPOSITORY": "owner/project"}

    run = run_action(project.workspace, inputs, inherited=repository)

    assert run.returncode == 0, run.stdout + run.stderr
    question = (
        "owner/project is a GitHub Pages project site, served at https://owner.github.io/project/"
        ", but the base URL is https://owner.github.io/ (its path left out): is base-url right? "
        "(if the site is deployed to owner.github.io from another repository, it is)"
    )
    assert run.lines("::warning")[0] == f"::warning title=sitemill::{question}"
    assert f"> {markdown_text(question)}" in run.summary
    right = {"base-url": "https://owner.github.io/project/", "commit": "false"}
    again = run_action(project.workspace, right, inherited=repository)
    assert not [line for line in again.lines("::warning") if "project site" in line]


def test_respect_redirects_and_respect_canonical_inputs(project: Project) -> None:
    commit(project.workspace, CHECKED_PAGES, when=SEED_TIME, message="More pages")

    run = run_action(
        project.workspace,
        {
            "base-url": BASE_URL,
            "commit": "false",
            "respect-redirects": "false",
            "respect-canonical": "false",
        },
    )

    assert run.returncode == 0, run.stdout + run.stderr
    assert run.outputs["url-count"] == "8"
    sitemap = (project.workspace / "sitemap.xml").read_text(encoding="utf-8")
    assert "<loc>https://example.com/old/</loc>" in sitemap
    assert "<loc>https://example.com/posts/page/2/</loc>" in sitemap
    assert "| redirect |" not in run.summary and "| canonical |" not in run.summary
    # With canonicals not read, none is reported as pointing off the site.
    assert not [line for line in run.lines("::warning") if "canonical" in line]


@pytest.mark.parametrize(
    ("value", "expected"), [("false", False), ("true", True), ("", True), ("no", False)]
)
def test_page_check_switches_reach_the_config(tmp_path: Path, value: str, expected: bool) -> None:
    env = settings_env(tmp_path, respect_redirects=value, respect_canonical=value)
    config = read_inputs(env, tmp_path).config
    assert (config.respect_redirects, config.respect_canonical) == (expected, expected)


def test_every_skip_reason_is_explained_in_the_summary() -> None:
    assert set(SKIP_REASONS) == set(SkipReason)
    report = Report(WriteResult(files=["sitemap.xml"], url_count=1), LastmodMode.GIT)
    for number, reason in enumerate(SkipReason, start=1):
        report.skipped[reason] = number * 1000
    text = render_summary(report, ["sitemap.xml"], None, "commit is false", [])
    rows = [line.split(" | ")[:2] for line in text.splitlines() if line.startswith("| ")][2:]
    assert rows == [
        [f"| {reason.value}", f"{n * 1000:,}"] for n, reason in enumerate(SkipReason, 1)
    ]
    assert "Skipped 45,000 pages:" in text


@pytest.mark.parametrize(
    ("text", "markdown"),
    [
        ("plain words", "plain words"),
        ("two\nlines  and  spaces", "two lines and spaces"),
        ('exclude = ["**/node_modules/**"]', 'exclude = \\["\\*\\*/node\\_modules/\\*\\*"\\]'),
        ('<meta http-equiv="refresh">', '\\<meta http-equiv="refresh"\\>'),
        ("a | b `c` #d ~e &amp; f! \\", "a \\| b \\`c\\` \\#d \\~e \\&amp; f\\! \\\\"),
        # URLs stay as they are, for GitHub to link them
        (
            "e.g. _x.html names https://a.example/_b_/*c*.html: fix",
            "e.g. \\_x.html names https://a.example/_b_/*c*.html: fix",
        ),
    ],
)
def test_summary_warnings_are_plain_text(text: str, markdown: str) -> None:
    assert markdown_text(text) == markdown


def test_summary_shows_images_and_the_site_chrome_left_out() -> None:
    report = Report(WriteResult(files=["sitemap.xml"], url_count=30), LastmodMode.GIT)
    report.images, report.image_chrome = 30, 60
    text = render_summary(report, ["sitemap.xml"], None, "commit is false", [])
    assert "- extensions: 30 images, 60 site-chrome images left out\n" in text


def charts(summary: str) -> list[list[str]]:
    """The Mermaid blocks of a job summary, each as its lines."""
    blocks = re.findall(r"^```mermaid\n(.*?)^```$", summary, flags=re.MULTILINE | re.DOTALL)
    return [block.splitlines() for block in blocks]
