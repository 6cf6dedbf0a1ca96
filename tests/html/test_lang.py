"""<html lang>: read with a page's images (facts version 6), remembered in the state, and
compared as hreflang values are (sitemill.html.facts)."""

from __future__ import annotations

import pytest

import timing
from sitemill.html.facts import (
    PAGE_FACTS_BYTES,
    PageFacts,
    language_tag,
    read_html_lang,
    read_page_facts,
    with_images,
)
from sitemill.state._facts import facts_from_json, facts_to_json


@pytest.mark.parametrize(
    ("data", "lang"),
    [
        (b'<!doctype html><html lang="fr" dir="ltr"><head><title>t</title></head>', "fr"),
        (b"<!-- built --><HTML LANG=es-ES class=x><head>", "es-ES"),
        (b"\xef\xbb\xbf<html data-theme=dark lang=' de '><body>", "de"),
        (b'<html xml:lang="fr"><head>', ""),  # only lang counts (HTML, not XHTML's)
        (b"<!doctype html><html><head><title>t</title></head>", ""),
        (b"<head><title>t</title></head><body>", ""),  # no <html> tag at all
        (b'<p>text</p><html lang="de">', ""),  # a tag in the body is no document's
        (b'<html lang="en"><html lang="fr">', "en"),  # the first one
    ],
)
def test_the_documents_html_lang_is_read(data: bytes, lang: str) -> None:
    assert read_html_lang(data) == lang


@pytest.mark.parametrize(
    ("value", "tag"),
    [
        *[("en", "en"), ("EN-us", "en-US"), ("en_US", "en-US"), ("zh-hant", "zh-Hant")],
        *[("x-default", ""), ("klingon", ""), ("", ""), ("en-US-x-private", "")],
    ],
)
def test_languages_are_compared_as_hreflang_values(value: str, tag: str) -> None:
    assert language_tag(value) == tag


def test_the_lang_comes_with_the_images_and_is_remembered() -> None:
    data = b'<!doctype html><html lang="fr"><head><title>t</title></head><body><img src=a.png>'
    facts = read_page_facts(data)
    assert facts.lang == ""  # the head's facts alone do not read it
    facts = with_images(facts, data)
    assert (facts.images, facts.lang) == (("a.png",), "fr")
    assert facts_to_json(facts)["lang"] == "fr"
    assert facts_from_json(facts_to_json(facts)) == facts
    assert "lang" not in facts_to_json(PageFacts(images=()))  # the default is left out
    assert facts_from_json({"lang": 7}).lang == ""  # a value of the wrong type: none


ADVERSARIAL = {
    "an open html tag": lambda n: b"<!doctype html><html " + b"a " * (n // 2),
    "comments": lambda n: b"<!--" * (n // 4),
    "heads of links": lambda n: b"<html><head>" + b"<link rel=x href=y>" * (n // 19),
    "quotes": lambda n: b"<html lang='" + b"x" * n,
}


@pytest.mark.parametrize("shape", sorted(ADVERSARIAL))
def test_hostile_pages_take_linear_time(shape: str) -> None:
    make = ADVERSARIAL[shape]
    # Past the scanner's first look (a few KiB), eight times the bytes take about eight times
    # as long, 64 times if quadratic.
    two, sixteen = make(2 * PAGE_FACTS_BYTES), make(16 * PAGE_FACTS_BYTES)
    assert timing.linear(read_html_lang, two, sixteen, 20)
