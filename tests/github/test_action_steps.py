"""Every step of action.yml, in order, as a runner plays them (tests/actionsteps.py): the probe,
the input check, the cache's key, its restore, the install, its save and the run, wired by
their outputs. Offline: the action is a copy whose lock pins wheels of this environment's own
Jinja2 and MarkupSafe, served from a local folder. A warm job (the cache service holds what a
cold job saved) installs nothing; a cache that is not exactly what a cold job saved (a file
added, changed or missing, a link) is refused and installed afresh, and nothing of it runs;
with no index, the job stops at the install with one error line."""

from __future__ import annotations

import os
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from actionsteps import ROOT, Runner, action_copy, play
from clirun import run_sitemill
from enginestand import Stand
from gitutil import git
from scriptmodule import load_script

pytestmark = pytest.mark.heavy  # (run first: tests/conftest.py)

install = load_script(ROOT / "action" / "install.py", "action_install")
OFFLINE = {"PIP_NO_INDEX": "1"}  # a step that tried to download would fail
FROM_CACHE = "sitemill: dependencies from the cache"
AFRESH = "sitemill: dependencies installed and cached"


@pytest.fixture(scope="module")
def action(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The action's copy, and the environment that gives its jobs the local index."""
    base = tmp_path_factory.mktemp("action")
    links = base / "links"
    (base / "root").mkdir()
    root = action_copy(base / "root", links)
    return root, {**OFFLINE, "PIP_FIND_LINKS": str(links)}


@pytest.fixture(scope="module")
def saved(action: tuple[Path, dict[str, str]], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What a cold job saved in the cache service."""
    root, index = action
    service = tmp_path_factory.mktemp("service")
    runner = play(service, index, root=root)
    try:
        assert any(AFRESH in text for text in runner.log)
        assert runner.outputs["run"]["changed"] == "true"
    finally:
        shutil.rmtree(runner.scratch)
    (folder,) = service.iterdir()
    return folder


def service_of(saved: Path, tmp_path: Path) -> Path:
    """A cache service holding a copy of what the cold job saved."""
    shutil.copytree(saved, tmp_path / "service" / saved.name, symlinks=True)
    return tmp_path / "service"


def failed(
    service: Path, env: dict[str, str] | None = None, root: Path = ROOT, **inputs: str
) -> tuple[str, Runner]:
    with pytest.raises(RuntimeError) as caught:
        play(service, env or OFFLINE, inputs={"base-url": "https://www.example.com/", **inputs},
             root=root)  # fmt: skip
    message, runner = caught.value.args
    shutil.rmtree(runner.scratch)
    return message, runner


def test_a_warm_job_restores_installs_nothing_and_builds(
    action: tuple[Path, dict[str, str]], saved: Path, tmp_path: Path
) -> None:
    root, _ = action
    runner = play(service_of(saved, tmp_path), OFFLINE, root=root)  # (no index: nothing fetched)
    try:
        assert runner.outputs["deps"]["key"] == saved.name
        assert runner.outputs["deps-cache"] == {"cache-hit": "true"}
        assert "deps-save" not in runner.outputs  # (saved on a miss only)
        assert any(FROM_CACHE in text for text in runner.log)
        run = runner.outputs["run"]
        assert run["sitemap"] == "site/sitemap.xml" and run["changed"] == "true"
        sitemap = (runner.scratch / "workspace" / "site" / "sitemap.xml").read_text()
        assert sitemap.count("<loc>") == int(run["url-count"]) > 0
    finally:
        shutil.rmtree(runner.scratch)


def test_a_cold_job_without_an_index_stops_at_the_install_in_one_line(tmp_path: Path) -> None:
    message, runner = failed(tmp_path, path="site", commit="false")
    assert message.startswith("step install failed")
    assert runner.outputs["deps-cache"] == {"cache-hit": "false"}
    (line,) = [text for text in runner.log[-1].splitlines() if text.startswith("::error")]
    assert "could not install the action's dependencies" in line
    assert "Traceback" not in runner.log[-1]
    assert list(tmp_path.iterdir()) == []  # nothing saved for a later job


def test_a_mistaken_input_stops_the_job_before_the_cache_and_the_install(tmp_path: Path) -> None:
    message, runner = failed(tmp_path, path="site", format="html")
    assert message.startswith("step inputs failed") and "format" in message
    assert set(runner.outputs) == {"probe"}  # (setup-python skipped; nothing after the check)


# A cache is input from outside: whoever could write it (another workflow of the repository, a
# poisoned save) must not run code in the job. Each poison would write the file RAN.
POISON = "import pathlib; pathlib.Path({ran!r}).write_text('ran')\n"


def add_sitecustomize(folder: Path, code: str) -> None:
    (folder / "sitecustomize.py").write_text(code)


def add_action_package(folder: Path, code: str) -> None:
    (folder / "action").mkdir()
    (folder / "action" / "__init__.py").write_text(code)
    (folder / "action" / "__main__.py").write_text(code)


def add_pth(folder: Path, code: str) -> None:
    (folder / "zz-extra.pth").write_text(code)  # (a line starting with import is run)


def change_jinja2(folder: Path, code: str) -> None:
    """Jinja2's __init__.py with the poison first: in the installed folder or in its wheel."""
    for path in list(folder.rglob("*")):
        if path.name == "__init__.py" and path.parent.name == "jinja2":
            path.write_text(code + path.read_text())
        elif path.name.startswith("jinja2-") and path.suffix == ".whl":
            with zipfile.ZipFile(path) as archive:
                files = {item: archive.read(item) for item in archive.namelist()}
            files["jinja2/__init__.py"] = code.encode() + files["jinja2/__init__.py"]
            with zipfile.ZipFile(path, "w") as archive:
                for item, data in files.items():
                    archive.writestr(item, data)


POISONS = [add_sitecustomize, add_action_package, add_pth, change_jinja2]


@pytest.mark.parametrize("poison", POISONS, ids=lambda poison: poison.__name__)
def test_a_poisoned_cache_is_refused_installed_afresh_and_never_run(
    poison: Callable[[Path, str], None],
    action: tuple[Path, dict[str, str]],
    saved: Path,
    tmp_path: Path,
) -> None:
    root, index = action
    service, ran = service_of(saved, tmp_path), tmp_path / "RAN"
    poison(service / saved.name, POISON.format(ran=str(ran)))
    runner = play(service, index, root=root)
    try:
        assert runner.outputs["deps-cache"] == {"cache-hit": "true"}
        installed = next(text for text in runner.log if "sitemill: dependencies" in text)
        assert AFRESH in installed and FROM_CACHE not in installed
        (warning,) = [line for line in installed.splitlines() if line.startswith("::warning")]
        assert "installing them afresh" in warning
        assert runner.outputs["run"]["changed"] == "true"
    finally:
        shutil.rmtree(runner.scratch)
    assert not ran.exists()


@pytest.mark.parametrize("poison", POISONS, ids=lambda poison: poison.__name__)
def test_a_poisoned_cache_without_an_index_is_one_error_line_and_never_run(
    poison: Callable[[Path, str], None],
    action: tuple[Path, dict[str, str]],
    saved: Path,
    tmp_path: Path,
) -> None:
    root, _ = action
    service, ran = service_of(saved, tmp_path), tmp_path / "RAN"
    poison(service / saved.name, POISON.format(ran=str(ran)))
    message, runner = failed(service, root=root)
    assert message.startswith("step install failed")
    (line,) = [text for text in runner.log[-1].splitlines() if text.startswith("::error")]
    assert "could not install the action's dependencies" in line
    assert "Traceback" not in runner.log[-1]
    assert not ran.exists()


def remove_jinja2(folder: Path) -> None:
    for path in list(folder.iterdir()):
        if path.name.startswith("jinja2"):
            shutil.rmtree(path) if path.is_dir() else path.unlink()


def corrupt_markupsafe(folder: Path) -> None:
    for path in list(folder.rglob("*")):
        if path.is_file() and path.relative_to(folder).as_posix().startswith("markupsafe"):
            path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def huge_marker(folder: Path) -> None:
    """The marker a link to a 4 GiB file (sparse: no disk) outside the folder."""
    huge = folder.parent.parent / "huge"
    with open(huge, "wb") as file:
        file.truncate(4 << 30)
    (folder / install.MARKER).unlink()
    (folder / install.MARKER).symlink_to(huge)


@pytest.mark.parametrize("damage", [remove_jinja2, corrupt_markupsafe, huge_marker],
                         ids=lambda damage: damage.__name__)  # fmt: skip
def test_a_damaged_cache_is_thrown_away_and_installed_afresh(
    damage: Callable[[Path], None],
    action: tuple[Path, dict[str, str]],
    saved: Path,
    tmp_path: Path,
) -> None:
    root, index = action
    service = service_of(saved, tmp_path)
    damage(service / saved.name)
    runner = play(service, index, root=root)
    try:
        assert any(AFRESH in text for text in runner.log)
        assert runner.outputs["run"]["changed"] == "true"
    finally:
        shutil.rmtree(runner.scratch)
    if damage is huge_marker:  # (not the action's file: left where it was)
        assert (tmp_path / "huge").stat().st_size == 4 << 30


def test_a_damaged_cache_without_an_index_is_one_error_line(
    action: tuple[Path, dict[str, str]], saved: Path, tmp_path: Path
) -> None:
    root, _ = action
    service = service_of(saved, tmp_path)
    remove_jinja2(service / saved.name)
    message, runner = failed(service, root=root)
    assert message.startswith("step install failed")
    (line,) = [text for text in runner.log[-1].splitlines() if text.startswith("::error")]
    assert "could not install the action's dependencies" in line
    assert "Traceback" not in runner.log[-1]


def test_a_runner_temp_with_the_path_separator_installs_and_runs(
    action: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    root, index = action
    (tmp_path / "tmp").mkdir()
    for kind in ("cold", "warm"):
        temp = tmp_path / kind / f"run{os.pathsep}temp"
        env = {**index, "RUNNER_TEMP": str(temp), "TMPDIR": str(tmp_path / "tmp")}
        runner = play(tmp_path / "service", env, root=root)
        try:
            assert any((AFRESH if kind == "cold" else FROM_CACHE) in t for t in runner.log)
            assert runner.outputs["run"]["changed"] == "true"
            python = Path(runner.outputs["install"]["python"])
            assert python.is_relative_to(tmp_path / "tmp")  # (the venv: not under RUNNER_TEMP)
        finally:
            shutil.rmtree(runner.scratch)


def test_a_pull_request_s_diff_plays_every_step_and_fails_on_a_gone_url(
    action: tuple[Path, dict[str, str]], saved: Path, tmp_path: Path, stand: Stand
) -> None:
    """`command: diff` on a pull_request event, every step played (a warm cache): the live
    site's state (on the stand) lists a page the pull request's site does not have."""
    root, _ = action
    live = tmp_path / "live"
    shutil.copytree(ROOT / "examples" / "site", live)
    (live / "gone.html").write_text("<!doctype html><title>Gone</title><p>Soon gone.</p>")
    built = run_sitemill("build", str(live), "--base-url", "https://www.example.com/", "-q")
    assert built.returncode == 0, built.stderr
    state = (live / "sitemill-state.json.gz").read_bytes()
    stand.files["/live/sitemill-state.json.gz"] = (200, state, {})
    event = tmp_path / "event.json"
    event.write_text('{"pull_request": {"number": 1}}')
    inputs = {"base-url": "https://www.example.com/", "path": "site", "command": "diff",
              "previous-state": f"{stand.origin}/live/sitemill-state.json.gz",
              "fail-on-removed": "true"}  # fmt: skip
    env = {**OFFLINE, "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event)}
    with pytest.raises(RuntimeError) as caught:
        play(service_of(saved, tmp_path), env, inputs=inputs, root=root)
    message, runner = caught.value.args
    try:
        assert message.startswith("step run failed")
        assert runner.outputs["deps-cache"] == {"cache-hit": "true"}
        (error,) = [line for line in runner.log[-1].splitlines() if line.startswith("::error")]
        assert error.startswith("::error title=sitemill diff::https://www.example.com/gone.html")
        summary = (runner.scratch / "summary.md").read_text(encoding="utf-8")
        assert "| https://www.example.com/gone.html | gone |" in summary
        workspace = runner.scratch / "workspace"
        assert git(workspace, "status", "--porcelain", "--ignored") == b""  # nothing written
        assert git(workspace, "rev-list", "--count", "HEAD") == b"1\n"  # nor committed
    finally:
        shutil.rmtree(runner.scratch)
