"""`make bench` section bucket-full-1m: a sharded bucket's full rebuild of 1,000,000 keys.

The keys (documents that need no head read: `.pdf`, so every key is a listed URL) are served
to the rebuild's listing in S3 key order by a generator standing in for ListObjectsV2 (moto
serializes about a thousand keys a second: a million would take a quarter of an hour of
moto, not of sitemill); everything the rebuild reads and writes besides the listing goes to
a moto server: robots.txt, 25 children and the index, the partitioned state. Two runs in
fresh processes: the first (no state: the canonical plan laid, every shard's state written),
then the same listing again. Targets: the first run's time and peak RSS reported; the rerun
writes nothing (no sitemap, no state object).
"""

from __future__ import annotations

import heapq
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bucket_shards_bench import _peak_rss_mb
from harness import moto_server

SITE, STATE = "bench-full-site", "bench-full-state"
BASE = "https://example.com/"
_MODIFIED = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)


def _key(number: int) -> str:
    return f"docs/{number // 1000:04d}/{number % 1000:03d}.pdf"


def _objects(count: int, start_after: str = "", last: str | None = None) -> Iterator[Any]:
    """The listing of ``count`` keys (in key order: zero-padded), as S3 gives it."""
    for number in range(count):
        key = _key(number)
        if key <= start_after:
            continue
        if last is not None and key > last:
            return
        yield {"Key": key, "ETag": f'"{number:032x}"', "Size": 1000, "LastModified": _MODIFIED}


def child(endpoint: str, count: int) -> None:
    """One full rebuild (a JSON line: seconds, peak RSS, files written, state written)."""
    import sitemill.scaleout.shardfull as full
    from sitemill.aws.clients import make_s3_client
    from sitemill.config.model import load_config
    from sitemill.jobs.asked import RunAsked
    from sitemill.jobs.bucketsite import BucketSite, open_partitioned
    from sitemill.jobs.features import OUTPUTS
    from sitemill.scaleout.partitioned import RebuildOptions, rebuild_partitioned

    real = full.list_objects

    def listed(client: Any, bucket: str, root: str, **bounds: Any) -> Iterator[Any]:
        # The bucket's own objects (the sitemaps: what the sink compares with) merged in key
        # order with the million keys it stands for.
        synthetic = _objects(count, bounds.get("start_after", ""), bounds.get("last"))
        return heapq.merge(
            real(client, bucket, root, **bounds), synthetic, key=lambda obj: obj["Key"]
        )

    full.list_objects = listed  # type: ignore[assignment]  # (the stand-in for LIST)
    client = make_s3_client(endpoint)
    config = load_config({"base_url": BASE, "state": f"s3://{STATE}/site/sitemill-state.json.gz"})
    site = BucketSite(SITE)
    store = open_partitioned(config, client, site)
    assert store is not None
    started = time.perf_counter()
    report = rebuild_partitioned(
        config, client, site, store, options=RebuildOptions(threads=4, asked=RunAsked(OUTPUTS))
    )
    print(
        json.dumps(
            {
                "seconds": time.perf_counter() - started,
                "rss_mb": _peak_rss_mb(),
                "urls": report.result.url_count,
                "written": len(report.result.written),
                "state_written": report.state_written,
                "shards": 0 if report.result.plan is None else len(report.result.plan.afters),
            }
        )
    )


def measure(count: int) -> list[dict[str, Any]]:
    import boto3

    with moto_server() as endpoint:
        client = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1")
        for bucket in (SITE, STATE):
            client.create_bucket(Bucket=bucket)
        runs = []
        for _ in range(2):
            done = subprocess.run(
                [sys.executable, __file__, "--child", endpoint, str(count)],
                capture_output=True,
                text=True,
                check=True,
                env=os.environ.copy(),
            )
            runs.append(json.loads(done.stdout.splitlines()[-1]))
    return runs


def bench_bucket_full(section: Any, *, quick: bool) -> None:
    """Fill ``section`` (run.Section): the first full rebuild and the rerun."""
    count = 100_000 if quick else 1_000_000
    first, again = measure(count)
    section.check(
        f"{count:,} keys, first full rebuild",
        "every key listed, ⌈keys / 40,000⌉ shards",
        f"{first['urls']:,} URLs in {first['shards']} shards, {first['written']} files; "
        f"{first['seconds']:.1f} s, {first['rss_mb']:.0f} MB",
        first["urls"] == count and first["shards"] == -(-count // 40_000),
    )
    section.check(
        "the same listing again",
        "nothing written (no sitemap, no state)",
        f"{again['written']} files, state {'written' if again['state_written'] else 'unchanged'}; "
        f"{again['seconds']:.1f} s, {again['rss_mb']:.0f} MB",
        again["written"] == 0 and not again["state_written"],
    )


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2], int(sys.argv[3]))
    else:
        for result in measure(int(sys.argv[1]) if sys.argv[1:] else 100_000):
            print(json.dumps(result))
