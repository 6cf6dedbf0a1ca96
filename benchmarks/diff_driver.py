"""diff-50k's diff in one process: sitemill.commands.diff.diff_tree of SITE against the state
STATE at BASE_URL, as `sitemill diff SITE --against STATE` runs it; the counts and each renamed
URL's resemblance written as JSON to OUT.

    python diff_driver.py SITE STATE BASE_URL OUT
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from sitemill.commands.diff import diff_tree
from sitemill.config.model import load_config
from sitemill.diff.model import Verdict
from sitemill.jobs.asked import RunAsked
from sitemill.jobs.features import OUTPUTS
from sitemill.state.previous import previous_state


def main(site: str, state: str, base_url: str, out: str) -> None:
    config = load_config({"base_url": base_url, "lastmod": "mtime"})
    found = diff_tree(config, Path(site), previous_state(state), RunAsked(OUTPUTS)).diff
    renamed = {item.url: item.resemblance for item in found.with_verdict(Verdict.RENAMED)}
    Path(out).write_text(json.dumps({"counts": found.counts(), "renamed": renamed}))


if __name__ == "__main__":
    main(*sys.argv[1:])
