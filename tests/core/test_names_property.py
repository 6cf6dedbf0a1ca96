"""Any file name a file system can hold becomes a valid, exactly decodable <loc>."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from urllib.parse import unquote_to_bytes

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import BASE_URL, page
from sitemill.config.model import load_config
from sitemill.jobs.tree import build_from_tree
from sitemill.outputs import is_own_name
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
        locs = re.findall(rb"<loc>(.*?)</loc>", data)
        paths = {
            unquote_to_bytes(loc.decode("ascii").replace("&amp;", "&")[len(BASE_URL) :])
            for loc in locs
        }
        assert paths == {os.fsencode(name) for name in names} | {b"sub dir/x.html"}
