"""The shard plan: stable ids, the bisection, both sort orders, the cut rule, and a plan that
changes without renaming what did not change (docs/output.md)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemill.errors import StateError
from sitemill.protocol import MAX_KEY_BYTES
from sitemill.shards.cuts import Cutter, canonical_plan, family_of
from sitemill.shards.evolve import (
    drop_empty,
    plan_from_json,
    plan_to_json,
    split,
)
from sitemill.shards.plan import (
    MAX_SHARDS,
    ORDER_KEY,
    Order,
    Plan,
    child_name,
    shard_id,
)
from sitemill.sources.tree import walk_tree

BIG = 10 * 1024 * 1024  # max_bytes that never cuts by bytes in these tests


def weighted(keys: list[str], weight: int = 100) -> list[tuple[str, int]]:
    return [(key, weight) for key in keys]


def shards_of(plan: Plan, keys: list[str]) -> list[list[str]]:
    parts: list[list[str]] = [[] for _ in plan.afters]
    for key in keys:
        parts[plan.shard_of(key)].append(key)
    return parts


# --- ids and names ----------------------------------------------------------------------------


def test_ids_are_r_and_eight_base32_characters_of_the_boundary() -> None:
    assert shard_id("") == "rpvsmkjzo"  # pinned: a changed id renames every child of every site
    assert shard_id("blog/post.html") == "rv6fnncev"
    for after in ("", "a", "é/ü.html", "x" * 1024, os.fsdecode(b"caf\xe9.html")):
        assert re.fullmatch(r"r[a-z2-7]{8}", shard_id(after))
    assert child_name(shard_id(""), ".xml.gz") == "sitemap-rpvsmkjzo.xml.gz"


# --- the bisection and the two orders ---------------------------------------------------------


def test_a_boundary_key_belongs_to_the_shard_before_it() -> None:
    plan = Plan(("", "b", "d"), Order.KEYS)
    assert [plan.shard_of(key) for key in ("a", "b", "b0", "c", "d", "d0", "zzz")] == [
        0, 0, 1, 1, 1, 2, 2,
    ]  # fmt: skip
    assert plan.bounds(1) == ("b", "d")
    assert plan.bounds(2) == ("d", None)


@given(
    st.lists(st.text(min_size=1, max_size=6), min_size=1, max_size=30, unique=True),
    st.lists(st.text(min_size=1, max_size=6), max_size=30),
    st.sampled_from(list(Order)),
)
def test_shard_of_is_the_definition(afters: list[str], keys: list[str], order: Order) -> None:
    sort_key = ORDER_KEY[order]
    afters = sorted(afters, key=sort_key)
    if len({sort_key(after) for after in afters}) < len(afters) or len(
        {shard_id(after) for after in afters}
    ) < len(afters):
        return  # two spellings of one walk position ("a" and "a/"): not a plan
    plan = Plan(("", *afters), order)
    for key in keys:
        expected = max(
            (i for i, after in enumerate(plan.afters) if sort_key(after) < sort_key(key)),
            default=0,
        )
        assert plan.shard_of(key) == expected


def test_the_walk_order_is_the_tree_walks_order(tmp_path: Path) -> None:
    names = ["a/b/c.html", "a/b.html", "a/b-c.html", "a/b.htm/x.html", "a/bb/z.html", "a/b.htm0"]
    names += ["Z.html", "z.html", "é.html", "e.html", "a/index.html", "a/index.htm"]
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x", encoding="utf-8")
    walked = [found.path for found in walk_tree(tmp_path)]
    assert walked == sorted(names, key=ORDER_KEY[Order.WALK])
    assert walked != sorted(names, key=ORDER_KEY[Order.KEYS])  # a/b/c.html comes before a/b.html


def test_the_walk_order_holds_for_names_that_are_not_utf8(tmp_path: Path) -> None:
    raw = [b"\xe9.html", "é.html".encode(), b"e\xcc\x81.html", b"\xff/a.html", b"\xef\xbf\xbd"]
    raw += [b"a b.html", b"a-b.html", b"a\x01.html", b"\xf0\x9f\x98\x80.html", b"\xed\x9f\xbf.html"]
    for name in raw:
        path = os.path.join(os.fsencode(tmp_path), name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(b"x")
    walked = [found.path for found in walk_tree(tmp_path)]
    assert len(walked) == len(raw)
    assert walked == sorted(walked, key=ORDER_KEY[Order.WALK])
    plan = Plan(("", walked[3]), Order.WALK)
    assert [plan.shard_of(path) for path in walked] == [0] * 4 + [1] * (len(walked) - 4)


# --- the cut rule -----------------------------------------------------------------------------


def test_shards_are_cut_after_fill_keys() -> None:
    keys = [f"p/{number:06d}.html" for number in range(10_000)]
    plan = canonical_plan(weighted(keys), fill=1_000, max_bytes=BIG, clean=False, order=Order.KEYS)
    sizes = [len(part) for part in shards_of(plan, keys)]
    assert sizes == [1_000] * 10
    assert plan == canonical_plan(
        weighted(keys), fill=1_000, max_bytes=BIG, clean=False, order=Order.KEYS
    )


def test_shards_are_cut_at_eighty_percent_of_max_bytes() -> None:
    keys = [f"p/{number:04d}.html" for number in range(1_000)]
    plan = canonical_plan(
        weighted(keys, 1_000), fill=40_000, max_bytes=100_000, clean=False, order=Order.KEYS
    )
    assert {len(part) for part in shards_of(plan, keys)[:-1]} == {80}


@pytest.mark.parametrize("order", list(Order))
@pytest.mark.parametrize(
    "keys",
    [
        ["a/s.htm", "a/s.html"],
        ["a/s.htm", "a/s.htm/x.html", "a/s.htm0", "a/s.html"],  # members apart
        ["a/index.htm", "a/index.html"],
    ],
)
def test_a_cut_never_parts_two_keys_of_one_url(keys: list[str], order: Order) -> None:
    keys = sorted(keys, key=ORDER_KEY[order])
    plan = canonical_plan(weighted(keys), fill=1, max_bytes=BIG, clean=False, order=order)
    assert plan.shard_of(keys[0]) == plan.shard_of(keys[-1])


def test_with_clean_urls_a_bare_key_stays_with_its_html() -> None:
    keys = ["a/s", "a/s-1", "a/s-2", "a/s.html", "a/t"]
    clean = canonical_plan(weighted(keys), fill=1, max_bytes=BIG, clean=True, order=Order.KEYS)
    assert clean.shard_of("a/s") == clean.shard_of("a/s.html")
    plain = canonical_plan(weighted(keys), fill=1, max_bytes=BIG, clean=False, order=Order.KEYS)
    assert len(plain.afters) == len(keys)  # no family without clean: a cut after each key


def test_a_family_that_never_completes_does_not_hold_the_cut() -> None:
    """``s.htm`` opens a family; the keys after it until ``s.html`` would sort are cut as
    usual once the family cannot grow (no ``s.html`` ever comes)."""
    keys = ["a/s.htm", *(f"a/s.htm/{n:03d}" for n in range(100)), "a/t.html"]
    plan = canonical_plan(weighted(keys), fill=10, max_bytes=BIG, clean=False, order=Order.KEYS)
    assert max(len(part) for part in shards_of(plan, keys)) <= 12


def test_a_long_family_that_completes_stays_in_one_shard() -> None:
    """Candidates wait while ``a/s.htm`` may still get its ``a/s.html``; when it comes, every
    cut between them is dropped, and the cuts after it stand."""
    middle = [f"a/s.htm/{n:03d}" for n in range(100)]
    keys = ["a/s.htm", *middle, "a/s.html", *(f"b/{n:03d}.html" for n in range(30))]
    plan = canonical_plan(weighted(keys), fill=10, max_bytes=BIG, clean=False, order=Order.KEYS)
    assert plan.shard_of("a/s.htm") == plan.shard_of("a/s.html")
    assert plan.afters[1] == "a/s.html"  # the first cut comes once the family is whole
    assert len(plan.afters) == 4  # then every 10 keys: b/009.html, b/019.html


def test_a_boundary_whose_id_is_taken_moves_to_the_next_key() -> None:
    cutter = Cutter(byte_fill=BIG, fill=2, clean=False, order=Order.KEYS, taken={shard_id("b")})
    cuts = [cut for key in ("a", "b", "c", "d", "e") for cut in cutter.add(key, 1)]
    assert cuts + cutter.finish() == ["c"]


keys_with_families = st.lists(
    st.tuples(
        st.sampled_from(["a", "a/b", "ab", "a-b", "b"]),
        st.sampled_from(["", ".htm", ".html", "/x", "0"]),
    ),
    max_size=40,
).map(lambda pairs: sorted({stem + suffix for stem, suffix in pairs}))


@settings(max_examples=300)
@given(keys_with_families, st.integers(1, 4), st.booleans(), st.sampled_from(list(Order)))
def test_no_family_is_ever_parted(keys: list[str], fill: int, clean: bool, order: Order) -> None:
    keys = sorted(keys, key=ORDER_KEY[order])
    plan = canonical_plan(weighted(keys), fill=fill, max_bytes=BIG, clean=clean, order=order)
    homes: dict[str, set[int]] = {}
    for key in keys:
        stem = family_of(key, clean=clean)
        if stem is not None:
            homes.setdefault(stem, set()).add(plan.shard_of(key))
    assert all(len(shards) == 1 for shards in homes.values()), homes
    assert all(part for part in shards_of(plan, keys)[1:])  # no boundary leaves a shard empty


# --- a plan that changes renames nothing else -------------------------------------------------

SITE = [f"{section}/{n:05d}.html" for section in ("blog", "docs", "news") for n in range(3_000)]


def test_a_new_section_splits_only_the_shard_it_lands_in() -> None:
    plan = canonical_plan(weighted(SITE), fill=1_000, max_bytes=BIG, clean=False, order=Order.KEYS)
    added = [f"guides/{n:05d}.html" for n in range(5_000)]
    keys = sorted(SITE + added)
    parts = shards_of(plan, keys)
    grown = [index for index, part in enumerate(parts) if len(part) > 1_250]  # past one file
    assert len(grown) == 1
    after = split(plan, grown[0], weighted(parts[grown[0]]), fill=1_000, max_bytes=BIG, clean=False)
    assert set(plan.ids) <= set(after.ids)  # every old name stays
    assert after.ids[grown[0]] == plan.ids[grown[0]]  # the first part keeps its id
    new_parts = shards_of(after, keys)
    assert max(len(part) for part in new_parts) <= 1_250
    unchanged = [part for part in parts if part and not set(part) & set(added)]
    assert all(part in new_parts for part in unchanged)  # other shards: same keys, same names


def test_an_emptied_shard_goes_to_its_left_neighbour() -> None:
    plan = Plan(("", "b", "d", "f"), Order.KEYS)
    smaller = drop_empty(plan, {0: 5, 1: 0, 2: 7, 3: 0})
    assert smaller.afters == ("", "d")
    assert set(smaller.ids) <= set(plan.ids)
    assert drop_empty(plan, {0: 0, 1: 3, 2: 3, 3: 3}) == plan  # the first shard starts the keys


# --- the plan as JSON (it lives in the state: untrusted) ---------------------------------------


def test_a_plan_survives_json() -> None:
    plan = canonical_plan(weighted(SITE), fill=500, max_bytes=BIG, clean=True, order=Order.WALK)
    assert plan_from_json(plan_to_json(plan)) == plan


GOOD = {"format": "sitemill-shard-plan", "version": 1, "order": "keys", "afters": ["", "b", "d"]}


@pytest.mark.parametrize(
    "changes",
    [
        {"format": "other"},
        {"version": 2},
        {"order": "random"},
        {"afters": "b"},
        {"afters": []},
        {"afters": ["b", "d"]},
        {"afters": ["", "d", "b"]},
        {"afters": ["", "b", "b"]},
        {"afters": ["", "", "b"]},
        {"afters": ["", 3]},
        {"afters": ["", "\ud800"]},
        {"afters": ["", "x" * (MAX_KEY_BYTES + 1)]},
        {"afters": ["", *(f"{n:06d}" for n in range(MAX_SHARDS))]},
    ],
    ids=lambda changes: repr(changes)[:40],
)
def test_a_bad_plan_is_refused_with_a_state_error(changes: dict[str, object]) -> None:
    with pytest.raises(StateError):
        plan_from_json({**GOOD, **changes})
    assert plan_from_json(GOOD).afters == ("", "b", "d")


def test_a_plan_is_checked_when_made() -> None:
    with pytest.raises(ValueError, match="strictly increasing"):
        Plan(("", "d", "b"))
    with pytest.raises(ValueError, match='starts at ""'):
        Plan(("b",))
