"""The partitioned state of a sharded bucket (scale-out.md, "State, partitioned"), pure.

A worker renders one shard and reports its parts (a shard that outgrew one file is split:
its first part keeps the id); the reducer folds the reports into the next plan, checks that
every shard of it has a file from this run or an unchanged one from the last, and keeps the
index-state: which child each shard has, and since when each child that no index names any
more has been unnamed (it is deleted only after a rebuild's longest run: a racing writer's
index may still name it). Everything here is read back as untrusted input.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from sitemill.errors import StateError
from sitemill.outputs import CHILD_NAME, ENTRY_TXT, ENTRY_XML
from sitemill.shards.evolve import MAX_KEY_BYTES, plan_from_json, plan_to_json
from sitemill.shards.plan import MAX_SHARDS, Plan, shard_id

INDEX_STATE_FORMAT: Final = "sitemill-index-state"
SUMMARY_FORMAT: Final = "sitemill-shard-summary"
FORMAT_VERSION: Final = 1
# A child no index names is deleted once it has been unnamed this long: longer than a
# rebuild can take (the function's 15-minute timeout), so a racing rebuild's index, written
# after ours, never names a child we deleted.
DELETE_AFTER: Final = timedelta(minutes=30)
_ID: Final = re.compile(r"r[a-z2-7]{8}")
_DIGEST: Final = re.compile(r"[0-9a-f]{32}")
_LASTMOD: Final = re.compile(r"\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}(?:\+00:00|Z))?")
_MOMENT: Final = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00")


@dataclass(frozen=True, slots=True)
class Part:
    """One file a shard renders: its id and boundary, its name, how many URLs, the newest
    lastmod among them (the index's <lastmod> for it) and a digest of its bytes."""

    id: str
    after: str
    name: str
    urls: int
    lastmod: str | None
    digest: str


@dataclass(frozen=True, slots=True)
class Summary:
    """What a worker reports of one shard: its parts in order (none: the shard emptied),
    the pages it left out, and which of its parts it wrote."""

    shard: str
    parts: tuple[Part, ...]
    skipped: int = 0
    written: frozenset[str] = frozenset()


@dataclass
class IndexState:
    """What the reducer last published: the children (by boundary), the index's digest and
    name, and the children no index names any more, with when that began."""

    children: list[Part] = field(default_factory=list)
    entry: str = ""  # sitemap.xml (sitemap.txt): the index, or the single file
    digest: str = ""  # of the entry file's bytes
    unnamed: dict[str, str] = field(default_factory=dict)  # child name -> since (UTC)
    # The plan these children were rendered by: written with them in one object, so that a
    # run never reads a plan and children of two different runs.
    plan: Plan | None = None

    def part_of(self, shard: str) -> Part | None:
        return next((part for part in self.children if part.id == shard), None)

    def holds(self, part: Part) -> bool:
        """Whether the last run published ``part`` as it is (same name, same bytes)."""
        known = self.part_of(part.id)
        return known is not None and (known.name, known.digest) == (part.name, part.digest)


def part_to_json(part: Part) -> dict[str, Any]:
    values: dict[str, Any] = {
        "id": part.id,
        "after": part.after,
        "name": part.name,
        "urls": part.urls,
        "digest": part.digest,
    }
    if part.lastmod is not None:
        values["lastmod"] = part.lastmod
    return values


def part_from_json(value: object) -> Part:
    if not isinstance(value, dict):
        raise StateError("a shard part is not a table")
    shard, after, name = value.get("id"), value.get("after"), value.get("name")
    urls, lastmod, digest = value.get("urls"), value.get("lastmod"), value.get("digest")
    if not (isinstance(shard, str) and _ID.fullmatch(shard)):
        raise StateError("a shard part has no valid id")
    if not isinstance(after, str) or len(after.encode("utf-8", "surrogateescape")) > MAX_KEY_BYTES:
        raise StateError(f"shard {shard} has no valid boundary")
    if shard_id(after) != shard:
        raise StateError(f"shard {shard}'s boundary does not give its id")
    if not isinstance(name, str) or not (
        name in (ENTRY_XML, ENTRY_TXT, ENTRY_XML + ".gz", ENTRY_TXT + ".gz")
        or (CHILD_NAME.fullmatch(name) and shard in name)
    ):
        raise StateError(f"shard {shard} names a file that is not its own")
    if not isinstance(urls, int) or not 0 < urls <= 50_000:
        raise StateError(f"shard {shard} holds no valid count of URLs")
    if lastmod is not None and not (isinstance(lastmod, str) and _LASTMOD.fullmatch(lastmod)):
        raise StateError(f"shard {shard} has no valid lastmod")
    if not isinstance(digest, str) or not _DIGEST.fullmatch(digest):
        raise StateError(f"shard {shard} has no valid digest")
    return Part(shard, after, name, urls, lastmod, digest)


def summary_to_json(summary: Summary) -> dict[str, Any]:
    """scale-out.md's summary: {"shard", "parts": [...], "skipped"}, each part "written"."""
    return {
        "format": SUMMARY_FORMAT,
        "version": FORMAT_VERSION,
        "shard": summary.shard,
        "parts": [
            part_to_json(part) | {"written": part.name in summary.written} for part in summary.parts
        ],
        "skipped": summary.skipped,
    }


def summary_from_json(value: object) -> Summary:
    if not isinstance(value, dict) or value.get("format") != SUMMARY_FORMAT:
        raise StateError("not a sitemill shard summary")
    shard, parts, skipped = value.get("shard"), value.get("parts"), value.get("skipped")
    if not isinstance(shard, str) or not _ID.fullmatch(shard):
        raise StateError("a shard summary names no valid shard")
    if not isinstance(parts, list) or len(parts) > MAX_SHARDS or not isinstance(skipped, int):
        raise StateError(f"the summary of shard {shard} is not well formed")
    read = tuple(part_from_json(part) for part in parts)
    if read and read[0].id != shard:
        raise StateError(f"the first part of shard {shard} does not keep its id")
    written = frozenset(
        part.name for part, raw in zip(read, parts, strict=True) if raw.get("written") is True
    )
    return Summary(shard, read, skipped, written)


def index_state_to_json(state: IndexState) -> dict[str, Any]:
    return {
        "format": INDEX_STATE_FORMAT,
        "version": FORMAT_VERSION,
        "children": [part_to_json(part) for part in state.children],
        "entry": state.entry,
        "digest": state.digest,
        "unnamed": dict(sorted(state.unnamed.items())),
        **({} if state.plan is None else {"plan": plan_to_json(state.plan)}),
    }


def index_state_from_json(value: object) -> IndexState:
    if not isinstance(value, dict) or value.get("format") != INDEX_STATE_FORMAT:
        raise StateError("not a sitemill index-state")
    if value.get("version") != FORMAT_VERSION:
        raise StateError(f"index-state version {value.get('version')!r} is unknown")
    children, entry = value.get("children"), value.get("entry")
    digest, unnamed = value.get("digest"), value.get("unnamed")
    if not isinstance(children, list) or len(children) > MAX_SHARDS:
        raise StateError("the index-state's children are not a list")
    if entry not in ("", ENTRY_XML, ENTRY_TXT) or not isinstance(digest, str):
        raise StateError("the index-state names no valid entry file")
    if (
        not isinstance(unnamed, dict)
        or len(unnamed) > MAX_SHARDS
        or not all(
            isinstance(name, str)
            and CHILD_NAME.fullmatch(name)
            and isinstance(since, str)
            and _MOMENT.fullmatch(since)
            for name, since in unnamed.items()
        )
    ):
        raise StateError("the index-state's unnamed children are not well formed")
    plan = value.get("plan")
    return IndexState(
        [part_from_json(part) for part in children],
        entry,
        digest,
        dict(unnamed),
        None if plan is None else plan_from_json(plan),
    )


def next_plan(plan: Plan, summaries: Mapping[str, Summary]) -> Plan:
    """The plan once each reported shard is replaced by its parts: split parts come in after
    it, an emptied shard leaves (its range goes to its left neighbour; the first stays)."""
    afters: list[str] = []
    for index, after in enumerate(plan.afters):
        summary = summaries.get(shard_id(after))
        if summary is None:
            afters.append(after)
        elif summary.parts:
            afters.extend(part.after for part in summary.parts)
        elif index == 0:
            afters.append(after)
    return plan.with_afters(afters)


def current_parts(
    plan: Plan, summaries: Mapping[str, Summary], last: IndexState
) -> tuple[list[Part], list[str]]:
    """The file of every shard of ``plan`` (next_plan's) in order, from this run's summaries
    or, for a shard no worker ran, the last index-state; and the shards that have neither
    (the completeness check: then nothing may be published)."""
    reported = {part.id: part for summary in summaries.values() for part in summary.parts}
    ran = set(summaries)
    parts: list[Part] = []
    missing: list[str] = []
    for after in plan.afters:
        shard = shard_id(after)
        part = reported.get(shard)
        if part is None and shard not in ran:
            part = last.part_of(shard)
            if part is None and after:  # (the first shard may hold nothing)
                missing.append(shard)
        if part is not None:
            parts.append(part)
    return parts, missing


def newest(lastmods: Iterable[str | None]) -> str | None:
    """The latest of W3C dates written by one configuration (same precision): by text."""
    known = [lastmod for lastmod in lastmods if lastmod]
    return max(known) if known else None


def unnamed_after(
    last: IndexState, named: Iterable[str], now: datetime
) -> tuple[dict[str, str], list[str]]:
    """Children no index names, with since when, after publishing ``named``; and those
    unnamed for longer than DELETE_AFTER (to delete now)."""
    named_now = set(named)
    unnamed = {name: since for name, since in last.unnamed.items() if name not in named_now}
    stamp = now.astimezone(UTC).replace(microsecond=0).isoformat()
    for part in last.children:
        if part.name not in named_now and CHILD_NAME.fullmatch(part.name):
            unnamed.setdefault(part.name, stamp)
    due = sorted(
        name
        for name, since in unnamed.items()
        if now - datetime.fromisoformat(since) >= DELETE_AFTER
    )
    return unnamed, due
