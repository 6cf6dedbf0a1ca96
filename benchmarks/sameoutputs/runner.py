"""One revision's side of the byte-identity harness: sitemill's commands, at a fixed time.

    python runner.py SCRIPT.json

Run by each revision's own Python (its venv: sitemill and time-machine installed), never
imported by sitemill. SCRIPT is a JSON list of steps, each run in this process in order:

    {"at": EPOCH, "argv": [...], "out": DIR}          sitemill's command line (cli.main)
    {"at": EPOCH, "steps": {...}, "out": DIR}         the distributed rebuild's Lambda steps
    {"at": EPOCH, "diff": {...}, "out": DIR}          the Lambda's {"action": "diff"}

Each step runs with the clock stopped at ``at`` (time-machine: datetime.now and time.time give
it, so the run time a bucket's index gives a changed child is the same for both revisions) and
writes ``stdout``, ``stderr`` and ``rc`` into its DIR. The distributed rebuild is driven as
infra/rebuild.asl.json drives it: sitemill.aws.steps' plan, one shard call per item of the
plan's shards.json (in order, one at a time) and reduce, configured by SITEMILL_* variables,
against an S3 endpoint on 127.0.0.1 (moto, started by sameoutputs.py); the Lambda's diff the same
way, its whole answer printed.
"""

from __future__ import annotations

import io
import json
import logging
import os
import sys
import traceback
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import time_machine


def run_cli(argv: list[str]) -> int:
    from sitemill.cli import main

    logging.root.handlers.clear()  # (main sets its handler once per process: basicConfig)
    return int(main(argv) or 0)


def run_steps(spec: dict[str, Any]) -> int:
    import boto3

    from sitemill.aws import steps

    env = {**os.environ, **spec["env"]}
    client = boto3.client("s3", endpoint_url=spec["endpoint"], region_name="us-east-1")
    logging.root.handlers.clear()
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=logging.WARNING, handlers=[handler])
    logging.getLogger("sitemill.lambda").setLevel(logging.ERROR)  # (its lines carry durations)
    request = {
        "input": {"bucket": spec["bucket"], "prefix": "", "mode": "full"},
        "run": spec["run"],
    }
    planned = steps.plan(request, env=env, s3=client)
    print("plan:", json.dumps(planned, sort_keys=True))
    body = client.get_object(Bucket=planned["state_bucket"], Key=planned["shards_key"])["Body"]
    for item in json.loads(body.read()):
        done = steps.shard(item, env=env, s3=client)
        print("shard:", json.dumps(done, sort_keys=True))
    reduced = steps.reduce(planned, env=env, s3=client)
    print("reduce:", json.dumps(reduced, sort_keys=True))
    return 0


def run_diff(spec: dict[str, Any]) -> int:
    import boto3

    from sitemill.aws.diff import handle_diff

    env = {**os.environ, **spec["env"]}
    client = boto3.client("s3", endpoint_url=spec["endpoint"], region_name="us-east-1")
    logging.root.handlers.clear()
    logging.basicConfig(level=logging.ERROR, handlers=[logging.StreamHandler(sys.stderr)])
    answer = handle_diff({"action": "diff"}, env=env, s3=client)
    print(json.dumps(answer, sort_keys=True, indent=1))
    return 0 if answer.get("status") == "ok" else 1


def run_step(step: dict[str, Any]) -> None:
    out = Path(step["out"])
    out.mkdir(parents=True, exist_ok=True)
    saved = sys.stdout, sys.stderr
    with open(out / "stdout", "wb") as stdout, open(out / "stderr", "wb") as stderr:
        sys.stdout = io.TextIOWrapper(stdout, encoding="utf-8", write_through=True)
        sys.stderr = io.TextIOWrapper(stderr, encoding="utf-8", write_through=True)
        try:
            with time_machine.travel(datetime.fromtimestamp(step["at"], UTC), tick=False):
                if "argv" in step:
                    rc = run_cli(step["argv"])
                elif "diff" in step:
                    rc = run_diff(step["diff"])
                else:
                    rc = run_steps(step["steps"])
        except SystemExit as exc:
            rc = exc.code if isinstance(exc.code, int) else 1
        except Exception:  # (a traceback is an output too: it is compared)
            traceback.print_exc()
            rc = 99
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            sys.stdout.detach()
            sys.stderr.detach()
            sys.stdout, sys.stderr = saved
    (out / "rc").write_text(f"{rc}\n")


def main() -> int:
    for step in json.loads(Path(sys.argv[1]).read_text()):
        run_step(step)
    return 0


if __name__ == "__main__":
    sys.exit(main())
