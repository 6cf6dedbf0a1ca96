"""The Action deepens a shallow checkout (actions/checkout's default) before a build: the
history of every commit and the file versions up to 1 MiB, fetched once from a file:// remote
that allows filters, so old sources are read offline; said in one line, off with deepen."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_action import BASE_URL, no_network, page, run_action  # noqa: F401 (a fixture)

from gitutil import commit, git, make_repo, shallow_clone

pytestmark = pytest.mark.usefixtures("no_network")

BIG = 1_200_000  # over the 1 MiB limit: an image's old version stays on the server
INPUTS = {"base-url": BASE_URL, "path": "public", "commit": "false", "previous-state": "none"}


def shallow_checkout(tmp_path: Path, *, filters: bool = True) -> tuple[Path, Path]:
    """A remote with four commits (a text source edited, a big binary replaced), another
    branch and a tag, and a depth-1 checkout of it; returns (workspace, remote)."""
    seed = make_repo(tmp_path / "seed")
    commit(
        seed, {"docs/a.md": "# A\n", "img/photo.png": b"\x89PNG" + b"1" * BIG}, when="2024-01-01"
    )
    commit(seed, {"docs/a.md": "# A\n\nMore.\n"}, when="2024-02-01")
    commit(seed, {"img/photo.png": b"\x89PNG" + b"2" * BIG}, when="2024-03-01")
    commit(seed, {"docs/b.md": "# B\n"}, when="2024-04-01")
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(remote, "config", "uploadpack.allowFilter", "true" if filters else "false")
    git(seed, "push", "-q", str(remote), "HEAD:refs/heads/main", "HEAD~2:refs/heads/gh-pages")
    git(remote, "tag", "v1", "main~1")
    return checkout(tmp_path / "workspace", remote), remote


def checkout(workspace: Path, remote: Path) -> Path:
    """What actions/checkout does with its defaults (fetch-depth 1), then a build's folder."""
    shallow_clone(workspace, remote)
    public = workspace / "public"  # built by the workflow, never committed
    public.mkdir()
    (public / "index.html").write_text(page("Home"), encoding="utf-8")
    return workspace


def is_shallow(workspace: Path) -> bool:
    return git(workspace, "rev-parse", "--is-shallow-repository").strip() == b"true"


def missing_blobs(workspace: Path) -> set[str]:
    """Objects of HEAD's history that are not local (listed without fetching them)."""
    listed = git(workspace, "rev-list", "--objects", "--missing=print", "HEAD").decode()
    return {line[1:] for line in listed.split() if line.startswith("?")}


def test_a_shallow_checkout_is_deepened_without_the_big_binaries_old_versions(
    tmp_path: Path,
) -> None:
    workspace, remote = shallow_checkout(tmp_path)
    old_text = git(remote, "rev-parse", "main~3:docs/a.md").decode().strip()
    old_image = git(remote, "rev-parse", "main~3:img/photo.png").decode().strip()

    run = run_action(workspace, INPUTS)

    assert run.returncode == 0, run.stdout + run.stderr
    (said,) = [line for line in run.stdout.splitlines() if line.startswith("Deepened")]
    assert said.startswith(
        "Deepened the shallow checkout to its 4 commits, for the pages' source dates, "
        "with no file version over 1 MiB ("
    )
    assert said.endswith(" s; deepen: false turns this off)")
    assert not is_shallow(workspace)
    assert git(workspace, "rev-list", "--count", "HEAD").strip() == b"4"
    # Every old text version is local: read with the remote gone, nothing is fetched.
    assert missing_blobs(workspace) == {old_image}
    (remote).rename(tmp_path / "gone.git")
    assert git(workspace, "cat-file", "-p", old_text) == b"# A\n"
    assert run.lines("::warning") == []
    # Only the checked-out commit's history: no tag, not the remote's other branches.
    refs = git(workspace, "for-each-ref", "--format=%(refname)").split()
    assert refs == [b"refs/heads/main", b"refs/remotes/origin/main"]

    again = run_action(workspace, INPUTS)  # a checkout that is not shallow: nothing to say

    assert again.returncode == 0, again.stdout + again.stderr
    assert "Deepened" not in again.stdout


@pytest.mark.parametrize(
    "inputs",
    [{"deepen": "false"}, {"content-dates": "false"}, {"lastmod": "none"}],
    ids=["deepen-false", "no-content-dates", "no-lastmod"],
)
def test_no_deepening_when_turned_off_or_no_date_is_read(
    tmp_path: Path, inputs: dict[str, str]
) -> None:
    workspace, _ = shallow_checkout(tmp_path)

    run = run_action(workspace, INPUTS | inputs)

    assert run.returncode == 0, run.stdout + run.stderr
    assert "Deepened" not in run.stdout
    assert is_shallow(workspace)


def test_a_remote_that_cannot_be_reached_is_a_warning_and_the_build_goes_on(
    tmp_path: Path,
) -> None:
    workspace, remote = shallow_checkout(tmp_path)
    remote.rename(tmp_path / "gone.git")

    run = run_action(workspace, INPUTS)

    assert run.returncode == 0, run.stdout + run.stderr
    (warning,) = [line for line in run.lines("::warning") if "deepen" in line]
    assert "cannot deepen the shallow checkout (git fetch failed: " in warning
    assert "set fetch-depth: 0 on actions/checkout" in warning
    assert is_shallow(workspace)
    assert (workspace / "public" / "sitemap.xml").is_file()


def test_a_server_that_does_not_filter_sends_everything_and_the_line_says_so(
    tmp_path: Path,
) -> None:
    workspace, _ = shallow_checkout(tmp_path, filters=False)

    run = run_action(workspace, INPUTS)

    assert run.returncode == 0, run.stdout + run.stderr
    assert (
        "Deepened the shallow checkout to its 4 commits, for the pages' source dates, with "
        "every file version (the server does not filter) ("
    ) in run.stdout
    assert not is_shallow(workspace)
    assert missing_blobs(workspace) == set()
