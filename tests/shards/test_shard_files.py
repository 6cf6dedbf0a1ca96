"""Sharded output, pure: files per shard under stable names; growth splits one shard, an
emptied shard goes, and a build's plan renders the same files again (a fixed point)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sitemill.entries import Entry
from sitemill.render.renderer import Renderer
from sitemill.shards.cuts import CutRule
from sitemill.shards.layout import ShardFile, render_shards, sorted_entries
from sitemill.shards.plan import Order, Plan, shard_id

BASE = "https://example.com/"
RENDERER = Renderer(None, text=False)


def entries(keys: list[str]) -> list[Entry]:
    found = [Entry(BASE + key, "2024-01-01", key=key) for key in keys]
    return sorted_entries(found, Order.WALK)


def build(
    keys: list[str], plan: Plan | None, *, fill: int = 3, max_urls: int = 5
) -> tuple[Plan, list[ShardFile]]:
    def render(items: object) -> list:  # type: ignore[type-arg]
        return list(
            RENDERER.render_sitemaps(items, max_urls=max_urls, max_bytes=50_000_000)  # type: ignore[arg-type]
        )

    return render_shards(
        entries(keys), plan, render, CutRule(Order.WALK, 50_000_000, clean=False, fill=fill)
    )


def urls(file: ShardFile) -> int:
    return file.sitemap.url_count


def test_a_first_build_cuts_after_fill_keys() -> None:
    keys = [f"p{n:02d}.html" for n in range(10)]
    plan, files = build(keys, None)
    assert [urls(file) for file in files] == [3, 3, 3, 1]
    assert [file.shard for file in files] == list(plan.ids)
    assert files[0].shard == shard_id("") and all(len(f.shard) == 9 for f in files)


def test_adding_pages_rewrites_only_their_shard() -> None:
    keys = [f"p{n:02d}.html" for n in range(0, 20, 2)]  # p00 p02 ... p18
    plan, files = build(keys, None)
    more = sorted([*keys, "p05.html"])
    after_plan, after = build(more, plan)
    assert after_plan == plan  # 4 keys in one shard still fit one file
    changed = [f.shard for f, g in zip(files, after, strict=True) if f.sitemap != g.sitemap]
    assert changed == [plan.ids[plan.shard_of("p05.html")]]


def test_a_shard_that_outgrows_is_split_and_no_other_renamed() -> None:
    keys = [f"p{n:02d}.html" for n in range(9)]
    plan, files = build(keys, None)
    grown = sorted([*keys, *(f"p03-{n}.html" for n in range(6))])  # all in the 2nd shard
    new_plan, new_files = build(grown, plan)
    assert set(plan.ids) < set(new_plan.ids)
    assert all(urls(file) <= 5 for file in new_files)
    unchanged = {f.shard: f.sitemap for f in files if f.shard != plan.ids[1]}
    assert all(g.sitemap == unchanged[g.shard] for g in new_files if g.shard in unchanged)


def test_an_emptied_shard_goes_and_its_neighbours_keep_their_names() -> None:
    keys = [f"p{n:02d}.html" for n in range(9)]
    plan, _ = build(keys, None)
    left = [key for key in keys if plan.shard_of(key) != 1]
    new_plan, files = build(left, plan)
    assert new_plan.ids == (plan.ids[0], plan.ids[2])
    assert [urls(file) for file in files] == [3, 3]


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.sets(st.integers(0, 60), max_size=40), min_size=1, max_size=5),
    st.integers(1, 6),
)
def test_a_builds_plan_renders_the_same_files_again(steps: list[set[int]], fill: int) -> None:
    plan = None
    for step in steps:
        keys = [f"d{n % 4}/p{n:02d}.html" for n in step] or ["index.html"]
        plan, files = build(keys, plan, fill=fill)
        again_plan, again = build(keys, plan, fill=fill)
        assert again_plan == plan and again == files
        assert sum(urls(file) for file in files) == len(keys)
        assert all(urls(file) <= 5 for file in files)
