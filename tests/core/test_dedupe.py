"""SeenUrls: add, add_many and `in` agree with a set of the strings, across its growth."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sitemill.dedupe import SeenUrls

urls = st.lists(st.sampled_from([f"https://example.com/{n}" for n in range(60)] + ["", "é\udcff"]))


@settings(max_examples=200, deadline=None)
@given(urls, st.booleans())
def test_add_and_add_many_answer_as_a_set_does(items: list[str], one_by_one: bool) -> None:
    seen, expected = SeenUrls(), set()
    answers = [seen.add(url) for url in items] if one_by_one else seen.add_many(items)
    for url, answer in zip(items, answers, strict=True):
        assert answer == (url not in expected)
        expected.add(url)
    assert len(seen) == len(expected)
    assert all(url in seen for url in expected)


def test_many_urls_grow_the_table_and_stay_found() -> None:
    seen = SeenUrls()
    many = [f"https://example.com/page/{n}" for n in range(100_000)]
    assert all(seen.add(url) for url in many[:50_000])  # one by one, past several resizes
    assert seen.add_many(many) == [False] * 50_000 + [True] * 50_000
    assert len(seen) == 100_000 and not seen.add(many[-1]) and "https://example.com/x" not in seen
