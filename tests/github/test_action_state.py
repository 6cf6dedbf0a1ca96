"""The Action's state: committed with the sitemaps, or started from the live site's copy
(served on 127.0.0.1) for a site a workflow builds fresh; inputs kept inside the workspace."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_action import (  # noqa: F401 (no_network: a fixture)
    BASE_URL,
    STATE,
    Project,
    make_project,
    no_network,
    page,
    remote_commit,
    run_action,
    settings_env,
)

from gitutil import git, head
from livesite import recording_server
from sitemill.config.model import LastmodMode
from sitemill.errors import ConfigError
from sitemill.github.settings import read_inputs
from sitemill.github.summary import render_summary
from sitemill.report import Report, WriteResult

pytestmark = pytest.mark.usefixtures("no_network")


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path)


PAGES = {"index.html": page("Home"), "docs/guide.html": page("Guide"), "a.pdf": "%PDF-1.4"}
BUILT = 1_709_294_400  # 2024-03-01T12:00:00Z: when the first deploy's build ran


def lastmods(path: Path) -> dict[str, str]:
    text = "".join(path.read_text(encoding="utf-8").split())
    return dict(re.findall(r"<loc>([^<]*)</loc><lastmod>([^<]*)</lastmod>", text))


def build_site(workspace: Path, when: int, *, spread: bool = False) -> Path:
    """A site as a static site generator leaves it in a workflow: every file new (``spread``:
    each 40 days older than the one before, as a site uploaded page by page)."""
    public = workspace / "public"
    for index, (name, content) in enumerate(PAGES.items()):
        path = public / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
        stamp = when - index * 40 * 86_400 if spread else when
        os.utime(path, (stamp, stamp))
    return public


def deploy(public: Path, served: Path) -> None:
    shutil.rmtree(served)
    shutil.copytree(public, served)


def test_a_site_built_fresh_keeps_its_dates_through_the_live_sites_state(
    tmp_path: Path, live_site: tuple[Path, str]
) -> None:
    served, base_url = live_site
    inputs = {"base-url": base_url, "path": "public", "commit": "false"}
    first_workspace = tmp_path / "run-1"
    public = build_site(first_workspace, BUILT)

    first = run_action(first_workspace, inputs)

    assert first.returncode == 0, first.stdout + first.stderr
    # The first deploy: nothing published yet, a notice (not a warning), and no date: the
    # files are one build's (before: the build's time on every page).
    (notice,) = first.lines("::notice")
    assert f"no state at {base_url}{STATE} yet" in notice
    assert "never by the build's time" in notice
    assert first.lines("::warning") == []
    assert (
        "lastmod: 3 without a date: no evidence on a first run (file times are one build's)"
        in first.summary
    )
    assert lastmods(public / "sitemap.xml") == {}
    assert "> [!NOTE]" in first.summary
    assert (public / STATE).is_file()
    assert first.outputs["files"] == "public/sitemap.xml"  # the state is no sitemap file
    deploy(public, served)
    published = lastmods(public / "sitemap.xml")

    # The next workflow run builds every file again, a day later; nothing changed for a reader.
    second_workspace = tmp_path / "run-2"
    public = build_site(second_workspace, BUILT + 86_400)

    second = run_action(second_workspace, inputs)

    assert second.returncode == 0, second.stdout + second.stderr
    assert second.lines("::notice") == second.lines("::warning") == []
    # Still no build's time on any page: undated, the content unchanged.
    assert "- lastmod: 3 without a date: unchanged, and the state remembers none" in second.summary
    assert lastmods(public / "sitemap.xml") == published == {}
    assert (public / STATE).read_bytes() == (served / STATE).read_bytes()


def test_an_unreachable_live_site_is_a_notice_and_plain_dates(tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    build_site(workspace, BUILT)

    run = run_action(workspace, {"base-url": BASE_URL, "path": "public", "commit": "false"})

    assert run.returncode == 0, run.stdout + run.stderr
    (notice,) = run.lines("::notice")
    assert notice.startswith(
        f"::notice title=sitemill::cannot fetch the previous state {BASE_URL}{STATE}: "
    )
    assert notice.endswith("; a first run")
    assert run.lines("::warning") == []
    assert (workspace / "public" / "sitemap.xml").is_file()


def test_a_previous_state_input_that_cannot_be_fetched_is_a_warning(tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    build_site(workspace, BUILT)
    url = "https://example.com/elsewhere/sitemill-state.json.gz"
    inputs = {"base-url": BASE_URL, "path": "public", "commit": "false", "previous-state": url}

    run = run_action(workspace, inputs)

    assert run.returncode == 0, run.stdout + run.stderr
    assert run.lines("::notice") == []
    (warning,) = run.lines("::warning")
    assert f"cannot fetch the previous state {url}" in warning


def test_a_previous_state_file_in_the_workspace(
    tmp_path: Path, live_site: tuple[Path, str]
) -> None:
    _, base_url = live_site
    first_workspace = tmp_path / "run-1"
    public = build_site(first_workspace, BUILT, spread=True)
    inputs = {"base-url": base_url, "path": "public", "commit": "false"}
    assert run_action(first_workspace, inputs).returncode == 0
    published = lastmods(public / "sitemap.xml")
    assert len(published) == 3  # (by the spread mtimes)
    second_workspace = tmp_path / "run-2"
    public = build_site(second_workspace, BUILT + 60)
    (second_workspace / "cache").mkdir()
    shutil.copy(first_workspace / "public" / STATE, second_workspace / "cache" / "state.gz")

    run = run_action(second_workspace, {**inputs, "previous-state": "cache/state.gz"})

    assert run.returncode == 0, run.stdout + run.stderr
    assert "- lastmod: 3 kept" in run.summary
    assert lastmods(public / "sitemap.xml") == published


def test_the_state_input_keeps_it_elsewhere_and_out_of_the_commit(project: Project) -> None:
    run = run_action(project.workspace, {"base-url": BASE_URL, "state": ".cache/state.json.gz"})

    assert run.returncode == 0, run.stdout + run.stderr
    assert (project.workspace / ".cache" / "state.json.gz").is_file()
    assert not (project.workspace / STATE).exists()
    assert remote_commit(project.remote)["changes"] == ["A\tsitemap.xml"]
    assert run.lines("::notice") == []  # a state of its own: the live site is not asked


def test_the_committed_state_is_read_next_time_and_the_live_site_is_not_asked(
    project: Project,
) -> None:
    first = run_action(project.workspace, {"base-url": BASE_URL})
    assert first.returncode == 0, first.stderr
    assert len(first.lines("::notice")) == 1  # the live site (here: unreachable)
    pushed = head(project.remote)

    second = run_action(project.workspace, {"base-url": BASE_URL})

    assert second.returncode == 0, second.stderr
    assert second.lines("::notice") == []
    assert head(project.remote) == pushed
    assert "- lastmod: 3 kept" in second.summary


def test_an_ignored_state_is_a_warning_and_the_sitemaps_are_still_committed(
    project: Project,
) -> None:
    (project.workspace / ".git" / "info" / "exclude").write_text(f"{STATE}\n", encoding="utf-8")

    run = run_action(project.workspace, {"base-url": BASE_URL})

    assert run.returncode == 0, run.stdout + run.stderr
    assert remote_commit(project.remote)["changes"] == ["A\tsitemap.xml"]
    (warning,) = [line for line in run.lines("::warning") if STATE in line]
    assert "git ignores sitemill-state.json.gz (.gitignore), so it is not committed" in warning
    assert (project.workspace / STATE).is_file()
    assert git(project.workspace, "status", "--porcelain") == b""


def test_content_dates_off_keeps_and_commits_no_state(project: Project) -> None:
    run = run_action(project.workspace, {"base-url": BASE_URL, "content-dates": "false"})

    assert run.returncode == 0, run.stdout + run.stderr
    assert remote_commit(project.remote)["changes"] == ["A\tsitemap.xml"]
    assert not (project.workspace / STATE).exists()
    assert run.lines("::notice") == []
    assert "- lastmod: " not in run.summary


def test_fingerprint_ignore_input_reaches_the_config(tmp_path: Path) -> None:
    env = settings_env(tmp_path, fingerprint_ignore="Last updated on [^<]*\nbuild [0-9]+")
    patterns = read_inputs(env, tmp_path).config.fingerprint_ignore
    assert [pattern.pattern for pattern in patterns] == ["Last updated on [^<]*", "build [0-9]+"]


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        ({"state": "../outside.gz"}, "state: '../outside.gz' is outside the workspace"),
        ({"state": "/tmp/state.gz"}, "state: '/tmp/state.gz' is outside the workspace"),
        ({"state": "s3://bucket/state.gz"}, "the Action keeps the state in a file"),
        ({"state": ".git/config"}, "state: '.git/config' is inside .git"),
        ({"previous_state": "../s.gz"}, "previous_state: '../s.gz' is outside the workspace"),
    ],
)
def test_state_inputs_stay_in_the_workspace(
    tmp_path: Path, inputs: dict[str, str], message: str
) -> None:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    with pytest.raises(ConfigError, match=re.escape(message)):
        read_inputs(settings_env(workspace, **inputs), workspace)


def test_a_state_in_the_config_file_stays_in_the_workspace(tmp_path: Path) -> None:
    (tmp_path / "sitemill.toml").write_text('state = "/home/runner/.bashrc"\n', encoding="utf-8")
    with pytest.raises(
        ConfigError, match=r"state: '/home/runner/\.bashrc' (is|in .*) (outside|leads outside)"
    ):
        read_inputs(settings_env(tmp_path), tmp_path)
    (tmp_path / "sitemill.toml").write_text('state = "keep/s.gz"\n', encoding="utf-8")
    assert read_inputs(settings_env(tmp_path), tmp_path).config.state == str(
        tmp_path.resolve() / "keep" / "s.gz"
    )


def test_a_previous_state_url_input_is_kept_as_it_is(tmp_path: Path) -> None:
    url = "https://example.com/sitemill-state.json.gz"
    settings = read_inputs(settings_env(tmp_path, previous_state=url), tmp_path)
    assert settings.config.previous_state == url


def test_the_summary_says_how_dates_were_decided() -> None:
    report = Report(WriteResult(files=["sitemap.xml"], url_count=10_000), LastmodMode.GIT)
    report.dates.update({"kept": 9_880, "new page": 100, "content changed": 20})
    text = render_summary(report, ["sitemap.xml"], None, "commit is false", [])
    lines = text.splitlines()
    assert lines[3] == "- lastmod: 9,880 kept, 120 moved (new page 100, content changed 20)"
    assert lines[2].startswith("- Entry file:")
    notes = render_summary(report, ["sitemap.xml"], None, "x", [], notices=["no *state* yet"])
    assert "> [!NOTE]\n> no \\*state\\* yet" in notes


@pytest.fixture
def recording() -> Iterator[tuple[list[str], str]]:
    with recording_server() as found:
        yield found


def test_previous_state_none_asks_the_live_site_nothing(
    tmp_path: Path, recording: tuple[list[str], str]
) -> None:
    asked, base_url = recording
    workspace = tmp_path / "workspace"
    build_site(workspace, BUILT)
    inputs = {"base-url": base_url, "path": "public", "commit": "false"}

    run = run_action(workspace, {**inputs, "previous-state": "none"})

    assert run.returncode == 0, run.stdout + run.stderr
    assert asked == []
    assert run.lines("::notice") == run.lines("::warning") == []
    assert "lastmod: 3 without a date: no evidence on a first run" in run.summary
    # Without it, the default asks the live site for its copy.
    build_site(tmp_path / "other", BUILT)
    assert run_action(tmp_path / "other", inputs).returncode == 0
    assert asked == [f"/{STATE}"]


def test_a_previous_state_input_that_is_not_there_is_a_warning(
    tmp_path: Path, recording: tuple[list[str], str]
) -> None:
    asked, base_url = recording
    workspace = tmp_path / "workspace"
    build_site(workspace, BUILT)
    url = f"{base_url}old/{STATE}"
    inputs = {"base-url": BASE_URL, "path": "public", "commit": "false", "previous-state": url}

    run = run_action(workspace, inputs)

    assert run.returncode == 0, run.stdout + run.stderr
    assert asked == [f"/old/{STATE}"]
    (warning,) = run.lines("::warning")
    assert f"no previous state at {url} (HTTP 404 or 410); a first run" in warning
