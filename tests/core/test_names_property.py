"""Any file name a file system can hold becomes a valid, exactly decodable <loc>."""

from __future__ import annotations

import os
import re
import string
import tempfile
from pathlib import Path
from urllib.parse import unquote_to_bytes
from xml.etree import ElementTree

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import BASE_URL, page
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.filenames.outputs import is_own_name
from sitemill.filenames.pagenames import is_page_name
from sitemill.sinks import MemorySink
from xsd import assert_xsd_valid

# Every character but "/" and NUL (and lone surrogates, which no file system stores).
name_chars = st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00")
stems = st.text(name_chars, min_size=1, max_size=24).filter(
    lambda stem: not stem.startswith(".") and len(os.fsencode(stem)) < 200
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(stems, min_size=1, max_size=6, unique_by=os.fsencode))
def test_arbitrary_names_are_escaped_and_encoded(stems_: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder)
        # 404.html and sitemill's own outputs (sitemap.html) are built-in excludes.
        names = {f"{stem}.html" for stem in stems_ if not is_own_name(f"{stem}.html")}
        names.discard("404.html")
        for name in names:
            (site / name).write_text(page(), encoding="utf-8")
        (site / "sub dir").mkdir()
        (site / "sub dir" / "x.html").write_text(page(), encoding="utf-8")
        sink = MemorySink()
        config = load_config({"base_url": BASE_URL, "lastmod": "none", "url_style": "file"})
        build_from_tree(config, site, sink)
        data = sink.files["sitemap.xml"]
        assert_xsd_valid(data)
        locs = [element.text or "" for element in ElementTree.fromstring(data).iter(LOC)]
        for loc in locs:
            assert_least_encoded(loc[len(BASE_URL) :])
        paths = {unquote_to_bytes(loc[len(BASE_URL) :]) for loc in locs}
        # A name that can name no page (a control character, a backslash) is left out (issue 78).
        listed = {os.fsencode(name) for name in names if is_page_name(name)}
        assert paths == listed | {b"sub dir/x.html"}


LOC = "{http://www.sitemaps.org/schemas/sitemap/0.9}loc"
# What a path may hold raw (RFC 3986 pchar and "/"): sitemill keeps all of it raw but "+"
# (S3 reads a raw "+" in a path as a space).
RAW = frozenset(string.ascii_letters + string.digits + "-._~" + "!$&'()*,;=:@" + "/")
ESCAPE = re.compile(r"%([0-9A-F]{2})")


def assert_least_encoded(path: str) -> None:
    """A valid RFC 3986 path, with an escape only for what may not stay raw."""
    rest = ESCAPE.sub("", path)
    assert set(rest) <= RAW, path  # no "%" but escapes, no space, "[", "]", non-ASCII
    for escape in ESCAPE.findall(path):
        assert chr(int(escape, 16)) not in RAW, path  # never "%28" for "("
