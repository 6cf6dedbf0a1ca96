"""The pending URLs are written over what the store holds now (indexnow.pending.settled): what
was sent leaves, what another writer added or changed since the read stays."""

from __future__ import annotations

import pytest

from sitemill.indexnow.pending import settled


@pytest.mark.parametrize(
    ("read", "now", "kept", "written"),
    [
        # sent: a and b; c refused (kept); nothing new
        ({"a": "changed", "b": "added", "c": "changed"},
         {"a": "changed", "b": "added", "c": "changed"}, {"c": "changed"}, {"c": "changed"}),
        # a deploy meanwhile added d and changed b's kind: both stay
        ({"a": "changed", "b": "added"}, {"a": "changed", "b": "changed", "d": "added"},
         {}, {"b": "changed", "d": "added"}),
        # what is kept wins over the store's kind of the same URL
        ({"a": "changed"}, {"a": "removed"}, {"a": "changed"}, {"a": "changed"}),
        # nothing read (a store written without a read first): what is kept stands alone
        (None, {"a": "changed", "d": "added"}, {"b": "added"}, {"b": "added"}),
    ],
)  # fmt: skip
def test_what_was_sent_leaves_and_what_another_writer_added_stays(
    read: dict[str, str] | None, now: dict[str, str], kept: dict[str, str],
    written: dict[str, str],
) -> None:  # fmt: skip
    assert settled(read, now, kept) == written
