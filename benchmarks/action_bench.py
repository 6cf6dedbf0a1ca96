"""`make bench` section action-install: the GitHub Action's steps run as a runner runs them, timed.

Every step of action.yml in order, on a new runner each time (an empty RUNNER_TEMP and pip
cache), as tests/actionsteps.py plays them: the `run:` steps with bash and their `env:`
evaluated, `if:` conditions honoured, and the cache's two actions played by a folder that
stands for the cache service. A cold run finds
nothing in it (the dependencies come from the package index), a warm run finds what a cold run
saved. The workspace is a git repository of examples/site; the run builds its sitemap without
committing. Measured: from the step's start to the end of the input check, to the end of the
install, and to done. Beside it, in the same run, what the install cost before (a venv with pip,
then `pip install` of the action's folder, a build of the wheel), cold and with pip's cache warm.

Needs the package index (the cold runs): `make bench` has it, the test suite does not run this.
The cache service's own transfer on GitHub (the folder holds the two wheels, 0.16 MB) is not
part of these figures.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from actionsteps import play  # noqa: E402 (the runner's play, shared with the tests)


def job(cache_service: Path) -> dict[str, float]:
    """The action's steps once, on a new runner: seconds to the input check, to the end of the
    install (with the cache saved) and to done."""
    runner = play(cache_service)
    try:
        if "sitemap.xml" not in runner.outputs["run"].get("sitemap", ""):
            raise RuntimeError(f"the run wrote no sitemap: {runner.outputs['run']}")
        marks = runner.marks
        return {"checked": marks["inputs"], "installed": marks["deps-save"], "done": marks["run"]}
    finally:
        shutil.rmtree(runner.scratch, ignore_errors=True)


def pip_install_before(pip_cache: Path) -> float:
    """The install step before: a venv with pip and `pip install` of the action's folder."""
    with tempfile.TemporaryDirectory(prefix="sitemill-action-before-") as name:
        env = {**os.environ, "PIP_CACHE_DIR": str(pip_cache)}
        started = time.monotonic()
        subprocess.run([sys.executable, "-m", "venv", f"{name}/venv"], check=True)
        subprocess.run(
            [f"{name}/venv/bin/python", "-m", "pip", "install", "--quiet",
             "--disable-pip-version-check", "--no-input", str(ROOT)],
            env=env, check=True, capture_output=True,
        )  # fmt: skip
        return time.monotonic() - started


def bench_action(section: object, *, repeat: int) -> None:
    """Fill ``section`` (run.Section) with the cold and warm figures."""
    add = section.check  # type: ignore[attr-defined]
    notes: list[str] = section.notes  # type: ignore[attr-defined]
    runs: dict[str, list[dict[str, float]]] = {"cold": [], "warm": []}
    before: dict[str, list[float]] = {"cold": [], "warm": []}
    for _ in range(repeat):
        with tempfile.TemporaryDirectory(prefix="sitemill-cache-service-") as service:
            runs["cold"].append(job(Path(service)))
            runs["warm"].append(job(Path(service)))
        with tempfile.TemporaryDirectory(prefix="sitemill-pip-cache-") as pip_cache:
            before["cold"].append(pip_install_before(Path(pip_cache)))
            before["warm"].append(pip_install_before(Path(pip_cache)))
    median = {kind: {mark: statistics.median(run[mark] for run in found) for mark in found[0]}
              for kind, found in runs.items()}  # fmt: skip
    for kind, marks in median.items():
        install = marks["installed"] - marks["checked"]
        was = statistics.median(before[kind])
        add(f"{kind}: start to the input check", "≤ 1 s", f"{marks['checked']:.2f} s",
            marks["checked"] <= 1)  # fmt: skip
        add(f"{kind}: the install (before: {was:.1f} s)", "≤ 5 s" if kind == "cold" else "≤ 1 s",
            f"{install:.2f} s, {was / install:.0f}× faster",
            install <= (5 if kind == "cold" else 1))  # fmt: skip
        add(f"{kind}: start to done", "reported", f"{marks['done']:.2f} s", True)
    notes.append("  (not in these figures: the cache service's transfer of its 0.16 MB)")
