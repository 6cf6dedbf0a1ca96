"""The lastmods a tree build writes from a git repository, by site path: what the tests of
the git walk's template edits compare (tests/lastmod/history, tests/jobs)."""

from __future__ import annotations

import re
from pathlib import Path

from sitemill.config.model import load_config
from sitemill.jobs.tree import build_from_tree
from sitemill.sinks import MemorySink

BASE = "https://example.org/"
# A <loc> under BASE (its site path, without a closing slash) and its <lastmod>.
_DATED = re.compile(r"<loc>https://example\.org/([\w/.-]*?)/?</loc><lastmod>(.*?)<")


def built_lastmods(repo: Path) -> dict[str, str]:
    """Each listed page's lastmod by its site path, after one build of ``repo`` at BASE with
    git dates."""
    sink = MemorySink()
    build_from_tree(load_config({"base_url": BASE, "lastmod": "git"}), repo, sink)
    return dict(_DATED.findall(sink.files["sitemap.xml"].decode()))
