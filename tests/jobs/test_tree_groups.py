"""Named groups in a tree (docs/output.md, Named groups): a group's pages in children named for
it, the rest in the default children named as without groups, the entry file always an index
(default children first, then each group's in the configuration's order); sharded within the
site's one plan; adding a group renames only its pages' children, once; a removed group's
children go, and a user's file in a group child's shape stays."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from conftest import BASE_URL, page, write_site
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.errors import ConfigError
from sitemill.filenames.outputs import STATE_NAME
from sitemill.github.action import output_names
from sitemill.report import Report
from sitemill.shards.plan import shard_id
from sitemill.sinks import LocalDirSink
from xsd import assert_valid_sitemaps

SHARD = re.compile(r"sitemap-r[a-z2-7]{8}\.xml")
BLOG_SHARD = re.compile(r"sitemap-blog-r[a-z2-7]{8}\.xml")
BLOG = {"name": "blog", "include": ["blog/**"]}
DOCS = {"name": "docs", "include": ["docs/**"], "exclude": ["docs/old/"]}


def build(site: Path, out: Path, *groups: dict[str, Any], **values: object) -> Report:
    flags = {"base_url": BASE_URL, "lastmod": "mtime", **values}
    config = load_config(flags, {}, {"groups": list(groups)} if groups else {})
    return build_from_tree(config, site, LocalDirSink(out))


def children(out: Path) -> list[str]:
    """The children sitemap.xml names, in its order."""
    index = (out / "sitemap.xml").read_text()
    return re.findall(r"<loc>https://example\.com/(sitemap-[^<]+)</loc>", index)


def locs(out: Path, name: str) -> list[str]:
    return re.findall(r"<loc>https://example\.com/([^<]*)</loc>", (out / name).read_text())


def site_of(root: Path, sections: dict[str, int]) -> Path:
    files = {
        f"{name}/p{n:03d}.html": page(f"{name} {n}")
        for name, count in sections.items()
        for n in range(count)
    }
    return write_site(root, files)


def test_pages_go_in_their_groups_children_and_the_rest_in_the_default_ones(
    tmp_path: Path,
) -> None:
    site = site_of(tmp_path / "site", {"about": 2, "blog": 3, "docs": 2, "docs/old": 1})
    out = tmp_path / "out"
    report = build(site, out, DOCS, BLOG)
    config = load_config({"base_url": BASE_URL}, {}, {"groups": [DOCS, BLOG]})
    assert {"sitemap-docs.xml", "sitemap-blog.xml"} <= set(output_names(report, config))
    # the default children first, then each group's in the configuration's order
    assert children(out) == ["sitemap-1.xml", "sitemap-docs.xml", "sitemap-blog.xml"]
    assert locs(out, "sitemap-blog.xml") == [f"blog/p{n:03d}.html" for n in range(3)]
    assert locs(out, "sitemap-docs.xml") == ["docs/p000.html", "docs/p001.html"]
    assert locs(out, "sitemap-1.xml") == [
        "about/p000.html",
        "about/p001.html",
        "docs/old/p000.html",
    ]
    assert_valid_sitemaps(out, BASE_URL)  # (the XSDs and the location rule)


def test_a_group_that_takes_no_page_is_said_once(tmp_path: Path) -> None:
    """A group whose include matches no page, and one whose pages an earlier group takes, are
    one warning each, naming the group (issue 82: they were silent)."""
    site = site_of(tmp_path / "site", {"about": 2, "blog": 3})
    news = {"name": "news", "include": ["news/**"]}
    posts = {"name": "posts", "include": ["blog/p00*.html"]}
    report = build(site, tmp_path / "out", BLOG, news, posts)
    said = [warning for warning in report.warnings if "groups[" in warning]
    assert said == [
        "groups[2] (news) takes no page: its include matches none, or an earlier group takes "
        "each; no sitemap-news.xml is written",
        "groups[3] (posts) takes no page: its include matches none, or an earlier group takes "
        "each; no sitemap-posts.xml is written",
    ]
    assert children(tmp_path / "out") == ["sitemap-1.xml", "sitemap-blog.xml"]
    assert not [w for w in build(site, tmp_path / "out2", BLOG).warnings if "groups[" in w]


def test_one_group_is_an_index_and_a_group_past_one_file_is_numbered(tmp_path: Path) -> None:
    site = site_of(tmp_path / "site", {"blog": 5})
    out = tmp_path / "out"
    build(site, out, BLOG, max_urls=2, shards="off")  # (auto: shards, the site is past one file)
    # (no default child: every page is the blog's)
    assert children(out) == ["sitemap-blog.xml", "sitemap-blog-2.xml", "sitemap-blog-3.xml"]
    assert [len(locs(out, name)) for name in children(out)] == [2, 2, 1]
    assert_valid_sitemaps(out, BASE_URL)


def test_a_group_is_sharded_within_the_sites_plan(tmp_path: Path) -> None:
    site = site_of(tmp_path / "site", {"a": 4, "blog": 9, "c": 4})
    out = tmp_path / "out"
    report = build(site, out, BLOG, shards="on", shard_fill=4)
    names = children(out)
    plan = report.result.plan
    assert plan is not None and len(plan.afters) == 5
    defaults = [name for name in names if SHARD.fullmatch(name)]
    blog = [name for name in names if BLOG_SHARD.fullmatch(name)]
    assert names == defaults + blog and len(blog) >= 3  # (the blog spans three shards or more)
    assert defaults[0] == f"sitemap-{shard_id('')}.xml"
    assert {name.removeprefix("sitemap-blog-").removesuffix(".xml") for name in blog} <= set(
        plan.ids
    )
    assert sorted(url for name in blog for url in locs(out, name)) == [
        f"blog/p{n:03d}.html" for n in range(9)
    ]
    assert not any(url.startswith("blog/") for name in defaults for url in locs(out, name))
    assert_valid_sitemaps(out, BASE_URL)


def test_adding_a_group_renames_only_its_pages_children_once(tmp_path: Path) -> None:
    site = site_of(tmp_path / "site", {"a": 4, "blog": 4, "c": 4})
    out = tmp_path / "out"
    before = build(site, out, shards="on", shard_fill=4)
    old = children(out)
    old_a = (out / old[0]).read_bytes()
    added = build(site, out, BLOG, shards="on", shard_fill=4)
    assert added.result.plan == before.result.plan  # the default children keep their ids
    new = children(out)
    assert [name for name in new if SHARD.fullmatch(name)] == [old[0], old[2]]
    assert [name for name in new if BLOG_SHARD.fullmatch(name)] == [
        old[1].replace("sitemap-", "sitemap-blog-")
    ]
    assert (out / old[0]).read_bytes() == old_a  # (no page of it moved: not rewritten)
    assert sorted(added.result.written) == [new[2], "sitemap.xml"]
    assert added.result.deleted == [old[1]]
    again = build(site, out, BLOG, shards="on", shard_fill=4)
    assert again.result.written == [] and again.result.deleted == []


def test_a_removed_groups_children_go_and_a_users_look_alike_stays(tmp_path: Path) -> None:
    site = site_of(tmp_path / "site", {"a": 2, "blog": 2, "docs": 2})
    out = tmp_path / "out"
    build(site, out, BLOG, DOCS)
    assert (out / "sitemap-blog.xml").exists()
    (out / "sitemap-news.xml").write_text("<urlset>the user's</urlset>")  # not sitemill's
    report = build(site, out, DOCS)
    assert report.result.deleted == ["sitemap-blog.xml"]
    # the Action commits the deletion with the rest (its own files only)
    assert "sitemap-blog.xml" in output_names(report, load_config({"base_url": BASE_URL}))
    assert "sitemap-news.xml" not in output_names(report, load_config({"base_url": BASE_URL}))
    assert not (out / "sitemap-blog.xml").exists()
    assert (out / "sitemap-news.xml").read_text() == "<urlset>the user's</urlset>"
    assert children(out) == ["sitemap-1.xml", "sitemap-docs.xml"]
    assert locs(out, "sitemap-1.xml") == [
        "a/p000.html",
        "a/p001.html",
        "blog/p000.html",
        "blog/p001.html",
    ]
    again = build(site, out, DOCS)
    assert again.result.written == [] and again.result.deleted == []
    # no group left: one sitemap.xml again, every group child gone, the user's file kept
    build(site, out)
    assert not (out / "sitemap-docs.xml").exists() and not (out / "sitemap-1.xml").exists()
    assert (out / "sitemap-news.xml").exists()


def test_several_children_changing_go_through_staging_copies(tmp_path: Path) -> None:
    site = site_of(tmp_path / "site", {"a": 2, "blog": 2})
    out = tmp_path / "out"
    build(site, out, BLOG)
    write_site(site, {"a/new.html": page("a new"), "blog/new.html": page("blog new")})
    staged: list[str] = []
    sink = LocalDirSink(out)
    put = sink.put

    def spy(name: str, data: bytes, *, content_type: str) -> bool:
        staged.append(name)
        return put(name, data, content_type=content_type)

    sink.put = spy  # type: ignore[method-assign]
    flags = {"base_url": BASE_URL, "lastmod": "mtime"}
    report = build_from_tree(load_config(flags, {}, {"groups": [BLOG]}), site, sink)
    copies = [name for name in staged if "-next-" in name]
    assert sorted(name.partition("-next-")[0] for name in copies) == ["sitemap-1", "sitemap-blog"]
    assert not [path.name for path in out.iterdir() if "-next-" in path.name]  # (gone again)
    assert report.result.deleted == []  # (this run's own copies: not reported)
    assert children(out) == ["sitemap-1.xml", "sitemap-blog.xml"]
    assert "blog/new.html" in locs(out, "sitemap-blog.xml")


def test_a_shard_that_outgrows_a_file_is_split_with_its_groups(tmp_path: Path) -> None:
    site = site_of(tmp_path / "site", {"a": 3, "blog": 3})
    out = tmp_path / "out"
    first = build(site, out, BLOG, shards="on", max_urls=5, shard_fill=4)
    assert first.result.plan is not None
    write_site(site, {f"blog/q{n}.html": page(f"q {n}") for n in range(9)})
    grown = build(site, out, BLOG, shards="on", max_urls=5, shard_fill=4)
    plan = grown.result.plan
    assert plan is not None and len(plan.afters) > len(first.result.plan.afters)
    assert set(first.result.plan.afters) <= set(plan.afters)  # (split: no shard renamed)
    names = children(out)
    assert all(len(locs(out, name)) <= 5 for name in names)
    assert sum(len(locs(out, name)) for name in names if BLOG_SHARD.fullmatch(name)) == 12
    assert_valid_sitemaps(out, BASE_URL)
    again = build(site, out, BLOG, shards="on", max_urls=5, shard_fill=4)
    assert again.result.written == [] and again.result.plan == plan


def test_a_users_sitemap_under_a_groups_name_stops_the_run(tmp_path: Path) -> None:
    site = site_of(tmp_path / "site", {"a": 1, "blog": 1})
    out = tmp_path / "out"
    out.mkdir()
    mine = '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>'
    (out / "sitemap-blog.xml").write_text(mine)
    with pytest.raises(ConfigError) as caught:
        build(site, out, DOCS, BLOG)
    assert caught.value.key == "groups[2].name" and "sitemill did not write it" in str(caught.value)
    assert sorted(path.name for path in out.iterdir()) == ["sitemap-blog.xml"]  # nothing written
    # sitemill's own, which nothing names any more (its index and state lost): replaced
    (out / "sitemap-blog.xml").unlink()
    build(site, out, BLOG)
    (out / "sitemap.xml").unlink()
    (out / STATE_NAME).unlink()
    build(site, out, BLOG)
    assert children(out) == ["sitemap-1.xml", "sitemap-blog.xml"]


def test_a_state_naming_a_users_file_in_a_groups_shape_deletes_nothing(tmp_path: Path) -> None:
    """A state is input from outside: one that lists a file in a group child's shape as
    sitemill's (tampered, or another site's) makes sitemill delete it only when its bytes are a
    sitemap. A user's page there stays; a sitemap of sitemill's removed group still goes."""
    import gzip
    import json

    site = site_of(tmp_path / "site", {"a": 2, "blog": 2})
    out = tmp_path / "out"
    build(site, out, BLOG)
    users = "<!doctype html><title>news</title>"
    (out / "sitemap-news.xml").write_text(users)
    state = json.loads(gzip.decompress((out / STATE_NAME).read_bytes()))
    state["outputs"] = sorted([*state["outputs"], "sitemap-news.xml"])
    (out / STATE_NAME).write_bytes(gzip.compress(json.dumps(state).encode()))
    report = build(site, out)
    assert (out / "sitemap-news.xml").read_text() == users
    assert report.result.deleted == ["sitemap-1.xml", "sitemap-blog.xml"]  # (one file again)
