"""A URL list's lastmod after the run's time is dropped from its line, with one warning; the
URL stays listed (docs/lastmod.md, "No date from the future")."""

from __future__ import annotations

import io
import re

import pytest

from outputlist import build_from_url_list
from sitemill.config.model import load_config
from sitemill.report import Report
from sitemill.sinks import MemorySink
from xsd import assert_xsd_valid

BASE = "https://example.com/"
URL = re.compile(rb"<url><loc>(.*?)</loc>(?:<lastmod>(.*?)</lastmod>)?")


def build(text: str, **values: object) -> tuple[dict[str, str | None], Report]:
    sink = MemorySink()
    config = load_config({"base_url": BASE, **values})
    report = build_from_url_list(config, io.BytesIO(text.encode()), sink, name="urls.txt")
    data = sink.files["sitemap.xml"]
    assert_xsd_valid(data)
    found = {
        loc.decode().removeprefix(BASE): stamp.decode() or None for loc, stamp in URL.findall(data)
    }
    return found, report


# Every line URL<TAB>canonical lastmod: the plain chunk, taken whole; a comment: line by line.
PLAIN = "https://example.com/a\t2024-01-01T00:00:00+00:00\nhttps://example.com/b\t2099-01-01T00:00:00Z\n"


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (PLAIN, {}),
        ("# made by hand\n" + PLAIN, {}),
        (PLAIN, {"rules": [{"pattern": "/b", "priority": 0.5}]}),
        (PLAIN.replace("2099-01-01T00:00:00Z", "9999-12-31T23:59:59-05:00"), {}),  # (OverflowError)
        (PLAIN.replace("2099-01-01T00:00:00Z", "9999-12-31"), {"lastmod_precision": "date"}),
    ],
)
def test_a_lastmod_after_the_run_is_dropped_and_said_once(
    text: str, values: dict[str, object]
) -> None:
    dates, report = build(text * 3 + "https://example.com/c\t2099-12-31\n", **values)
    assert dates["b"] is None and dates["c"] is None
    assert dates["a"] in ("2024-01-01T00:00:00+00:00", "2024-01-01")
    (line,) = [w for w in report.warnings if "after the run's time" in w]
    assert line.startswith("2 lastmod(s) after the run's time dropped")  # (b once: repeats go)
    assert "e.g. https://example.com/b '" in line
