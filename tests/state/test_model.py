"""The state file: round trips, deterministic bytes, and every way a state can be unusable."""

from __future__ import annotations

import contextlib
import gzip
import json
import random
import zlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemill.entries import SkipReason
from sitemill.errors import StateError
from sitemill.filenames.pagenames import is_page_name
from sitemill.html.facts import FACTS_VERSION, PageFacts
from sitemill.lastmod.fingerprint.digest import FINGERPRINT_VERSION
from sitemill.state import jsondecode, parse
from sitemill.state.model import STATE_FORMAT, STATE_VERSION, PageRecord, State, dump_state
from sitemill.state.parse import parse_state

FACTS = [
    PageFacts(),
    PageFacts(noindex=True),
    PageFacts(refresh="https://example.com/new/"),
    PageFacts(canonical="../a/", base="/root/"),
    PageFacts(document=False),
    PageFacts(noindex=True, refresh="x", canonical="y", base="z", document=True),
]


def sample() -> State:
    return State(
        {
            "index.html": PageRecord('"9b2cf535f27731c974343645a3985328"', FACTS[0]),
            "a/noindex.html": PageRecord('"d41d8cd98f00b204e9800998ecf8427e-2"', FACTS[1]),
            "old/index.html": PageRecord("etag-3", FACTS[2]),
            "p/2/index.html": PageRecord("etag-4", FACTS[3]),
            "_static/macros.html": PageRecord("etag-5", FACTS[4]),
            "all.html": PageRecord("etag-6", FACTS[5]),
        }
    )


def document(data: bytes) -> Any:
    return json.loads(gzip.decompress(data))


def pack(value: Any) -> bytes:
    return gzip.compress(json.dumps(value).encode(), mtime=0)


def header(**pages: Any) -> dict[str, Any]:
    return {
        "format": STATE_FORMAT,
        "version": STATE_VERSION,
        "facts_version": FACTS_VERSION,
        "fingerprint_version": FINGERPRINT_VERSION,
        "fingerprint_scope": "main",
        "pages": pages,
    }


def test_round_trip() -> None:
    state = sample()
    assert parse_state(dump_state(state)) == state


def test_the_same_state_gives_the_same_bytes() -> None:
    state = sample()
    reordered = State(dict(reversed(list(state.pages.items()))))
    assert dump_state(state) == dump_state(state) == dump_state(reordered)
    assert dump_state(parse_state(dump_state(state))) == dump_state(state)
    assert dump_state(State()) == dump_state(State())


def test_the_bytes_are_gzip_with_no_time_in_them() -> None:
    data = dump_state(sample())
    assert data[:2] == b"\x1f\x8b"
    assert data[4:8] == b"\0\0\0\0"  # mtime 0


def test_defaults_are_left_out() -> None:
    pages = document(dump_state(sample()))["pages"]
    assert pages["index.html"] == {"etag": '"9b2cf535f27731c974343645a3985328"', "facts": {}}
    assert pages["a/noindex.html"]["facts"] == {"noindex": True}
    assert pages["_static/macros.html"]["facts"] == {"document": False}
    assert pages["p/2/index.html"]["facts"] == {"canonical": "../a/", "base": "/root/"}


def test_the_header() -> None:
    assert document(dump_state(State())) == header()


@pytest.mark.parametrize(
    "path",
    [
        "caf\udce9.html",  # a name that is not UTF-8 (os.fsdecode's surrogate escapes)
        "\udcff\udcfe/index.html",
        "日本語/ページ.html",
        "a b/c%20d.html",
        'quote"and.html',
        "\u2028.html",
    ],
)
def test_odd_paths_round_trip(path: str) -> None:
    state = State({path: PageRecord("e", PageFacts(canonical="\u00e9/\U0001f600"))})
    data = dump_state(state)
    assert parse_state(data) == state
    data.decode("latin-1")  # (bytes of any kind)


def test_unknown_fields_are_ignored() -> None:
    value = header(**{"a.html": {"etag": "e", "facts": {"noindex": True, "future": 1}, "x": 2}})
    value["comment"] = "written by a later sitemill of the same format"
    assert parse_state(pack(value)).pages == {"a.html": PageRecord("e", PageFacts(noindex=True))}


@pytest.mark.parametrize("facts_version", [0, FACTS_VERSION - 1, FACTS_VERSION + 1, None, "1"])
def test_facts_of_another_version_are_read_again_and_dates_kept(facts_version: object) -> None:
    record = {"etag": "e", "facts": {"noindex": True}, "fingerprint": "f", "lastmod": "2024-01-02"}
    value = header(**{"a.html": record})
    value["facts_version"] = facts_version
    assert parse_state(pack(value)).pages == {"a.html": PageRecord("e", None, "f", "2024-01-02")}


OUTDATED = [FINGERPRINT_VERSION - 4, 1, 0, -1, FINGERPRINT_VERSION + 1, None, "1", True]


@pytest.mark.parametrize("version", OUTDATED)
def test_fingerprints_of_another_version_are_not_compared(version: object) -> None:
    # Only the current and the three previous versions stay computable: a page of any other is known
    # by its bytes alone (its ETag; a file that is not HTML, by its fingerprint: its bytes').
    value = header(
        **{
            "a.html": {"etag": "e", "fingerprint": "f", "lastmod": "2024-01-02"},
            "b.pdf": {"etag": "p", "fingerprint": "version:p", "lastmod": "2024-01-03"},
        }
    )
    value["fingerprint_version"] = version
    state = parse_state(pack(value))
    assert state.pages == {
        "a.html": PageRecord("e", None, None, "2024-01-02"),
        "b.pdf": PageRecord("p", None, "version:p", "2024-01-03"),
    }
    assert state.outdated and state.fingerprint_version != FINGERPRINT_VERSION


@pytest.mark.parametrize("version", [FINGERPRINT_VERSION, FINGERPRINT_VERSION - 1])
def test_fingerprints_of_the_current_and_the_previous_version_are_compared(version: int) -> None:
    value = header(**{"a.html": {"etag": "e", "fingerprint": "f", "lastmod": "2024-01-02"}})
    value["fingerprint_version"] = version
    state = parse_state(pack(value))
    assert state.pages == {"a.html": PageRecord("e", None, "f", "2024-01-02")}
    assert (state.fingerprint_version, state.outdated) == (version, False)


@pytest.mark.parametrize("version", [STATE_VERSION + 1, 99, "1", None, 1.5])
def test_a_newer_or_unknown_format_version_is_an_error(version: object) -> None:
    value = header()
    value["version"] = version
    with pytest.raises(StateError):
        parse_state(pack(value))


@pytest.mark.parametrize(
    "value",
    [
        {},
        [],
        "sitemill-state",
        None,
        42,
        {"format": "other", "version": 1, "pages": {}},
        {"version": 1, "pages": {}},
        {"format": STATE_FORMAT, "version": 1},  # no pages
        {"format": STATE_FORMAT, "version": 1, "pages": []},
        {"format": STATE_FORMAT, "version": 1, "pages": "x"},
        {"format": STATE_FORMAT, "version": 1, "facts_version": FACTS_VERSION, "pages": {"a": 1}},
        {"format": STATE_FORMAT, "version": 1, "facts_version": FACTS_VERSION, "pages": {"a": []}},
    ],
)
def test_foreign_json_is_an_error(value: Any) -> None:
    with pytest.raises(StateError):
        parse_state(pack(value))


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"{}",  # JSON, but not gzip
        b"\x1f\x8b",
        b"\x1f\x8b\x08\x00garbage",
        gzip.compress(b"not json", mtime=0),
        gzip.compress(b"\xff\xfe{}", mtime=0),  # not UTF-8
        gzip.compress(b"[" * 100_000, mtime=0),  # nested too deep for json
        gzip.compress(json.dumps(header()).encode(), mtime=0)[:-9],  # cut off
        gzip.compress(json.dumps(header()).encode(), mtime=0)[:20],
        bytes(random.Random(179).getrandbits(8) for _ in range(64)),  # fixed: one id per run
        zlib.compress(json.dumps(header()).encode()),  # zlib, not gzip
    ],
)
def test_unreadable_bytes_are_an_error(data: bytes) -> None:
    with pytest.raises(StateError):
        parse_state(data)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_give_a_state_or_a_state_error(data: bytes) -> None:
    with contextlib.suppress(StateError):
        assert isinstance(parse_state(data), State)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_any_gzip_gives_a_state_or_a_state_error(data: bytes) -> None:
    with contextlib.suppress(StateError):
        assert isinstance(parse_state(gzip.compress(data)), State)


def test_a_gzip_bomb_stops_at_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsondecode, "MAX_STATE_BYTES", 1024 * 1024)
    bomb = gzip.compress(b" " * (64 * 1024 * 1024), compresslevel=9)  # 64 MiB of spaces
    assert len(bomb) < 100_000
    inflated: list[int] = []  # what zlib inflated, call by call
    decompressobj = zlib.decompressobj

    class Counted:
        def __init__(self, *args: Any) -> None:
            self.inner = decompressobj(*args)

        def decompress(self, data: bytes, max_length: int = 0) -> bytes:
            out = self.inner.decompress(data, max_length)
            inflated.append(len(out))
            return out

        def __getattr__(self, name: str) -> Any:
            return getattr(self.inner, name)

    monkeypatch.setattr(zlib, "decompressobj", Counted)
    with pytest.raises(StateError, match="larger than 1 MiB"):
        parse_state(bomb)
    assert 0 < sum(inflated) <= 1024 * 1024 + 1  # not one byte more than the limit tells


def test_a_state_just_under_the_limit_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    data = json.dumps(header()).encode()
    monkeypatch.setattr(jsondecode, "MAX_STATE_BYTES", len(data))
    assert parse_state(gzip.compress(data)) == State()
    monkeypatch.setattr(jsondecode, "MAX_STATE_BYTES", len(data) - 1)
    with pytest.raises(StateError):
        parse_state(gzip.compress(data))


def test_trailing_bytes_after_the_gzip_stream_are_ignored() -> None:
    data = dump_state(sample()) + b"\n"
    assert parse_state(data) == sample()


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        ({"etag": "e"}, PageRecord("e")),  # no facts: an ordinary page
        ({"etag": "e", "facts": {}}, PageRecord("e", PageFacts())),
        ({"etag": 5, "facts": {}}, PageRecord(None, PageFacts())),  # no version: read again
        ({"etag": None}, PageRecord(None)),
        ({"facts": {"noindex": True}}, PageRecord(None, PageFacts(noindex=True))),
        ({"etag": "e", "facts": None}, PageRecord("e")),
        ({"etag": "e", "facts": []}, PageRecord("e")),
        ({"etag": "e", "facts": "noindex"}, PageRecord("e")),
        ({"etag": "e", "fingerprint": 5, "lastmod": ["x"]}, PageRecord("e")),
        ({"etag": "e", "facts": {"noindex": "yes"}}, PageRecord("e", PageFacts())),
        ({"etag": "e", "facts": {"noindex": 1}}, PageRecord("e", PageFacts())),
        ({"etag": "e", "facts": {"document": 0}}, PageRecord("e", PageFacts())),
        ({"etag": "e", "facts": {"canonical": 5}}, PageRecord("e", PageFacts())),
        ({"etag": "e", "facts": {"refresh": ["x"]}}, PageRecord("e", PageFacts())),
        ({"etag": "e", "facts": {"base": {"a": 1}}}, PageRecord("e", PageFacts())),
        ({"etag": "e", "facts": {"refresh": None}}, PageRecord("e", PageFacts())),
        (
            {"etag": "e", "facts": {"canonical": "/a/", "noindex": False}},
            PageRecord("e", PageFacts(canonical="/a/")),
        ),
    ],
)
def test_wrong_types_inside_a_record(record: dict[str, Any], expected: PageRecord | None) -> None:
    state = parse_state(pack(header(**{"a.html": record, "b.html": {"etag": "ok"}})))
    assert state.pages.get("a.html") == expected
    assert state.pages["b.html"] == PageRecord("ok")


def test_facts_are_remembered_per_version() -> None:
    state = sample()
    assert state.facts("a/noindex.html", '"d41d8cd98f00b204e9800998ecf8427e-2"') == FACTS[1]
    assert state.facts("a/noindex.html", '"other"') is None
    assert state.facts("a/noindex.html", None) is None
    assert state.facts("missing.html", "etag-3") is None


@settings(max_examples=100, deadline=None)
@given(
    st.dictionaries(
        st.text(max_size=20).filter(is_page_name),  # (any other is dropped: the test below)
        st.builds(
            PageRecord,
            # ETags as S3 gives them: printable ASCII (anything else is dropped, see below)
            st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), min_size=1, max_size=20),
            st.builds(
                PageFacts,
                st.booleans(),
                st.none() | st.text(max_size=10),
                st.none() | st.text(max_size=10),
                st.none() | st.text(max_size=10),
                st.booleans(),
            ),
        ),
        max_size=10,
    )
)
def test_any_state_round_trips(pages: dict[str, PageRecord]) -> None:
    state = State(pages)
    data = dump_state(state)
    assert parse_state(data) == state
    assert dump_state(parse_state(data)) == data


@pytest.mark.parametrize(
    "name",
    ["a\\b.html", "new\nline.html", "x\x00.html", "x%00.html", "../a.html", "/a.html", "a//b.html"],
)
def test_a_page_name_that_is_no_page_of_the_site_is_dropped_and_counted(name: str) -> None:
    """Issue 78: a backslash, a newline, NUL (or %00), a way out, an absolute path, an empty
    segment: no page of this site. Dropped, counted once with an example, the rest kept."""
    value = header(**{name: {"etag": "e"}, "a.html": {"etag": "e"}})
    state = parse_state(pack(value))
    assert list(state.pages) == ["a.html"]
    assert (state.strangers, state.stranger_example) == (1, name)


@pytest.mark.parametrize("etag", ["", "\n", "tab\there", "é", "x" * 1101, 7, None])
def test_an_etag_that_no_store_gives_is_dropped_and_the_page_read_again(etag: Any) -> None:
    value = header(**{"a.html": {"etag": etag, "facts": {"noindex": True}}})
    assert parse_state(pack(value)).pages["a.html"].version is None


def test_a_page_left_out_is_remembered_by_etag_without_a_url_of_another_page() -> None:
    copy = PageFacts(canonical="/about.html")
    with_links = PageFacts(canonical="/about.html", alternates=(("fr", "/draft-fr.html"),))
    with_images = PageFacts(canonical="/about.html", images=("/drafts/secret.png",))
    state = State(
        pages={
            "noindex.html": PageRecord('"e1"', PageFacts(noindex=True, alternates=(("de", "/x"),))),
            "copy.html": PageRecord('"e2"', copy),
            "linked.html": PageRecord('"e3"', with_links),
            "pictured.html": PageRecord('"e4"', with_images),
            "unread.html": PageRecord('"e5"', None),
        }
    )
    state.forget("noindex.html", SkipReason.NOINDEX)
    state.forget("copy.html", SkipReason.CANONICAL)
    state.forget("linked.html", SkipReason.CANONICAL)
    state.forget("pictured.html", SkipReason.DUPLICATE)
    state.forget("unread.html", SkipReason.CANONICAL)
    state.forget("never-seen.html", SkipReason.EXCLUDED)
    assert state.pages == {}
    assert state.unlisted == {'"e1"': SkipReason.NOINDEX, '"e2"': copy}
    text = gzip.decompress(dump_state(state)).decode()
    for name in ("noindex.html", "copy", "linked", "pictured", "draft", "secret", "/x"):
        assert name not in text


BLOB = "h" + "ab" * 20
FINGERPRINT = "0f" * 16


@pytest.mark.parametrize(
    "blobs",
    [
        "not a table",
        {"key": "nothex", "fingerprints": {BLOB: FINGERPRINT}},
        {"key": FINGERPRINT, "fingerprints": {"x" + BLOB[1:]: FINGERPRINT}},  # no kind
        {"key": FINGERPRINT, "fingerprints": {"e" + "ab" * 20 + "-0123abcd": FINGERPRINT}},
        {"key": FINGERPRINT, "fingerprints": {BLOB: "../../etc"}},
        {"key": FINGERPRINT, "fingerprints": {BLOB: 7}},
        {"key": FINGERPRINT, "fingerprints": [BLOB]},
        {"fingerprints": {BLOB: FINGERPRINT}},
    ],
)
def test_a_malformed_blob_table_is_ignored_whole(blobs: object) -> None:
    document = {**header(), "blobs": blobs}
    state = parse_state(gzip.compress(json.dumps(document).encode()))
    assert state.blobs == {} and state.blob_key == ""


def test_the_blob_table_round_trips_and_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    edit = "e" + "ab" * 40 + "-0123abcd"  # (two blobs' edit: history.edits.edit_key)
    blobs = {BLOB: FINGERPRINT, "b" + "cd" * 32: FINGERPRINT, edit: FINGERPRINT}
    state = State(blobs=blobs, blob_key=FINGERPRINT)
    assert parse_state(dump_state(state)) == state
    monkeypatch.setattr(parse, "MAX_BLOBS", 2)
    assert parse_state(dump_state(state)).blobs == {}
