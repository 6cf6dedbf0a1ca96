"""Build dist/sitemill-lambda.zip: the handler, sitemill, its templates and its dependencies.

The zip carries the bytecode of every module, compiled by an interpreter of the function's
Python version (``--python``, else $LAMBDA_PYTHON, else ``python3.12`` on PATH, else this one
if it is 3.12): /var/task is read-only, so a zip without it recompiles every module at every
cold start (the handler's import takes about twice as long). Without such an interpreter the
build fails, saying how to name one; ``--no-bytecode`` ships the zip without bytecode instead.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
ZIP_NAME: Final = "sitemill-lambda.zip"
# The function's runtime and architecture (Runtime: python3.12, Architectures: arm64 in
# infra/template.yaml): wheels are chosen for them, not for the build machine.
PYTHON_VERSION: Final = "3.12"
PLATFORM: Final = "manylinux2014_aarch64"
# The runtimes python3.12 and 3.13 run Amazon Linux 2023, glibc 2.34: a wheel of any
# manylinux_2_17 (= manylinux2014) to manylinux_2_34 tag runs there. pip widens only the
# legacy manylinux2014 tag by itself, so every glibc version is named, newest first.
GLIBC: Final = (2, 34)
PLATFORMS: Final = (
    *(f"manylinux_{GLIBC[0]}_{minor}_aarch64" for minor in range(GLIBC[1], 16, -1)),
    PLATFORM,
)
# A budget well below Lambda's 50 MB limit for direct uploads: the zip should stay small
# enough to deploy and cold-start fast; growing past it means something leaked in.
MAX_ZIP_BYTES: Final = 5 * 1024 * 1024
# The earliest time a zip header can hold: no build time or file mtime leaks into the bytes.
FIXED_DATE_TIME: Final = (1980, 1, 1, 0, 0, 0)
# Lambda only needs to read the files; one mode for all makes the archive independent of umask.
FILE_MODE: Final = 0o644
# pip's install records name the installer and hash installed files; they describe this
# install, not the package, so they are left out (METADATA and licences stay).
_INSTALL_RECORDS: Final = frozenset({"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"})
_CACHE_DIRS: Final = frozenset({"__pycache__"})
_CACHE_SUFFIXES: Final = (".pyc", ".pyo")
# Front-ends the Lambda never runs: the terminal command, the GitHub Action, and validation
# (lxml + the XSDs, a CLI feature).
_PACKAGE_DIRS_LEFT_OUT: Final = frozenset({"cli", "github", "validate", "schemas"})
_STAMP: Final = "wheels.sha256"
# The interpreter of the function's version, when given by the environment (make lambda-zip
# LAMBDA_PYTHON=..., make release-check LAMBDA_PYTHON=...).
PYTHON_ENV: Final = "LAMBDA_PYTHON"
# Where Lambda unpacks the zip: the bytecode names its sources there, for tracebacks.
TASK_ROOT: Final = "/var/task"
# Run by the function's interpreter: compile each (archive name, source) from stdin into
# OUT/<name's __pycache__ file>. Checked-hash pycs hold no mtime (reproducible), and they stay
# right if someone edits a source in the console: the interpreter checks the source's hash.
_COMPILE: Final = """
import importlib.util, json, py_compile, sys
out, root = sys.argv[1], sys.argv[2]
mode = py_compile.PycInvalidationMode.CHECKED_HASH
for name, source in json.load(sys.stdin):
    cfile = out + "/" + importlib.util.cache_from_source(name)
    py_compile.compile(source, cfile, root + "/" + name, doraise=True, invalidation_mode=mode)
"""


class BuildError(Exception):
    """A build step failed; the message says which one and why."""


def collect_sources(root: Path) -> dict[str, Path]:
    """Archive name -> file for the handler, the sitemill package and its templates."""
    handler = root / "lambda" / "handler.py"
    if not handler.is_file():
        raise BuildError(f"{handler} not found: the zip needs the Lambda entry point")
    files = {"handler.py": handler}
    package = root / "src" / "sitemill"
    for path in _walk(package):
        relative = path.relative_to(package)
        if relative.parts[0] not in _PACKAGE_DIRS_LEFT_OUT:
            files[f"sitemill/{relative.as_posix()}"] = path
    # pyproject maps the top-level templates/ folder onto the package sitemill.templates.
    templates = root / "templates"
    names = sorted(path.name for path in templates.glob("*.j2"))
    if not names:
        raise BuildError(f"no *.j2 templates in {templates}")
    for name in [*names, "__init__.py"]:
        files[f"sitemill/templates/{name}"] = templates / name
    return files


def collect_installed(target: Path) -> dict[str, Path]:
    """Archive name -> file for what pip installed into ``target``, minus install records."""
    files = {}
    for path in _walk(target):
        relative = path.relative_to(target)
        top = relative.parts[0]
        if top == "bin":  # console scripts: useless in Lambda, and they hold a shebang path
            continue
        if top.endswith(".dist-info") and relative.name in _INSTALL_RECORDS:
            continue
        files[relative.as_posix()] = path
    return files


def _walk(folder: Path) -> Iterator[Path]:
    for path in sorted(folder.rglob("*")):
        if any(part in _CACHE_DIRS for part in path.relative_to(folder).parts):
            continue
        if path.is_file() and not path.name.endswith(_CACHE_SUFFIXES):
            yield path


def _run_pip(arguments: Sequence[str], step: str) -> None:
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", *arguments]
    completed = subprocess.run(command, capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        output = (completed.stdout + completed.stderr).strip()
        raise BuildError(f"{step} failed (exit {completed.returncode}):\n{output}")


def _platform_options() -> list[str]:
    return [
        "--only-binary=:all:",
        "--implementation=cp",
        f"--python-version={PYTHON_VERSION}",
        *(f"--platform={platform}" for platform in PLATFORMS),
        "--no-deps",  # every dependency is pinned, with its hash, in the requirements file
    ]


def download_wheels(requirements: Path, cache: Path) -> None:
    """Fill ``cache`` with the pinned wheels, unless it already holds them for this file."""
    stamp = hashlib.sha256(requirements.read_bytes())
    stamp.update(f"{PYTHON_VERSION} {' '.join(PLATFORMS)}".encode())
    stamp_path = cache / _STAMP
    cached = stamp_path.is_file() and stamp_path.read_text().strip() == stamp.hexdigest()
    if cached and any(cache.glob("*.whl")):
        print(f"using the wheels cached in {cache}")
        return
    cache.mkdir(parents=True, exist_ok=True)
    for stale in cache.glob("*.whl"):  # only what an earlier download put there
        stale.unlink()
    print(
        f"downloading the wheels for {PLATFORMS[0]} (glibc {GLIBC[0]}.{GLIBC[1]}) or older, "
        f"Python {PYTHON_VERSION} into {cache}"
    )
    command = ["download", *_platform_options(), "--require-hashes", "-r", str(requirements)]
    _run_pip([*command, "--dest", str(cache)], "pip download (needs access to the package index)")
    stamp_path.write_text(stamp.hexdigest() + "\n")


def install_wheels(requirements: Path, cache: Path, target: Path) -> None:
    """Install the cached wheels into ``target`` for the function's platform, offline."""
    # --isolated: no user config or PIP_* variables, so that only the cache is looked at.
    command = ["--isolated", "install", *_platform_options(), "--require-hashes"]
    command += ["-r", str(requirements), "--no-index", "--find-links", str(cache)]
    _run_pip([*command, "--target", str(target), "--no-compile"], "pip install")


def bytecode_python(requested: str | None) -> str | None:
    """The interpreter that compiles the zip's bytecode, or None when none is at hand.

    Bytecode only loads in the Python version that wrote it, so the interpreter must be the
    function's (PYTHON_VERSION); one that is asked for by name and is not is an error.
    """
    wanted = f"python{PYTHON_VERSION}"
    candidates = [requested] if requested else [shutil.which(wanted), sys.executable]
    for python in filter(None, candidates):
        if _version_of(python) == PYTHON_VERSION:
            return python
    if requested:
        raise BuildError(f"--python {requested} is not Python {PYTHON_VERSION} (the runtime)")
    return None


def no_bytecode_python() -> BuildError:
    """The one-line error of a build that finds no interpreter of the function's version:
    what it tried, and the two ways on (name one, or ship without bytecode)."""
    wanted = f"python{PYTHON_VERSION}"
    found = shutil.which(wanted)
    version = _version_of(found) if found else None
    on_path = "none" if found is None else f"is {version}" if version else "does not run"
    here = "{}.{}".format(*sys.version_info[:2])
    return BuildError(
        f"no Python {PYTHON_VERSION} (the function's runtime) to compile the zip's bytecode"
        f" ({wanted} on PATH: {on_path}; this Python: {here}): run"
        f" `make lambda-zip LAMBDA_PYTHON=/path/to/{wanted}` (--python), or"
        " `make lambda-zip NO_BYTECODE=1` (--no-bytecode) to ship a zip whose every cold start"
        " compiles every module"
    )


def _version_of(python: str) -> str | None:
    try:
        completed = subprocess.run(
            [python, "-I", "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        return None
    return completed.stdout.strip() if completed.returncode == 0 else None


def compile_bytecode(files: Mapping[str, Path], python: str, out: Path) -> dict[str, Path]:
    """Archive name -> pyc for every module in ``files``, compiled by ``python`` into ``out``."""
    sources = sorted((name, str(path)) for name, path in files.items() if name.endswith(".py"))
    completed = subprocess.run(
        [python, "-I", "-c", _COMPILE, str(out), TASK_ROOT],
        input=json.dumps(sources),
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        lines = completed.stderr.strip().splitlines() or ["no message"]
        raise BuildError(f"compiling the bytecode with {python} failed: {lines[-1]}")
    return {path.relative_to(out).as_posix(): path for path in _cached(out)}


def _cached(folder: Path) -> Iterator[Path]:
    return (path for path in sorted(folder.rglob("*.pyc")) if path.is_file())


def write_zip(files: Mapping[str, Path], output: Path, *, max_bytes: int = MAX_ZIP_BYTES) -> int:
    """Write a reproducible zip (sorted names, fixed times and modes); return its size.

    The archive is written beside ``output`` and moved into place only when it fits in
    ``max_bytes``, so a failed build never leaves an oversized zip to deploy.
    """
    output.parent.mkdir(parents=True, exist_ok=True)
    partial = output.with_name(output.name + ".partial")
    with zipfile.ZipFile(partial, "w") as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=FIXED_DATE_TIME)
            info.create_system = 3  # Unix, so that external_attr carries the mode
            info.external_attr = (stat.S_IFREG | FILE_MODE) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name].read_bytes(), compresslevel=9)
    size = partial.stat().st_size
    if size > max_bytes:
        partial.unlink()
        raise BuildError(
            f"{output.name} would be {size:,} bytes, over the {max_bytes:,}-byte budget:"
            " look for files that should not be in it"
        )
    partial.replace(output)
    return size


def build(root: Path, output: Path, wheel_cache: Path, python: str | None = None) -> int:
    """Build the zip from the sources under ``root``; return its size in bytes.

    ``python`` compiles the bytecode (see bytecode_python); None builds a zip without it.
    """
    requirements = root / "infra" / "lambda-requirements.txt"
    files = collect_sources(root)
    download_wheels(requirements, wheel_cache)
    with tempfile.TemporaryDirectory(prefix="sitemill-lambda-") as scratch:
        target = Path(scratch) / "site-packages"
        install_wheels(requirements, wheel_cache, target)
        installed = collect_installed(target)
        clashes = sorted(set(installed) & set(files))
        if clashes:
            raise BuildError(f"a dependency ships files that sitemill also ships: {clashes[:5]}")
        files = {**files, **installed}
        if python is not None:
            files |= compile_bytecode(files, python, Path(scratch) / "bytecode")
        return write_zip(files, output)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python infra/build_lambda_zip.py [--output ZIP] [--wheel-cache DIR]
    [--python PYTHON]``."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--root", type=Path, default=ROOT, help="project folder (the sources)")
    parser.add_argument("--output", type=Path, help=f"zip to write (default: ROOT/dist/{ZIP_NAME})")
    parser.add_argument(
        "--wheel-cache", type=Path, help="downloaded wheels (default: ROOT/dist/lambda-wheels)"
    )
    bytecode = parser.add_mutually_exclusive_group()
    bytecode.add_argument(
        "--python",
        default=os.environ.get(PYTHON_ENV) or None,
        help=f"a Python {PYTHON_VERSION} to compile the bytecode with (default: ${PYTHON_ENV},"
        f" else python{PYTHON_VERSION} on PATH, else this one if it is {PYTHON_VERSION})",
    )
    bytecode.add_argument(
        "--no-bytecode",
        action="store_true",
        help="ship the zip without bytecode (every cold start then compiles every module)",
    )
    args = parser.parse_args(argv)
    root: Path = args.root.resolve()
    output: Path = args.output or root / "dist" / ZIP_NAME
    wheel_cache: Path = args.wheel_cache or root / "dist" / "lambda-wheels"
    try:
        python = None if args.no_bytecode else bytecode_python(args.python)
        if python is None and not args.no_bytecode:
            raise no_bytecode_python()
        if python is None:
            print("--no-bytecode: the zip has no bytecode: each cold start compiles every module")
        size = build(root, output, wheel_cache, python)
    except BuildError as exc:
        print(f"build_lambda_zip: error: {exc}", file=sys.stderr)
        return 1
    print(f"{output}: {size:,} bytes, sha256 {_sha256(output)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
