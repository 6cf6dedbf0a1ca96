"""``[[groups]]`` (docs/config-file.md): a name and globs; a bad one is a ConfigError naming the
key; names whose children could be read as another of sitemill's names are refused."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from sitemill.config.model import load_config
from sitemill.config.tables import group_of
from sitemill.errors import ConfigError
from sitemill.filenames.groupnames import child_group, group_child_name, is_group_child
from sitemill.filenames.outputs import is_own_name, is_sitemap_file, is_staging_name
from sitemill.filenames.staging import Staging

BASE = {"base_url": "https://example.com/"}


def groups_of(*tables: dict[str, Any]) -> Any:
    return load_config(BASE, {}, {"groups": list(tables)}).groups


def test_groups_keep_their_order_and_the_first_match_wins() -> None:
    groups = groups_of(
        {"name": "news", "include": ["blog/news/**"]},
        {"name": "blog", "include": ["blog/**"], "exclude": ["blog/drafts/"]},
        {"name": "docs", "include": "docs/**, guide/**"},
    )
    assert [group.name for group in groups] == ["news", "blog", "docs"]
    assert group_of(groups, "blog/news/a.html") == 0
    assert group_of(groups, "blog/a.html") == 1
    assert group_of(groups, "blog/drafts/a.html") == 3  # (excluded: the default children)
    assert group_of(groups, "guide/x.html") == 2
    assert group_of(groups, "index.html") == 3


@pytest.mark.parametrize(
    ("table", "key", "says"),
    [
        ({"include": ["a/**"]}, "groups[1].name", "is required"),
        ({"name": 3, "include": ["a/**"]}, "groups[1].name", "not a string"),
        ({"name": "Blog", "include": ["a/**"]}, "groups[1].name", "lower-case"),
        ({"name": "a_b", "include": ["a/**"]}, "groups[1].name", "lower-case"),
        ({"name": "-a", "include": ["a/**"]}, "groups[1].name", "lower-case"),
        ({"name": "a--b", "include": ["a/**"]}, "groups[1].name", "single hyphens"),
        ({"name": "x" * 41, "include": ["a/**"]}, "groups[1].name", "at most 40"),
        ({"name": "2024", "include": ["a/**"]}, "groups[1].name", "sitemap-1.xml"),
        ({"name": "index", "include": ["a/**"]}, "groups[1].name", "sitemap-index-2.xml"),
        ({"name": "index-old", "include": ["a/**"]}, "groups[1].name", "sitemap-index-2.xml"),
        ({"name": "posts-2", "include": ["a/**"]}, "groups[1].name", "further files"),
        ({"name": "blog-next", "include": ["a/**"]}, "groups[1].name", "staging"),
        ({"name": "rabcdefgh", "include": ["a/**"]}, "groups[1].name", "shard"),
        ({"name": "news-rabcdefgh", "include": ["a/**"]}, "groups[1].name", "shard"),
        ({"name": "blog"}, "groups[1].include", "is required"),
        ({"name": "blog", "include": []}, "groups[1].include", "is empty"),
        ({"name": "blog", "include": ["!a"]}, "groups[1].include", "negation"),
        ({"name": "blog", "include": ["a/**"], "pattern": "x"}, "groups[1].pattern", "unknown"),
        ({"name": "blog", "include": ["a/**"], "exclud": "x"}, "groups[1].exclud", "exclude"),
    ],
)
def test_a_bad_group_is_a_config_error_naming_its_key(
    table: dict[str, Any], key: str, says: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        groups_of(table)
    assert caught.value.key == key
    assert says in str(caught.value)


def test_group_names_are_unique_and_groups_are_tables() -> None:
    with pytest.raises(ConfigError, match=r"groups\[2\]\.name: 'blog' names an earlier group"):
        groups_of({"name": "blog", "include": ["a/**"]}, {"name": "blog", "include": ["b/**"]})
    with pytest.raises(ConfigError, match=r"^groups: must be an array of tables"):
        load_config(BASE, {}, {"groups": {"name": "blog"}})
    with pytest.raises(ConfigError, match=r"^groups\[1\]: must be a table"):
        load_config(BASE, {}, {"groups": ["blog"]})


def test_groups_come_from_the_file_only() -> None:
    env = {"SITEMILL_GROUPS": "blog"}  # (as rules: tables have no other spelling)
    assert load_config(BASE, env, {}).groups == ()


@pytest.mark.parametrize(
    ("name", "number", "shard", "file"),
    [
        ("blog", 1, None, "sitemap-blog.xml"),
        ("blog", 2, None, "sitemap-blog-2.xml"),
        ("blog", 1, "rabcdefgh", "sitemap-blog-rabcdefgh.xml"),
        ("news-team", 2, "rabcdefgh", "sitemap-news-team-rabcdefgh-2.xml"),
        ("2024-posts", 1, None, "sitemap-2024-posts.xml"),
    ],
)
def test_a_child_names_its_group(name: str, number: int, shard: str | None, file: str) -> None:
    assert group_child_name(name, ".xml", number, shard) == file
    assert child_group(file) == name
    assert is_own_name(file, {name}) and is_sitemap_file(file, {name})
    assert not is_own_name(file) and not is_own_name(file, {"other"})


def test_only_the_known_groups_children_are_sitemills() -> None:
    known = {"blog", "blog-nextgen"}
    assert is_group_child("sitemap-blog-nextgen.xml", known)  # (no staging copy)
    assert not is_staging_name("sitemap-blog-nextgen.xml", known)
    staging = "sitemap-blog-rabcdefgh-next-20261127101010-abcdef.xml.gz"
    assert is_staging_name(staging, known) and not is_sitemap_file(staging, known)
    assert not is_own_name("sitemap-news.xml", known)  # a user's, in a group's shape
    assert child_group("sitemap-1.xml") is None and child_group("sitemap-index-2.xml") is None
    assert child_group("sitemap-rabcdefgh.xml") is None  # a default shard's


def test_a_groups_staging_copy_is_a_leftover_once_old() -> None:
    began = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
    staging = Staging(began, "abcdef")
    copy = staging.name("sitemap-blog-rabcdefgh.xml.gz")
    assert copy == "sitemap-blog-rabcdefgh-next-20261127120000-abcdef.xml.gz"
    assert is_staging_name(copy, {"blog"}) and not staging.is_leftover(copy)
    older = Staging(began + timedelta(hours=2), "012345")
    assert older.is_leftover(copy)
    assert not older.is_leftover("sitemap-blog-rabcdefgh.xml.gz")  # (no copy at all)
