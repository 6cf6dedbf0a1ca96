"""Write docs/configuration.md, the one configuration reference, from what each front-end
really takes: the model's keys and defaults (sitemill.config), their meanings
(sitemill.config.reference), the CLI's flags (its parser), the Action's inputs (action.yml)
and the stack's parameters (infra/template.yaml, the function's environment).

    make config-docs            # or: .venv/bin/python tools/config_reference.py
    python tools/config_reference.py --check   # exit 1 when the page is out of date
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from enum import Enum
from pathlib import Path
from typing import Any

import yaml
from cfnlint.decode.cfn_yaml import load as load_cfn_yaml

from sitemill.cli.main import build_parser
from sitemill.config.model import CONFIG_KEYS, FILE_ONLY, Config
from sitemill.config.names import env_name
from sitemill.config.reference import DEFAULT_TEXT, MEANINGS, NO_FLAG, NOT_STACK_PARAMETERS

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "configuration.md"
ACTION = ROOT / "action.yml"
TEMPLATE = ROOT / "infra" / "template.yaml"

HEAD = """\
# Configuration reference

<!-- Written by tools/config_reference.py (`make config-docs`); do not edit by hand. -->

Every key can be given in four ways; the first one present wins: **flag > `SITEMILL_*`
environment > `sitemill.toml` > default**. `sitemill.toml` is read from `--config FILE`, else
from the current directory, else from `SITE_DIR`. The GitHub Action takes each key as an
input of the same name in kebab-case; the S3 stack (`infra/template.yaml`) as a parameter,
passed to its functions as the `SITEMILL_*` variable.

A bad value is an error naming the key and what it accepts, and nothing is written (exit 2).
An unknown key in `sitemill.toml` is an error, and an unknown `SITEMILL_*` variable a warning,
each naming the closest key ("did you mean …?"). Booleans accept `true/false`, `yes/no`,
`on/off`, `1/0`; lists (in the environment and the Action) are one item per line or
comma-separated.

| key (`sitemill.toml`) | flag | environment | Action input | stack parameter | default | meaning |
| --- | --- | --- | --- | --- | --- | --- |
"""

TAIL = """
## Not stack parameters, on purpose

Each of these but `rules` and `groups` can still be set in the function's environment by hand.

{reasons}

## Exit codes

`0` done; `1` an input that cannot be read or is invalid (a page tree, a URL list, a bucket,
a sitemap that fails `sitemill validate`); `2` a mistake in the command line or the
configuration (an unknown flag or key, a bad value, a `SITE_DIR` that is not a folder, an
`--out` inside `SITE_DIR`, `sitemill s3` without its extra), found before any input is read.
"""


def cli_flags() -> dict[str, str]:
    """key -> how `sitemill build` spells it (a table cell)."""
    (commands,) = (a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    flags: dict[str, str] = {}
    for action in commands.choices["build"]._actions:
        if not action.option_strings or action.dest not in CONFIG_KEYS:
            continue
        flag = action.option_strings[0]
        if isinstance(action, argparse.BooleanOptionalAction):
            flag = "--[no-]" + flag.removeprefix("--")
        elif action.const is not None and (action.choices or action.metavar):
            # (a value that may be left out: its choices, or the metavar that shows them)
            values = action.choices or str(action.metavar).strip("{}").split(",")
            flag += " [" + "\\|".join(map(str, values)) + "]"
        elif action.choices:
            flag += f" {{{','.join(map(str, action.choices))}}}"
        elif action.metavar:
            flag += f" {action.metavar}"
        repeat = " (repeat)" if isinstance(action, argparse._AppendAction) else ""
        flags[action.dest] = f"`{flag}`{repeat}"
    return flags


def action_inputs() -> set[str]:
    data = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    return set(data["inputs"])


def stack_parameters() -> dict[str, str]:
    """key -> the stack parameter its SITEMILL_* variable is set from (or how it is set)."""
    template: dict[str, Any] = json.loads(json.dumps(load_cfn_yaml(str(TEMPLATE))))
    variables = template["Globals"]["Function"]["Environment"]["Variables"]
    found: dict[str, str] = {}
    for key in CONFIG_KEYS:
        value = variables.get(env_name(key))
        if isinstance(value, dict) and "Ref" in value:
            found[key] = value["Ref"]
        elif value is not None:
            found[key] = "set by the stack"
    return found


def default_text(key: str) -> str:
    if key in DEFAULT_TEXT:
        return DEFAULT_TEXT[key]
    (field,) = (f for f in dataclasses.fields(Config) if f.name == key)
    value = field.default
    if value in (None, (), ""):
        return "none"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, Enum):
        return f"`{value.value}`"
    return f"`{value}`"


def cell(text: str | None) -> str:
    return f"`{text}`" if text else "—"


def render() -> str:
    flags = cli_flags()
    inputs = action_inputs()
    parameters = stack_parameters()
    rows = []
    for key in CONFIG_KEYS:
        dashed = key.replace("_", "-")
        parameter = parameters.get(key)
        if key in NOT_STACK_PARAMETERS and parameter != "set by the stack":
            parameter_cell = "— (below)"
        elif parameter == "set by the stack":
            parameter_cell = "set by the stack"
        else:
            parameter_cell = cell(parameter)
        rows.append(
            f"| `{key}` | {flags.get(key, '—')} "
            f"| {cell(None if key in FILE_ONLY else env_name(key))} "
            f"| {cell(dashed if dashed in inputs else None)} | {parameter_cell} "
            f"| {default_text(key)} | {MEANINGS[key]} |"
        )
    reasons = "\n".join(f"- `{key}`: {why}." for key, why in NOT_STACK_PARAMETERS.items())
    no_flag = "\n".join(f"- `{key}`: {why}." for key, why in NO_FLAG.items())
    return (
        HEAD
        + "\n".join(rows)
        + "\n\nKeys without a flag, on purpose:\n\n"
        + no_flag
        + "\n"
        + TAIL.format(reasons=reasons)
    )


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if PAGE.read_text(encoding="utf-8") != text:
            sys.stderr.write(f"{PAGE} is out of date: make config-docs\n")
            return 1
        return 0
    PAGE.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
