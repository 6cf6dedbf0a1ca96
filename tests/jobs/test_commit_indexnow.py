"""IndexNow's URLs are never lost and never invented by a sharded run (issue 39, item 9):
they are found against the committed manifest's states and kept before the commit, so a run
that fails anywhere, a worker retried after it finished, or a new run after a failed one
finds them again; a first build, distributed or not, announces nothing."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import suppress
from datetime import UTC, datetime
from typing import Any

import pytest

from faults import Calls, fail
from outputlist import DistributedRun, rebuild_partitioned
from s3util import BASE, BUCKET, PAGE, make_config, moto_bucket, put_pages, world_kept
from sitemill.config.model import Config
from sitemill.errors import SitemillError
from sitemill.indexnow.pending import ObjectPending
from sitemill.jobs.bucket import BucketSite
from sitemill.jobs.bucketsite import open_partitioned
from sitemill.scaleout.distplan import RunRequest, plan_run
from sitemill.scaleout.distreduce import reduce_run
from sitemill.scaleout.distshard import item_objects, render_item
from sitemill.scaleout.executor import LocalExecutor
from sitemill.scaleout.runfiles import item_from_json
from sitemill.state.partitioned import PartitionedStore

STATE_BUCKET = "state-bucket"
NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
PAGES = [f"{section}/p{n}.html" for section in "abc" for n in range(4)]
EDITED = b"<!doctype html><title>b, edited</title><p>new words"


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        client.create_bucket(Bucket=STATE_BUCKET)
        put_pages(client, *PAGES)
        yield client


def config_of(**values: Any) -> Config:
    state = f"s3://{STATE_BUCKET}/site/sitemill-state.json.gz"
    return make_config(
        state=state, shards="on", max_urls=5, shard_fill=4, indexnow="later", **values
    )


def store(s3: Any) -> PartitionedStore:
    found = open_partitioned(config_of(), s3, BucketSite(BUCKET))
    assert found is not None
    return found


def pending(s3: Any) -> dict[str, str]:
    return ObjectPending(store(s3).pending_store()).read()


def router(s3: Any, changed: list[str] | None) -> Any:
    site = BucketSite(BUCKET)
    return rebuild_partitioned(config_of(), s3, site, store(s3), changed=changed, now=NOW)


def distributed(s3: Any, name: str) -> Any:
    execution = DistributedRun(config_of(), s3, BucketSite(BUCKET), store(s3), STATE_BUCKET, NOW)
    return LocalExecutor(execution, None, threads=2).execute(RunRequest(name, BUCKET, ""))


def edit(s3: Any) -> None:
    s3.put_object(Bucket=BUCKET, Key="b/p1.html", Body=EDITED)
    s3.put_object(Bucket=BUCKET, Key="c/p9.html", Body=PAGE)
    s3.delete_object(Bucket=BUCKET, Key="a/p2.html")


EXPECTED = {
    BASE + "b/p1.html": "changed",
    BASE + "c/p9.html": "added",
    BASE + "a/p2.html": "removed",
}
CHANGED = ["b/p1.html", "c/p9.html", "a/p2.html"]


def test_a_first_distributed_build_announces_nothing(s3: Any) -> None:
    distributed(s3, "full-1")
    assert pending(s3) == {}
    edit(s3)
    distributed(s3, "full-2")
    assert pending(s3) == EXPECTED


@pytest.mark.parametrize("full", [False, True], ids=["router", "full rebuild"])
def test_a_run_failing_at_any_call_loses_no_url_to_announce(s3: Any, full: bool) -> None:
    router(s3, None)
    edit(s3)
    changed = None if full else CHANGED
    with world_kept(STATE_BUCKET) as undo:  # a dry pass: which calls a run makes
        calls = Calls(s3)
        router(s3, changed)
        signatures = calls.stop()
        undo()
    for call in signatures:
        with world_kept(STATE_BUCKET) as undo:
            armed = Calls(s3)
            armed.arm(call, fail)
            with suppress(SitemillError):
                router(s3, changed)
            armed.stop()
            armed.assert_fired()
            router(s3, changed)  # redone, or the next deploy's run
            assert pending(s3) == EXPECTED, call
            undo()


def test_a_worker_retried_after_it_finished_finds_the_same_urls(s3: Any) -> None:
    distributed(s3, "full-1")
    edit(s3)
    execution = DistributedRun(config_of(), s3, BucketSite(BUCKET), store(s3), STATE_BUCKET, NOW)
    plan_run(execution, RunRequest("full-2", BUCKET, ""))
    shards = execution.files("full-2").get_json("shards.json")
    assert isinstance(shards, list)
    items = [item_from_json(value) for value in shards]
    for _ in range(2):  # Step Functions retries an item whose answer was lost
        for item in items:
            render_item(execution, item, item_objects(execution, item), None)
    reduce_run(execution, "full-2")
    assert pending(s3) == EXPECTED
