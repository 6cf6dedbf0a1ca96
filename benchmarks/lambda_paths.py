"""lambda-start, per action: the modules a cold start of each action imports, and their time.

Each action runs once in a fresh process from the unpacked zip against a moto server (the
events of the router, a check, each Step Functions step) and names, in the order they loaded,
the modules its import and its event loaded; then fresh processes import that list in that
order, timed (median of IMPORTS, the actions taking turns). "Every path" is what the handler
imported on any event until each entry imported its own (the router, the rebuild and the
check: ``import handler`` did it all); the target holds an S3 event that asks for no rebuild
to half of it. A changed page's event (its page uploaded again with new bytes before it: the
rebuild reads it) is also counted beyond "the S3 client alone" (botocore's client listing,
GETting and PUTting: what any S3 event's handler loads), against what the same event loaded
there when issue 64 was written (PAGE_EVENT_BEFORE; target: half). A step runs up to its first
S3 read (the bench's bucket keeps no partitioned state): its imports are its module's.

    .venv/bin/python benchmarks/lambda_paths.py --child FOLDER ENDPOINT ACTION   (one action)
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

IMPORTS = 9
EVERY_PATH = ("sitemill.aws.handler", "sitemill.aws.rebuild", "sitemill.aws.check")
STEPS = ("plan", "shuffle", "shard", "reduce")
# Name -> (entry, event): in this order, so that the check and the returns find a site
# published by the rebuild before them.
_PAGE_KEY = "p0001/index.html"
FLOOR = "the S3 client alone (botocore)"
EVERY = "every path (the import until now)"
CHANGED = "S3 event: a changed page (a rebuild that reads it)"
ACTIONS: dict[str, tuple[str, Any]] = {
    FLOOR: ("", None),
    "import only": ("", None),
    EVERY: ("", None),
    '{"action": "rebuild"}': ("handler", {"action": "rebuild"}),
    "S3 event: a page uploaded (a rebuild)": ("handler", _PAGE_KEY),
    CHANGED: ("handler", _PAGE_KEY),
    "S3 event: sitemill's sitemaps coming back": ("handler", "sitemap.xml"),
    "S3 event: asks for no rebuild (a state write)": ("handler", "sitemill-state.json.gz"),
    '{"action": "check"}': ("handler", {"action": "check"}),
    **{f"Step Functions: {step}": (step, {}) for step in STEPS},
}
TARGET_ACTION = "S3 event: asks for no rebuild (a state write)"
# CHANGED's modules beyond FLOOR's at 06397bb, when issue 64 was written (567 in all, 235 of
# sitemill; with boto3's client, Jinja and every feature's modules): this bench's CHANGED and
# FLOOR on that commit's sources (tests/aws/test_lambda_imports.py, which counts the modules its
# child loaded before too, says 331 of 592).
PAGE_EVENT_BEFORE = 330
_TIMED = (
    "import importlib, sys, time; sys.path.insert(0, sys.argv[1]); names = sys.argv[2:]; "
    "t = time.perf_counter()\n"
    "for name in names:\n"
    "    try: importlib.import_module(name)\n"
    "    except Exception: pass\n"
    "print(time.perf_counter() - t)"
)


def s3_event(bucket: str, key: str) -> dict[str, Any]:
    record = {"eventSource": "aws:s3", "eventName": "ObjectCreated:Put"}
    record["s3"] = {"bucket": {"name": bucket}, "object": {"key": key, "size": 1}}
    return {"Records": [record]}


def child(folder: str, endpoint: str, action: str) -> None:
    """In a fresh process: import the handler from ``folder``, run ``action``; print its
    answer's status and the modules loaded, in order."""
    bucket = os.environ["SITEMILL_BUCKET"]
    os.environ["AWS_ENDPOINT_URL"] = endpoint
    sys.path.insert(0, folder)
    before = set(sys.modules)
    entry, event = ACTIONS[action]
    status: Any = None
    if action == FLOOR:
        s3_client_alone(bucket)
    else:
        import handler  # type: ignore[import-not-found]
    if action == EVERY:
        for name in EVERY_PATH:
            __import__(name)
    elif entry:
        event = s3_event(bucket, event) if isinstance(event, str) else event
        try:
            status = getattr(handler, entry)(event, None).get("status")
        except Exception as exc:  # (a step with no partitioned state to read)
            status = type(exc).__name__
    loaded = [name for name in sys.modules if name not in before and not name.startswith("__")]
    print(json.dumps({"status": status, "modules": loaded}))


def s3_client_alone(bucket: str) -> None:
    """What any S3 event's handler loads: botocore's client listing, GETting and PUTting."""
    from botocore.session import get_session

    s3 = get_session().create_client("s3", endpoint_url=os.environ["AWS_ENDPOINT_URL"])
    s3.list_objects_v2(Bucket=bucket, MaxKeys=1)
    s3.get_object(Bucket=bucket, Key=_PAGE_KEY)["Body"].read()
    s3.put_object(Bucket=bucket, Key="floor.txt", Body=b"")
    s3.delete_object(Bucket=bucket, Key="floor.txt")


def change_page(endpoint: str, bucket: str) -> None:
    """The page of the page events, uploaded again with new bytes (from the bench itself)."""
    import boto3

    body = b"<!doctype html><title>Page 1</title><main><p>Its text, changed.</p></main>"
    boto3.client("s3", endpoint_url=endpoint).put_object(Bucket=bucket, Key=_PAGE_KEY, Body=body)


def import_seconds(folder: Path, lists: dict[str, list[str]]) -> dict[str, float]:
    """Action -> the median time of fresh processes importing its modules in order from
    ``folder``; the actions take turns, IMPORTS rounds, so that a busy machine slows each alike."""
    runs: dict[str, list[float]] = {action: [] for action in lists}
    for _ in range(IMPORTS):
        for action, modules in lists.items():
            command = [sys.executable, "-I", "-B", "-c", _TIMED, str(folder), *modules]
            done = subprocess.run(command, capture_output=True, check=True)
            runs[action].append(float(done.stdout))
    return {action: statistics.median(seconds) for action, seconds in runs.items()}


def measure_actions(folder: Path, endpoint: str, env: dict[str, str]) -> dict[str, Any]:
    """Action -> {status, modules, sitemill modules, seconds} (or {error})."""
    found: dict[str, Any] = {}
    lists: dict[str, list[str]] = {}
    for action in ACTIONS:
        if action == CHANGED:
            change_page(endpoint, env["SITEMILL_BUCKET"])
        done = subprocess.run(
            [sys.executable, "-I", "-B", __file__, "--child", str(folder), endpoint, action],
            capture_output=True,
            text=True,
            env=env,
        )
        if done.returncode != 0:
            found[action] = {"error": " | ".join(done.stderr.strip().splitlines()[-2:])}
            continue
        answer = json.loads(done.stdout.strip().splitlines()[-1])
        lists[action] = modules = answer["modules"]
        found[action] = {
            "status": answer["status"],
            "modules": len(modules),
            "sitemill": sum(1 for name in modules if name.split(".")[0] == "sitemill"),
            "beyond": len(set(modules) - set(lists.get(FLOOR, ()))),
        }
    for action, seconds in import_seconds(folder, lists).items():
        found[action]["seconds"] = seconds
    return found


def report_actions(section: Any, found: dict[str, Any]) -> None:
    """One check per action (reported: its time also as a ratio to every path's, measured
    in the same rounds), and the target's."""
    every_seconds = found.get(EVERY, {}).get("seconds")
    for action, row in found.items():
        if "error" in row:
            section.check(f"cold start, {action}", "report", row["error"], False)
            continue
        said = f"{row['modules']} modules ({row['sitemill']} of sitemill), "
        said += f"{row['seconds'] * 1000:.0f} ms"
        if every_seconds:
            said += f" ({row['seconds'] / every_seconds:.2f}× every path's)"
        status = "" if row["status"] is None else f"; answered {row['status']}"
        section.check(f"cold start, {action}", "report", said + status, True)
    every, target = found.get(EVERY, {}), found.get(TARGET_ACTION, {})
    if "modules" in every and "modules" in target:
        ratio = target["modules"] / every["modules"]
        section.check(
            "an S3 event that asks for no rebuild: its modules / every path's",
            "≤ 0.50",
            f"{target['modules']} / {every['modules']} = {ratio:.2f}",
            ratio <= 0.5 and target["status"] == "skipped",
        )
    changed = found.get(CHANGED, {})
    if "beyond" in changed and "modules" in found.get(FLOOR, {}):
        ratio = changed["beyond"] / PAGE_EVENT_BEFORE
        section.check(
            "a changed page's S3 event: its modules beyond the S3 client's own / issue 64's",
            "≤ 0.50",
            f"{changed['beyond']} / {PAGE_EVENT_BEFORE} = {ratio:.2f}",
            ratio <= 0.5 and changed["status"] == "ok",
        )


if __name__ == "__main__" and sys.argv[1:2] == ["--child"]:
    child(sys.argv[2], sys.argv[3], sys.argv[4])
