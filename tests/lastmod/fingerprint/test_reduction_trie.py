"""The inline elements' names as a trie: the same names as the plain alternation, no other."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from sitemill.lastmod.fingerprint._taggrammar import _INLINE_ELEMENTS, _trie

NAMES = _INLINE_ELEMENTS.split("|")
TRIE = re.compile(rf"(?ai:{_trie(NAMES)})")
PLAIN = re.compile(rf"(?ai:{_INLINE_ELEMENTS})")


def test_every_name_and_only_the_names() -> None:
    for name in NAMES:
        assert TRIE.fullmatch(name) and TRIE.fullmatch(name.upper())
    prefixes = {name[:cut] for name in NAMES for cut in range(len(name))}
    for other in (prefixes - set(NAMES)) | {"p", "li", "div", "spans", "bd", "", "strik"}:
        assert not TRIE.fullmatch(other), other


@given(st.text(alphabet="abcdefgiklmnopqrstuvwxyzABIS", max_size=8))
def test_the_trie_matches_what_the_alternation_matches(text: str) -> None:
    assert bool(TRIE.fullmatch(text)) == bool(PLAIN.fullmatch(text))


def test_small_tries() -> None:
    assert _trie(["x"]) == "x"
    assert _trie(["a", "ab", "b"]) == "(?:a(?:b)?|b)"
    assert _trie([]) == ""
