"""docs/configuration.md is what tools/config_reference.py writes, and the model, the CLI,
action.yml and infra/template.yaml agree on every key: a key is a flag unless it has a
reason not to be, an Action input, and a stack parameter or marked as none on purpose."""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

from sitemill.cli.main import build_parser
from sitemill.config.model import CONFIG_KEYS, FILE_ONLY
from sitemill.config.names import OTHER_ENV, env_name
from sitemill.config.reference import DEFAULT_TEXT, MEANINGS, NO_FLAG, NOT_STACK_PARAMETERS

ROOT = Path(__file__).resolve().parents[2]


def load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "config_reference", ROOT / "tools" / "config_reference.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def generator() -> ModuleType:
    return load_generator()


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    # (cfn-lint imported by the worker that needs it: at the top, every pytest-xdist worker
    # imported it, with sympy and networkx, to collect the module: 2 s of CPU each.)
    from cfnlint.decode.cfn_yaml import load as load_cfn_yaml

    data: dict[str, Any] = json.loads(json.dumps(load_cfn_yaml(str(ROOT / "infra/template.yaml"))))
    return data


def test_the_committed_page_is_the_generated_one(generator: ModuleType) -> None:
    page = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert page == generator.render(), "docs/configuration.md is out of date: make config-docs"
    for key in CONFIG_KEYS:
        assert f"| `{key}` |" in page


def test_every_key_has_a_meaning_and_only_keys_do() -> None:
    assert set(MEANINGS) == set(CONFIG_KEYS)
    for table in (DEFAULT_TEXT, NO_FLAG, NOT_STACK_PARAMETERS):
        assert set(table) <= set(CONFIG_KEYS)


def test_every_key_is_a_flag_of_each_command_that_reads_a_configuration() -> None:
    (commands,) = (
        action
        for action in build_parser()._actions
        if isinstance(action, argparse._SubParsersAction)
    )
    for name in ("build", "urls", "s3", "indexnow"):
        dests = {action.dest for action in commands.choices[name]._actions}
        assert set(CONFIG_KEYS) - set(NO_FLAG) <= dests, name
        assert not set(NO_FLAG) & dests, name


def test_every_key_read_from_the_environment_is_an_action_input() -> None:
    inputs = set(yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))["inputs"])
    keys = {key.replace("_", "-") for key in CONFIG_KEYS if key not in FILE_ONLY}
    assert keys <= inputs
    assert not FILE_ONLY & inputs


def test_every_key_is_a_stack_parameter_or_marked_as_none_on_purpose(
    template: dict[str, Any],
) -> None:
    variables = template["Globals"]["Function"]["Environment"]["Variables"]
    parameters = template["Parameters"]
    referenced = {
        key: variables[env_name(key)]["Ref"]
        for key in CONFIG_KEYS
        if isinstance(variables.get(env_name(key)), dict) and "Ref" in variables[env_name(key)]
    }
    assert set(referenced.values()) <= set(parameters)
    # A parameter, or on the list with its reason; never both.
    assert set(CONFIG_KEYS) - set(referenced) == set(NOT_STACK_PARAMETERS)
    for key in ("respect_noindex", "respect_redirects", "respect_canonical", "max_urls"):
        assert key in referenced
    # Every parameter a key is set from is in the console's groups.
    grouped = {
        name
        for group in template["Metadata"]["AWS::CloudFormation::Interface"]["ParameterGroups"]
        for name in group["Parameters"]
    }
    assert set(referenced.values()) <= grouped


def test_every_sitemill_variable_anywhere_is_a_known_name(template: dict[str, Any]) -> None:
    """The names sitemill reads, sets or passes are all known (warn_unknown_env warns of
    the others): the keys' own and the few others in config.names.OTHER_ENV."""
    known = {env_name(key) for key in CONFIG_KEYS if key not in FILE_ONLY} | set(OTHER_ENV)
    found: set[str] = set()
    quoted = re.compile(r"""["'](SITEMILL_[A-Z_]+)["']""")
    for path in [*(ROOT / "src").rglob("*.py"), *(ROOT / "lambda").rglob("*.py")]:
        found.update(quoted.findall(path.read_text(encoding="utf-8")))
    for path in (ROOT / "action.yml", ROOT / "infra" / "template.yaml"):
        found.update(re.findall(r"\b(SITEMILL_[A-Z_]+)\b", path.read_text(encoding="utf-8")))
    assert found - known == set()
    variables = template["Globals"]["Function"]["Environment"]["Variables"]
    assert set(variables) <= known
    assert len(found) > 40


def test_the_template_cites_only_files_the_repository_has() -> None:
    text = (ROOT / "infra" / "template.yaml").read_text(encoding="utf-8")
    pages = set(re.findall(r"([\w./-]+\.md)\b", text))  # docs/x.md, or a bare x.md
    files = set(re.findall(r"\b((?:infra|docs|src)/[\w./-]+\.(?:json|py|yaml))\b", text))
    missing = sorted(
        name
        for name in pages | files
        if not (ROOT / name).exists() and not (ROOT / "docs" / name).exists()
    )
    assert missing == []
    assert "docs/distributed.md" in pages and "infra/rebuild.asl.json" in files
