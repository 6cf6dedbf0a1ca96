"""The property a sharded run keeps: incremental runs over any sequence of adds, edits and deletes
give exactly the files of a full rebuild with the same plan, and the number of threads changes
no byte. (moto, small: each example is a fresh bucket; shards of 4 URLs so that shards split,
empty and merge into their neighbours within a few steps.)"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from outputlist import RebuildOptions, rebuild_partitioned
from s3util import BUCKET, make_config, moto_bucket, sitemap_files
from sitemill.config.model import Config
from sitemill.jobs.bucket import BucketSite
from sitemill.jobs.bucketsite import partitioned_prefix
from sitemill.state.partitioned import PartitionedStore

pytestmark = pytest.mark.heavy  # (run first: tests/conftest.py)

STATE_BUCKET = "state-bucket"
NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
KEYS = [
    *(f"{section}/p{n}.html" for section in "abc" for n in range(5)),
    "b/p1.htm",  # one URL with b/p1.html under clean URLs: never cut apart
    "c/doc.pdf",
    "d/index.html",
    "robots-free.txt",
]
BODIES = {
    "page": b"<!doctype html><title>x</title><p>x",
    "other": b"<!doctype html><title>y</title><p>y",
    "noindex": b'<!doctype html><meta name="robots" content="noindex"><p>n',
    # Another page's URL (its folder's): the shard cannot decide it alone, a full rebuild does.
    "canonical elsewhere": b'<!doctype html><link rel="canonical" href="./"><p>c',
}
operations = st.lists(
    st.tuples(st.sampled_from(KEYS), st.sampled_from([*BODIES, *BODIES, "delete"])),
    min_size=1,
    max_size=6,
)


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        client.create_bucket(Bucket=STATE_BUCKET)
        yield client


def config_of() -> Config:
    return make_config(
        state=f"s3://{STATE_BUCKET}/site/sitemill-state.json.gz",
        shards="on",
        max_urls=5,
        shard_fill=4,
        url_style="clean",
        lastmod="none",  # (moto's LastModified is the clock's: the same for every run here)
    )


def run(s3: Any, config: Config, changed: list[str] | None, threads: int) -> Any:
    where = partitioned_prefix(config)
    assert where is not None
    store = PartitionedStore(s3, *where)
    return rebuild_partitioned(
        config,
        s3,
        BucketSite(BUCKET),
        store,
        changed=changed,
        now=NOW,
        options=RebuildOptions(threads=threads),
    )


def clear(s3: Any) -> None:
    for bucket in (BUCKET, STATE_BUCKET):
        for item in s3.list_objects_v2(Bucket=bucket).get("Contents", []):
            s3.delete_object(Bucket=bucket, Key=item["Key"])


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    start=st.sets(st.sampled_from(KEYS), min_size=6),
    steps=st.lists(operations, min_size=1, max_size=3),
)
def test_incremental_runs_give_the_files_of_a_full_rebuild(
    s3: Any, start: set[str], steps: list[list[tuple[str, str]]]
) -> None:
    clear(s3)
    config = config_of()
    for key in sorted(start):
        s3.put_object(Bucket=BUCKET, Key=key, Body=BODIES["page"])
    run(s3, config, None, threads=4)
    for number, step in enumerate(steps):
        for key, body in step:
            if body == "delete":
                s3.delete_object(Bucket=BUCKET, Key=key)
            else:
                s3.put_object(Bucket=BUCKET, Key=key, Body=BODIES[body])
        run(s3, config, sorted({key for key, _ in step}), threads=1 + 3 * (number % 2))
    incremental = sitemap_files(s3)
    # A full rebuild with the plan the increments left writes nothing, on 4 threads or 1.
    for threads in (4, 1):
        full = run(s3, config, None, threads=threads)
        assert full.result.written == [] and full.result.deleted == [], threads
        assert sitemap_files(s3) == incremental
