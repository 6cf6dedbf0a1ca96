"""What naming an edit does (issue 79's cost): the same names from less work."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from sitemill.lastmod.history import edits

_TOKENS = st.lists(st.sampled_from(["wa", "wA", "wb", "tx", "Hh", "Hi", "Ss", "wc"]), max_size=12)


@given(_TOKENS, _TOKENS)
def test_the_tokens_counted_differently_are_the_counters_differences(
    older: list[str], newer: list[str]
) -> None:
    """Read from the item views, the tokens an edit changed are (old - new) | (new - old), and
    the words it changed are those the Counters' differences name."""
    old, new = Counter(older), Counter(newer)
    assert edits._differing(old, new) == (old - new).keys() | (new - old).keys()
    words: dict[str, int] = {}
    for side, sign in ((new - old, 1), (old - new, -1)):
        for token, count in side.items():
            if token[:1] == "w":
                words[token.casefold()] = words.get(token.casefold(), 0) + sign * count
    assert edits._rewords(new, old) == any(words.values())


@given(_TOKENS, _TOKENS)
def test_what_an_edit_kept_but_moved_is_read_from_the_tokens_counted_alike(
    older: list[str], newer: list[str]
) -> None:
    old, new = Counter(older), Counter(newer)
    ordered = frozenset("wHIS")
    before = [t for t in older if t[:1] in ordered and old[t] == new[t]]
    after = [t for t in newer if t[:1] in ordered and old[t] == new[t]]
    moved = edits.moved_within(older, newer, old, new)
    assert (moved == []) == (before == after)
    assert {token[1:] for token in moved} <= set(before)


_LEAVES = st.lists(
    st.sampled_from(["Lname=a", "Lname=b", "Lurl=/x", "Lurl=/y", "Lurl=/x", "wa", "Hh"]),
    max_size=10,
)


@given(_LEAVES, _LEAVES)
def test_own_leaves_read_from_the_leaves_counted_differently(
    older: list[str], newer: list[str]
) -> None:
    """The JSON-LD leaves a version would hold at the page's own URL are summed over the leaves
    counted differently only: each leaf counted alike adds as much to both sides."""
    from sitemill.lastmod.history._targetmoves import LEAF, own_leaves

    old, new = (
        Counter(t.replace("L", LEAF, 1) for t in older),
        Counter(t.replace("L", LEAF, 1) for t in newer),
    )
    fewer: Counter[str] = Counter()
    for tokens, sign in ((old, 1), (new, -1)):
        for token, count in tokens.items():
            if token[:1] == LEAF:
                fewer[token.partition("=")[0]] += sign * count
    expected = Counter({f"{path}=/p/": count for path, count in fewer.items() if count > 0})
    assert own_leaves(old, new, "p/") == expected
