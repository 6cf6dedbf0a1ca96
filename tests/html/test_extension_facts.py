"""The extensions' page facts: alternates from the head, images from the body, in the state."""

from __future__ import annotations

import gzip
import json

import pytest

import timing
from sitemill.html.facts import (
    FACTS_VERSION,
    MAX_ALTERNATES,
    PageFacts,
    read_page_facts,
    with_images,
)
from sitemill.state.model import PageRecord, State, dump_state
from sitemill.state.parse import parse_state


def head(inner: str, body: str = "") -> bytes:
    page = f"<!doctype html><html><head><title>t</title>{inner}</head><body>{body}</body></html>"
    return page.encode()


@pytest.mark.parametrize(
    ("markup", "alternates"),
    [
        ('<link rel="alternate" hreflang="fr" href="/fr/">', (("fr", "/fr/"),)),
        ("<LINK REL=Alternate HREFLANG=de-AT HREF=../de/>", (("de-AT", "../de/"),)),
        ('<link hreflang="x-default" rel="alternate canonical" href=" / ">', ()),  # canonical
        ('<link rel="alternate" hreflang="fr" href="">', ()),  # no target
        ('<link rel="alternate" href="/feed.xml" type="application/rss+xml">', ()),  # a feed
        ('<link rel="alternate" hreflang="fr&#45;CA" href="/fr&amp;ca/">', (("fr-CA", "/fr&ca/"),)),
        ('<noscript><link rel="alternate" hreflang="fr" href="/fr/"></noscript>', ()),
        ('<template><link rel="alternate" hreflang="fr" href="/fr/"></template>', ()),
        ('<!-- <link rel="alternate" hreflang="fr" href="/fr/"> -->', ()),
    ],
)
def test_alternates_are_read_from_the_head(markup: str, alternates: object) -> None:
    assert read_page_facts(head(markup)).alternates == alternates


def test_alternates_in_the_body_do_not_count() -> None:
    data = head("", '<link rel="alternate" hreflang="fr" href="/fr/">')
    assert read_page_facts(data).alternates == ()


def test_a_relative_alternate_brings_the_base_href() -> None:
    facts = read_page_facts(
        head('<base href="/docs/"><link rel="alternate" hreflang="fr" href="fr/">')
    )
    assert facts.base == "/docs/"
    absolute = read_page_facts(
        head('<base href="/docs/"><link rel="alternate" hreflang="fr" href="https://x.org/">')
    )
    assert absolute.base is None


def test_a_hostile_head_takes_linear_time_and_keeps_at_most_max_alternates() -> None:
    links = '<link rel="alternate" hreflang="fr" href="/p/">' * 50_000
    facts = read_page_facts(head(links)[: 64 * 1024])
    assert timing.linear(read_page_facts, head(links)[: 8 * 1024], head(links)[: 64 * 1024], 20)
    assert len(facts.alternates) == MAX_ALTERNATES


def test_images_are_read_with_the_body_and_bring_the_base_href() -> None:
    data = head('<base href="/static/">', '<img src="a.png"><img src="https://x.org/b.png">')
    facts = with_images(read_page_facts(data), data)
    assert facts.images == ("a.png", "https://x.org/b.png")
    assert facts.base == "/static/"
    assert read_page_facts(data).images is None  # not read: unknown, not "none"


def test_the_state_keeps_alternates_and_images_and_tells_none_from_unread() -> None:
    state = State(
        {
            "a.html": PageRecord('"1"', PageFacts(alternates=(("fr", "/fr/"),), images=())),
            "b.html": PageRecord('"2"', PageFacts(images=("x.png", "y&z.png"))),
            "c.html": PageRecord('"3"', PageFacts()),
        }
    )
    data = dump_state(state)
    assert parse_state(data) == state
    assert dump_state(parse_state(data)) == data


@pytest.mark.parametrize(
    "facts",
    [
        {"alternates": "fr"},
        {"alternates": [["fr"], ["de", 3], "x"]},
        {"images": [1, 2]},
        {"images": "a.png"},
    ],
)
def test_a_hand_made_state_with_odd_facts_reads_as_nothing_or_unread(facts: object) -> None:
    document = {
        "format": "sitemill-state",
        "version": 1,
        "facts_version": FACTS_VERSION,
        "pages": {"a.html": {"etag": '"1"', "facts": facts}},
    }
    state = parse_state(gzip.compress(json.dumps(document).encode()))
    read = state.pages["a.html"].facts
    assert read is not None
    assert read.alternates == ()
    assert read.images is None
