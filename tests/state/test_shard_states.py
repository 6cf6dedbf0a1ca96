"""The shard states of a sharded run put up over a manifest (PartitionedStore.write_states):
each as write_state puts it, a state the manifest names already never written again, in
threads or one after another alike."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from s3util import BUCKET, moto_bucket
from sitemill.entries import Page
from sitemill.shards.manifest import IndexState
from sitemill.state.partitioned import PartitionedStore
from sitemill.state.shardstate import ShardState

PREFIX = "state/"


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def states() -> list[ShardState]:
    """Three shards, each listing one page of its range."""
    afters = ("", "b/", "c/")
    return [ShardState(after, [Page(f"{after}p.html", None, version=f'"{n}"')]) for n, after
            in enumerate(afters)]  # fmt: skip


def stored(s3: Any) -> set[str]:
    listed = s3.list_objects_v2(Bucket=BUCKET, Prefix=PREFIX).get("Contents", [])
    return {item["Key"] for item in listed}


@pytest.mark.parametrize("threads", [1, 4])
def test_each_state_is_put_up_as_write_state_puts_it(s3: Any, threads: int) -> None:
    store = PartitionedStore(s3, BUCKET, PREFIX)
    alone = {state.shard: store.write_state(state, {}) for state in states()}
    for key in stored(s3):
        s3.delete_object(Bucket=BUCKET, Key=key)

    refs = store.write_states(states(), IndexState(), threads)

    assert refs == alone
    assert list(refs) == [state.shard for state in states()]  # (in the states' order)
    assert stored(s3) == {PREFIX + ref.name for ref in alone.values()}


def test_a_state_the_manifest_names_is_not_written_again(s3: Any) -> None:
    store = PartitionedStore(s3, BUCKET, PREFIX)
    first, *others = states()
    known = store.write_state(first, {})
    s3.delete_object(Bucket=BUCKET, Key=PREFIX + known.name)  # (a PUT would bring it back)
    base = IndexState(states={first.shard: known})

    refs = store.write_states([first, *others], base, threads=2)

    assert refs[first.shard] == known
    assert PREFIX + known.name not in stored(s3)
    assert len(stored(s3)) == len(others)
