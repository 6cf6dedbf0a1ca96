"""``index-state.json`` written and read back (sitemill.shards.manifest)."""
# It is input from outside (a private bucket, but a hand or a bug can write anything there): every
# field is checked against the others, and a manifest that fails any check is refused whole (the run
# is then a full rebuild), never published in part. Version 1 (shard states under fixed names) is
# read for the move to version 2 only.

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any, Final

from sitemill.errors import StateError
from sitemill.filenames.groupnames import MAX_GROUPS, SHARD_STEM
from sitemill.filenames.outputs import ENTRY_TXT, ENTRY_XML, is_recorded_child, is_users_file_name
from sitemill.protocol import CLOCK_SKEW, MAX_URL_LENGTH, kept_base_url, trusted_lastmod
from sitemill.shards.evolve import plan_from_json, plan_to_json
from sitemill.shards.manifest import (
    INDEX_STATE_FORMAT,
    MANIFEST_VERSION,
    STATE_OBJECT,
    IndexState,
    since_of,
)
from sitemill.shards.partition import Part, StateRef, part_from_json, part_to_json
from sitemill.shards.plan import MAX_SHARDS, Plan

_DIGEST: Final = re.compile(r"[0-9a-f]{32}")
_MOMENT: Final = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00")
_ENTRIES: Final = (ENTRY_XML, ENTRY_TXT)
# Names on their way out: each commit adds at most a shard's file and state per shard.
_MAX_LEAVING: Final = 4 * MAX_SHARDS


def manifest_to_json(state: IndexState) -> dict[str, Any]:
    plan = state.plan or Plan()
    base: dict[str, Any] = {} if state.base_url is None else {"base_url": state.base_url}
    if state.users or state.found or state.robots:  # (else absent: earlier manifests' bytes)
        users = {"index": state.users, "found": state.found, "robots": state.robots}
        base["user_sitemaps"] = {key: list(names) for key, names in users.items() if names}
    return base | {
        "format": INDEX_STATE_FORMAT,
        "version": MANIFEST_VERSION,
        "plan": plan_to_json(plan),
        "inputs": state.inputs,
        "children": [part_to_json(part) for part in state.children],
        "states": {
            shard: {"name": ref.name, "digest": ref.digest}
            for shard, ref in sorted(state.states.items())
        },
        "entry": state.entry,
        "digest": state.digest,
        "unnamed": dict(sorted(state.unnamed.items())),
        "retired": dict(sorted(state.retired.items())),
    }


def manifest_from_json(value: object, now: datetime | None = None) -> IndexState:
    """The manifest in ``value``; a StateError (one line) says what is wrong with it."""
    if not isinstance(value, dict) or value.get("format") != INDEX_STATE_FORMAT:
        raise StateError("not a sitemill index-state")
    version = value.get("version")
    if version not in (1, MANIFEST_VERSION):
        raise StateError(f"index-state version {version!r} is unknown")
    latest = (now or datetime.now(UTC)) + CLOCK_SKEW
    raw_plan = value.get("plan")
    if raw_plan is None:
        raise StateError("the index-state names no plan")
    plan = plan_from_json(raw_plan)
    entry, digest = value.get("entry"), value.get("digest")
    if entry not in _ENTRIES or not (isinstance(digest, str) and _DIGEST.fullmatch(digest)):
        raise StateError("the index-state names no valid entry file")
    children = _children(value.get("children"), plan, entry, latest, legacy=version == 1)
    inputs = value.get("inputs", "")
    if not isinstance(inputs, str) or len(inputs) > 64:
        raise StateError("the index-state has no valid fingerprint of its inputs")
    state = IndexState(
        children,
        entry,
        digest,
        _leaving(value.get("unnamed"), "unnamed", latest),
        plan,
        inputs,
        {} if version == 1 else _states(value.get("states"), plan),
        {} if version == 1 else _leaving(value.get("retired"), "retired", latest),
        legacy=version == 1,
        base_url=kept_base_url(value.get("base_url")),  # (no part of the manifest)
    )
    state.users, state.found, state.robots = _user_sitemaps(value.get("user_sitemaps"))
    clash = state.named() & (set(state.unnamed) | set(state.retired))
    if clash:
        raise StateError(f"the index-state names {sorted(clash)[0]} and lets it go")
    return state


def _children(
    value: object, plan: Plan, entry: str, latest: datetime, *, legacy: bool
) -> list[Part]:
    """Every shard's file, in the plan's order: each shard but the first holds one (an
    emptied shard leaves the plan), so a plan holds at most one shard more than files; with
    named groups, one per group and the default children."""
    if not isinstance(value, list) or len(value) > len(plan.afters) * (MAX_GROUPS + 1):
        raise StateError("the index-state's children are not a list of the plan's shards")
    if len(plan.afters) > len(value) + 1:
        raise StateError("the index-state's plan has shards that hold nothing")
    children = [part_from_json(part) for part in value]
    position = {shard: index for index, shard in enumerate(plan.ids)}
    places = [position.get(part.id, -1) for part in children]
    if -1 in places or places != sorted(places):  # (a shard of several files: in a row)
        raise StateError("the index-state's children are not the plan's shards in order")
    if any(part.after != plan.afters[place] for part, place in zip(children, places, strict=True)):
        raise StateError("a child of the index-state does not start at its shard's boundary")
    if len(plan.afters) > 1 and places[0] > 1:
        raise StateError("the index-state's plan has shards that hold nothing")
    for part in children:
        if part.lastmod is not None and not trusted_lastmod(part.lastmod, latest):
            raise StateError(f"the child of shard {part.id} has a lastmod sitemill never writes")
        if part.name in _ENTRIES or part.name in (ENTRY_XML + ".gz", ENTRY_TXT + ".gz"):
            if len(children) != 1 or part.name != entry:
                raise StateError("the index-state's single file is not its entry file")
        elif not _child_name(part, legacy=legacy):
            raise StateError(f"shard {part.id} names a file that is not its own")
    return children


def _child_name(part: Part, *, legacy: bool) -> bool:
    stem = SHARD_STEM.match(part.name)
    if not (is_recorded_child(part.name) and stem and stem.group().endswith(part.id)):
        return False
    versioned = part.name[stem.end()] == "-"
    return versioned != legacy


def _states(value: object, plan: Plan) -> dict[str, StateRef]:
    """Each shard's state object (every shard of the plan has one, under its own id)."""
    if not isinstance(value, dict) or set(value) != set(plan.ids):
        raise StateError("the index-state does not name a state for each shard of its plan")
    states: dict[str, StateRef] = {}
    for shard, ref in value.items():
        name = ref.get("name") if isinstance(ref, dict) else None
        digest = ref.get("digest") if isinstance(ref, dict) else None
        if not (
            isinstance(name, str)
            and STATE_OBJECT.fullmatch(name)
            and name.startswith(f"shards/{shard}-")
            and isinstance(digest, str)
            and _DIGEST.fullmatch(digest)
        ):
            raise StateError(f"the index-state names no valid state for shard {shard}")
        states[shard] = StateRef(name, digest)
    return states


def _user_sitemaps(value: object) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The user's sitemaps the index names (absolute http(s) locs), those found in a replaced
    index (names below the folder, none of sitemill's) and robots.txt's lines sitemill wrote
    (http(s) URLs), each list checked whole."""
    if value is None:
        return (), (), ()
    if not isinstance(value, dict):
        raise StateError("the index-state's user_sitemaps are not a table")
    index, found, robots = (value.get(key, []) for key in ("index", "found", "robots"))
    if not (_strings(index) and _strings(found) and _strings(robots)):
        raise StateError("the index-state's user_sitemaps are not lists of names")
    if not all(url.startswith(("http://", "https://")) for url in (*index, *robots)):
        raise StateError("the index-state names a user's sitemap that is no http(s) URL")
    if not all(map(is_users_file_name, found)):
        raise StateError("the index-state names a user's sitemap that is no file's name")
    return tuple(index), tuple(found), tuple(robots)


def _strings(value: object) -> bool:
    return (
        isinstance(value, list)
        and len(value) <= MAX_SHARDS
        and all(isinstance(item, str) and 0 < len(item) <= MAX_URL_LENGTH for item in value)
    )


def _leaving(value: object, what: str, latest: datetime) -> dict[str, str]:
    """Names on their way out, with since when: sitemill's own names, real UTC times that are
    not in the future."""
    if value is None:
        return {}
    if not isinstance(value, dict) or len(value) > _MAX_LEAVING:
        raise StateError(f"the index-state's {what} names are not a table")
    for name, since in value.items():
        if not (
            isinstance(name, str) and (is_recorded_child(name) or STATE_OBJECT.fullmatch(name))
        ):
            raise StateError(f"the index-state's {what} names include one that is not sitemill's")
        if not (isinstance(since, str) and _MOMENT.fullmatch(since)):
            raise StateError(f"the index-state's {what} time of {name} is not a UTC time")
        try:
            moment = since_of(since)
        except ValueError:
            raise StateError(f"the index-state's {what} time of {name} is no date") from None
        if moment > latest:
            raise StateError(f"the index-state's {what} time of {name} is in the future")
    return dict(value)
