"""The partitioned state's pure rules (sitemill.shards.partition, sitemill.state.shardstate):
the next plan from workers' summaries, the completeness check, deferred deletion, and every
document read back as untrusted input."""

from __future__ import annotations

import gzip
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from sitemill.errors import StateError
from sitemill.shards.partition import (
    DELETE_AFTER,
    IndexState,
    Part,
    Summary,
    current_parts,
    index_state_from_json,
    index_state_to_json,
    next_plan,
    part_from_json,
    summary_from_json,
    summary_to_json,
    unnamed_after,
)
from sitemill.shards.plan import Plan, child_name, shard_id
from sitemill.sources.page import Page
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
    last = IndexState([part(""), part("b/"), part("d/")])
    ran = Summary(shard_id("b/"), (part("b/", urls=5),))
    parts, missing = current_parts(PLAN, {ran.shard: ran}, last)
    assert [p.urls for p in parts] == [3, 5, 3] and missing == []
    parts, missing = current_parts(PLAN, {}, IndexState([part("")]))
    assert missing == [shard_id("b/"), shard_id("d/")]


def test_a_child_is_deleted_only_once_unnamed_for_long_enough() -> None:
    last = IndexState([part(""), part("b/")])
    gone = part("b/").name
    unnamed, due = unnamed_after(last, [part("").name], NOW)
    assert due == [] and set(unnamed) == {gone}
    later = IndexState([part("")], unnamed=unnamed)
    assert unnamed_after(later, [part("").name], NOW + DELETE_AFTER - timedelta(seconds=1))[1] == []
    assert unnamed_after(later, [part("").name], NOW + DELETE_AFTER)[1] == [gone]
    # Named again: no longer waiting.
    assert unnamed_after(later, [part("").name, gone], NOW + DELETE_AFTER) == ({}, [])


def test_documents_round_trip() -> None:
    state = IndexState(
        [part(""), part("b/")],
        "sitemap.xml",
        "f" * 32,
        {"sitemap-raaaaaaaa.xml": "2026-11-23T12:00:00+00:00"},
        PLAN,
    )
    assert index_state_from_json(json.loads(json.dumps(index_state_to_json(state)))) == state
    summary = Summary(
        shard_id("b/"), (part("b/"), part("b/m.html")), 2, frozenset({part("b/").name})
    )
    assert summary_from_json(summary_to_json(summary)) == summary


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


def test_an_index_state_naming_foreign_files_is_refused() -> None:
    good = index_state_to_json(IndexState([part("")], "sitemap.xml", "0" * 32))
    for bad in (
        {"entry": "../etc/passwd"},
        {"unnamed": {"index.html": "2026-11-23T12:00:00+00:00"}},  # never a page to delete
        {"unnamed": {"sitemap-raaaaaaaa.xml": "soon"}},
        {"format": "other"},
    ):
        with pytest.raises(StateError):
            index_state_from_json(good | bad)


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
