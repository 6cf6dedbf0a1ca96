"""The block reader of URL lists gives exactly what the line reader gives."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemill.config.model import load_config
from sitemill.dedupe import SeenUrls
from sitemill.entries import Entry, Skip
from sitemill.jobs.urllist import _listed_block, _listed_entries
from sitemill.sources.urllist import FastBlockReader, read_blocks

BASE = "https://example.com/"

pieces = st.sampled_from([*list("abz09-._~/?#&=+%é <>\"'"), "/./", "/../", "%41", "%zz"])
paths = st.lists(pieces, max_size=12).map("".join)
stamps = st.sampled_from(
    [
        "",
        "\t2024-05-01T10:00:00+00:00",
        "\t2024-02-30T10:00:00+00:00",
        "\t2024-05-01",
        "\t2024-05-01T12:00:00+02:00",
        "\t ",
        "\t2024-05-01T10:00:00Z",
    ]
)
prefixes = st.sampled_from(
    [BASE, BASE, BASE, "https://EXAMPLE.com/", "https://other.example/", "# ", ""]
)
endings = st.sampled_from(["\n", "\r\n", " \n"])
lines = st.lists(
    st.builds(lambda a, b, c, d: a + b + c + d, prefixes, paths, stamps, endings), max_size=25
)


Outcome = tuple[list[Entry], list[Skip]] | str


def run(lines_: list[str]) -> Outcome:
    """The block reader (fast where it can be): entries and skips, or the error."""
    config = load_config({"base_url": BASE})
    skips: list[Skip] = []
    try:
        return list(_listed_entries(config, lines_, "urls.txt", skips.append)), skips
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"


def run_slow(lines_: list[str]) -> Outcome:
    """The line reader alone."""
    config = load_config({"base_url": BASE})
    skips: list[Skip] = []
    try:
        entries = list(_listed_block(config, lines_, "urls.txt", 1, SeenUrls(), skips.append))
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return entries, skips


@settings(max_examples=300, deadline=None)
@given(lines)
def test_block_reader_matches_line_reader(lines_: list[str]) -> None:
    assert run(lines_) == run_slow(lines_)


def test_fast_path_takes_simple_blocks_only() -> None:
    fast = FastBlockReader(BASE)
    assert fast([f"{BASE}a\t2024-05-01T10:00:00+00:00\n", f"{BASE}b\n"]) == [
        (f"{BASE}a", "2024-05-01T10:00:00+00:00"),
        (f"{BASE}b", ""),
    ]
    for odd in (
        "# comment\n",
        "\n",
        f"{BASE}a b\n",
        f"{BASE}%41\n",
        f"{BASE}x/../y\n",
        f"{BASE}a\t2024-05-01\n",
        "https://other.example/\n",
        f"{BASE}a\t2024-02-30T10:00:00+00:00\n",
    ):
        assert fast([f"{BASE}ok\n", odd]) is None, odd


def test_blocks_number_their_lines() -> None:
    blocks = list(read_blocks((f"{i}\n" for i in range(10)), size=4))
    assert [(first, len(block)) for first, block in blocks] == [(1, 4), (5, 4), (9, 2)]


def test_errors_name_the_right_line_in_a_later_block() -> None:
    config = load_config({"base_url": BASE})
    lines_ = [f"{BASE}p{i}\n" for i in range(5000)] + ["not a url\n"]
    with pytest.raises(Exception, match=r"urls\.txt:5001: 'not a url'"):
        list(_listed_entries(config, lines_, "urls.txt", lambda skip: None))


def test_seen_urls_add_and_add_many_agree() -> None:
    seen = SeenUrls()
    urls = [f"{BASE}{i % 7000}" for i in range(20_000)]
    first = seen.add_many(urls[:10_000])
    rest = [seen.add(url) for url in urls[10_000:]]
    assert sum(first) == 7000 and sum(rest) == 0
    assert len(seen) == 7000
    assert seen.add(f"{BASE}new") and not seen.add(f"{BASE}new")
