"""The Action's install step: a private venv that runs the action's own sources.

Run by the runner's Python (or setup-python's) after every input is checked, with the action's
folder on PYTHONPATH:

- ``python -P -m action.install --cache-key``: the key and the folder of the dependency cache
  (``key=`` and ``path=`` in GITHUB_OUTPUT), for actions/cache/restore and actions/cache/save.
- ``python -P -m action.install``: the venv (``python=`` in GITHUB_OUTPUT).

The dependencies are action/requirements.txt: one release of each, pinned with the SHA-256 of
every file the index has for it. The cache's folder holds the wheels pip downloaded for them
(``pip download --require-hashes``) and a marker written last, nothing else. The folder a cache
restores is input from outside, so nothing of it is trusted: every wheel is read and its SHA-256
must be one the lock names for its pin, one wheel per pin, no other file, no link, no folder.
A folder that is anything else is thrown away and the wheels downloaded afresh. The verified
wheels (their bytes as hashed, not the files again) are unpacked into the venv: the cache's
folder itself is never on ``sys.path``, so nothing else in it can be imported or run. The key
names the platform, the Python ABI and the lock's digest, so no other Python or pin reads a
folder not made for it.

sitemill itself is never built: its sources are copied from the action's folder into the venv,
laid out as the wheel lays them out (the top-level templates/ folder becomes
``sitemill/templates``; tests/infra/test_wheel.py compares the two). The code that runs is
exactly the action's revision, whatever is in the cache: no wheel may hold a top-level name of
the action's own (``sitemill``, ``action``), and an unpacked file never replaces another.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import io
import os
import re
import secrets
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
import time
import venv
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Final

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from sitemill.errors import SitemillError
from sitemill.github.commands import workflow_command, write_outputs
from sitemill.safefs import read_regular

ACTION_ROOT: Final = Path(__file__).resolve().parent.parent
LOCK: Final = ACTION_ROOT / "action" / "requirements.txt"
# In the cached folder, the digest of the lock it was installed from: written last, so a folder
# without it (a run that stopped half way) is never taken for a complete one.
MARKER: Final = ".sitemill-lock"
MARKER_LIMIT: Final = 256  # (a digest and a newline)
# The largest wheel read: the lock's are 20 kB (MarkupSafe) and 134 kB (Jinja2).
WHEEL_LIMIT: Final = 64 * 1024 * 1024
# Top-level names of the action's own code, which no dependency may hold.
OWN_NAMES: Final = frozenset({"sitemill", "action"})
CONTINUED: Final = re.compile(r"\\\n")


class InstallError(Exception):
    """The step fails with this text as its one error line."""


class CacheRefused(Exception):
    """The dependency folder is not exactly what a cold run leaves: this text says why."""


@dataclass(frozen=True)
class Pin:
    """One requirement of the lock: a release and the SHA-256 of each of its files."""

    name: str  # normalised (PEP 503)
    version: str
    hashes: frozenset[str]


def normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def lock_pins(lock: Path = LOCK) -> dict[str, Pin]:
    """The lock's pins by name: ``name==version`` lines, each with its ``--hash=sha256:``s."""
    found: dict[str, Pin] = {}
    for line in CONTINUED.sub(" ", lock.read_text(encoding="utf-8")).splitlines():
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        name, equals, version = words[0].partition("==")
        hashes = frozenset(w.removeprefix("--hash=sha256:") for w in words[1:] if "sha256:" in w)
        if not equals or not hashes:
            raise InstallError(f"{lock.name}: {words[0]!r} is not pinned with its hashes")
        found[normalised(name)] = Pin(normalised(name), version, hashes)
    return found


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


def pin_of(wheel_name: str, pins: dict[str, Pin]) -> Pin | None:
    """The pin a wheel's file name is a release of (``name-version(-build)-py-abi-plat.whl``)."""
    parts = wheel_name.removesuffix(".whl").split("-")
    pin = pins.get(normalised(parts[0])) if len(parts) in (5, 6) else None
    return pin if pin is not None and parts[1] == pin.version else None


def verified_wheels(folder: Path, lock: Path = LOCK) -> dict[str, bytes]:
    """The wheels of ``folder`` by pin, each read once (at most WHEEL_LIMIT bytes, never through
    a link) and its SHA-256 one the lock names for its pin. CacheRefused unless the folder holds
    exactly one such wheel per pin and the lock's marker, and nothing else."""
    pins, wheels, marked = lock_pins(lock), {}, False
    for entry in sorted(os.scandir(folder), key=lambda entry: entry.name):
        path = Path(entry.path)
        if not stat.S_ISREG(entry.stat(follow_symlinks=False).st_mode):
            raise CacheRefused(f"{entry.name!r} is not a regular file")
        try:
            if entry.name == MARKER:
                marker = read_regular(path, MARKER_LIMIT, whole=True, follow_symlinks=False)
                marked = marker.strip() == lock_digest(lock).encode("ascii")
                continue
            pin = pin_of(entry.name, pins) if entry.name.endswith(".whl") else None
            if pin is None or pin.name in wheels:
                raise CacheRefused(f"{entry.name!r} is no file the lock names")
            data = read_regular(path, WHEEL_LIMIT, whole=True, follow_symlinks=False)
        except SitemillError as exc:  # (safefs's RefusedError: a link swapped in, too large)
            raise CacheRefused(str(exc)) from exc
        if hashlib.sha256(data).hexdigest() not in pin.hashes:
            raise CacheRefused(f"{entry.name!r} is not the file the lock pins (its SHA-256)")
        wheels[pin.name] = data
    if not marked:
        raise CacheRefused("it is not marked complete for this lock")
    if missing := sorted(set(pins) - set(wheels)):
        raise CacheRefused(f"it has no wheel of {missing[0]}")
    return wheels


def restored(folder: Path, lock: Path = LOCK) -> dict[str, bytes] | None:
    """The wheels of a folder the cache restored, verified; None when there is none. A folder
    refused is thrown away (it is the action's own: its name is the cache's key), with a
    warning line."""
    try:
        if not stat.S_ISDIR(os.lstat(folder).st_mode):
            raise CacheRefused("it is not a folder")
        return verified_wheels(folder, lock)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except CacheRefused as exc:
        why = f"the cached dependencies ({folder.name}) are refused: {exc}; installing them afresh"
        print(workflow_command("warning", why, title="sitemill"), flush=True)
        discard(folder)
        return None


def discard(path: Path) -> None:
    """``path`` removed, whatever it is; a link is removed, never followed."""
    if path.is_symlink() or (path.exists() and not path.is_dir()):
        path.unlink()
    elif path.exists():
        shutil.rmtree(path)


def venv_parent(runner_temp: Path) -> Path:
    """Where the step's venvs go: RUNNER_TEMP, or, where it holds the path separator (in no
    venv's path: Python's venv refuses one, since it would split PATH), a new folder in the
    system's temporary folder."""
    if os.pathsep not in str(runner_temp):
        return runner_temp
    other = Path(tempfile.mkdtemp(prefix="sitemill-action-"))
    if os.pathsep in str(other):
        raise InstallError(
            f"RUNNER_TEMP and the temporary folder ({other}) both hold {os.pathsep!r}, "
            "which a venv's path cannot"
        )
    return other


def pip_command(runner_temp: Path) -> list[str]:
    """This Python's pip; where it has none (a distribution's Python without python3-pip), a
    throwaway venv's, which ensurepip gives."""
    if importlib.util.find_spec("pip") is not None:
        return [sys.executable, "-m", "pip"]
    tool = venv_parent(runner_temp) / f"sitemill-pip-{os.getpid()}-{secrets.token_hex(4)}"
    venv.EnvBuilder(with_pip=True).create(tool)
    return [venv_python(tool), "-m", "pip"]


def install_dependencies(folder: Path, runner_temp: Path, lock: Path = LOCK) -> dict[str, bytes]:
    """pip downloads the lock's wheels (each file's hash checked) into a new folder beside
    ``folder``, renamed to it once complete and verified as a restored one is: its wheels."""
    partial = folder.with_name(f"{folder.name}.partial-{os.getpid()}-{secrets.token_hex(4)}")
    partial.parent.mkdir(parents=True, exist_ok=True)
    command = [
        *pip_command(runner_temp),
        "download", "--quiet", "--disable-pip-version-check", "--no-input",
        "--no-deps", "--require-hashes", "--only-binary", ":all:",
        "--dest", str(partial), "--requirement", str(lock),
    ]  # fmt: skip
    try:
        if subprocess.run(command, check=False).returncode != 0:
            raise InstallError(
                "could not install the action's dependencies (action/requirements.txt); "
                "pip's lines above say why"
            )
        (partial / MARKER).write_text(lock_digest(lock) + "\n", encoding="ascii")
        try:
            wheels = verified_wheels(partial, lock)
        except CacheRefused as exc:
            raise InstallError(f"the downloaded dependencies are not the lock's: {exc}") from exc
        discard(folder)  # (another run's, made meanwhile)
        os.replace(partial, folder)
        return wheels
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


def installed_path(member: str) -> PurePosixPath | None:
    """Where a wheel's member goes in site-packages (None: not importable, not installed)."""
    path = PurePosixPath(member)
    if path.is_absolute() or "\\" in member or ".." in path.parts or ":" in path.parts[0]:
        raise InstallError(f"a dependency's wheel holds {member!r}, outside site-packages")
    if path.parts[0].endswith(".data"):  # (scripts, headers and data files are not needed)
        inside = len(path.parts) > 2 and path.parts[1] in ("purelib", "platlib")
        path = PurePosixPath(*path.parts[2:]) if inside else PurePosixPath()
    if not path.parts:
        return None
    if re.split(r"[-.]", path.parts[0])[0] in OWN_NAMES:
        raise InstallError(f"a dependency's wheel holds {member!r}, a name of the action's own")
    return path


def unpack(wheel: bytes, target: Path) -> None:
    """A wheel's files into ``target``, none replacing a file already there."""
    with zipfile.ZipFile(io.BytesIO(wheel)) as archive:
        for item in archive.infolist():
            relative = None if item.is_dir() else installed_path(item.filename)
            if relative is None:
                continue
            destination = target.joinpath(*relative.parts)
            destination.parent.mkdir(parents=True, exist_ok=True)
            with open(destination, "xb") as file:
                file.write(archive.read(item))
            if (item.external_attr >> 16) & 0o111:
                destination.chmod(0o755)


def make_venv(runner_temp: Path, wheels: dict[str, bytes]) -> str:
    """A venv without pip (nothing goes into the runner's Python), holding the sources and the
    verified wheels' files, and nothing else."""
    env_dir = venv_parent(runner_temp) / f"sitemill-venv-{os.getpid()}-{secrets.token_hex(4)}"
    venv.EnvBuilder(with_pip=False, symlinks=os.name != "nt").create(env_dir)
    packages = site_packages(env_dir)
    copy_package(packages)
    for name in sorted(wheels):
        unpack(wheels[name], packages)
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
        wheels = restored(folder)
        warm = wheels is not None
        if wheels is None:
            wheels = install_dependencies(folder, runner_temp)
        python = make_venv(runner_temp, wheels)
        how = "from the cache" if warm else "installed and cached"
        print(f"sitemill: dependencies {how}, {time.monotonic() - started:.1f} s", flush=True)
        write_outputs(outputs, {"python": python})
    except (
        InstallError,
        SitemillError,
        OSError,
        subprocess.SubprocessError,
        zipfile.BadZipFile,
    ) as exc:
        print(workflow_command("error", str(exc), title="sitemill"), flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
