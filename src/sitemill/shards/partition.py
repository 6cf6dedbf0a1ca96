"""What the workers of a sharded bucket run report, pure."""
# See docs/distributed.md, "In short": Render and Reduce. A worker reports its parts (a shard split
# keeps its id for the first) and its state object; the reducer folds the reports into the next
# plan (sitemill.shards.manifest). Everything here is read back as untrusted input.

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from sitemill.errors import StateError
from sitemill.filenames.outputs import ENTRY_TXT, ENTRY_XML, is_recorded_child
from sitemill.protocol import MAX_KEY_BYTES
from sitemill.shards.plan import MAX_SHARDS, Plan, shard_id

SUMMARY_FORMAT: Final = "sitemill-shard-summary"
FORMAT_VERSION: Final = 2
_ID: Final = re.compile(r"r[a-z2-7]{8}")
_DIGEST: Final = re.compile(r"[0-9a-f]{32}")
_LASTMOD: Final = re.compile(r"\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}(?:\+00:00|Z))?")
_STATE_NAME: Final = re.compile(r"shards/(r[a-z2-7]{8})-[a-z2-7]{8}\.json\.gz")


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
class StateRef:
    """A shard's state object: its name under the state prefix, the MD5 of its bytes."""

    name: str
    digest: str


@dataclass(frozen=True, slots=True)
class Summary:
    """What a worker reports of one shard: its parts in order (none: the shard emptied),
    the pages it left out, which of its parts it wrote, and the state object it wrote for
    each shard it leaves in the plan (its parts', and its own when the first shard emptied)."""

    shard: str
    parts: tuple[Part, ...]
    skipped: int = 0
    written: frozenset[str] = frozenset()
    states: dict[str, StateRef] = field(default_factory=dict)


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
        or (is_recorded_child(name) and shard in name)
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
    """A worker's summary: {"shard", "parts": [...], "skipped"}, each part "written"."""
    return {
        "format": SUMMARY_FORMAT,
        "version": FORMAT_VERSION,
        "shard": summary.shard,
        "parts": [
            part_to_json(part) | {"written": part.name in summary.written} for part in summary.parts
        ],
        "skipped": summary.skipped,
        "states": {
            shard: {"name": ref.name, "digest": ref.digest}
            for shard, ref in sorted(summary.states.items())
        },
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
    states = _summary_states(value.get("states"), shard)
    if set(states) != ({part.id for part in read} if read else set(states) & {shard}):
        raise StateError(f"the summary of shard {shard} names no state for each of its parts")
    return Summary(shard, read, skipped, written, states)


def _summary_states(value: object, shard: str) -> dict[str, StateRef]:
    if not isinstance(value, dict) or len(value) > MAX_SHARDS:
        raise StateError(f"the summary of shard {shard} names no states")
    states: dict[str, StateRef] = {}
    for owner, ref in value.items():
        name = ref.get("name") if isinstance(ref, dict) else None
        digest = ref.get("digest") if isinstance(ref, dict) else None
        if not (isinstance(name, str) and isinstance(digest, str) and _DIGEST.fullmatch(digest)):
            raise StateError(f"the summary of shard {shard} names a state that is not one")
        found = _STATE_NAME.fullmatch(name)
        if found is None or found.group(1) != owner:
            raise StateError(f"the summary of shard {shard} names a state that is not one")
        states[owner] = StateRef(name, digest)
    return states


def next_plan(plan: Plan, summaries: Mapping[str, Summary]) -> Plan:
    """The plan once each reported shard is replaced by its parts: split parts come in after
    it, an emptied shard leaves (its range goes to its left neighbour; the first stays)."""
    afters: list[str] = []
    for index, after in enumerate(plan.afters):
        summary = summaries.get(shard_id(after))
        if summary is None:
            afters.append(after)
        elif summary.parts:  # (a shard of several files: one boundary)
            afters.extend(dict.fromkeys(part.after for part in summary.parts))
        elif index == 0:
            afters.append(after)
    return plan.with_afters(afters)


def current_parts(
    plan: Plan, summaries: Mapping[str, Summary], known: Mapping[str, Sequence[Part]]
) -> tuple[list[Part], list[str]]:
    """The files of every shard of ``plan`` (next_plan's) in order, from this run's summaries
    or, for a shard no worker ran, the ``known`` ones (the last manifest's, by shard id); and
    the shards that have neither (the completeness check: then nothing may be published)."""
    reported: dict[str, list[Part]] = {}
    for summary in summaries.values():
        for part in summary.parts:
            reported.setdefault(part.id, []).append(part)
    ran = set(summaries)
    parts: list[Part] = []
    missing: list[str] = []
    for after in plan.afters:
        shard = shard_id(after)
        files = reported.get(shard)
        if files is None and shard not in ran:
            files = list(known.get(shard, ()))
            if not files and after:  # (the first shard may hold nothing)
                missing.append(shard)
        parts.extend(files or ())
    return parts, missing


def newest(lastmods: Iterable[str | None]) -> str | None:
    """The latest of W3C dates written by one configuration (same precision): by text."""
    known = [lastmod for lastmod in lastmods if lastmod]
    return max(known) if known else None
