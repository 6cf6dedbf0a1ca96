"""`make bench` section lambda-start: what a cold start of the Lambda costs (issue 24).

Measured in fresh processes, each with a clean interpreter as Lambda's is:
- the handler's import (``import handler`` from lambda/, the module the runtime loads at INIT),
  the median of several processes;
- a cold first event and a warm second one: a child imports the handler and runs a manual
  rebuild (``{"action": "rebuild"}``) twice on a moto server's bucket of PAGES HTML pages
  (AWS_ENDPOINT_URL points boto3 at it). The first event also pays for what loads on first use
  (boto3 and its S3 model, the templates);
- the zip's size: dist/sitemill-lambda.zip, built by infra/build_lambda_zip.py when it is not
  there (that step downloads the pinned wheels).

    .venv/bin/python benchmarks/lambda_bench.py --child ENDPOINT   (the timed child)
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bucket_shards_bench import moto_server

ROOT = Path(__file__).resolve().parent.parent
IMPORTS = 9
PAGES = 200
BUCKET = "lambda-start"
IMPORT_TARGET_S = 0.100
ZIP_LIMIT = 5 * 1024 * 1024
_IMPORT = (
    "import sys, time; sys.path.insert(0, {lam!r}); t = time.perf_counter(); import handler; "
    "print(time.perf_counter() - t)"
)


def import_seconds() -> float | None:
    """The median import time of the handler over IMPORTS fresh processes (None: it failed)."""
    code = _IMPORT.format(lam=str(ROOT / "lambda"))
    runs = []
    for _ in range(IMPORTS):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        if done.returncode != 0:
            return None
        runs.append(float(done.stdout))
    return statistics.median(runs)


def seed(endpoint: str) -> None:
    import boto3

    s3 = boto3.client("s3", endpoint_url=endpoint)
    s3.create_bucket(Bucket=BUCKET)
    for page in range(PAGES):
        body = f"<!doctype html><title>Page {page}</title><main><p>Text {page}.</p></main>"
        s3.put_object(Bucket=BUCKET, Key=f"p{page:04d}/index.html", Body=body.encode())


def child(endpoint: str) -> None:
    """In a fresh process: import the handler, then two rebuilds; print their seconds."""
    os.environ.update(
        AWS_ENDPOINT_URL=endpoint,
        SITEMILL_BUCKET=BUCKET,
        SITEMILL_BASE_URL="https://www.example.com/",
    )
    sys.path.insert(0, str(ROOT / "lambda"))
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


def zip_size() -> tuple[int | None, str]:
    """The Lambda zip's size in bytes (None: it could not be built), and how it was found."""
    path = ROOT / "dist" / "sitemill-lambda.zip"
    if not path.is_file():
        done = subprocess.run(
            [sys.executable, str(ROOT / "infra" / "build_lambda_zip.py")],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0 or not path.is_file():
            return None, (done.stderr.strip().splitlines() or ["build failed"])[-1]
    return path.stat().st_size, str(path.relative_to(ROOT))


def bench_lambda(section: Any) -> None:
    """Fill ``section`` (run.Section) with the checks described above."""
    seconds = import_seconds()
    section.check(
        "the handler's import (median of 9)",
        f"≤ {IMPORT_TARGET_S * 1000:.0f} ms",
        "the import failed" if seconds is None else f"{seconds * 1000:.0f} ms",
        seconds is not None and seconds <= IMPORT_TARGET_S,
    )
    with moto_server() as endpoint:
        seed(endpoint)
        done = subprocess.run(
            [sys.executable, __file__, "--child", endpoint], capture_output=True, text=True
        )
    if done.returncode != 0:
        tail = " | ".join(done.stderr.strip().splitlines()[-2:])
        section.check("a cold event, then a warm one", "both built", tail, False)
    else:
        found = json.loads(done.stdout.strip().splitlines()[-1])
        ok = found["urls"] == PAGES and found["status"] == ["ok", "ok"]
        section.check(
            f"a cold rebuild of {PAGES} pages, then a warm one",
            "report",
            f"import {found['import'] * 1000:.0f} ms, first event {found['first']:.2f} s, "
            f"second {found['second']:.2f} s",
            ok,
        )
    size, where = zip_size()
    section.check(
        "the Lambda zip",
        "< 5 MB",
        "not built: " + where if size is None else f"{size / 1e6:.2f} MB ({where})",
        size is not None and size < ZIP_LIMIT,
    )


if __name__ == "__main__" and sys.argv[1:2] == ["--child"]:
    child(sys.argv[2])
