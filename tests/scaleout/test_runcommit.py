"""A sharded run's commit is said once (issue 80): the full rebuild, the distributed reducer
and an incremental run end in scaleout.runcommit.commit_run, the one place that dates the
parts, renders the entry file, decides robots.txt, finds the strays and commits."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NoReturn

import pytest

from s3util import BUCKET, STATE_BUCKET, make_config, moto_bucket
from sitemill.config.model import Config
from sitemill.errors import ConflictError
from sitemill.filenames.outputs import stored_digest
from sitemill.jobs.bucketsite import BucketSite, open_partitioned
from sitemill.outputs import OutputFeature
from sitemill.report import WriteResult
from sitemill.scaleout._runcommit import RunCommit, commit_run
from sitemill.scaleout.shardcommit import head_live
from sitemill.shards.partition import Part
from sitemill.shards.plan import Plan, shard_id
from sitemill.state.partitioned import PartitionedStore
from sitemill.writing.usersitemaps import UserSitemaps

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "sitemill"
# The steps of a commit, in the order commit_run says them.
STEPS = ("index_parts", "entry_of", "robots_update", "find_strays", "commit_and_go_live")
NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
PATHS = ("scaleout/shardfull.py", "scaleout/distreduce.py", "scaleout/_shardpublish.py")


def calls_in(path: Path) -> set[str]:
    """The names of the functions a module calls."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                names.add(func.id)
            elif isinstance(func, ast.Attribute):
                names.add(func.attr)
    return names


def test_only_commit_run_says_the_commit_sequence() -> None:
    callers = {
        str(path.relative_to(PACKAGE)): sorted(calls_in(path) & {"commit_and_go_live"})
        for path in sorted(PACKAGE.rglob("*.py"))
    }
    assert [where for where, called in callers.items() if called] == ["scaleout/_runcommit.py"]
    assert calls_in(PACKAGE / "scaleout" / "_runcommit.py") >= set(STEPS)


def test_every_commit_path_goes_through_commit_run() -> None:
    for path in PATHS:
        called = calls_in(PACKAGE / path)
        assert "commit_run" in called, path
        # (entry_of: a full rebuild's dry run says what it would publish, and commits nothing)
        assert not called & set(STEPS) - {"entry_of"}, f"{path} says a step of the commit"


@dataclass(frozen=True, slots=True)
class Where:
    """Where a run commits (scaleout.runcommit.Committer)."""

    config: Config
    client: Any
    site: BucketSite
    store: PartitionedStore
    outputs: Sequence[OutputFeature] = ()


class Superseded(Exception):
    """What the test's ``superseded`` hook raises instead of the ConflictError."""


@pytest.fixture
def client(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for each in moto_bucket(monkeypatch):
        each.create_bucket(Bucket=STATE_BUCKET)
        yield each


def where(client: Any) -> Where:
    config = make_config(state=f"s3://{STATE_BUCKET}/site/sitemill-state.json.gz", shards="on")
    site = BucketSite(BUCKET)
    store = open_partitioned(config, client, site)
    assert store is not None
    store.read_manifest()
    return Where(config, client, site, store)


def one_sitemap(place: Where) -> RunCommit:
    """A first run's commit of one sitemap.xml, over the manifest its store read."""
    data = b'<?xml version="1.0" encoding="UTF-8"?>\n<urlset/>\n'
    part = Part(shard_id(""), "", "sitemap.xml", 0, None, stored_digest(data))
    live = head_live(place.client, place.site)
    return RunCommit(place.store.manifest, live, Plan(), "in", [part], {}, data, UserSitemaps())


def test_before_runs_once_the_strays_are_found_and_before_the_commit(client: Any) -> None:
    place = where(client)
    calls: list[str] = []
    client.meta.events.register(
        "before-call.s3", lambda model, params, **_: calls.append(model.name)
    )
    result = WriteResult()
    committed = commit_run(
        place, one_sitemap(place), NOW, result, before=lambda: calls.append("before")
    )
    assert committed
    at = calls.index("before")
    assert "ListObjectsV2" in calls[:at]  # (the strays: found first)
    assert "PutObject" not in calls[:at]  # (nothing written before it)
    assert calls[at + 1 :].count("PutObject") >= 2  # (the manifest, then the entry file)
    assert result.entry_files == ["sitemap.xml"]


def test_a_commit_another_run_overtook_goes_to_superseded(client: Any) -> None:
    hooked, bare, other = where(client), where(client), where(client)
    hooked_run, bare_run = one_sitemap(hooked), one_sitemap(bare)  # (both read the same base)
    commit_run(other, one_sitemap(other), NOW, WriteResult())  # (another run commits first)

    def superseded() -> NoReturn:
        raise Superseded

    with pytest.raises(Superseded):
        commit_run(hooked, hooked_run, NOW, WriteResult(), superseded=superseded)
    with pytest.raises(ConflictError):  # (without the hook: raised)
        commit_run(bare, bare_run, NOW, WriteResult())


def test_only_a_conflict_at_the_commit_goes_to_superseded(client: Any) -> None:
    place = where(client)

    def superseded() -> NoReturn:
        raise Superseded

    def before() -> None:
        raise ConflictError("a conflict before the commit")

    with pytest.raises(ConflictError):
        commit_run(
            place, one_sitemap(place), NOW, WriteResult(), before=before, superseded=superseded
        )


def test_an_incremental_run_keeps_the_base_names_and_finds_no_strays(client: Any) -> None:
    place = where(client)
    calls: list[str] = []
    client.meta.events.register(
        "before-call.s3", lambda model, params, **_: calls.append(model.name)
    )
    run = replace(one_sitemap(place), users=None)  # (an incremental run's: shardpublish)
    assert commit_run(place, run, NOW, WriteResult())
    assert "ListObjectsV2" not in calls  # (no strays looked for)
    assert "GetObject" not in calls  # (robots.txt not read)
    kept = place.store.manifest
    assert (kept.users, kept.found, kept.robots) == ((), (), ())
