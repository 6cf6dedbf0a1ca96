"""Named groups in a URL list (docs/output.md, Named groups): a group's globs match each URL's
path below base_url; the list's own order is kept within each child."""

from __future__ import annotations

import re

from outputlist import build_from_url_list
from sitemill.config.model import load_config
from sitemill.sinks import MemorySink
from xsd import assert_xsd_valid

BASE = "https://example.com/"


def test_a_url_lists_groups_match_its_url_paths() -> None:
    lines = [f"{BASE}{path}\n" for path in ("z", "blog/b", "a", "blog/a?page=2", "caf%C3%A9/x")]
    groups = [
        {"name": "blog", "include": ["blog/*"]},
        {"name": "cafe", "include": ["café/**"]},
    ]
    config = load_config({"base_url": BASE}, {}, {"groups": groups})
    sink = MemorySink()
    build_from_url_list(config, lines, sink)

    def locs(name: str) -> list[str]:
        return re.findall(r"<loc>(.*?)</loc>", sink.files[name].decode())

    assert locs("sitemap.xml") == [
        f"{BASE}sitemap-1.xml",
        f"{BASE}sitemap-blog.xml",
        f"{BASE}sitemap-cafe.xml",
    ]
    assert locs("sitemap-1.xml") == [f"{BASE}z", f"{BASE}a"]
    assert locs("sitemap-blog.xml") == [f"{BASE}blog/b", f"{BASE}blog/a?page=2"]
    assert locs("sitemap-cafe.xml") == [f"{BASE}caf%C3%A9/x"]
    for data in sink.files.values():
        assert_xsd_valid(data)
