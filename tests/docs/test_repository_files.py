"""The repository's own files hold together: what infra/rebuild.asl.json cites is a page of
docs/, and the project's docs workflow, which runs the Action on a git tree, checks out the
whole history (a shallow clone makes the Action warn on every run and date by file times)."""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.y*ml"))


def comments(node: Any) -> list[str]:
    """Every ``Comment`` of an Amazon States Language document, nested states' too."""
    if isinstance(node, dict):
        own = [node["Comment"]] if isinstance(node.get("Comment"), str) else []
        return own + [text for value in node.values() for text in comments(value)]
    if isinstance(node, list):
        return [text for value in node for text in comments(value)]
    return []


def test_the_state_machine_cites_pages_the_repository_has() -> None:
    document = json.loads((ROOT / "infra" / "rebuild.asl.json").read_text(encoding="utf-8"))
    cited = {name for text in comments(document) for name in re.findall(r"[\w./-]+\.md", text)}
    assert cited, "the state machine cites its docs page"
    for name in cited:
        assert (ROOT / name).is_file() or (ROOT / "docs" / name).is_file(), name


def test_workflows_running_the_action_check_out_the_whole_history() -> None:
    found = 0
    for path in WORKFLOWS:
        workflow = yaml.safe_load(path.read_text(encoding="utf-8"))
        for job in workflow["jobs"].values():
            steps = job.get("steps", [])
            if not any(step.get("uses") == "./" for step in steps):
                continue
            found += 1
            checkouts = [s for s in steps if str(s.get("uses", "")).startswith("actions/checkout")]
            assert checkouts, path.name
            for step in checkouts:
                assert step.get("with", {}).get("fetch-depth") == 0, path.name
    assert found, "the docs workflow runs the Action (uses: ./)"


def test_the_configuration_pages_are_a_guide_and_a_reference() -> None:
    """One reference of every key (docs/configuration.md, generated) and one guide that
    links it, under names no reader takes for each other (configuring.md stood beside
    configuration.md, each with its own table of every key)."""
    stems = sorted(path.stem for path in (ROOT / "docs").glob("*.md"))
    for number, first in enumerate(stems):
        for second in stems[number + 1 :]:
            ratio = difflib.SequenceMatcher(None, first, second).ratio()
            assert ratio < 0.8, f"{first}.md and {second}.md"
    tables = [
        path.name
        for path in (ROOT / "docs").glob("*.md")
        if "| key (`sitemill.toml`) |" in path.read_text(encoding="utf-8")
    ]
    assert tables == ["configuration.md"]
    guide = (ROOT / "docs" / "config-file.md").read_text(encoding="utf-8")
    assert "](configuration.md)" in guide
