"""The state's record of the llms files a run wrote (State.llms, issue 67): kept sorted through a
dump and a parse, absent when empty; a state is input from outside, so a record that names
anything but an llms file or a twin below the site, or holds a digest that is no MD5, is dropped
whole."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest

from sitemill.state.llmsfiles import MAX_LLMS_FILES, is_llms_file, llms_from_json
from sitemill.state.model import State, dump_state
from sitemill.state.parse import parse_state

DIGEST = "0123456789abcdef0123456789abcdef"
RECORD = {"llms.txt": DIGEST, "fr/llms.txt": DIGEST, "llms-full.txt": DIGEST,
          "docs/guide.html.md": DIGEST}  # fmt: skip


def document(state: State) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(gzip.decompress(dump_state(state)))
    return loaded


def test_the_record_goes_through_a_dump_and_a_parse_sorted() -> None:
    state = State(llms=dict(reversed(RECORD.items())))
    saved = document(state)
    assert list(saved["llms"]) == sorted(RECORD)
    assert parse_state(dump_state(state)).llms == RECORD
    assert "llms" not in document(State())


@pytest.mark.parametrize(
    "name",
    ["llms.txt", "fr/llms.txt", "a/b/llms.txt", "llms-full.txt", "index.html.md", "a/b.md"],
)
def test_llms_files_and_twins_below_the_root(name: str) -> None:
    assert is_llms_file(name)


@pytest.mark.parametrize(
    "name",
    ["", "index.html", "sitemap.xml", "fr/llms-full.txt", "../llms.txt", "/llms.txt",
     "a/../llms.txt", "./llms.txt", "a//b.md", ".hidden/llms.txt", "a/.b.md", "a\\b.md",
     "a/"],
)  # fmt: skip
def test_anything_else_is_no_llms_file(name: str) -> None:
    assert not is_llms_file(name)


@pytest.mark.parametrize(
    "value",
    [
        {**RECORD, "index.html": DIGEST},
        {**RECORD, "../x.md": DIGEST},
        {**RECORD, "llms.txt": "not-an-md5"},
        {**RECORD, "llms.txt": DIGEST.upper()},
        {**RECORD, "llms.txt": 5},
        ["llms.txt"],
        "llms.txt",
    ],
)
def test_a_record_with_one_wrong_entry_is_dropped_whole(value: object) -> None:
    assert llms_from_json(value) == {}
    saved = document(State(llms=RECORD))
    saved["llms"] = value
    assert parse_state(gzip.compress(json.dumps(saved).encode())).llms == {}


def test_a_record_too_long_is_dropped() -> None:
    many = {f"p{number}.html.md": DIGEST for number in range(MAX_LLMS_FILES + 1)}
    assert llms_from_json(many) == {}
    assert llms_from_json(dict(list(many.items())[:-1])) == dict(list(many.items())[:-1])
