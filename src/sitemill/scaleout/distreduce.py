"""The last step of a distributed rebuild (docs/distributed.md): the reducer, and its verdict."""
# docs/distributed.md, Reduce: every item reported and every shard of the next plan has a file
# from this run (or an unchanged one), else nothing is published, the verdict names the missing
# shards and the step fails (never the Map's status: a Distributed Map run can end without some
# children's results). A run another overtook publishes nothing and starts the next.

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Final, NoReturn

from sitemill.config.model import LastmodMode
from sitemill.errors import IncompleteRunError, StateError
from sitemill.filenames.outputs import ENTRY_TXT, ENTRY_XML, content_type, read_limit
from sitemill.report import Report, WriteResult
from sitemill.scaleout._runcommit import RunCommit, commit_run
from sitemill.scaleout._shardoutputs import keep_found, merge_outputs
from sitemill.scaleout._shardusers import users_from_json
from sitemill.scaleout.distplan import RUN_FORMAT, DistributedRun
from sitemill.scaleout.distshard import ITEM_SUMMARY_FORMAT
from sitemill.scaleout.runfiles import Item, RunFiles, item_from_json
from sitemill.scaleout.shardcommit import head_live
from sitemill.shards.evolve import plan_from_json
from sitemill.shards.manifest import IndexState
from sitemill.shards.partition import Part, Summary, current_parts, next_plan, summary_from_json
from sitemill.shards.plan import Plan, shard_id
from sitemill.state.pending import CHANGE_KINDS

log = logging.getLogger(__name__)

_THREADS: Final = 16
_SHARDS_LIMIT: Final = 64 * 1024 * 1024  # shards.json: 50,000 items of up to ~2 KB


@dataclass
class Collected:
    """What the items of a run reported."""

    summaries: dict[str, Summary] = field(default_factory=dict)
    found: dict[str, str] = field(default_factory=dict)  # URL -> kind (_shardoutputs.found_by)
    counts: dict[str, int] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)  # items without a summary


@dataclass(frozen=True, slots=True)
class ReducedRun:
    """A published run: its report (with what its features kept: IndexNow) and its verdict."""

    report: Report
    verdict: dict[str, Any]


def reduce_run(
    run: DistributedRun, name: str, hand_on: Callable[[str], str] | None = None
) -> ReducedRun:
    """Check the run, publish it; the report and the verdict (also ``verdict.json``).
    IncompleteRunError, after writing the verdict, when an item or a shard is missing, or
    when another run committed since this one was planned (then nothing was published, and
    ``hand_on(name)`` starts the run that publishes its pages: the next run's name)."""
    files = run.files(name)
    manifest = files.get_run()
    if not isinstance(manifest, dict) or manifest.get("format") != RUN_FORMAT:
        raise StateError(f"run {name}'s run.json is not one sitemill wrote")
    items = _items(files)
    collected = _collect(files, items)
    if collected.missing:
        _refuse(files, "incomplete", collected.missing, "items did not report")
    raw_plan = manifest.get("plan")
    afters = tuple(item.afters[0] for item in items)
    plan = plan_from_json(raw_plan) if raw_plan is not None else Plan(afters)
    live = head_live(run.client, run.site)  # (first, then the manifest: shardcommit.go_live)
    base = run.store.read_manifest()
    if run.store.etag != manifest.get("base"):
        _superseded(files, hand_on)
    full = manifest.get("mode") == "full"
    plan_next = next_plan(plan, collected.summaries)
    known = {} if full else base.files()
    parts, missing = current_parts(plan_next, collected.summaries, known)
    states = {} if full else {s: ref for s, ref in base.states.items() if s in plan.ids}
    for summary in collected.summaries.values():
        states.pop(summary.shard, None)
        states.update(summary.states)
    missing += [shard for shard in plan_next.ids if shard not in states and shard not in missing]
    if missing:
        _refuse(files, "incomplete", missing, "shards have no file or state")
    result = WriteResult(plan=plan_next, url_count=sum(part.urls for part in parts))
    single = _publish_parts(run, files, collected.summaries, base, manifest, result)
    users = users_from_json(manifest.get("users"))  # (the plan step's: scaleout.shardusers)
    inputs = str(manifest.get("inputs", ""))
    # What the items found (IndexNow's URLs) kept just before the commit (never lost to a failure
    # after it); a first build has none.
    first_run = not run.store.trusted
    found = {} if first_run else collected.found
    recorded: list[Callable[[Report], None]] = []
    commit = RunCommit(base, live, plan_next, inputs, parts, states, single, users)
    saved = commit_run(
        run,
        commit,
        run.now,
        result,
        before=lambda: recorded.append(
            keep_found(run.config, run.outputs, run.store, found, first_run=first_run)
        ),
        superseded=lambda: _superseded(files, hand_on),
    )
    reduced = _published(run, name, files, collected, parts, result, saved)
    recorded[0](reduced.report)
    merge_outputs(run, reduced.report)
    return reduced


def _published(
    run: DistributedRun,
    name: str,
    files: RunFiles,
    collected: Collected,
    parts: list[Part],
    result: WriteResult,
    saved: bool,
) -> ReducedRun:
    """The report and verdict of a published run (``verdict.json`` written)."""
    mode = LastmodMode.NONE if run.config.lastmod is LastmodMode.NONE else LastmodMode.MTIME
    report = Report(result, mode)
    report.state_written = saved
    report.heads_read = collected.counts.get("heads_read", 0)
    report.heads_reused = collected.counts.get("heads_reused", 0)
    verdict = {
        "status": "published",
        "run": name,
        "shards": len(parts),
        "urls": result.url_count,
        "written": len(result.written),
        "unchanged": len(result.unchanged),
        "deleted": len(result.deleted),
    }
    files.put_json("verdict.json", verdict)
    log.info("run %s published: %d shards, %d URLs", name, len(parts), result.url_count)
    return ReducedRun(report, verdict)


def _superseded(files: RunFiles, hand_on: Callable[[str], str] | None) -> NoReturn:
    """Another run committed since the plan (its shards may be newer): commit nothing, and
    start the next full run (``hand_on``), which lists this run's pages."""
    following = hand_on(files.run) if hand_on is not None else None
    verdict: dict[str, object] = {"status": "superseded", "run": files.run, "missing": []}
    files.put_json("verdict.json", verdict | {"next": following})
    then = f"run {following.rsplit(':', 1)[-1]} was started" if following else "start a new run"
    raise IncompleteRunError(
        f"run {files.run}: another run published the sitemaps while it ran; nothing was "
        f"published ({then} to publish its pages)"
    )


def _items(files: RunFiles) -> list[Item]:
    value = files.get_json("shards.json", limit=_SHARDS_LIMIT)
    if not isinstance(value, list) or not value:
        raise StateError(f"run {files.run} has no render items")
    items = [item_from_json(item) for item in value]
    if any(item.run != files.run for item in items):
        raise StateError(f"run {files.run}'s render items name another run")
    return items


def _collect(files: RunFiles, items: list[Item]) -> Collected:
    """Every item's summary (read many at a time), checked against the item."""
    with ThreadPoolExecutor(max_workers=_THREADS) as pool:
        read = list(pool.map(lambda item: files.get_json(f"summaries/{item.shard}.json"), items))
    collected = Collected()
    for item, value in zip(items, read, strict=True):
        if value is None:
            collected.missing.append(item.shard)
            continue
        summaries = _item_summaries(item, value)
        collected.summaries.update((summary.shard, summary) for summary in summaries)
        assert isinstance(value, dict)
        found = value.get("found")
        if isinstance(found, dict):
            collected.found.update((k, v) for k, v in found.items() if v in CHANGE_KINDS)
        counts = value.get("report")
        if isinstance(counts, dict):
            for key, count in counts.items():
                if isinstance(count, int):
                    collected.counts[key] = collected.counts.get(key, 0) + count
    return collected


def _item_summaries(item: Item, value: object) -> list[Summary]:
    if not isinstance(value, dict) or value.get("format") != ITEM_SUMMARY_FORMAT:
        raise StateError(f"the summary of item {item.shard} is not one sitemill wrote")
    raw = value.get("summaries")
    if not isinstance(raw, list):
        raise StateError(f"the summary of item {item.shard} lists no shards")
    summaries = [summary_from_json(each) for each in raw]
    if [summary.shard for summary in summaries] != [shard_id(after) for after in item.afters]:
        raise StateError(f"the summary of item {item.shard} is not of its shards")
    return summaries


def _refuse(files: RunFiles, status: str, missing: list[str], what: str) -> None:
    files.put_json("verdict.json", {"status": status, "run": files.run, "missing": missing})
    raise IncompleteRunError(
        f"run {files.run}: {len(missing)} {what} (first: {missing[0]}); nothing was published"
    )


def _publish_parts(
    run: DistributedRun,
    files: RunFiles,
    summaries: Mapping[str, Summary],
    base: IndexState,
    manifest: Mapping[str, object],
    result: WriteResult,
) -> bytes | None:
    """Copy each part from the run's staging to the site under its own name (inside S3),
    unless the base manifest names it and was live when the run was planned; the single
    sitemap.xml's bytes, if the run rendered one (it goes live from the commit)."""
    named = base.named() if manifest.get("current") is True else set()
    changed: list[Part] = []
    single: bytes | None = None
    for summary in summaries.values():
        for part in summary.parts:
            if part.name in (ENTRY_XML, ENTRY_TXT):
                single = files.get("parts/" + part.name, limit=read_limit(part.name))
            elif part.name in named:
                result.unchanged.append(part.name)
            else:
                changed.append(part)
    site = run.site

    def copy(part: Part) -> None:
        files.copy_part(
            part.name,
            site.bucket,
            site.root + part.name,
            content_type=content_type(part.name),
            cache=site.cache_control,
        )

    with ThreadPoolExecutor(max_workers=_THREADS) as pool:
        list(pool.map(copy, changed))
    result.written.extend(part.name for part in changed)
    return single
