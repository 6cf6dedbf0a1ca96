"""The resemblance sketch (lastmod.fingerprint.resemblance): how much text two pages share."""

from __future__ import annotations

import random

import pytest

from sitemill.lastmod.fingerprint.resemblance import (
    MIN_PAIRS,
    SKETCH_LENGTH,
    is_sketch,
    resemblance,
    sketch_text,
)

WORDS = [f"w{n}" for n in range(5_000)]


def text(seed: int, words: int = 600) -> list[str]:
    chooser = random.Random(seed)
    return [chooser.choice(WORDS) for _ in range(words)]


def edited(words: list[str], share: float, seed: int) -> list[str]:
    chooser = random.Random(seed)
    return [chooser.choice(WORDS) if chooser.random() < share else word for word in words]


def test_the_same_text_is_the_same_sketch_and_resembles_fully() -> None:
    one = sketch_text(" ".join(text(1)))
    assert one is not None and len(one) == SKETCH_LENGTH and is_sketch(one)
    assert sketch_text(" ".join(text(1))) == one  # (no salted hash: the same in any process)
    assert resemblance(one, one) == 1.0


def test_case_and_spacing_do_not_count() -> None:
    words = text(2)
    assert sketch_text(" ".join(words)) == sketch_text("\n  ".join(word.upper() for word in words))


@pytest.mark.parametrize("seed", range(8))
def test_a_near_copy_resembles_and_an_unrelated_page_does_not(seed: int) -> None:
    words = text(seed)
    page = sketch_text(" ".join(words))
    near = sketch_text(" ".join(edited(words, 0.03, seed)))
    other = sketch_text(" ".join(text(seed + 100)))
    assert page is not None and near is not None and other is not None
    near_score, other_score = resemblance(page, near), resemblance(page, other)
    assert near_score is not None and other_score is not None
    assert near_score >= 0.6 > 0.3 >= other_score


def test_more_edits_resemble_less_on_average() -> None:
    scores = []
    for share in (0.0, 0.05, 0.2, 0.5):
        found = []
        for seed in range(10):
            words = text(seed)
            one, two = (
                sketch_text(" ".join(words)),
                sketch_text(" ".join(edited(words, share, seed))),
            )
            assert one is not None and two is not None
            found.append(resemblance(one, two) or 0.0)
        scores.append(sum(found) / len(found))
    assert scores == sorted(scores, reverse=True) and scores[0] == 1.0 and scores[-1] < 0.2


def test_too_little_text_has_no_sketch() -> None:
    assert sketch_text("") is None
    assert sketch_text(" ".join(text(3, MIN_PAIRS))) is None  # (MIN_PAIRS words: one pair fewer)
    assert sketch_text(" ".join(text(3, MIN_PAIRS + 1))) is not None


@pytest.mark.parametrize(
    "value", [None, 3, "", "1", "2" + "A" * 86, "1" + "A" * 85, "1" + "!" * 86, "1" + "A" * 87]
)
def test_a_value_that_is_no_sketch_is_refused(value: object) -> None:
    assert not is_sketch(value)
    if isinstance(value, str):
        assert resemblance(value, "1" + "A" * 86) is None


HAN = [chr(code) for code in range(0x4E00, 0x4E00 + 2_000)]


def test_a_chinese_page_is_read_character_by_character() -> None:
    chooser = random.Random(7)
    text = "".join(chooser.choice(HAN) for _ in range(400))  # (no space at all)
    one = sketch_text(text)
    edited = text[:200] + "丁" + text[201:]  # one character changed
    two = sketch_text(edited)
    other = sketch_text("".join(chooser.choice(HAN) for _ in range(400)))
    assert one is not None and two is not None and other is not None
    assert (resemblance(one, two) or 0) >= 0.9 > 0.3 >= (resemblance(one, other) or 0)
    assert sketch_text("中文" * 5) is None  # (one pair, repeated: a stub)


def test_a_mark_of_the_reduction_ends_a_word() -> None:
    words = text(4)
    assert sketch_text("\x01".join(words)) == sketch_text(" ".join(words))
