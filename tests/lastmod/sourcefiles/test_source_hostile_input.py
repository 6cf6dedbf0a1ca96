"""Every reader of a repository's content (settings, front matter, a source's words, a book's
summary, a config's locales) takes time in proportion to what it reads, whatever the text:
each shape below took the square of its size (a line of 100,000 spaces in mkdocs.yml, 24 s)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import timing
from sitemill.lastmod.sourcefiles._contentmatch import source_words
from sitemill.lastmod.sourcefiles._frontmatter import split_front_matter
from sitemill.lastmod.sourcefiles._visibletext import visible_text
from sitemill.lastmod.sourcefiles._yamlish import read_yaml
from sitemill.lastmod.sourcefiles.conventions._docusaurusconfig import read_config
from sitemill.lastmod.sourcefiles.conventions._mdbook import mdbook_pages
from sitemill.lastmod.sourcefiles.conventions.base import Project, RepoView, Tree, parse_settings

SMALL = 4_000  # characters; the large input is 8 times as long
# Linear code takes about 8 times as long on the large input, quadratic code 64 times.
BOUND = 20


def book(summary: str) -> dict[str, tuple[str, ...]]:
    files = {"book.toml": "[book]\n", "src/SUMMARY.md": summary, "src/a.md": "# A"}
    tree = Tree(RepoView(tuple(sorted(files)), files.get), "book")
    return mdbook_pages(Project("mdbook", "", "book.toml", "book"), tree)


def fill(unit: str, size: int, before: str = "", after: str = "") -> str:
    return before + unit * (size // len(unit)) + after


# name -> (the reader, the hostile text of about the size asked for)
HOSTILE: dict[str, tuple[Callable[[str], object], Callable[[int], str]]] = {
    "yaml: a key's spaces": (read_yaml, lambda n: fill(" ", n, "docs_dir", "x\n")),
    "yaml: a value's spaces": (read_yaml, lambda n: fill(" ", n, "docs_dir: a", "b\n")),
    "yaml: an item's spaces": (read_yaml, lambda n: fill(" ", n, "nav:\n  - a", "b\n")),
    "yaml: blanks before no comment": (read_yaml, lambda n: fill(" \t", n, "a: b", "c\n")),
    "toml front matter: a dotted key": (
        split_front_matter,
        lambda n: fill("a.", min(n, 60_000), "+++\n", "a = 1\n+++\nbody"),
    ),
    "toml settings: a dotted key": (
        lambda text: parse_settings("hugo.toml", text),
        lambda n: fill("a.", n, "", "a = 1\n"),
    ),
    "words: unclosed comments": (source_words, lambda n: fill("<!--", n)),
    "words: unclosed tags": (source_words, lambda n: fill("{%", n)),
    "words: unclosed outputs": (source_words, lambda n: fill("{{", n)),
    "words: unclosed template comments": (source_words, lambda n: fill("{#", n)),
    "words: link openers": (source_words, lambda n: fill("](", n)),
    "words: tag openers": (source_words, lambda n: fill("<", n)),
    "words: a role's colons": (source_words, lambda n: fill(":a", n)),
    "words: unclosed role targets": (source_words, lambda n: fill(":a:`<", n)),
    "mdbook: link openers": (book, lambda n: fill("](", n)),
    "mdbook: anchors without a close": (book, lambda n: fill("](a.md#", n)),
    "docusaurus: unclosed locales": (read_config, lambda n: fill("locales: [", n)),
    "docusaurus: unclosed comments": (read_config, lambda n: fill("/* ", n)),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_repository_file_is_read_in_linear_time(name: str) -> None:
    read, make = HOSTILE[name]
    assert timing.linear(read, make(SMALL), make(8 * SMALL), BOUND)


def test_a_line_of_a_million_spaces_reads_as_the_setting_it_is() -> None:
    assert read_yaml("docs_dir" + " " * 1_000_000 + ": pages\nsite_name: S\n") == {
        "docs_dir": "pages",
        "site_name": "S",
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('"quoted key" : v  # note\n', {"quoted key": "v"}),
        ("key \t: v\t#note\n", {"key": "v"}),
        ("url: http://x/#top\n", {"url": "http://x/#top"}),
        ("a:b\nc: d\n", {"c": "d"}),
        ("nav:\n  - one  \n  -   two # 2\n", {"nav": ["one", "two"]}),
    ],
)
def test_yaml_keys_values_and_comments_read_as_before(
    text: str, expected: dict[str, object]
) -> None:
    assert read_yaml(text) == expected


def test_a_dotted_key_too_long_to_read_is_no_front_matter() -> None:
    assert split_front_matter("+++\n" + "a." * 200 + "a = 1\n+++\nbody") == ({}, "body")
    assert parse_settings("hugo.toml", "a." * 200 + "a = 1\n") == {}
    assert parse_settings("hugo.toml", "a.b.c = 1\n") == {"a": {"b": {"c": 1}}}


def test_json_front_matter_nested_too_deep_is_text() -> None:
    text = '{"title": ' + "[" * 100_000
    assert visible_text(text).endswith(text)


def test_comments_and_templates_are_taken_out_as_before() -> None:
    text = "one <!-- two --> three {% four %} five {{ six }} {# seven #} eight {% nine"
    assert source_words(text) == ["one", "three", "five", "eight", "nine"]
    assert source_words("{{%x%} y") == ["y"]  # "{%" inside an unclosed "{{" still closes


def test_a_glob_in_a_string_is_no_comment_of_the_config() -> None:
    config = read_config(
        "/* trailingSlash: false */\n"
        "docs: { include: ['**/*.md'] },\n"
        "i18n: { defaultLocale: 'en', locales: ['en', 'fr'] }, // locales: ['de']\n"
    )
    assert config.locales == ("en", "fr")
    assert config.trailing_slash_false is False


def test_a_chapter_link_with_an_anchor_is_the_book_s_first_page() -> None:
    assert book("# Summary\n\n- [A](<./a.md#top> )\n")["index.html"] == ("src/a.md",)
