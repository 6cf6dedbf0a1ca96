"""The lastmods a tree build writes from a git repository, by site path: what the tests of
the git walk's template edits compare (tests/lastmod/history, tests/jobs)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from gitutil import commit, make_repo, unix
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.protocol import Precision, lastmod_from_timestamp
from sitemill.sinks import MemorySink

BASE = "https://example.org/"
# The times of a history's builds, one commit each (dated, at).
WHEN = ["2024-01-10 09:00:00", "2024-02-11 09:00:00", "2024-03-12 09:00:00"]
# A <loc> under BASE (its site path, without a closing slash) and its <lastmod>.
_DATED = re.compile(r"<loc>https://example\.org/([\w/.-]*?)/?</loc><lastmod>(.*?)<")


def built_lastmods(repo: Path) -> dict[str, str]:
    """Each listed page's lastmod by its site path, after one build of ``repo`` at BASE with
    git dates."""
    sink = MemorySink()
    build_from_tree(load_config({"base_url": BASE, "lastmod": "git"}), repo, sink)
    return dict(_DATED.findall(sink.files["sitemap.xml"].decode()))


def dated(tmp_path: Path, builds: Sequence[Mapping[str, str]]) -> dict[str, str]:
    """Each listed page's lastmod by its site path after one commit per build, at WHEN."""
    repo = make_repo(tmp_path / "site")
    for build, when in zip(builds, WHEN, strict=False):
        commit(repo, dict(build), when)
    return built_lastmods(repo)


def at(index: int) -> str:
    """The lastmod of a page dated by the build at ``index`` of WHEN."""
    return lastmod_from_timestamp(unix(WHEN[index]), Precision.DATETIME)
