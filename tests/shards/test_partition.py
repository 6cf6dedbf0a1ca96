"""The partitioned state's pure rules (sitemill.shards.partition, sitemill.state.shardstate):
the next plan from workers' summaries, the completeness check, and every document read back
as untrusted input. The manifest: tests/shards/test_manifest.py."""

from __future__ import annotations

import gzip
import json
from datetime import UTC, datetime
from typing import Any

import pytest

from sitemill.entries import Page
from sitemill.errors import StateError
from sitemill.shards.partition import (
    Part,
    StateRef,
    Summary,
    current_parts,
    next_plan,
    part_from_json,
    summary_from_json,
    summary_to_json,
)
from sitemill.shards.plan import Plan, child_name, shard_id
from sitemill.state.model import PageRecord, State
from sitemill.state.shardstate import ShardState, dump_shard_state, parse_shard_state

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
PLAN = Plan(("", "b/", "d/"))


def part(after: str, urls: int = 3, lastmod: str | None = "2026-01-02") -> Part:
    name = child_name(shard_id(after), ".xml")
    return Part(shard_id(after), after, name, urls, lastmod, "0" * 32)


def test_a_split_comes_in_after_its_shard_and_an_emptied_one_leaves() -> None:
    split = Summary(shard_id("b/"), (part("b/"), part("b/m.html")))
    emptied = Summary(shard_id("d/"), ())
    assert next_plan(PLAN, {split.shard: split}).afters == ("", "b/", "b/m.html", "d/")
    assert next_plan(PLAN, {emptied.shard: emptied}).afters == ("", "b/")
    first = Summary(shard_id(""), ())  # the first shard stays, unwritten
    assert next_plan(PLAN, {first.shard: first}).afters == PLAN.afters


def test_every_shard_needs_a_file_from_this_run_or_the_last() -> None:
    last = {p.id: [p] for p in (part(""), part("b/"), part("d/"))}
    ran = Summary(shard_id("b/"), (part("b/", urls=5),))
    parts, missing = current_parts(PLAN, {ran.shard: ran}, last)
    assert [p.urls for p in parts] == [3, 5, 3] and missing == []
    parts, missing = current_parts(PLAN, {}, {shard_id(""): [part("")]})
    assert missing == [shard_id("b/"), shard_id("d/")]


def ref(shard: str) -> StateRef:
    return StateRef(f"shards/{shard}-aaaaaaaa.json.gz", "1" * 32)


def test_a_summary_round_trips_with_the_states_of_its_parts() -> None:
    b, m = part("b/"), part("b/m.html")
    summary = Summary(
        b.id, (b, m), 2, frozenset({b.name}), states={b.id: ref(b.id), m.id: ref(m.id)}
    )
    assert summary_from_json(summary_to_json(summary)) == summary
    emptied = Summary(shard_id(""), (), states={shard_id(""): ref(shard_id(""))})
    assert summary_from_json(summary_to_json(emptied)) == emptied
    for states in (
        {b.id: ref(b.id)},  # a part without its state
        {b.id: ref(b.id), m.id: ref(b.id)},  # another shard's state
        {b.id: StateRef("shards/../x.json.gz", "1" * 32), m.id: ref(m.id)},
        {b.id: StateRef(ref(b.id).name, "x"), m.id: ref(m.id)},
    ):
        with pytest.raises(StateError):
            summary_from_json(summary_to_json(Summary(b.id, (b, m), states=states)))


@pytest.mark.parametrize(
    "change",
    [
        {"id": "rzzzzzzzz"},  # not the boundary's id
        {"name": "index.html"},  # not one of sitemill's names
        {"name": "sitemap-raaaaaaaa.xml"},  # another shard's child
        {"urls": 0},
        {"urls": 50_001},
        {"lastmod": "yesterday"},
        {"digest": "x"},
        {"after": "a" * 1025},
    ],
)
def test_a_part_that_is_not_one_sitemill_wrote_is_refused(change: dict[str, Any]) -> None:
    values = {
        "id": shard_id("b/"),
        "after": "b/",
        "name": part("b/").name,
        "urls": 3,
        "digest": "0" * 32,
    }
    with pytest.raises(StateError):
        part_from_json(values | change)


def shard_state() -> ShardState:
    pages = [Page("b/a.html", "2026-01-02T03:04:05+00:00", '"e1"'), Page("b/c.pdf", None, '"e2"')]
    remembered = State(pages={"b/a.html": PageRecord('"e1"', None, None, None)})
    return ShardState("b/", pages, part("b/"), remembered)


def test_a_shard_state_round_trips_in_deterministic_bytes() -> None:
    data = dump_shard_state(shard_state())
    assert data == dump_shard_state(shard_state())
    back = parse_shard_state(data, NOW)
    assert (back.after, back.listing, back.part) == ("b/", shard_state().listing, part("b/"))
    assert back.state.pages == shard_state().state.pages


@pytest.mark.parametrize(
    "listing",
    [
        [["b/a.html", "2099-01-01T00:00:00+00:00", '"e1"']],  # a date after the run's
        [["b/a.html", "not a date", '"e1"']],
        [["", "", ""]],
        [["b/a.html", "", "\x00"]],
        [["b/a.html", ""]],
        "not a list",
    ],
)
def test_a_shard_state_with_a_listing_it_cannot_trust_is_refused_whole(listing: object) -> None:
    document = json.loads(gzip.decompress(dump_shard_state(shard_state())))
    document["listing"] = listing
    with pytest.raises(StateError):
        parse_shard_state(gzip.compress(json.dumps(document).encode()), NOW)


def test_a_shard_state_under_another_id_is_refused() -> None:
    document = json.loads(gzip.decompress(dump_shard_state(shard_state())))
    document["shard"] = shard_id("x/")
    with pytest.raises(StateError, match="id"):
        parse_shard_state(gzip.compress(json.dumps(document).encode()), NOW)


@pytest.mark.parametrize(
    ("bounds", "listing"),
    [
        (("b/", "d/"), [["a.html", "", '"e1"']]),  # before the range: another shard's page
        (("b/", "d/"), [["b/", "", '"e1"']]),  # the boundary itself is the shard before's
        (("b/", "d/"), [["e.html", "", '"e1"']]),  # after the range
        (("b/", None), [["b/x.html", "", '"e1"'], ["b/x.html", "", '"e1"']]),  # listed twice
        (("b/", None), [["b/y.html", "", '"e1"'], ["b/x.html", "", '"e1"']]),  # out of order
        (("c/", None), [["c/x.html", "", '"e1"']]),  # the state of another boundary
    ],
)
def test_a_shard_state_listing_pages_outside_its_range_is_refused(
    bounds: tuple[str, str | None], listing: list[list[str]]
) -> None:
    document = json.loads(gzip.decompress(dump_shard_state(shard_state())))
    document["listing"] = listing
    data = gzip.compress(json.dumps(document).encode())
    with pytest.raises(StateError):
        parse_shard_state(data, NOW, bounds=bounds)
    assert parse_shard_state(dump_shard_state(shard_state()), NOW, bounds=("b/", "d/")).listing
