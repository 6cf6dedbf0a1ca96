"""A dated page's record remembers the root evidence of its date (lastmod.proof): its rung, the
commit for the git rungs (by its number in the state's sorted table of full hashes), the
declaration for a declared date, never a file's name; read back only when well formed (a state is
input from outside), and an older record without it reads as not recorded."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest

from sitemill.html.facts import FACTS_VERSION
from sitemill.lastmod.fingerprint.digest import FINGERPRINT_VERSION
from sitemill.lastmod.proof import Proof, Rung
from sitemill.state.model import STATE_FORMAT, STATE_VERSION, PageRecord, State, dump_state
from sitemill.state.parse import parse_state

SHA1, SHA256 = "3f2a9c1e07" * 4, "ab" * 32
DATE = "2024-01-05T10:00:00+00:00"
PROOFS = [
    Proof(Rung.GIT),
    Proof(Rung.GIT, SHA256),
    Proof(Rung.SOURCE, SHA1),
    Proof(Rung.DECLARED, kind="JSON-LD dateModified"),
    Proof(Rung.FILE_TIME),
    Proof(Rung.DEPLOY),
]


def pages(data: bytes) -> Any:
    return json.loads(gzip.decompress(data))["pages"]


def state_of(evidence: object, lastmod: str | None = DATE, commits: object = (SHA1,)) -> bytes:
    record: dict[str, Any] = {"fingerprint": "f" * 32, "evidence": evidence}
    if lastmod is not None:
        record["lastmod"] = lastmod
    document = {
        "format": STATE_FORMAT,
        "version": STATE_VERSION,
        "facts_version": FACTS_VERSION,
        "fingerprint_version": FINGERPRINT_VERSION,
        "pages": {"a.html": record},
        "commits": list(commits) if isinstance(commits, tuple) else commits,
    }
    return gzip.compress(json.dumps(document).encode(), mtime=0)


@pytest.mark.parametrize("proof", PROOFS, ids=lambda proof: str(proof))
def test_a_proof_round_trips_in_the_same_bytes(proof: Proof) -> None:
    state = State({"a.html": PageRecord(None, None, "f" * 32, DATE, proof)})
    data = dump_state(state)
    assert parse_state(data) == state
    assert dump_state(parse_state(data)) == data
    assert set(pages(data)["a.html"]["evidence"]) <= {"rung", "commit", "kind"}  # no file name


def test_a_commit_that_dates_many_pages_is_written_once() -> None:
    proofs = {"a.html": Proof(Rung.SOURCE, SHA1), "b.html": Proof(Rung.SOURCE, SHA256)}
    proofs |= {"c.html": Proof(Rung.SOURCE, SHA1), "d.html": Proof(Rung.DECLARED)}
    state = State({path: PageRecord(None, None, "f" * 32, DATE, p) for path, p in proofs.items()})
    document = json.loads(gzip.decompress(dump_state(state)))
    assert document["commits"] == [SHA1, SHA256]
    assert [document["pages"][p]["evidence"].get("commit") for p in sorted(proofs)] == [
        0,
        1,
        0,
        None,
    ]
    assert parse_state(dump_state(state)) == state


def test_a_record_without_a_date_keeps_no_proof() -> None:
    data = dump_state(State({"a.html": PageRecord(None, None, "f" * 32, None, Proof(Rung.DEPLOY))}))
    assert pages(data)["a.html"] == {"fingerprint": "f" * 32}
    assert parse_state(state_of({"rung": "deploy"}, lastmod=None)).pages["a.html"].proof is None


def test_an_older_record_has_no_proof() -> None:
    older = State({"a.html": PageRecord(None, None, "f" * 32, DATE)})
    assert "evidence" not in pages(dump_state(older))["a.html"]
    assert parse_state(dump_state(older)).pages["a.html"].proof is None


@pytest.mark.parametrize(
    "evidence",
    [
        "source",
        ["source"],
        {"rung": ["source"]},
        {"rung": "page"},
        {"rung": "source", "commit": "--output=/tmp/x"},
        {"rung": "source", "commit": SHA1},  # (a number in the table, not a hash)
        {"rung": "source", "commit": 1},
        {"rung": "source", "commit": -1},
        {"rung": "source", "commit": True},
        {"rung": "declared", "commit": 0},
        {"rung": "declared", "kind": "\x1b]52;c;evil\x07"},
        {"rung": "declared", "kind": "x" * 65},
        {"rung": "declared", "kind": ["meta article:modified_time"]},
        {"rung": "source", "kind": "JSON-LD dateModified"},
        {"rung": "source", "commit": 0, "source": "drafts/secret.md"},
    ],
)
def test_a_malformed_proof_is_dropped_and_the_date_kept(evidence: object) -> None:
    assert parse_state(state_of({"rung": "source", "commit": 0})).pages["a.html"].proof == (
        Proof(Rung.SOURCE, SHA1)
    )
    record = parse_state(state_of(evidence)).pages["a.html"]
    assert (record.lastmod, record.proof) == (DATE, None)


@pytest.mark.parametrize(
    "commits", ["3f2a", [SHA1.upper()], [SHA1[:-1]], [SHA1, "--all"], [["x"]], {"0": SHA1}]
)
def test_a_malformed_table_of_commits_names_none(commits: object) -> None:
    record = parse_state(state_of({"rung": "source", "commit": 0}, commits=commits)).pages["a.html"]
    assert (record.lastmod, record.proof) == (DATE, None)
