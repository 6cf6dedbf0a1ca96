"""An index child's date (sitemill.writing.childdates): kept while its bytes are the ones
remembered, this run's when they changed, bounded by the run and its newest page; and its
record in the state, read as untrusted input like every remembered date."""

from __future__ import annotations

import gzip
import json
from datetime import UTC, datetime
from typing import Any

import pytest

from sitemill.protocol import Precision
from sitemill.state.model import State, dump_state
from sitemill.state.parse import parse_state
from sitemill.writing.childdates import ChildDates, bounded_date

RUN = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
HEAD = datetime(2026, 4, 30, 8, 0, tzinfo=UTC)
KEPT = "2025-01-02T03:04:05+00:00"
DIGEST = "0" * 32


class Asked:
    """This run's date, counting how often it is asked (in a tree: a git command each)."""

    def __init__(self, moment: datetime = HEAD) -> None:
        self.moment, self.count = moment, 0

    def __call__(self) -> datetime:
        self.count += 1
        return self.moment


def dates_of(
    written: dict[str, str] | None, asked: Asked, precision: Precision = Precision.DATETIME
) -> ChildDates:
    return ChildDates({"sitemap-1.xml": DIGEST}.get, written, asked, RUN, precision)


def test_a_child_with_the_bytes_remembered_keeps_its_date_and_asks_nothing() -> None:
    asked = Asked()
    dates = dates_of({"sitemap-1.xml": KEPT}, asked)
    assert dates.date("sitemap-1.xml", DIGEST, "2024-01-01T00:00:00+00:00") == KEPT
    assert asked.count == 0  # (a second run with nothing new starts no git command)
    assert dates.kept(["sitemap-1.xml", "sitemap.xml"]) == {"sitemap-1.xml": KEPT}


@pytest.mark.parametrize(
    ("name", "digest"),
    [("sitemap-1.xml", "1" * 32), ("sitemap-2.xml", DIGEST), ("sitemap-1.xml", "")],
    ids=["other bytes", "another name", "no digest taken"],
)
def test_a_child_that_changed_takes_this_runs_date_asked_once(name: str, digest: str) -> None:
    asked = Asked()
    dates = dates_of({"sitemap-1.xml": KEPT}, asked)
    assert dates.date(name, digest, None) == "2026-04-30T08:00:00+00:00"
    assert dates.date("sitemap-9.xml", DIGEST, None) == "2026-04-30T08:00:00+00:00"
    assert asked.count == 1


def test_a_state_of_an_earlier_sitemill_keeps_the_newest_page_for_the_same_bytes() -> None:
    asked = Asked()
    dates = dates_of(None, asked)  # (digests, but no dates: the old rule's is live)
    assert dates.date("sitemap-1.xml", DIGEST, "2024-01-01") == "2024-01-01"
    assert dates.date("sitemap-1.xml", DIGEST, None) == "2026-04-30T08:00:00+00:00"
    assert dates_of({}, Asked()).date("sitemap-1.xml", DIGEST, "2024-01-01") != "2024-01-01"


def test_never_after_the_run_never_before_the_newest_page() -> None:
    later = Asked(datetime(2030, 1, 1, tzinfo=UTC))  # (a HEAD committed by a clock ahead)
    assert dates_of({}, later).date("a", "", None) == "2026-05-01T12:00:00+00:00"
    newer = "2026-05-01T10:00:00+00:00"  # (a page changed after HEAD: a file time)
    assert dates_of({}, Asked()).date("a", "", newer) == newer
    assert dates_of({"sitemap-1.xml": KEPT}, Asked()).date("sitemap-1.xml", DIGEST, newer) == newer
    assert bounded_date("2026-05-02", None, "2026-05-01T12:00:00+00:00") == (
        "2026-05-01T12:00:00+00:00"
    )


def test_written_with_the_precision() -> None:
    dates = dates_of({"sitemap-1.xml": KEPT}, Asked(), Precision.DATE)
    assert dates.date("sitemap-1.xml", DIGEST, None) == "2025-01-02"
    assert dates.date("sitemap-2.xml", DIGEST, "2026-01-01") == "2026-04-30"


def document(**values: Any) -> bytes:
    base = json.loads(gzip.decompress(dump_state(State())))
    return gzip.compress(json.dumps(base | values).encode())


def test_the_state_keeps_the_dates_deterministically_and_only_when_there_are_some() -> None:
    assert b"written" not in gzip.decompress(dump_state(State(written={})))
    names = frozenset({"sitemap-2.xml", "sitemap-1.xml"})
    state = State(outputs=names, written={"sitemap-2.xml": KEPT, "sitemap-1.xml": "2024-01-01"})
    data = dump_state(state)
    assert b'"written":{"sitemap-1.xml":"2024-01-01","sitemap-2.xml"' in gzip.decompress(data)
    assert parse_state(data, RUN).written == state.written
    assert parse_state(dump_state(State()), RUN).written is None  # (no record: an earlier one)


@pytest.mark.parametrize(
    "date",
    ["2999-01-01", "2026-05-02T00:00:00+00:00", "yesterday", "2024-02-30", 20240101, None, []],
)
def test_a_date_a_remembered_lastmod_may_not_be_is_refused(date: object) -> None:
    outputs = ["sitemap-1.xml", "sitemap-2.xml"]
    data = document(outputs=outputs, written={"sitemap-1.xml": date, "sitemap-2.xml": KEPT})
    state = parse_state(data, RUN)
    assert state.written == {"sitemap-2.xml": KEPT} and state.refused == 1


@pytest.mark.parametrize("written", [["sitemap-1.xml"], "x", {f"s{n}": KEPT for n in range(3)}])
def test_a_record_that_is_no_table_of_own_children_gives_no_date(written: object) -> None:
    data = document(outputs=["sitemap-1.xml"], written=written)
    # (names the outputs do not list, a page's among them, are never kept: the state is public)
    assert parse_state(data, RUN).written == {}
