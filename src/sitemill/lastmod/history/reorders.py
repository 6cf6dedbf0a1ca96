"""What an edit moved within a page: the words and targets it kept, in another order."""
# Order is a list's content (issue 79, cluster 6). An edit is named by what it took out and put
# in, counted (history.edits), so two posts of one day that swapped places on a tag page, in the
# commit that gave every page a new description, left that page's edit named as the description
# edit alone: template, and the page kept its older date. What the edit kept but moved is named
# too (ORDER and each such token), so the page's edit is its own; a block that a theme moved on
# every page (the same tokens) is still one edit. An edit that only moved what the page holds is
# named apart (history.edits.reorders), as before.

from __future__ import annotations

from collections import Counter
from difflib import SequenceMatcher
from typing import Final

ORDER: Final = "O"  # (the kind of a token an edit kept but moved)
# What a reader sees in order: the text's words, the links' and images' targets.
_ORDERED: Final = frozenset("wHIS")


def moved_within(
    older: list[str], newer: list[str], old: Counter[str], new: Counter[str]
) -> list[str]:
    """The tokens (ORDER and the token, sorted, once each) that the edit from the token
    sequence ``older`` to ``newer`` (counted: ``old``, ``new``) kept, each counted alike on
    both sides, but moved: those out of the longest runs the two versions keep in one order
    (difflib), past the start and the end they share. [] when what it kept is in order."""
    before = [token for token in older if token[:1] in _ORDERED and old[token] == new[token]]
    after = [token for token in newer if token[:1] in _ORDERED and old[token] == new[token]]
    if before == after:
        return []
    start, limit = 0, min(len(before), len(after))
    while start < limit and before[start] == after[start]:
        start += 1
    end = 0
    while end < limit - start and before[-1 - end] == after[-1 - end]:
        end += 1
    before, after = before[start : len(before) - end], after[start : len(after) - end]
    matcher = SequenceMatcher(None, before, after)
    moved = {
        ORDER + token
        for kind, first, last, _, _ in matcher.get_opcodes()
        if kind != "equal"
        for token in before[first:last]
    }
    return sorted(moved)
