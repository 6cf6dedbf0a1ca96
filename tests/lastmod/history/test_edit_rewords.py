"""Whether an edit changed the text's words (history.edits._rewords) and a stop's names made
with one _repeats: what the first spelling, which counted every word of both versions, named
(issue 64's third session)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemill.lastmod.fingerprint.targetmarks import MARK_EDGE, TITLE_END
from sitemill.lastmod.history import edits
from sitemill.lastmod.history._respacing import RECASED, RESPACED, recased, respaced
from sitemill.lastmod.history.datevalues import RESPELLED, is_respelled, named_by_kind
from sitemill.lastmod.history.edits import hash_edit, names_of


def first_words(tokens: Counter[str]) -> Counter[str]:
    """edits._words as it was: every text word of ``tokens``, in lower case, counted."""
    words: Counter[str] = Counter()
    for token, count in tokens.items():
        if token[:1] == "w":
            words[token.casefold()] += count
    return words


def first_names_of(newer: str, older: str, own: str) -> tuple[str, str, edits.Moves]:
    """names_of as it was: the words compared whole, _repeats made twice (and, since issue 79,
    what the edit kept but moved named beside its moves: history.edits.moved_within, and the
    title's words that restate the page named by their kind: history.titlerestated)."""
    new, old = edits._tokens(newer), edits._tokens(older)
    sequences = (edits._sequence(older), edits._sequence(newer))
    restated = edits.restated_title_words(sequences)
    repeated = (edits._repeats(old, new, restated), restated)
    moves = edits._ordered(edits._named_moves(new, old, own, repeated), sequences, old, new)
    if respaced(newer, older):
        return RESPACED, RESPACED, moves
    if is_respelled(newer, older):
        return RESPELLED, RESPELLED, moves
    if recased(*sequences):  # (since issue 79: an edit of letter case alone, history.respacing)
        return RECASED, RECASED, moves
    removed, added = moves
    tokens = (*removed, *added)
    if first_words(new) != first_words(old):
        kind = "words"
    elif tokens and all(token[:1] in "RtD" for token in tokens):
        kind = "site-wide"
    else:
        kind = "other"
    name = hash_edit(removed, added)
    digits = edits._KIND_DIGITS[kind]
    edit = digits[int(name[0], 16) % len(digits)] + name[1:]
    return edit, hash_edit(*named_by_kind(*repeated[0])), moves


# Words whose letter case folds together (ß and SS, the dotted İ), dates, numbers, marks of
# targets and descriptions (a kind letter and a value), the page's own link, white space.
WORDS = (
    *("Word", "word", "WORD", "ß", "SS", "ss", "İ", "i̇", "ǅ", "Σ", "σ", "ς", "x", "X", "fin"),
    *("2024-03-09", "Mar 9, 2024", "9 March 2024", "13", "4.5", "(3)", "10:14 PM", "22:14"),
)
MARKS = ("H/a/", "H/b/", "H/blog/post/", "I/a.png", "I/a.webp", "Ddesc", "E", "Ddesc two")
TEXT = st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(MARKS).map(lambda m: (m,))))


def _reduction(title: list[str], pieces: list[str | tuple[str]]) -> str:
    """A reduction: its title's words, then text words and marks (each between two MARKs)."""
    body = "".join(
        f" {MARK_EDGE}{p[0]}{MARK_EDGE} " if isinstance(p, tuple) else f" {p}" for p in pieces
    )
    return " ".join(title) + TITLE_END + body


REDUCTIONS = st.builds(_reduction, st.lists(st.sampled_from(WORDS), max_size=4), TEXT)


@settings(max_examples=600, deadline=None)
@given(REDUCTIONS, REDUCTIONS, st.sampled_from(["", "blog/post/index.html", "a/index.html"]))
def test_names_of_names_what_it_named(newer: str, older: str, own: str) -> None:
    edit, exact, moves, links = names_of(newer, older, own)
    assert (edit, exact, moves) == first_names_of(newer, older, own)
    # (and the site's own links it put in or took out, each as it is: history.listings)
    new_links = {t[1:] for t in edits._tokens(newer) if t[:2] == "H/"}
    old_links = {t[1:] for t in edits._tokens(older) if t[:2] == "H/"}
    assert links == sorted(new_links ^ old_links), (links, new_links, old_links)
    new, old = edits._tokens(newer), edits._tokens(older)
    assert edits._rewords(new, old) == (first_words(new) != first_words(old))


@pytest.mark.parametrize(
    ("newer", "older", "rewords"),
    [
        ("Word word", "word WORD", False),  # (the same words, their case moved)
        ("ß x", "SS x", False),  # (ß folds to ss)
        ("ß", "S", True),
        ("İ", "i̇", False),  # (the dotted capital folds to i and a dot)
        ("Σ ς", "σ σ", False),
        ("a a b", "a b b", True),  # (the same words, counted otherwise)
        ("a " * 500 + "b", "a " * 500 + "c", True),
    ],
)
def test_the_words_are_read_from_the_tokens_that_differ(
    newer: str, older: str, rewords: bool
) -> None:
    new, old = edits._tokens(TITLE_END + newer), edits._tokens(TITLE_END + older)
    assert (first_words(new) != first_words(old)) is rewords
    assert edits._rewords(new, old) is rewords


def test_a_stops_repeats_are_made_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """names_of makes the tokens taken out and put in once for its name and its exact name
    (twice before), and reads the words of the tokens whose counts differ only."""
    made: list[int] = []
    repeats = edits._repeats

    def counted(
        old: Counter[str], new: Counter[str], restated: frozenset[str] = frozenset()
    ) -> tuple[list[str], list[str]]:
        made.append(1)
        return repeats(old, new, restated)

    monkeypatch.setattr(edits, "_repeats", counted)
    newer = _reduction(["Post"], ["same " * 300, "new", ("H/a/",)])
    older = _reduction(["Post"], ["same " * 300, "old", ("H/b/",)])
    names_of(newer, older, "")
    assert len(made) == 1
    folded: list[str] = []

    class Word(str):
        def casefold(self) -> str:
            folded.append(str(self))
            return str.casefold(self)

    new = Counter({Word("w" + str(n)): 1 for n in range(300)} | {Word("wnew"): 1})
    old = Counter({Word("w" + str(n)): 1 for n in range(300)} | {Word("wold"): 1})
    assert edits._rewords(new, old)
    assert sorted(folded) == ["wnew", "wold"]  # (300 words on both sides: every one before)
