"""The command table (sitemill.commands) holds a command's inputs once; the CLI is made of them."""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from sitemill.check.run import CheckOptions
from sitemill.cli.main import build_parser
from sitemill.commands import COMMANDS
from sitemill.web.livesite import Limits


def _command_parser(name: str) -> argparse.ArgumentParser:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices[name]
            return found
    raise AssertionError("no subcommands")


def test_check_inputs_are_the_tables_rows_with_the_runs_own_defaults() -> None:
    inputs = {each.name: each for each in COMMANDS["check"].inputs}
    assert list(inputs) == ["all", "sample", "warn-only", "concurrency", "timeout", "deadline"]
    # The table's defaults are the run's own: one value, not a second copy that may drift.
    assert inputs["sample"].default == CheckOptions().sample
    assert inputs["all"].default is CheckOptions().every is False
    limits = Limits()
    assert inputs["concurrency"].default == limits.concurrency
    assert inputs["timeout"].default == limits.request_deadline
    assert inputs["deadline"].default == limits.run_deadline
    # Every row is a flag of `sitemill check`, with the row's default and words.
    flags = {
        option: action
        for action in _command_parser("check")._actions
        for option in action.option_strings
    }
    for each in inputs.values():
        action = flags[f"--{each.name}"]
        assert action.default == each.default
        assert action.dest == (each.dest or each.name.replace("-", "_"))
        assert action.help is not None and action.help.startswith(each.means)


def test_a_row_changed_in_the_table_changes_the_cli(monkeypatch: pytest.MonkeyPatch) -> None:
    row = COMMANDS["check"]
    inputs = tuple(
        dataclasses.replace(each, default=250) if each.name == "sample" else each
        for each in row.inputs
    )
    monkeypatch.setitem(COMMANDS, "check", dataclasses.replace(row, inputs=inputs))
    sample = next(a for a in _command_parser("check")._actions if "--sample" in a.option_strings)
    assert sample.default == 250
    assert sample.help == "URLs checked besides the added or changed ones (default 250)"
