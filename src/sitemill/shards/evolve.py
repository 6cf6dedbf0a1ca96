"""How a plan changes between builds without renaming what did not change."""
# A shard that outgrows the limits is split (its first part keeps its id), an emptied shard
# disappears into its left neighbour, and two small neighbours may merge (the left keeps its id).
# The plan's JSON form is read as untrusted input (it lives in the state).

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

from sitemill.errors import StateError
from sitemill.protocol import DEFAULT_SHARD_FILL, MAX_KEY_BYTES
from sitemill.shards.cuts import cut_points
from sitemill.shards.plan import Order, Plan

PLAN_FORMAT: Final = "sitemill-shard-plan"
PLAN_VERSION: Final = 1


def split(
    plan: Plan,
    index: int,
    items: Iterable[tuple[str, int]] | Iterable[tuple[str, int, int]],
    *,
    fill: int = DEFAULT_SHARD_FILL,
    max_bytes: int,
    clean: bool,
) -> Plan:
    """Shard ``index`` cut into ``fill``-sized parts by the cut rule (``items``: its keys in
    order, with estimated bytes). Its first part keeps its id; no other shard is renamed."""
    cuts = list(
        cut_points(
            items, fill=fill, max_bytes=max_bytes, clean=clean, order=plan.order, taken=plan.ids
        )
    )
    afters = list(plan.afters)
    afters[index + 1 : index + 1] = cuts
    return plan.with_afters(afters)


def drop_empty(plan: Plan, counts: Mapping[int, int]) -> Plan:
    """The plan without its emptied shards (a count of 0): each one's range goes to its left
    neighbour. The first shard stays (it starts the key space); while empty it is not written."""
    afters = [plan.afters[0]]
    afters.extend(
        after for index, after in enumerate(plan.afters) if index and counts.get(index, 1) != 0
    )
    return plan.with_afters(afters)


def plan_to_json(plan: Plan) -> dict[str, Any]:
    return {
        "format": PLAN_FORMAT,
        "version": PLAN_VERSION,
        "order": plan.order.value,
        "afters": list(plan.afters),
    }


def plan_from_json(value: object) -> Plan:
    """A plan read back, every part checked: a StateError says what is wrong."""
    if not isinstance(value, dict) or value.get("format") != PLAN_FORMAT:
        raise StateError("not a sitemill shard plan")
    if value.get("version") != PLAN_VERSION:
        raise StateError(f"shard plan version {value.get('version')!r} is not {PLAN_VERSION}")
    try:
        order = Order(value.get("order"))
    except ValueError:
        raise StateError(f"shard plan order {value.get('order')!r} is unknown") from None
    afters = value.get("afters")
    if not isinstance(afters, list) or not all(isinstance(after, str) for after in afters):
        raise StateError("shard plan boundaries are not a list of keys")
    try:
        longest = max(len(after.encode("utf-8", "surrogateescape")) for after in afters)
    except (UnicodeEncodeError, ValueError):  # a lone surrogate; no boundary at all
        raise StateError("shard plan boundaries are not keys") from None
    if longest > MAX_KEY_BYTES:
        raise StateError(f"a shard plan boundary is longer than {MAX_KEY_BYTES} bytes")
    try:
        return Plan(tuple(afters), order)  # checked once, as it is made
    except ValueError as exc:
        raise StateError(str(exc)) from None
