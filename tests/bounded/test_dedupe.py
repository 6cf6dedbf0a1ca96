"""SeenUrls and SeenUrlBytes: add, repeats and `in` agree with a set of the URLs, across
the table's growth."""

from __future__ import annotations

import pickle
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemill.bounded.dedupe import SeenUrlBytes, SeenUrls

urls = st.lists(st.sampled_from([f"https://example.com/{n}" for n in range(60)] + ["", "é\udcff"]))


def answers(items: list[str], one_by_one: bool, as_bytes: bool) -> tuple[list[bool], int]:
    """Whether each URL was new, and how many the set holds after."""
    seen: SeenUrls | SeenUrlBytes = SeenUrlBytes() if as_bytes else SeenUrls()
    keys: list[Any] = (
        [item.encode("utf-8", "surrogateescape") for item in items] if as_bytes else items
    )
    if one_by_one:
        return [seen.add(key) for key in keys], len(seen)
    repeated = set(seen.repeats(keys))
    assert all(key in seen for key in keys)  # (one key alone as a batch keys it)
    return [i not in repeated for i in range(len(keys))], len(seen)


@settings(max_examples=200, deadline=None)
@given(urls, st.booleans(), st.booleans())
def test_add_and_repeats_answer_as_a_set_does(
    items: list[str], one_by_one: bool, as_bytes: bool
) -> None:
    expected: set[str] = set()
    new, size = answers(items, one_by_one, as_bytes)
    for url, answer in zip(items, new, strict=True):
        assert answer == (url not in expected)
        expected.add(url)
    assert size == len(expected)


@pytest.mark.parametrize("kind", [SeenUrls, SeenUrlBytes])
def test_many_urls_grow_the_table_and_stay_found(kind: type[SeenUrls] | type[SeenUrlBytes]) -> None:
    seen = kind()
    many: list = [f"https://example.com/page/{n}" for n in range(100_000)]
    if kind is SeenUrlBytes:
        many = [url.encode() for url in many]
    assert all(seen.add(url) for url in many[:50_000])  # one by one, past several resizes
    assert seen.repeats(many) == list(range(50_000))
    assert len(seen) == 100_000 and not seen.add(many[-1])
    assert many[0][:-1] not in seen and "x" not in seen and b"x" not in SeenUrls()


def test_a_reserved_table_never_grows() -> None:
    seen = SeenUrlBytes()
    seen.reserve(300_000)
    size = len(seen._slots)
    assert seen.repeats([b"%d" % n for n in range(300_000)]) == []
    assert len(seen._slots) == size and len(seen) == 300_000


def test_stable_keys_are_the_same_in_another_process() -> None:
    """SeenUrls may be pickled to a worker: its keys do not depend on the process (Python's
    hash is keyed afresh in each one, so SeenUrlBytes's would not)."""
    seen = SeenUrls()
    seen.add("https://example.com/a")
    code = (
        "import pickle, sys; seen = pickle.loads(sys.stdin.buffer.read());"
        "print('https://example.com/a' in seen, 'https://example.com/b' in seen)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], input=pickle.dumps(seen), capture_output=True, check=True
    )
    assert out.stdout.split() == [b"True", b"False"]
