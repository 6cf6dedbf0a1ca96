"""`make bench` section bucket-sharded: what a one-page deploy costs a sharded bucket.

Two buckets, of 20,000 and 200,000 HTML pages (2,000 and 20,000 with --quick), each with the
partitioned state a full rebuild leaves (shards of 2,000 pages, so every shard is the same
size in both): sitemill's own full rebuild makes it (children staged, every shard's state,
one commit of the manifest) over the bucket's listing as it would be read, the pages never
uploaded and their heads known from the one state object of earlier runs (moto would take an
hour to serve 200,000 ranged GETs); the children, the index and the state go to a moto server
(another thread). Then one page changes, and a fresh child process runs the router on that
one key (what the Lambda does with the S3 event): its S3 requests by kind (a botocore hook),
wall time and peak RSS. Targets: at most 10 requests besides the page's own GET; time and
memory the same at 200,000 pages as at 20,000 (the run never lists the bucket nor reads
another shard's state).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from harness import moto_server, own_peak_rss_bytes

# Each size its own buckets: the moto servers of one process share one backend.
SITE, STATE = "bench-sharded-site-{pages}", "bench-sharded-state-{pages}"
BASE = "https://example.com/"
FILL: Final = 2_000
SECTIONS: Final = 20
_MODIFIED = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)


def _config(pages: int) -> Any:
    from sitemill.config.model import load_config

    return load_config(
        {
            "base_url": BASE,
            "state": f"s3://{STATE.format(pages=pages)}/site/sitemill-state.json.gz",
            "shards": "on",  # (auto would keep 20,000 pages in one file)
            "shard_fill": FILL,
            "content_dates": False,
        }
    )


def _client(endpoint: str) -> Any:
    from sitemill.aws.clients import make_s3_client

    return make_s3_client(endpoint)


def _path(number: int, pages: int) -> str:
    per_section = max(1, pages // SECTIONS)
    return f"s{number // per_section:02d}/p{number % per_section:06d}.html"


def _objects(pages: int) -> list[Any]:
    """The bucket's listing as ListObjectsV2 would give it (key order), of pages never uploaded."""
    return [
        {"Key": _path(n, pages), "ETag": f'"{n:032x}"', "Size": 1000, "LastModified": _MODIFIED}
        for n in range(pages)
    ]


def seed(endpoint: str, pages: int) -> str:
    """The bucket as a full rebuild leaves it; returns the key the deploy changes."""
    from sitemill.html.facts import ORDINARY_PAGE
    from sitemill.jobs.asked import RunAsked
    from sitemill.jobs.bucketsite import BucketSite, open_partitioned
    from sitemill.jobs.features import OUTPUTS
    from sitemill.scaleout.partitioned import DEFAULT_THREADS
    from sitemill.scaleout.shardcommit import head_live
    from sitemill.scaleout.shardfull import FullRun, rebuild_full
    from sitemill.scaleout.shardinputs import bucket_robots, inputs_fingerprint
    from sitemill.state.model import PageRecord, State, dump_state
    from sitemill.state.s3 import S3StateStore, parse_s3_location

    client, config = _client(endpoint), _config(pages)
    site = BucketSite(SITE.format(pages=pages))
    for bucket in (site.bucket, STATE.format(pages=pages)):
        client.create_bucket(Bucket=bucket)
    objects = _objects(pages)
    # The one state object of earlier runs, every page's head known: the first partitioned
    # run starts from it (state.partitioned.PartitionedStore.merged_start) and reads no page.
    known = State(pages={obj["Key"]: PageRecord(obj["ETag"], ORDINARY_PAGE) for obj in objects})
    assert config.state is not None
    S3StateStore(client, *parse_s3_location(config.state)).write(dump_state(known))
    # The full rebuild as the router runs it (rebuild_partitioned with nothing changed), over
    # the listing above instead of a LIST: children staged, every shard's state, one commit.
    store = open_partitioned(config, client, site)
    assert store is not None
    robots_data, robots = bucket_robots(config, client, site)
    live = head_live(client, site)
    base = store.read_manifest()
    now, asked = datetime.now(UTC), RunAsked(OUTPUTS)
    run = FullRun(config, client, site, store, DEFAULT_THREADS, now, asked=asked)
    inputs = inputs_fingerprint(config, robots_data)
    report = rebuild_full(run, base, live, robots, inputs, objects=objects)
    assert report.state_written and report.result.url_count == pages, report.warnings
    changed = _path(pages // 2 + 7, pages)
    body = b"<!doctype html><html><head><title>changed</title></head><body>new</body></html>"
    client.put_object(Bucket=site.bucket, Key=changed, Body=body)
    return changed


def child(endpoint: str, pages: int, key: str) -> None:
    """One router run on ``key``: requests by kind, seconds, peak RSS (one JSON line)."""
    from sitemill.jobs.asked import RunAsked
    from sitemill.jobs.bucketsite import BucketSite, open_partitioned
    from sitemill.jobs.features import OUTPUTS
    from sitemill.scaleout.partitioned import RebuildOptions, rebuild_partitioned

    client, config = _client(endpoint), _config(pages)
    site = BucketSite(SITE.format(pages=pages))
    calls: Counter[str] = Counter()
    client.meta.events.register("before-call.s3.*", lambda model, **_: calls.update([model.name]))
    store = open_partitioned(config, client, site)
    assert store is not None
    started = time.perf_counter()
    options = RebuildOptions(asked=RunAsked(OUTPUTS))
    report = rebuild_partitioned(config, client, site, store, changed=[key], options=options)
    seconds = time.perf_counter() - started
    rss = _peak_rss_mb()
    print(
        json.dumps(
            {
                "requests": dict(calls),
                "seconds": seconds,
                "rss_mb": rss,
                "urls": report.result.url_count,
                "written": report.result.written,
                "shards": 0 if report.result.plan is None else len(report.result.plan.afters),
            }
        )
    )


def _peak_rss_mb() -> float:
    return own_peak_rss_bytes() / 1024 / 1024


def measure(pages: int) -> dict[str, Any]:
    with moto_server() as endpoint:
        started = time.perf_counter()
        key = seed(endpoint, pages)
        setup = time.perf_counter() - started
        done = subprocess.run(
            [sys.executable, __file__, "--child", endpoint, str(pages), key],
            capture_output=True,
            text=True,
            check=True,
            env=os.environ.copy(),
        )
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    result["setup_seconds"] = setup
    result["pages"] = pages
    return result


def bench_bucket_shards(section: Any, *, quick: bool) -> None:
    """Fill ``section`` (run.Section) with the deploy's cost at two bucket sizes."""
    small, large = (measure(n) for n in ((2_000, 20_000) if quick else (20_000, 200_000)))
    for result in (small, large):
        requests = result["requests"]
        others = sum(requests.values()) - 1  # besides the changed page's own GET
        kinds = ", ".join(f"{name} {count}" for name, count in sorted(requests.items()))
        section.check(
            f"{result['pages']:,} pages ({result['shards']} shards): requests",
            "≤ 10 besides the page's GET",
            f"{others} ({kinds}); {result['seconds']:.2f} s, {result['rss_mb']:.0f} MB",
            others <= 10 and result["urls"] == result["pages"],
        )
    same_requests = small["requests"] == large["requests"]
    time_ratio = large["seconds"] / small["seconds"]
    rss_ratio = large["rss_mb"] / small["rss_mb"]
    section.check(
        "10× the pages",
        "same requests; time and RSS ≤ 1.5×",
        f"requests {'same' if same_requests else 'differ'}; time {time_ratio:.2f}×, "
        f"RSS {rss_ratio:.2f}×",
        same_requests and time_ratio <= 1.5 and rss_ratio <= 1.5,
    )


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    else:
        for count in map(int, sys.argv[1:] or ["20000"]):
            print(json.dumps(measure(count)))
