"""The manifest of a sharded bucket (sitemill.shards.manifest, .manifestfile): names a content
gives, what a commit retires and when, and the file read back as untrusted input (issue 39,
item 6: a tampered manifest is refused whole, never published in part)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from sitemill.errors import StateError
from sitemill.shards.manifest import (
    DELETE_AFTER,
    IndexState,
    Publication,
    child_version,
    next_manifest,
    state_version,
    versioned_name,
)
from sitemill.shards.manifestfile import manifest_from_json, manifest_to_json
from sitemill.shards.partition import Part, StateRef
from sitemill.shards.plan import Plan, shard_id

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
STAMP = "2026-11-23T12:00:00+00:00"
PLAN = Plan(("", "b/", "d/"))


def part(after: str, digest: str = "0" * 32, lastmod: str | None = "2026-01-02") -> Part:
    shard = shard_id(after)
    return Part(shard, after, child_version(f"sitemap-{shard}.xml", digest, ()), 3, lastmod, digest)


def ref(after: str, digest: str = "1" * 32) -> StateRef:
    shard = shard_id(after)
    return StateRef(state_version(shard, digest, ()), digest)


def manifest(**changes: Any) -> IndexState:
    values: dict[str, Any] = {
        "children": [part(""), part("b/"), part("d/")],
        "entry": "sitemap.xml",
        "digest": "f" * 32,
        "plan": PLAN,
        "inputs": "i" * 32,
        "states": {shard_id(a): ref(a) for a in PLAN.afters},
    }
    return IndexState(**(values | changes))


def published(base: IndexState, **changes: Any) -> Publication:
    assert base.plan is not None
    values: dict[str, Any] = {
        "plan": base.plan,
        "inputs": base.inputs,
        "children": base.children,
        "states": base.states,
        "entry": base.entry,
        "digest": base.digest,
    }
    return Publication(**(values | changes))


def test_a_name_is_given_by_the_content_and_salted_past_retired_names() -> None:
    first = versioned_name("sitemap-raaaaaaaa", "0" * 32, ".xml", ())
    assert first == versioned_name("sitemap-raaaaaaaa", "0" * 32, ".xml", ())  # a retry: the same
    assert first != versioned_name("sitemap-raaaaaaaa", "1" * 32, ".xml", ())
    assert first.startswith("sitemap-raaaaaaaa-") and first.endswith(".xml")
    salted = versioned_name("sitemap-raaaaaaaa", "0" * 32, ".xml", {first})
    assert salted != first and salted == versioned_name(
        "sitemap-raaaaaaaa", "0" * 32, ".xml", {first}
    )
    assert child_version("sitemap-raaaaaaaa.xml.gz", "0" * 32, ()).endswith(".xml.gz")


def test_a_child_the_commit_stops_naming_waits_and_a_state_goes_at_once() -> None:
    base = manifest()
    b2 = part("b/", digest="2" * 32)
    new_state = ref("b/", digest="3" * 32)
    states = base.states | {b2.id: new_state}
    after, due = next_manifest(
        base, published(base, children=[part(""), b2, part("d/")], states=states), NOW
    )
    old_child, old_state = part("b/").name, ref("b/").name
    assert due == [old_state] and after.retired == {old_state: STAMP}
    assert after.unnamed == {old_child: STAMP}
    # Not yet: a crawler may still fetch it. Then retired (deleted after that commit).
    early, due = next_manifest(after, published(after), NOW + DELETE_AFTER - timedelta(seconds=1))
    assert due == [] and old_child in early.unnamed
    later = NOW + DELETE_AFTER
    done, due = next_manifest(after, published(after), later)
    assert due == [old_child] and old_child in done.retired and old_state not in done.retired
    # A retired name is given to no content until it has been retired for DELETE_AFTER.
    with pytest.raises(ValueError, match="being deleted"):
        next_manifest(done, published(done, children=[part(""), part("b/"), part("d/")]), later)
    assert next_manifest(done, published(done), later + DELETE_AFTER)[0].retired == {}


def test_a_name_named_again_before_it_is_retired_stays() -> None:
    base = manifest()
    b2 = part("b/", digest="2" * 32)
    after, _ = next_manifest(base, published(base, children=[part(""), b2, part("d/")]), NOW)
    back, due = next_manifest(after, published(base), NOW + DELETE_AFTER)  # the old content
    assert due == [] and set(back.unnamed) == {b2.name} and back.retired == {}


def test_strays_are_unnamed_from_now_and_go_after_a_while() -> None:
    base = manifest()
    stray = "sitemap-raaaaaaaa-bbbbbbbb.xml"
    after, due = next_manifest(base, published(base), NOW, strays=[stray])
    assert due == [] and after.unnamed == {stray: STAMP}


def test_the_manifest_round_trips() -> None:
    base = manifest(
        unnamed={part("b/", "9" * 32).name: STAMP}, retired={ref("d/", "8" * 32).name: STAMP}
    )
    value = json.loads(json.dumps(manifest_to_json(base)))
    assert manifest_from_json(value, NOW) == base


def tampered(**changes: Any) -> dict[str, Any]:
    return json.loads(json.dumps(manifest_to_json(manifest()))) | changes


def child_with(**values: Any) -> list[dict[str, Any]]:
    children = tampered()["children"]
    children[1] = children[1] | values
    return children


@pytest.mark.parametrize(
    "document",
    [
        tampered(children=child_with(lastmod="2999-12-31")),  # after the run
        tampered(children=child_with(lastmod="9999-99-99")),
        tampered(children=child_with(lastmod="2026-02-30")),  # no such day
        tampered(unnamed={part("b/", "9" * 32).name: "2026-02-30T00:00:00+00:00"}),
        tampered(unnamed={part("b/", "9" * 32).name: "2999-01-01T00:00:00+00:00"}),
        tampered(unnamed={"index.html": STAMP}),  # never a page to delete
        tampered(retired={"shards/../../x.json.gz": STAMP}),
        tampered(entry="../etc/passwd"),
        tampered(digest="x"),
        tampered(format="other"),
        tampered(version=3),
        tampered(plan=None),
        tampered(children=list(reversed(tampered()["children"]))),  # not in the plan's order
        tampered(children=tampered()["children"][:1]),  # shards that hold nothing
        tampered(children=child_with(after="c/")),  # not its boundary
        tampered(children=child_with(name="sitemap-raaaaaaaa-bbbbbbbb.xml")),  # another's file
        tampered(states={}),
        tampered(states=tampered()["states"] | {shard_id("b/"): {"name": "x", "digest": "1" * 32}}),
        tampered(unnamed={part("b/").name: STAMP}),  # named and on its way out
    ],
)
def test_a_manifest_sitemill_did_not_write_is_refused_whole(document: dict[str, Any]) -> None:
    with pytest.raises(StateError):
        manifest_from_json(document, NOW)


def test_a_plan_of_many_empty_shards_is_refused() -> None:
    # 2,000 valid boundaries over a 13-page site would cost a GET of a state for each.
    afters = ("", *(f"k{n:04d}" for n in range(2000)))
    document = tampered(
        plan={
            "format": "sitemill-shard-plan",
            "version": 1,
            "order": "keys",
            "afters": list(afters),
        }
    )
    with pytest.raises(StateError, match="hold nothing"):
        manifest_from_json(document, NOW)


def test_a_version_one_index_state_is_read_for_the_move_only() -> None:
    old = {
        "format": "sitemill-index-state",
        "version": 1,
        "children": [
            {"id": shard_id(""), "after": "", "name": f"sitemap-{shard_id('')}.xml",
             "urls": 3, "digest": "0" * 32},
        ],
        "entry": "sitemap.xml",
        "digest": "f" * 32,
        "unnamed": {},
        "plan": {"format": "sitemill-shard-plan", "version": 1, "order": "keys", "afters": [""]},
    }  # fmt: skip
    legacy = manifest_from_json(old, NOW)
    assert legacy.legacy and legacy.states == {}
    # Its fixed names are unnamed by the first commit: the child waits, the state goes.
    assert legacy.named() == {f"sitemap-{shard_id('')}.xml", f"shards/{shard_id('')}.json.gz"}


def test_the_user_sitemaps_round_trip_carried_by_a_commit_and_absent_while_none() -> None:
    assert "user_sitemaps" not in manifest_to_json(manifest())  # (earlier manifests' bytes)
    named = {
        "users": ("https://example.com/blog.xml",),
        "found": ("blog.xml",),
        "robots": ("https://shop.example.net/sitemap.xml",),
    }
    base = manifest(**named)
    assert manifest_to_json(base)["user_sitemaps"] == {
        "index": ["https://example.com/blog.xml"],
        "found": ["blog.xml"],
        "robots": ["https://shop.example.net/sitemap.xml"],
    }
    assert manifest_from_json(json.loads(json.dumps(manifest_to_json(base))), NOW) == base
    committed, _ = next_manifest(manifest(), published(manifest(), **named), NOW)
    assert (committed.users, committed.found, committed.robots) == tuple(named.values())


@pytest.mark.parametrize(
    "users",
    [
        {"index": ["blog.xml"]},  # no URL
        {"robots": ["ftp://example.com/a.xml"]},
        {"found": ["../up.xml"]},
        {"found": ["sitemap-2.xml"]},  # sitemill's own
        {"index": "https://example.com/a.xml"},
        ["https://example.com/a.xml"],
    ],
)
def test_a_manifest_naming_a_bad_user_sitemap_is_refused(users: object) -> None:
    with pytest.raises(StateError):
        manifest_from_json(tampered(user_sitemaps=users), NOW)
