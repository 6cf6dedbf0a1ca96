"""Every `aws lambda invoke` command the README, docs/ and the template's outputs give waits
as long as the function may run: without ``--cli-read-timeout 900`` the CLI gives up after
60 s and retries, which starts a second rebuild (infra/template.yaml, RebuildCommand)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
TIMEOUT = "--cli-read-timeout 900"


def fenced_commands(path: Path) -> list[str]:
    """The shell lines of a Markdown file's fenced blocks, continuation lines joined."""
    lines, fence, joined = [], False, ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if _FENCE.match(line):
            fence = not fence
            continue
        if not fence:
            continue
        joined += line.rstrip().removesuffix("\\")
        if not line.rstrip().endswith("\\"):
            lines.append(joined)
            joined = ""
    return lines


def template_output_values() -> list[str]:
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("!", lambda loader, suffix, node: str(node.value))
    template = yaml.load((ROOT / "infra" / "template.yaml").read_text(), Loader=Loader)
    return [str(output["Value"]) for output in template["Outputs"].values()]


def invoke_commands() -> list[tuple[str, str]]:
    found = [
        (path.relative_to(ROOT).as_posix(), line)
        for path in PAGES
        for line in fenced_commands(path)
        if "aws lambda invoke" in line
    ]
    found += [("infra/template.yaml", value) for value in template_output_values()]
    return [(where, line) for where, line in found if "aws lambda invoke" in line]


def test_every_lambda_invoke_command_waits_for_the_function() -> None:
    commands = invoke_commands()
    places = {where for where, _ in commands}
    # The places that give one (a command dropped from them all would pass unnoticed).
    assert {"README.md", "docs/deploy-aws.md", "infra/template.yaml"} <= places
    missing = [f"{where}: {line.strip()}" for where, line in commands if TIMEOUT not in line]
    assert missing == []
