"""action/requirements.txt, what the Action installs beside its sources, is pyproject.toml's
dependencies and what they need, each pinned to one release with its files' hashes
(`make action-lock` remakes it)."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "action" / "requirements.txt"
PIN = re.compile(r"^([A-Za-z0-9._-]+)==([^\s\\]+) \\$")
HASH = re.compile(r"^    --hash=sha256:[0-9a-f]{64}( \\)?$")


def pins() -> dict[str, Version]:
    found: dict[str, Version] = {}
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        if match := PIN.match(line):
            found[canonicalize_name(match[1])] = Version(match[2])
    return found


def test_every_line_is_a_comment_a_pin_or_a_hash() -> None:
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        assert PIN.match(line) or HASH.match(line) or line.lstrip().startswith("#"), line


def test_every_pin_has_its_hashes() -> None:
    blocks = re.split(r"\n(?=\S)", LOCK.read_text(encoding="utf-8"))
    pinned = [block for block in blocks if PIN.match(block.splitlines()[0])]
    assert len(pinned) == len(pins()) >= 2
    for block in pinned:
        assert "--hash=sha256:" in block, block.splitlines()[0]


def test_the_pins_satisfy_the_project_s_dependencies() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pinned = pins()
    for text in project["dependencies"]:
        requirement = Requirement(text)
        version = pinned[canonicalize_name(requirement.name)]
        assert requirement.specifier.contains(version), (text, version)


def test_what_the_dependencies_need_is_pinned_too() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    needed, queue = set(), [Requirement(text).name for text in project["dependencies"]]
    while queue:
        name = canonicalize_name(queue.pop())
        if name not in needed:
            needed.add(name)
            for text in metadata.requires(name) or []:
                requirement = Requirement(text)
                if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                    queue.append(requirement.name)
    assert needed == set(pins())
