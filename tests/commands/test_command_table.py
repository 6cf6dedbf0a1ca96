"""The command table (sitemill.commands): every command of every front end is named there once."""

from __future__ import annotations

import argparse
import ast
import importlib
from pathlib import Path

from sitemill.aws.events import is_check_event, is_diff_event, parse_event
from sitemill.cli.main import build_parser
from sitemill.commands import COMMANDS
from sitemill.github.settings import Command


def cli_commands() -> dict[str, str]:
    """The CLI's commands and the help line `sitemill --help` shows for each."""
    parser = build_parser()
    (action,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {choice.dest: choice.help for choice in action._choices_actions}


def test_the_cli_offers_every_command_with_the_tables_line() -> None:
    assert cli_commands() == {name: command.does for name, command in COMMANDS.items()}


def test_the_action_offers_the_commands_the_table_names_for_it() -> None:
    named = {command.action for command in COMMANDS.values() if command.action is not None}
    assert named == {command.value for command in Command}
    assert COMMANDS["build"].action == "build"  # (the Action's default command)


def test_the_lambda_answers_the_events_the_table_names_for_it() -> None:
    events = {name: command.event for name, command in COMMANDS.items() if command.event}
    assert events == {"s3": "rebuild", "check": "check", "diff": "diff"}
    assert is_check_event({"action": events["check"]})
    assert is_diff_event({"action": events["diff"]})
    assert parse_event({"action": events["s3"]}).rebuild


def test_each_commands_run_is_a_module_of_the_package() -> None:
    for command in COMMANDS.values():
        assert importlib.import_module(f"sitemill.{command.runs}").__name__.endswith(command.runs)


# A bucket's run chooses between the bucket job and the partitioned rebuild in one place
# (scaleout.bucketrun): no front end calls the partitioned rebuild itself.
RUN_INSIDES = {"rebuild_partitioned", "RebuildOptions", "merged_start"}
FRONT_ENDS = ("cli", "github", "aws")
PACKAGE = Path(__file__).resolve().parents[2] / "src" / "sitemill"


def test_no_front_end_chooses_a_buckets_run_itself() -> None:
    found = {}
    for front in FRONT_ENDS:
        for path in sorted((PACKAGE / front).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            names = {
                alias.name
                for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom)
                for alias in node.names
            }
            if names & RUN_INSIDES:
                found[str(path.relative_to(PACKAGE))] = sorted(names & RUN_INSIDES)
    assert found == {}


# What a command decides is defined once in commands/ (issue 80), each front end adapting how
# its inputs arrive and how the summary leaves: the redirects a diff suggests and their form
# (TreeDiff.suggested), the pending URLs a check lets IndexNow send (announce_passed), a check's
# exit (Checked.exit_code).
DECIDED_ONCE = {"suggest", "form_for", "hold_back", "ok"}


def decided_here(tree: ast.AST) -> set[str]:
    """The names of DECIDED_ONCE ``tree`` imports or reads as an attribute (``report.ok``)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
    return names & DECIDED_ONCE


def test_the_check_finds_a_decision() -> None:
    tree = ast.parse("from x import suggest\ny = checked.report.ok or warn\noutcome.hold_back(a)")
    assert decided_here(tree) == {"suggest", "ok", "hold_back"}


def test_no_front_end_decides_what_a_command_decides() -> None:
    found = {}
    for front in FRONT_ENDS:
        for path in sorted((PACKAGE / front).rglob("*.py")):
            names = decided_here(ast.parse(path.read_text(encoding="utf-8")))
            if names:
                found[str(path.relative_to(PACKAGE))] = sorted(names)
    assert found == {}


def test_the_cli_reads_a_buckets_site_in_one_place() -> None:
    """check, indexnow, s3 and why name a bucket's site with --bucket and --prefix alike
    (cli._options.record_site), and refuse a second state beside the stack's alike."""
    cli = sorted((PACKAGE / "cli").glob("*.py"))
    site = {path.name for path in cli if "BucketSettings.read" in path.read_text("utf-8")}
    assert site == {"_options.py"}
    refused = {path.name for path in cli if 'ConfigError("state"' in path.read_text("utf-8")}
    assert refused == {"_s3function.py"}
