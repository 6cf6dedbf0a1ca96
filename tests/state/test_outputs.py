"""The state's list of sitemill's own files: what a later run deletes when no index names them.
A state is input from outside: its list never makes sitemill delete a page or a user's file."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest

from sitemill.html.facts import FACTS_VERSION
from sitemill.lastmod.fingerprint.digest import FINGERPRINT_VERSION
from sitemill.state.model import MAX_OUTPUTS, STATE_FORMAT, STATE_VERSION, State, dump_state
from sitemill.state.parse import parse_state
from sitemill.state.start import start_state

OWN = ["sitemap-1.xml", "sitemap-2-next-20261123101500-1a2b3c.xml.gz", "sitemap.xml"]


def pack(outputs: Any) -> bytes:
    document = {
        "format": STATE_FORMAT,
        "version": STATE_VERSION,
        "facts_version": FACTS_VERSION,
        "fingerprint_version": FINGERPRINT_VERSION,
        "pages": {},
        "outputs": outputs,
    }
    return gzip.compress(json.dumps(document).encode(), mtime=0)


def test_outputs_round_trip_sorted_and_are_left_out_when_none() -> None:
    state = State({}, frozenset(reversed(OWN)))
    data = dump_state(state)
    assert json.loads(gzip.decompress(data))["outputs"] == OWN
    assert parse_state(data).outputs == frozenset(OWN)
    assert "outputs" not in json.loads(gzip.decompress(dump_state(State())))


@pytest.mark.parametrize(
    "hostile",
    [
        "index.html",  # a page
        "docs/sitemap-1.xml",  # not beside the sitemaps
        "../sitemap-1.xml",
        "/etc/passwd",
        "sitemill-state.json.gz",  # the state itself
        "robots.txt",
        "sitemap-0.xml",
        "sitemap-1.xml\n",
        "sitemap-1.html",
        "Sitemap-1.xml",
        "sitemap-index-1.xml.gz",
    ],
)
def test_a_name_that_is_not_sitemills_own_file_is_dropped(hostile: str) -> None:
    assert parse_state(pack([hostile, "sitemap-3.xml"])).outputs == {"sitemap-3.xml"}


@pytest.mark.parametrize(
    "value", [None, "sitemap-1.xml", {"sitemap-1.xml": 1}, [1, None, ["sitemap-1.xml"]], 7]
)
def test_outputs_of_the_wrong_shape_are_none(value: Any) -> None:
    assert parse_state(pack(value)).outputs == frozenset()


def test_a_list_longer_than_sitemill_ever_writes_is_none() -> None:
    names = [f"sitemap-{n}.xml" for n in range(1, MAX_OUTPUTS + 2)]
    assert parse_state(pack(names)).outputs == frozenset()
    assert len(parse_state(pack(names[:MAX_OUTPUTS])).outputs) == MAX_OUTPUTS


class Store:
    def __init__(self, data: bytes | None) -> None:
        self.data = data
        self.where = "sitemill-state.json.gz"

    def read(self) -> bytes | None:
        return self.data

    def write(self, data: bytes) -> bool:
        self.data = data
        return True


class Previous:
    location = "https://example.com/sitemill-state.json.gz"

    def __init__(self, data: bytes) -> None:
        self.data = data

    def read(self) -> bytes | None:
        return self.data


def test_only_the_states_own_place_names_files_to_delete() -> None:
    # The live site's copy (previous_state) gives dates, never names for deletion: whoever
    # answers at the base URL must not decide what sitemill deletes in the output folder.
    borrowed = start_state(Store(None), Previous(pack(OWN)))
    assert (borrowed.state.outputs, borrowed.first_run) == (frozenset(), False)
    own = start_state(Store(pack(OWN)), Previous(pack(["sitemap-9.xml"])))
    assert own.state.outputs == frozenset(OWN)


# --- the digest of each published file (what tells, in a bucket, whose file is live) ------

DIGEST = "0cc175b9c0f1b6a831c399e269772661"


def pack_digests(digests: Any) -> bytes:
    document = json.loads(gzip.decompress(pack(OWN)))
    document["digests"] = digests
    return gzip.compress(json.dumps(document).encode(), mtime=0)


def test_digests_round_trip_and_are_left_out_when_none() -> None:
    state = State({}, frozenset(OWN), digests={"sitemap.xml": DIGEST, "sitemap-1.xml": DIGEST})
    data = dump_state(state)
    assert json.loads(gzip.decompress(data))["digests"] == {
        "sitemap-1.xml": DIGEST,
        "sitemap.xml": DIGEST,
    }
    assert parse_state(data).digests == state.digests
    assert "digests" not in json.loads(gzip.decompress(dump_state(State())))


@pytest.mark.parametrize(
    "hostile",
    [
        {"sitemap.xml": DIGEST.upper()},
        {"sitemap.xml": DIGEST + "0"},
        {"sitemap.xml": 12},
        {"sitemap-7.xml": DIGEST},  # a name the outputs do not hold
        {"index.html": DIGEST},
        [DIGEST],
        {f"sitemap-{n}.xml": DIGEST for n in range(1, MAX_OUTPUTS + 2)},
    ],
)
def test_a_digests_table_not_well_formed_is_no_record(hostile: Any) -> None:
    # (No record: the function's next notified write of sitemap.xml is one rebuild.)
    assert parse_state(pack_digests(hostile)).digests == {}
