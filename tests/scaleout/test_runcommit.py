"""A sharded run's commit is said once (issue 80): the full rebuild, the distributed reducer
and an incremental run end in scaleout.runcommit.commit_run, the one place that dates the
parts, renders the entry file, decides robots.txt, finds the strays and commits."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "sitemill"
# The steps of a commit, in the order commit_run says them.
STEPS = ("index_parts", "entry_of", "robots_update", "find_strays", "commit_and_go_live")
PATHS = ("scaleout/shardfull.py", "scaleout/distreduce.py", "scaleout/shardpublish.py")


def calls_in(path: Path) -> set[str]:
    """The names of the functions a module calls."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                names.add(func.id)
            elif isinstance(func, ast.Attribute):
                names.add(func.attr)
    return names


def test_only_commit_run_says_the_commit_sequence() -> None:
    callers = {
        str(path.relative_to(PACKAGE)): sorted(calls_in(path) & {"commit_and_go_live"})
        for path in sorted(PACKAGE.rglob("*.py"))
    }
    assert [where for where, called in callers.items() if called] == ["scaleout/runcommit.py"]
    assert calls_in(PACKAGE / "scaleout" / "runcommit.py") >= set(STEPS)


def test_every_commit_path_goes_through_commit_run() -> None:
    for path in PATHS:
        called = calls_in(PACKAGE / path)
        assert "commit_run" in called, path
        # (entry_of: a full rebuild's dry run says what it would publish, and commits nothing)
        assert not called & set(STEPS) - {"entry_of"}, f"{path} says a step of the commit"
