"""Ask sitemill's rung-2 source map which source made each built page, against the generator's.

    <sitemill venv python> mapcheck.py CLONE SITE_DIR ORACLE_JSON

ORACLE_JSON maps each listed page to the generator's source for it (or null), or to a list:
the source, then the files it includes (either one found counts as agreeing). Prints JSON: the
counts (agree, other source, none found, a source for a page the generator gives none) and up
to 20 examples of each disagreement. Needs a sitemill with
``sitemill.lastmod.sourcefiles.sourcemap``; the RepoView is built here from ``git ls-files``
and ``git show HEAD:path``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sitemill.lastmod.sourcefiles.conventions.base import RepoView
from sitemill.lastmod.sourcefiles.sourcemap import source_map

clone, site_dir, oracle_json = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
oracle: dict[str, str | list[str] | None] = json.loads(oracle_json.read_text())
files = tuple(
    sorted(
        subprocess.run(
            ["git", "-C", str(clone), "ls-files"], capture_output=True, text=True, check=True
        ).stdout.splitlines()
    )
)


def read_text(path: str) -> str | None:
    proc = subprocess.run(["git", "-C", str(clone), "show", f"HEAD:{path}"], capture_output=True)
    if proc.returncode:
        return None
    return proc.stdout[:1_000_000].decode("utf-8", "replace")


smap = source_map(RepoView(files, read_text), site_dir, clone / site_dir)
counts = dict.fromkeys(
    ["agree", "other source", "none found", "source for no-source page", "no source both"], 0
)
examples: dict[str, list[list[object]]] = {k: [] for k in counts}
for page, want in sorted(oracle.items()):
    got = smap.sources(page)
    parts = [want] if isinstance(want, str) else (want or [])  # the source, then its includes
    if not parts:
        key = "source for no-source page" if got else "no source both"
    elif set(parts) & set(got):
        key = "agree"
    else:
        key = "other source" if got else "none found"
    counts[key] += 1
    if key not in ("agree", "no source both") and len(examples[key]) < 20:
        examples[key].append([page, want, list(got)])
print(json.dumps({"counts": counts, "examples": examples}))
