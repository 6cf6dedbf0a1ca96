"""`make bench` section lambda-start: what a cold start of the Lambda costs (issue 24).

Everything runs from the zip itself, unpacked (the files Lambda's runtime loads from /var/task),
in fresh processes, each with a clean interpreter as Lambda's is; boto3 is this environment's,
as the runtime provides its own:
- the zip: built afresh by infra/build_lambda_zip.py into a scratch folder (it reuses the wheels
  ``make lambda-zip`` downloaded, or downloads them); its size;
- the handler's import (``import handler``), the median of several processes, twice: from the
  sources alone (no bytecode: /var/task is read-only, so each cold start compiles every
  module), then with the bytecode the zip carries when built with the runtime's Python
  (compiled here by this Python when the build had no such interpreter, built then with
  --no-bytecode: same code, same layout). The target holds for the second;
- a cold first event and a warm second one: a child imports the handler and runs a manual
  rebuild (``{"action": "rebuild"}``) twice on a moto server's bucket of PAGES HTML pages
  (AWS_ENDPOINT_URL points boto3 at it). The first event also pays for what loads on first use
  (boto3 and its S3 model, the templates);
- each action's cold start: the modules it imports and their import time (lambda_paths.py).

    .venv/bin/python benchmarks/lambda_bench.py --child FOLDER ENDPOINT   (the timed child)
"""

from __future__ import annotations

import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any

from harness import moto_server
from lambda_paths import measure_actions, report_actions

ROOT = Path(__file__).resolve().parent.parent
IMPORTS = 9
PAGES = 200
BUCKET = "lambda-start"
IMPORT_TARGET_S = 0.100
ZIP_LIMIT = 5 * 1024 * 1024
LIVE_SITE = "http://127.0.0.1:9/"
_IMPORT = (
    "import sys, time; sys.path.insert(0, {folder!r}); t = time.perf_counter(); import handler; "
    "print(time.perf_counter() - t)"
)


def _build_script() -> ModuleType:
    path = ROOT / "infra" / "build_lambda_zip.py"
    spec = importlib.util.spec_from_file_location("build_lambda_zip", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def import_seconds(folder: Path) -> float | None:
    """The median import time of the handler in ``folder`` over IMPORTS fresh processes
    (None: it failed). -B: nothing is written beside the sources, as on Lambda."""
    code = _IMPORT.format(folder=str(folder))
    runs = []
    for _ in range(IMPORTS):
        done = subprocess.run([sys.executable, "-I", "-B", "-c", code], capture_output=True)
        if done.returncode != 0:
            return None
        runs.append(float(done.stdout))
    return statistics.median(runs)


def build_zip(scratch: Path) -> tuple[Path | None, str]:
    """A fresh zip of this checkout in ``scratch``, and what the build said (the reason when
    it failed, with None)."""
    output = scratch / "sitemill-lambda.zip"
    command = [sys.executable, str(ROOT / "infra" / "build_lambda_zip.py"), "--output", str(output)]
    # Without the runtime's Python the build refuses to ship a zip without bytecode unless
    # told: here add_bytecode compiles it with this Python afterwards, as the build would.
    python = _build_script().bytecode_python(os.environ.get("LAMBDA_PYTHON") or None)
    command += ["--python", python] if python else ["--no-bytecode"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0 or not output.is_file():
        return None, (done.stderr.strip().splitlines() or ["build failed"])[-1]
    return output, done.stdout


def add_bytecode(folder: Path) -> str:
    """Make sure ``folder`` holds bytecode this Python loads; say where it came from."""
    tag = sys.implementation.cache_tag
    if any(folder.glob(f"sitemill/__pycache__/*.{tag}.pyc")):
        return "the zip's own"
    script = _build_script()
    sources = {path.relative_to(folder).as_posix(): path for path in folder.rglob("*.py")}
    script.compile_bytecode(sources, sys.executable, folder)
    return f"compiled by this Python {sys.version_info[0]}.{sys.version_info[1]} as the build does"


def seed(endpoint: str) -> None:
    import boto3

    s3 = boto3.client("s3", endpoint_url=endpoint)
    s3.create_bucket(Bucket=BUCKET)
    for page in range(PAGES):
        body = f"<!doctype html><title>Page {page}</title><main><p>Text {page}.</p></main>"
        s3.put_object(Bucket=BUCKET, Key=f"p{page:04d}/index.html", Body=body.encode())


def child(folder: str, endpoint: str) -> None:
    """In a fresh process: import the handler from ``folder``, then two rebuilds; print their
    seconds."""
    os.environ.update(
        AWS_ENDPOINT_URL=endpoint,
        SITEMILL_BUCKET=BUCKET,
        SITEMILL_BASE_URL="https://www.example.com/",
    )
    sys.path.insert(0, folder)
    started = time.perf_counter()
    import handler  # type: ignore[import-not-found]

    imported = time.perf_counter()
    first = handler.handler({"action": "rebuild"}, None)
    cold = time.perf_counter()
    second = handler.handler({"action": "rebuild"}, None)
    warm = time.perf_counter()
    print(
        json.dumps(
            {
                "import": imported - started,
                "first": cold - imported,
                "second": warm - cold,
                "urls": first.get("urls"),
                "status": [first.get("status"), second.get("status")],
            }
        )
    )


def bench_lambda(section: Any) -> None:
    """Fill ``section`` (run.Section) with the checks described above."""
    with tempfile.TemporaryDirectory(prefix="lambda-start-") as scratch:
        built, said = build_zip(Path(scratch))
        section.check(
            "the Lambda zip, built afresh",
            "< 5 MB",
            f"not built: {said}" if built is None else f"{built.stat().st_size / 1e6:.2f} MB",
            built is not None and built.stat().st_size < ZIP_LIMIT,
        )
        if built is None:
            return
        folder, bare_folder = Path(scratch) / "task", Path(scratch) / "sources"
        with zipfile.ZipFile(built) as archive:
            archive.extractall(folder)
            archive.extractall(bare_folder, [n for n in archive.namelist() if ".pyc" not in n])
        bare = import_seconds(bare_folder)
        section.check(
            "the handler's import from the sources alone (median of 9)",
            "report",
            "the import failed" if bare is None else f"{bare * 1000:.0f} ms",
            bare is not None,
        )
        where = add_bytecode(folder)
        seconds = import_seconds(folder)
        section.check(
            "the handler's import with bytecode (median of 9)",
            f"≤ {IMPORT_TARGET_S * 1000:.0f} ms",
            "the import failed" if seconds is None else f"{seconds * 1000:.0f} ms ({where})",
            seconds is not None and seconds <= IMPORT_TARGET_S,
        )
        events(section, folder)


def events(section: Any, folder: Path) -> None:
    with moto_server() as endpoint:
        seed(endpoint)
        done = subprocess.run(
            [sys.executable, "-B", __file__, "--child", str(folder), endpoint],
            capture_output=True,
            text=True,
        )
        # Each action's cold start; the check reads its live site on the discard port.
        env = {**os.environ, "SITEMILL_BUCKET": BUCKET, "SITEMILL_BASE_URL": LIVE_SITE}
        actions = measure_actions(folder, endpoint, env)
    report_actions(section, actions)
    if done.returncode != 0:
        tail = " | ".join(done.stderr.strip().splitlines()[-2:])
        section.check("a cold event, then a warm one", "both built", tail, False)
        return
    found = json.loads(done.stdout.strip().splitlines()[-1])
    ok = found["urls"] == PAGES and found["status"] == ["ok", "ok"]
    section.check(
        f"a cold rebuild of {PAGES} pages, then a warm one",
        "report",
        f"import {found['import'] * 1000:.0f} ms, first event {found['first']:.2f} s, "
        f"second {found['second']:.2f} s",
        ok,
    )


if __name__ == "__main__" and sys.argv[1:2] == ["--child"]:
    child(sys.argv[2], sys.argv[3])
