"""The Action installs fast and exactly: action/install.py makes a private venv that runs the
action's own sources, with the dependencies of action/requirements.txt (pinned, every file's
hash checked) from a folder that actions/cache keeps between runs. A warm run installs nothing;
a cold one installs the lock and no more. Offline here: the cold run's index is a local folder."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path, PurePosixPath
from typing import Any

import pytest

from actionsteps import action_copy, parse_outputs
from scriptmodule import load_script

ROOT = Path(__file__).resolve().parents[2]
PINNED = re.compile(r"[\w.-]+/[\w.-]+(/[\w.-]+)*@[0-9a-f]{40}")


install = load_script(ROOT / "action" / "install.py", "action_install")


def step_of(action: dict[str, Any], step_id: str) -> dict[str, Any]:
    (found,) = [item for item in action["runs"]["steps"] if item.get("id") == step_id]
    return dict(found)


def test_the_steps_check_then_restore_install_save_and_run(action: dict[str, Any]) -> None:
    order = [item.get("id") for item in action["runs"]["steps"]]
    assert order == [
        "probe", "setup-python", "inputs", "deps", "deps-cache", "install", "deps-save", "run",
    ]  # fmt: skip
    restore, save = step_of(action, "deps-cache"), step_of(action, "deps-save")
    assert restore["uses"].startswith("actions/cache/restore@")
    assert save["uses"].startswith("actions/cache/save@")
    cached = {"path": "${{ steps.deps.outputs.path }}", "key": "${{ steps.deps.outputs.key }}"}
    assert restore["with"] == save["with"] == cached
    assert save["if"] == "steps.deps-cache.outputs.cache-hit != 'true'"  # saved on a miss only
    assert step_of(action, "install")["run"] == (
        'PYTHONPATH="$GITHUB_ACTION_PATH" "$SITEMILL_ACTION_BASE_PYTHON" -P -m action.install'
    )


def test_every_action_it_uses_is_pinned_by_commit_with_its_release_named() -> None:
    lines = [line for line in (ROOT / "action.yml").read_text().splitlines() if "uses:" in line]
    assert len(lines) == 3
    for line in lines:
        target = line.split("uses:", 1)[1].split("#", 1)[0].strip()
        assert PINNED.fullmatch(target), line
        assert re.search(r"# v\d+(\.\d+)*$", line), line


def test_the_cache_key_names_the_platform_the_python_and_the_lock(tmp_path: Path) -> None:
    key = install.cache_key()
    assert key == install.cache_key()
    assert sys.implementation.cache_tag in key
    assert install.lock_digest()[:16] in key
    other = tmp_path / "requirements.txt"
    other.write_text(install.LOCK.read_text() + "\n")
    assert install.cache_key(other) != key
    assert install.cache_folder(tmp_path) == tmp_path / "sitemill-deps" / key
    assert len(key) < 512 and "," not in key  # (what actions/cache accepts)


def run_install(
    runner_temp: Path, *args: str, root: Path = ROOT, links: Path | None = None
) -> tuple[subprocess.CompletedProcess[str], str]:
    """The install step of the action at ``root``; ``links``: its only package index."""
    outputs = runner_temp / "outputs"
    outputs.unlink(missing_ok=True)
    env = {key: value for key, value in os.environ.items() if not key.startswith("PIP_")}
    env.update(
        RUNNER_TEMP=str(runner_temp),
        GITHUB_OUTPUT=str(outputs),
        PYTHONPATH=str(root),
        PIP_NO_INDEX="1",  # a run that tried to download from an index would fail
        PIP_FIND_LINKS=str(links or runner_temp / "no-links"),
        PIP_CONFIG_FILE=os.devnull,
    )
    done = subprocess.run(
        [sys.executable, "-P", "-m", "action.install", *args],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    return done, outputs.read_text(encoding="utf-8") if outputs.exists() else ""


def test_the_cache_key_step_writes_the_key_and_the_folder(tmp_path: Path) -> None:
    done, outputs = run_install(tmp_path, "--cache-key")
    assert done.returncode == 0, done.stderr
    folder = install.cache_folder(tmp_path.resolve())
    assert parse_outputs(outputs) == {"key": folder.name, "path": str(folder)}


def test_a_warm_run_installs_nothing_and_runs_the_action_s_own_sources(tmp_path: Path) -> None:
    (tmp_path / "action").mkdir()
    root = action_copy(tmp_path / "action", tmp_path / "links")
    cold, _ = run_install(tmp_path, root=root, links=tmp_path / "links")
    assert "sitemill: dependencies installed and cached" in cold.stdout, cold.stderr
    folder = install.cache_folder(tmp_path, root / "action" / "requirements.txt")
    kept = sorted(path.name for path in folder.iterdir())
    assert kept == [install.MARKER, *sorted(p.name for p in (tmp_path / "links").iterdir())]
    done, outputs = run_install(tmp_path, root=root)  # (no index at all)
    assert done.returncode == 0, done.stderr
    assert "sitemill: dependencies from the cache" in done.stdout
    python = parse_outputs(outputs)["python"]
    assert Path(python).is_relative_to(tmp_path) and Path(python).exists()
    site = tmp_path / "site"
    shutil.copytree(ROOT / "examples" / "site", site)
    build = subprocess.run(
        [python, "-c", "import sys; from sitemill.cli import main; sys.exit(main())",
         "build", str(site), "--base-url", "https://www.example.com/"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert build.returncode == 0, build.stderr
    assert "<loc>https://www.example.com/about.html</loc>" in (site / "sitemap.xml").read_text()
    where = subprocess.run(
        [python, "-c", "import sitemill, jinja2; print(sitemill.__file__); print(jinja2.__file__)"],
        capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    assert Path(where[0]).is_relative_to(Path(python).parent.parent)  # (the venv's copy)
    assert Path(where[1]).is_relative_to(Path(python).parent.parent)  # (the cache: wheels only)
    # The venv sees nothing of the Python it was made from: no package the action did not ask for.
    alone = subprocess.run([python, "-c", "import yaml"], capture_output=True, check=False)
    assert alone.returncode != 0


def wheel(folder: Path, name: str, version: str) -> Path:
    """A minimal pure-Python wheel: a module and its dist-info with a RECORD."""
    path = folder / f"{name}-{version}-py3-none-any.whl"
    info = f"{name}-{version}.dist-info"
    files = {
        f"{name}.py": b"VALUE = 42\n",
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode(),
        f"{info}/WHEEL": b"Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }

    def record_line(file: str, data: bytes) -> str:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        return f"{file},sha256={digest},{len(data)}\n"

    record = "".join(record_line(file, data) for file, data in files.items()) + f"{info}/RECORD,,\n"
    with zipfile.ZipFile(path, "w") as archive:
        for file, data in {**files, f"{info}/RECORD": record.encode()}.items():
            archive.writestr(file, data)
    return path


@pytest.fixture
def local_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    links = tmp_path / "index"
    links.mkdir()
    wheel(links, "tinydep", "1.0")
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(links))
    return links


def lock_of(tmp_path: Path, links: Path, digest: str | None = None) -> Path:
    data = (links / "tinydep-1.0-py3-none-any.whl").read_bytes()
    digest = digest or hashlib.sha256(data).hexdigest()
    lock = tmp_path / "requirements.txt"
    lock.write_text(f"tinydep==1.0 \\\n    --hash=sha256:{digest}\n", encoding="utf-8")
    return lock


def test_a_cold_run_keeps_the_lock_s_wheels_and_marks_the_folder_complete(
    tmp_path: Path, local_index: Path
) -> None:
    lock = lock_of(tmp_path, local_index)
    folder = install.cache_folder(tmp_path, lock)
    assert install.restored(folder, lock) is None
    wheels = install.install_dependencies(folder, tmp_path, lock)
    assert wheels == {"tinydep": (local_index / "tinydep-1.0-py3-none-any.whl").read_bytes()}
    assert install.verified_wheels(folder, lock) == wheels
    assert sorted(path.name for path in folder.iterdir()) == [
        install.MARKER, "tinydep-1.0-py3-none-any.whl",
    ]  # fmt: skip
    assert sorted(path.name for path in folder.parent.iterdir()) == [folder.name]  # no partial


def test_a_file_whose_hash_is_not_the_lock_s_is_refused_and_leaves_nothing(
    tmp_path: Path, local_index: Path
) -> None:
    lock = lock_of(tmp_path, local_index, digest="0" * 64)
    folder = install.cache_folder(tmp_path, lock)
    with pytest.raises(install.InstallError, match="could not install the action's dependencies"):
        install.install_dependencies(folder, tmp_path, lock)
    assert list(folder.parent.iterdir()) == []  # nothing a later save could cache


def test_a_folder_without_its_marker_is_thrown_away_and_installed_again(
    tmp_path: Path, local_index: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lock = lock_of(tmp_path, local_index)
    folder = install.cache_folder(tmp_path, lock)
    folder.mkdir(parents=True)
    shutil.copy(local_index / "tinydep-1.0-py3-none-any.whl", folder)  # a run stopped half way
    assert install.restored(folder, lock) is None and not folder.exists()
    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith("::warning title=sitemill::") and "not marked complete" in line
    install.install_dependencies(folder, tmp_path, lock)
    assert install.restored(folder, lock) is not None


def test_a_dependency_s_wheel_cannot_hold_the_action_s_own_names_nor_leave_site_packages(
    tmp_path: Path,
) -> None:
    for name in ("sitemill", "action"):
        data = wheel(tmp_path, name, "1.0").read_bytes()
        with pytest.raises(install.InstallError, match="a name of the action's own"):
            install.unpack(data, tmp_path / "site")
    with pytest.raises(install.InstallError, match="outside site-packages"):
        install.installed_path("../evil.py")
    assert install.installed_path("x-1.0.data/purelib/x.py") == PurePosixPath("x.py")
    assert install.installed_path("x-1.0.data/scripts/x") is None


def test_a_failed_install_is_one_error_line(tmp_path: Path) -> None:
    (tmp_path / "sitemill-deps").write_text("")  # the folder cannot be made
    done, outputs = run_install(tmp_path)
    assert done.returncode == 1 and outputs == ""
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("::error")]
    assert line.startswith("::error title=sitemill::")
    assert "Traceback" not in done.stdout + done.stderr
