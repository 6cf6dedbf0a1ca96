"""The state keeps a listed page's description and site name beside its title, and no label
of a page the sitemaps leave out."""

from __future__ import annotations

from tests.state.test_model import document, header, pack

from sitemill.entries import SkipReason
from sitemill.html.facts import PageFacts
from sitemill.html.title import MAX_LABEL_CHARS
from sitemill.state.model import PageRecord, State, dump_state
from sitemill.state.parse import parse_state

LABELLED = PageFacts(title="Guide", description="How to & why", site_name="Docs")


def test_labels_round_trip() -> None:
    state = State({"guide.html": PageRecord("etag-1", LABELLED)})
    assert parse_state(dump_state(state)) == state
    facts = document(dump_state(state))["pages"]["guide.html"]["facts"]
    assert facts == {"title": "Guide", "description": "How to & why", "site_name": "Docs"}


def test_a_page_read_without_labels_keeps_none() -> None:
    state = State({"a.html": PageRecord("etag-1", PageFacts(title="A"))})
    assert parse_state(dump_state(state)).pages["a.html"].facts == PageFacts(title="A")


def test_a_label_sitemill_would_not_have_kept_is_not_read() -> None:
    too_long = "x" * (MAX_LABEL_CHARS + 1)
    page = {"etag": "e", "facts": {"title": "A", "description": too_long, "site_name": 3}}
    facts = parse_state(pack(header(**{"a.html": page}))).pages["a.html"].facts
    assert facts == PageFacts(title="A")  # (None: read again when a label is needed)


def test_a_page_left_out_keeps_no_label() -> None:
    state = State({"dup.html": PageRecord("etag-1", LABELLED)})
    state.forget("dup.html", SkipReason.CANONICAL)
    assert state.unlisted == {"etag-1": PageFacts()}
