"""The Action's likely mistakes, as a runner runs its step: a base URL most pages' canonicals
contradict, or a ``path`` below the site's root, fail the step with one error and commit
nothing, unless ``allow-base-url-mismatch: true`` says the change is meant; and each warning
of a run is said once."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_action import (  # noqa: F401 (no_network: a fixture)
    Project,
    make_project,
    no_network,
    page,
    run_action,
    subjects,
)

from gitutil import commit, git
from sitemill.errors import ConfigError
from sitemill.github._mismatch import refuse_mismatch
from sitemill.github.settings import ACTION_INPUT_ENV, read_inputs
from sitemill.listing.siteurl import Declared

pytestmark = pytest.mark.usefixtures("no_network")

LIVE = "https://docs.example.org/"
# The site lives in public/; its pages' canonicals name them at LIVE.
SITE: dict[str | bytes, str | bytes | None] = {
    f"public/{path}": page(path, f'<link rel="canonical" href="{LIVE}{path}">')
    for path in ("index.html", "about.html", "blog/a.html", "blog/b.html", "blog/c.html")
}
BEFORE = ["Site", "Site", "Start"]  # the remote's subjects before any run


@pytest.fixture
def project(tmp_path: Path) -> Project:
    made = make_project(tmp_path)
    commit(made.workspace, SITE, when="2024-02-01T10:00:00+00:00", message="Site")
    git(made.workspace, "push", "-q", "origin", "main")
    return made


MISTAKES = {
    "another host": ({"base-url": "https://staging.example.net/", "path": "public"}, "base-url"),
    "a sub-folder": ({"base-url": LIVE, "path": "public/blog"}, "path"),
}


@pytest.mark.parametrize("name", MISTAKES)
def test_a_likely_mistake_fails_the_step_and_commits_nothing(project: Project, name: str) -> None:
    inputs, key = MISTAKES[name]
    run = run_action(project.workspace, inputs)
    assert run.returncode == 1, run.stdout + run.stderr
    (error,) = run.lines("::error")
    assert error.startswith(f"::error title=sitemill::{key}: ")
    assert "nothing was committed" in error and "allow-base-url-mismatch: true" in error
    if key == "path":  # how to fix it: the site's root
        assert "Set path to 'public'" in error and f"base-url to {LIVE}blog/" in error
    else:
        assert f"Set base-url to {LIVE}" in error
    assert subjects(project.remote) == BEFORE
    assert run.outputs.get("changed", "") != "true"


@pytest.mark.parametrize("name", MISTAKES)
def test_the_override_input_commits_the_change_meant(project: Project, name: str) -> None:
    inputs, _ = MISTAKES[name]
    run = run_action(project.workspace, {**inputs, "allow-base-url-mismatch": "true"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.lines("::error") == []
    assert subjects(project.remote) == ["Update sitemap", *BEFORE]
    # The warning stays: said once, as an annotation (not also as a log line).
    asked = [line for line in run.lines("::warning") if "is --base-url right?" in line]
    assert len(asked) == 1
    assert "is --base-url right?" not in run.stderr


def test_the_right_base_url_and_path_commit(project: Project) -> None:
    run = run_action(project.workspace, {"base-url": LIVE, "path": "public"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert subjects(project.remote) == ["Update sitemap", *BEFORE]


def test_a_bad_override_value_is_one_error(project: Project) -> None:
    run = run_action(
        project.workspace, {"base-url": LIVE, "path": "public", "allow-base-url-mismatch": "yes!"}
    )
    assert run.returncode == 1
    (error,) = run.lines("::error")
    assert "allow-base-url-mismatch" in error
    assert subjects(project.remote) == BEFORE


def test_each_warning_is_printed_once(project: Project) -> None:
    """A warning of the run (a page below a vendored folder) is one annotation, and no log
    line says it again."""
    vendored = {"public/node_modules/pkg/README.html": page("Readme")}
    commit(project.workspace, vendored, when="2024-02-02T10:00:00+00:00", message="Vendored")
    git(project.workspace, "push", "-q", "origin", "main")
    run = run_action(project.workspace, {"base-url": LIVE, "path": "public"})
    assert run.returncode == 0, run.stdout + run.stderr
    said = [line for line in (run.stdout + run.stderr).splitlines() if "node_modules/" in line]
    assert len(said) == 1 and said[0].startswith("::warning title=sitemill::listed 1 page(s)")


@pytest.mark.parametrize(
    ("path", "declared", "key", "advice"),
    [
        ("public/blog", f"{LIVE}blog/", "path", "Set path to 'public'"),
        ("blog", f"{LIVE}blog/", "path", "Set path to '.'"),
        ("public/my blog", f"{LIVE}my%20blog/", "path", "Set path to 'public'"),
        # A folder whose name only ends like the declared one is no sub-folder of it.
        ("public/myblog", f"{LIVE}blog/", "base-url", f"Set base-url to {LIVE}blog/"),
        ("public", "https://staging.example.net/", "base-url", "Set base-url to https://staging"),
    ],
)
def test_the_error_names_what_to_fix(
    tmp_path: Path, path: str, declared: str, key: str, advice: str
) -> None:
    (tmp_path / path).mkdir(parents=True)
    env = {"GITHUB_WORKSPACE": str(tmp_path), "SITEMILL_BASE_URL": LIVE}
    env[ACTION_INPUT_ENV["path"]] = path
    evidence = [Declared(declared, "canonical on 5 of 5 pages", strong=True)]
    with pytest.raises(ConfigError) as raised:
        refuse_mismatch(read_inputs(env, tmp_path), evidence)
    assert raised.value.key == key and advice in str(raised.value)
    env[ACTION_INPUT_ENV["allow-base-url-mismatch"]] = "true"
    refuse_mismatch(read_inputs(env, tmp_path), evidence)  # (meant: no error)
