"""The Action's install step: a private venv that runs the action's own sources.

Run by the runner's Python (or setup-python's) after every input is checked, with the action's
folder on PYTHONPATH:

- ``python -P -m action.install --cache-key``: the key and the folder of the dependency cache
  (``key=`` and ``path=`` in GITHUB_OUTPUT), for actions/cache/restore and actions/cache/save.
- ``python -P -m action.install``: the venv (``python=`` in GITHUB_OUTPUT).

The dependencies are action/requirements.txt: pinned, every file's SHA-256 checked by pip. They
are installed into the cache's folder when it was not restored (a cold run), and used from it
when it was (a warm run installs nothing). The key names the platform, the Python ABI and the
lock's digest, so no other Python or pin reads a folder not made for it.

sitemill itself is never built: its sources are copied from the action's folder into the venv,
laid out as the wheel lays them out (the top-level templates/ folder becomes
``sitemill/templates``; tests/infra/test_wheel.py compares the two). The code that runs is
exactly the action's revision, whatever is in the cache.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import os
import secrets
import shutil
import subprocess
import sys
import sysconfig
import time
import venv
from pathlib import Path
from typing import Final

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from sitemill.errors import SitemillError
from sitemill.github.commands import workflow_command, write_outputs

ACTION_ROOT: Final = Path(__file__).resolve().parent.parent
LOCK: Final = ACTION_ROOT / "action" / "requirements.txt"
# In the cached folder, the digest of the lock it was installed from: written last, so a folder
# without it (a run that stopped half way) is never taken for a complete one.
MARKER: Final = ".sitemill-lock"


class InstallError(Exception):
    """The step fails with this text as its one error line."""


def lock_digest(lock: Path = LOCK) -> str:
    return hashlib.sha256(lock.read_bytes()).hexdigest()


def cache_key(lock: Path = LOCK) -> str:
    """The platform, this Python's ABI (implementation, version, free-threading) and the lock:
    everything the installed files depend on."""
    threads = "t" if sysconfig.get_config_var("Py_GIL_DISABLED") else ""
    abi = sys.implementation.cache_tag + threads
    platform = sysconfig.get_platform().replace(".", "_")
    return f"sitemill-deps-{platform}-{abi}-{lock_digest(lock)[:16]}"


def cache_folder(runner_temp: Path, lock: Path = LOCK) -> Path:
    return runner_temp / "sitemill-deps" / cache_key(lock)


def is_complete(folder: Path, lock: Path = LOCK) -> bool:
    marker = folder / MARKER
    found = marker.read_bytes().strip() if marker.is_file() else b""
    return found == lock_digest(lock).encode("ascii")


def pip_command(runner_temp: Path) -> list[str]:
    """This Python's pip; where it has none (a distribution's Python without python3-pip), a
    throwaway venv's, which ensurepip gives."""
    if importlib.util.find_spec("pip") is not None:
        return [sys.executable, "-m", "pip"]
    tool = runner_temp / f"sitemill-pip-{os.getpid()}-{secrets.token_hex(4)}"
    venv.EnvBuilder(with_pip=True).create(tool)
    return [venv_python(tool), "-m", "pip"]


def install_dependencies(folder: Path, runner_temp: Path, lock: Path = LOCK) -> None:
    """pip installs the lock into a new folder beside ``folder``, renamed to it once complete."""
    partial = folder.with_name(f"{folder.name}.partial-{os.getpid()}-{secrets.token_hex(4)}")
    partial.parent.mkdir(parents=True, exist_ok=True)
    command = [
        *pip_command(runner_temp),
        "install", "--quiet", "--disable-pip-version-check", "--no-input",
        "--no-deps", "--require-hashes", "--prefer-binary",
        "--target", str(partial), "--requirement", str(lock),
    ]  # fmt: skip
    try:
        if subprocess.run(command, check=False).returncode != 0:
            raise InstallError(
                "could not install the action's dependencies (action/requirements.txt); "
                "pip's lines above say why"
            )
        (partial / MARKER).write_text(lock_digest(lock) + "\n", encoding="ascii")
        if folder.exists():  # a partial folder restored from elsewhere, or another run's
            shutil.rmtree(folder)
        os.replace(partial, folder)
    finally:
        shutil.rmtree(partial, ignore_errors=True)


def venv_python(env_dir: Path) -> str:
    posix = env_dir / "bin" / "python"
    return str(posix if posix.exists() else env_dir / "Scripts" / "python.exe")


def site_packages(env_dir: Path) -> Path:
    paths = {"base": str(env_dir), "platbase": str(env_dir)}
    return Path(sysconfig.get_path("purelib", scheme="venv", vars=paths))


def link(source: str, target: str) -> None:
    """A hard link where the two folders share a file system (a runner's RUNNER_TEMP and its
    actions' folder do): a tenth of a copy's time. Python writes its bytecode beside, in new
    __pycache__ folders, never into a source file."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def copy_package(target: Path, root: Path = ACTION_ROOT) -> None:
    """src/sitemill and the top-level templates/ as the wheel holds them, into ``target``."""
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(root / "src" / "sitemill", target / "sitemill", ignore=skip, copy_function=link)
    templates = target / "sitemill" / "templates"
    templates.mkdir(exist_ok=True)
    for source in sorted((root / "templates").iterdir()):
        if source.suffix == ".j2" or source.name == "__init__.py":
            shutil.copyfile(source, templates / source.name)


def make_venv(runner_temp: Path, dependencies: Path) -> str:
    """A venv without pip under RUNNER_TEMP (nothing goes into the runner's Python), holding the
    sources, with a .pth line that adds the dependency folder."""
    env_dir = runner_temp / f"sitemill-venv-{os.getpid()}-{secrets.token_hex(4)}"
    venv.EnvBuilder(with_pip=False, symlinks=os.name != "nt").create(env_dir)
    packages = site_packages(env_dir)
    copy_package(packages)
    (packages / "sitemill-action-dependencies.pth").write_text(
        f"{dependencies}\n", encoding="utf-8"
    )
    return venv_python(env_dir)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache-key", action="store_true", help="print the cache's key and path")
    args = parser.parse_args(argv)
    runner_temp = Path(os.environ.get("RUNNER_TEMP") or ".").resolve()
    folder = cache_folder(runner_temp)
    outputs = os.environ.get("GITHUB_OUTPUT")
    try:
        if args.cache_key:
            write_outputs(outputs, {"key": folder.name, "path": str(folder)})
            return 0
        started = time.monotonic()
        warm = is_complete(folder)
        if not warm:
            install_dependencies(folder, runner_temp)
        python = make_venv(runner_temp, folder)
        how = "from the cache" if warm else "installed and cached"
        print(f"sitemill: dependencies {how}, {time.monotonic() - started:.1f} s", flush=True)
        write_outputs(outputs, {"python": python})
    except (InstallError, SitemillError, OSError, subprocess.SubprocessError) as exc:
        print(workflow_command("error", str(exc), title="sitemill"), flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
