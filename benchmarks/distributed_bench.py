"""`make bench` section distributed-10m: the distributed rebuild's stages over a synthetic
S3 Inventory report of 10,000,000 rows, each stage in a process of its own (its peak RSS is
one worker's: what one Lambda needs).

The report (10 gzip CSV data files, rows spread over the files as S3 Inventory spreads them)
and everything the stages write live on a moto server. The keys are documents (`.pdf`) that
need no head read, as in bucket-full-1m: the stages' own work is measured, not moto's GETs
(head reads are priced by the calculator: see costs.py). Stages: the planner (the report
found and verified, the sample, the group boundaries); every shuffle item (one data file's
rows routed to the groups' fragments); render items of one group each (its fragments
sorted, its shards rendered, parts and states staged). Targets: rows/s per stage and a render
worker's peak RSS at 40,000 URLs per shard ≤ 512 MB.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bucket_shards_bench import _peak_rss_mb
from harness import moto_server

SITE, STATE = "bench-dist-site", "bench-dist-state"
BASE = "https://example.com/"
FILES = 10
FOLDER = f"inventory/{SITE}/sitemill/"
RUN = "full-bench"
RENDERED_GROUPS = 2  # render items measured (each a group of GROUP_ROWS rows)
OUT = Path(__file__).resolve().parent / "out" / "distributed"


def _key(number: int) -> str:
    return f"docs/{number // 1000:05d}/{number % 1000:03d}.pdf"


def data_file(rows: int, part: int) -> Path:
    """Data file ``part`` of a report of ``rows`` rows (made once): every FILES-th key."""
    path = OUT / f"{rows}-{part:02d}.csv.gz"
    if path.exists():
        return path
    OUT.mkdir(parents=True, exist_ok=True)
    with gzip.open(path.with_suffix(".tmp"), "wt", compresslevel=6, encoding="ascii") as out:
        batch: list[str] = []
        for number in range(part, rows, FILES):
            batch.append(
                f'"{SITE}","{_key(number)}","1000","2024-03-01T12:00:00.000Z",'
                f'"{number:032x}","STANDARD"\n'
            )
            if len(batch) == 100_000:
                out.write("".join(batch))
                batch.clear()
        out.write("".join(batch))
    path.with_suffix(".tmp").rename(path)
    return path


def put_report(client: Any, rows: int) -> None:
    files = []
    for part in range(FILES):
        data = data_file(rows, part).read_bytes()
        key = f"{FOLDER}data/bench-{part:04d}.csv.gz"
        client.put_object(Bucket=STATE, Key=key, Body=data)
        md5 = hashlib.md5(data, usedforsecurity=False).hexdigest()
        files.append({"key": key, "size": len(data), "MD5checksum": md5})
    when = datetime.now(UTC) - timedelta(hours=2)
    manifest = json.dumps(
        {
            "sourceBucket": SITE,
            "destinationBucket": f"arn:aws:s3:::{STATE}",
            "version": "2016-11-30",
            "creationTimestamp": str(int(when.timestamp() * 1000)),
            "fileFormat": "CSV",
            "fileSchema": "Bucket, Key, Size, LastModifiedDate, ETag, StorageClass",
            "files": files,
        }
    ).encode()
    folder = f"{FOLDER}{when:%Y-%m-%dT%H-%MZ}/"
    client.put_object(Bucket=STATE, Key=folder + "manifest.json", Body=manifest)
    digest = hashlib.md5(manifest, usedforsecurity=False).hexdigest().encode()
    client.put_object(Bucket=STATE, Key=folder + "manifest.checksum", Body=digest)


def child(endpoint: str, stage: str, arguments: list[str]) -> None:
    """One stage in this process; prints one JSON line (seconds, rows, peak RSS)."""
    from sitemill.aws.clients import make_s3_client
    from sitemill.config.model import load_config
    from sitemill.jobs.asked import RunAsked
    from sitemill.jobs.bucketsite import BucketSite, open_partitioned
    from sitemill.jobs.features import OUTPUTS
    from sitemill.scaleout.distplan import DistributedRun, RunRequest, plan_run
    from sitemill.scaleout.distshard import render_item
    from sitemill.scaleout.distshuffle import fragment_listing, inventory_planner, shuffle_item
    from sitemill.scaleout.runfiles import item_from_json

    client = make_s3_client(endpoint)
    state = f"s3://{STATE}/{SITE}/sitemill-state.json.gz"
    config = load_config({"base_url": BASE, "state": state, "shards": "on"})
    site = BucketSite(SITE)
    store = open_partitioned(config, client, site)
    assert store is not None
    run = DistributedRun(config, client, site, store, STATE, asked=RunAsked(OUTPUTS))
    location = f"s3://{STATE}/{FOLDER}"
    files = run.files(RUN)
    started = time.perf_counter()
    result: dict[str, Any] = {}
    if stage == "plan":
        planned = plan_run(run, RunRequest(RUN, SITE, ""), inventory_planner(location))
        result = {"items": planned["shards"], "source": planned["inventory"] is not None}
    elif stage == "shuffle":
        items = files.get_json("inventory.json", limit=1 << 26)
        assert isinstance(items, list)
        rows = [shuffle_item(run, items[int(index)], location)["rows"] for index in arguments]
        result = {"rows": sum(rows)}
    elif stage == "render":
        items = files.get_json("shards.json", limit=1 << 26)
        assert isinstance(items, list)
        item = item_from_json(items[int(arguments[0])])
        summary = render_item(run, item, fragment_listing(run, item), None)
        result = {"rows": summary["report"]["urls"], "parts": len(summary["summaries"][0]["parts"])}
    result |= {"seconds": time.perf_counter() - started, "rss_mb": _peak_rss_mb()}
    print(json.dumps(result))


def _stage(endpoint: str, stage: str, *arguments: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", endpoint, stage, *arguments],
        capture_output=True,
        text=True,
        check=False,
        env=os.environ.copy(),
    )
    if done.returncode != 0:
        raise RuntimeError(f"the {stage} stage failed: {done.stderr.strip()[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def measure(rows: int) -> dict[str, Any]:
    """Every stage's figures: the plan, every shuffle item, render items."""
    import boto3

    with moto_server() as endpoint:
        client = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1")
        for bucket in (SITE, STATE):
            client.create_bucket(Bucket=bucket)
        put_report(client, rows)
        plan = _stage(endpoint, "plan")
        shuffles = [_stage(endpoint, "shuffle", str(part)) for part in range(FILES)]
        groups = range(min(RENDERED_GROUPS, plan["items"]))
        renders = [_stage(endpoint, "render", str(group)) for group in groups]
    return {"rows": rows, "plan": plan, "shuffle": shuffles, "render": renders}


def bench_distributed(section: Any, *, quick: bool) -> dict[str, Any]:
    """Fill ``section`` (run.Section); return the figures (for the cost calculator)."""
    rows = 1_000_000 if quick else 10_000_000
    figures = measure(rows)
    plan, shuffles, renders = figures["plan"], figures["shuffle"], figures["render"]
    section.check(
        f"plan of a {rows:,}-row inventory",
        "verified, sampled, grouped",
        f"{plan['items']} groups; {plan['seconds']:.1f} s, {plan['rss_mb']:.0f} MB",
        plan["source"] and plan["items"] >= rows // 400_000,
    )
    shuffled = sum(item["rows"] for item in shuffles)
    seconds = sum(item["seconds"] for item in shuffles)
    peak = max(item["rss_mb"] for item in shuffles)
    section.check(
        f"shuffle: {FILES} items of {rows // FILES:,} rows",
        "every row routed; peak ≤ 512 MB",
        f"{shuffled:,} rows, {shuffled / seconds:,.0f} rows/s per worker; peak {peak:.0f} MB",
        shuffled == rows and peak <= 512,
    )
    for index, item in enumerate(renders):
        section.check(
            f"render item {index} (one group)",
            "peak ≤ 512 MB at 40,000 URLs a shard",
            f"{item['rows']:,} URLs in {item['parts']} shards, "
            f"{item['rows'] / item['seconds']:,.0f} URLs/s; peak {item['rss_mb']:.0f} MB",
            item["rss_mb"] <= 512 and item["rows"] > 0,
        )
    return figures


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
        child(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        print(json.dumps(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000), indent=1))
