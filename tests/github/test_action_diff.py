"""`command: diff` on a pull request, the run step played as a runner plays it on a
`pull_request` event (bash, the event's file, a detached merge checkout, a bare remote): the
summary, an annotation per gone URL and the counts as outputs; nothing written into the site,
nothing committed or pushed. The stand (tests/enginestand.py) on 127.0.0.1 is the live site
that serves the last deploy's state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_action import Project, Run, make_project, no_network, page, run_action  # noqa: F401

from enginestand import Stand
from gitutil import commit, git

pytestmark = pytest.mark.usefixtures("no_network")
STATE = "sitemill-state.json.gz"
PR_TIME = "2024-07-01T09:00:00+00:00"
REDIRECT_STUB = '<!doctype html><meta http-equiv="refresh" content="0; url=/">'


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path)


def deployed(project: Project, stand: Stand) -> str:
    """Build main as its deploy does and publish the state on the live site; the checkout
    is left clean (a pull request's job starts from a fresh checkout). The site's URL."""
    site = f"{stand.origin}/"
    built = run_action(project.workspace, {"base-url": site, "commit": "false"})
    assert built.returncode == 0, built.stdout + built.stderr
    state = (project.workspace / STATE).read_bytes()
    stand.files["/" + STATE] = (200, state, {"Content-Type": "application/gzip"})
    git(project.workspace, "clean", "-qfdx")
    stand.requests.clear()  # (the build asked for the live site's state: none yet)
    return site


def pull_request(project: Project, files: dict[str | bytes, str | bytes | None]) -> Path:
    """The change on a branch, checked out as actions/checkout checks out a pull request:
    the merge commit, detached. The event's file, for GITHUB_EVENT_PATH."""
    work = project.workspace
    git(work, "checkout", "-q", "-b", "change")
    commit(work, files, when=PR_TIME, message="Change")
    git(work, "push", "-q", "origin", "change")
    git(work, "checkout", "-q", "--detach", "main")
    git(work, "merge", "-q", "--no-ff", "-m", "Merge change", "change", when=PR_TIME)
    event = project.root / "event.json"
    event.write_text(json.dumps({"action": "synchronize", "number": 1, "pull_request": {
        "number": 1, "head": {"ref": "change"}, "base": {"ref": "main"}}}))  # fmt: skip
    return event


def refs(project: Project) -> str:
    return git(project.remote, "for-each-ref", "--format=%(refname) %(objectname)").decode()


def diff(project: Project, site: str, event: Path, **more: str) -> Run:
    inherited = {
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_REF": "refs/pull/1/merge",
    }
    inputs = {"base-url": site, "command": "diff", **more}  # (commit: true, the default)
    before, head = refs(project), git(project.workspace, "rev-parse", "HEAD")
    run = run_action(project.workspace, inputs, inherited=inherited)
    assert refs(project) == before  # nothing pushed
    assert git(project.workspace, "rev-parse", "HEAD") == head  # nothing committed
    assert git(project.workspace, "status", "--porcelain", "--ignored") == b""  # nor written
    return run


def annotations(run: Run) -> list[str]:
    return [line for line in run.stdout.splitlines() if "title=sitemill diff::" in line]


def test_a_removed_page_without_a_redirect_is_gone_annotated_and_counted(
    project: Project, stand: Stand
) -> None:
    site = deployed(project, stand)
    event = pull_request(project, {"about.html": None, "news.html": page("News")})

    run = diff(project, site, event)

    assert run.returncode == 0, run.stdout + run.stderr
    (line,) = annotations(run)
    assert line.startswith("::warning title=sitemill diff::")
    assert f"{site}about.html is removed and nothing redirects it" in line
    assert run.outputs == {"added": "1", "changed": "0", "removed": "1", "gone": "1"}
    assert "### sitemill diff: 1 URL added, 0 changed, 1 removed (1 gone)" in run.summary
    assert f"| {site}about.html | gone |" in run.summary
    assert f"- {site}news.html" in run.summary
    assert ("GET", "/" + STATE) in stand.requests
    assert "::group::sitemill: " in run.stdout and run.stdout.count("::endgroup::") >= 1


def test_fail_on_removed_makes_each_gone_url_an_error_and_fails_the_step(
    project: Project, stand: Stand
) -> None:
    site = deployed(project, stand)
    event = pull_request(project, {"about.html": None})
    run = diff(project, site, event, **{"fail-on-removed": "true"})
    assert run.returncode == 1, run.stdout + run.stderr
    (line,) = annotations(run)
    assert line.startswith("::error title=sitemill diff::") and "about.html" in line
    assert run.outputs["gone"] == "1"


def test_a_change_that_moves_no_url_counts_nothing_and_annotates_nothing(
    project: Project, stand: Stand
) -> None:
    site = deployed(project, stand)
    event = pull_request(project, {"README.md": "not a page, edited\n"})
    run = diff(project, site, event, **{"fail-on-removed": "true"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert annotations(run) == []
    assert run.outputs == {"added": "0", "changed": "0", "removed": "0", "gone": "0"}
    assert "(0 gone)" in run.summary and "#### Removed URLs" not in run.summary


def test_a_removed_page_with_a_redirect_stub_or_a_new_home_is_not_gone(
    project: Project, stand: Stand
) -> None:
    site = deployed(project, stand)
    moved = {"about.html": REDIRECT_STUB, "blog/post.html": None, "blog/a-post.html": page("Post")}
    run = diff(project, site, pull_request(project, moved), **{"fail-on-removed": "true"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert annotations(run) == []
    assert run.outputs == {"added": "1", "changed": "0", "removed": "2", "gone": "0"}
    assert f"| {site}about.html | redirected | {site} |" in run.summary
    assert f"| {site}blog/post.html | renamed | {site}blog/a-post.html (100% alike) |" in (
        run.summary
    )
    assert "#### 1 suggested redirect, in the netlify form" in run.summary
    assert "\n/blog/post.html  /blog/a-post.html  301\n```\n" in run.summary


def test_the_suggested_redirects_take_the_form_the_input_names(
    project: Project, stand: Stand
) -> None:
    site = deployed(project, stand)
    moved = {"blog/post.html": None, "blog/a-post.html": page("Post")}
    run = diff(project, site, pull_request(project, moved), **{"redirects-form": "s3-rules"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert "#### 1 suggested redirect, in the s3-rules form" in run.summary
    assert '"ReplaceKeyWith": "blog/a-post.html"' in run.summary
    assert "put-bucket-website" in run.summary.split("```text")[0]  # (its notes, above)


def test_a_live_site_without_a_state_yet_is_a_notice_and_nothing_to_compare(
    project: Project, stand: Stand
) -> None:
    site = deployed(project, stand)
    del stand.files["/" + STATE]  # (before the first deploy)
    run = diff(project, site, pull_request(project, {"about.html": None}))
    assert run.returncode == 0, run.stdout + run.stderr
    (notice,) = [line for line in run.stdout.splitlines() if line.startswith("::notice")]
    assert f"no state at {site}{STATE} yet" in notice
    assert run.outputs == {"added": "", "changed": "", "removed": "", "gone": ""}


def test_a_state_the_live_site_cannot_serve_fails_the_step(project: Project, stand: Stand) -> None:
    site = deployed(project, stand)
    stand.files["/" + STATE] = (500, b"oops", {})
    run = diff(project, site, pull_request(project, {"about.html": None}))
    assert run.returncode == 1
    (error,) = [line for line in run.stdout.splitlines() if line.startswith("::error")]
    assert "nothing to compare with" in error and "500" in error


def test_a_shallow_pull_request_checkout_is_deepened_as_a_build_s_is(
    project: Project, stand: Stand
) -> None:
    site = deployed(project, stand)
    pull_request(project, {"about.html": None})
    git(project.workspace, "push", "-q", "origin", "HEAD:refs/pull/1/merge")
    shallow = project.root / "shallow"  # (actions/checkout: fetch-depth 1 of the merge ref)
    git(project.root, "init", "-q", str(shallow))
    git(shallow, "remote", "add", "origin", str(project.remote))
    git(shallow, "fetch", "-q", "--depth", "1", "--no-tags", "origin", "refs/pull/1/merge")
    git(shallow, "checkout", "-q", "--detach", "FETCH_HEAD")
    before = refs(project)
    run = run_action(shallow, {"base-url": site, "command": "diff"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Deepened the shallow checkout" in run.stdout
    assert not [line for line in run.stdout.splitlines() if "shallow clone" in line]
    assert run.outputs["gone"] == "1" and refs(project) == before
    assert git(shallow, "status", "--porcelain", "--ignored") == b""


def test_the_state_in_the_checkout_comes_before_the_live_sites(
    project: Project, stand: Stand
) -> None:
    site = deployed(project, stand)
    state = stand.files.pop("/" + STATE)[1]
    commit(project.workspace, {STATE: state}, when=PR_TIME, message="The state, committed")
    git(project.workspace, "push", "-q", "origin", "main")
    run = diff(project, site, pull_request(project, {"about.html": None}))
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.outputs["gone"] == "1" and stand.requests == []
    assert f"Compared with the state at {STATE} in the checkout;" in run.summary


def test_previous_state_none_and_no_state_in_the_checkout_is_one_error(
    project: Project, stand: Stand
) -> None:
    site = deployed(project, stand)
    event = pull_request(project, {"about.html": None})
    run = diff(project, site, event, **{"previous-state": "none"})
    assert run.returncode == 1 and stand.requests == []
    (error,) = [line for line in run.stdout.splitlines() if line.startswith("::error")]
    assert "no state to compare with" in error and "previous-state is none" in error


def test_a_redirect_the_change_adds_to_its_redirects_file_is_not_gone(
    project: Project, stand: Stand
) -> None:
    site = deployed(project, stand)
    change = {"about.html": None, "_redirects": "/about.html  /  301\n"}
    run = diff(project, site, pull_request(project, change), **{"fail-on-removed": "true"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert annotations(run) == [] and run.outputs["gone"] == "0"
    assert f"| {site}about.html | redirected | {site} |" in run.summary
