"""infra/template.yaml and IndexNow: its parameters, the Rules that refuse what sitemill would,
the one grant of the key file, and the pending URLs inside the state's existing grants."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from test_infra import (
    BUCKET,
    MODES,
    PARTITION,
    STATE,
    VARIANTS,
    Stack,
    allowed,
    iam_matches,
    load_template,
    make_stack,
    object_arn,
    state_arn,
    translate,
)

from sitemill.config._indexnow import DEFAULT_ENDPOINT, parse_indexnow_key
from sitemill.config.model import IndexNowMode, load_config
from sitemill.errors import ConfigError

KEY = "5f0c2a9e-sitemill-infra-key-7b41"
SEND = {"IndexNow": "send", "IndexNowKey": KEY}
KEY_FILE = {"IndexNowKey": KEY, "IndexNowWriteKeyFile": "true"}
INDEXNOW_VARIABLES = {
    "SITEMILL_INDEXNOW": "IndexNow",
    "SITEMILL_INDEXNOW_KEY": "IndexNowKey",
    "SITEMILL_INDEXNOW_WRITE_KEY_FILE": "IndexNowWriteKeyFile",
}


@pytest.fixture(scope="module")
def translated() -> dict[str, Any]:
    return translate(load_template())


def test_parameters(translated: dict[str, Any]) -> None:
    parameters = translated["Parameters"]
    assert parameters["IndexNow"]["AllowedValues"] == ["off", "send"]
    assert parameters["IndexNow"]["Default"] == "off"
    key = parameters["IndexNowKey"]
    assert (key["NoEcho"], key["Default"], key["Type"]) == (True, "", "String")
    assert parameters["IndexNowWriteKeyFile"]["AllowedValues"] == ["true", "false"]
    assert parameters["IndexNowWriteKeyFile"]["Default"] == "false"
    # NoEcho: the key is never an output (describe-stacks would show it in clear).
    assert "IndexNowKey" not in str(translated["Outputs"])


@pytest.mark.parametrize(
    ("key", "ok"),
    [
        ("", True),
        ("abcd1234", True),
        (KEY, True),
        ("A" * 128, True),
        ("abcd123", False),
        ("A" * 129, False),
        ("abcd*1234", False),  # an IAM wildcard would widen the key file's grant
        ("abcd?1234", False),
        ("${aws:username}-1234", False),
        ("abcd/1234", False),
        ("abcd 1234", False),
        ("abcd_1234", False),
        ("abcd1234\n", False),
    ],
)
def test_key_pattern_is_sitemills_and_cannot_widen_iam_resources(
    translated: dict[str, Any], key: str, ok: bool
) -> None:
    pattern = translated["Parameters"]["IndexNowKey"]["AllowedPattern"]
    assert (re.fullmatch(pattern, key) is not None) is ok
    if ok and key:  # every key the stack takes, sitemill takes as it is
        assert parse_indexnow_key("indexnow_key", key) == key
    elif key.strip() == key:  # (sitemill strips white space around one; the stack refuses it)
        with pytest.raises(ConfigError):
            parse_indexnow_key("indexnow_key", key)


def test_parameters_reach_the_function(translated: dict[str, Any]) -> None:
    variables = translated["Resources"]["SitemillFunction"]["Properties"]["Environment"]
    for variable, parameter in INDEXNOW_VARIABLES.items():
        assert variables["Variables"][variable] == {"Ref": parameter}, variable
    # The endpoint and the key's location are parameters whose defaults are sitemill's own
    # (api.indexnow.org; empty, which sitemill reads as not set: the host's root).
    parameters = translated["Parameters"]
    for variable, parameter, default in (
        ("SITEMILL_INDEXNOW_ENDPOINT", "IndexNowEndpoint", DEFAULT_ENDPOINT),
        ("SITEMILL_INDEXNOW_KEY_LOCATION", "IndexNowKeyLocation", ""),
    ):
        assert variables["Variables"][variable] == {"Ref": parameter}, variable
        assert parameters[parameter]["Default"] == default, parameter
    unset = {"SITEMILL_BASE_URL": "https://example.com/", "SITEMILL_INDEXNOW_KEY_LOCATION": ""}
    assert load_config({}, unset).indexnow_key_location is None


def rules_hold(stack: Stack) -> bool:
    """Whether CloudFormation would accept these parameters (every Rule's assertions)."""
    for rule in stack.template["Rules"].values():
        if "RuleCondition" in rule and not stack.resolve(rule["RuleCondition"]):
            continue
        if not all(stack.resolve(item["Assert"]) for item in rule["Assertions"]):
            return False
    return True


def function_config_error(stack: Stack) -> str | None:
    """The ConfigError sitemill raises on the function's environment, or None."""
    variables = stack.resources()["SitemillFunction"]["Properties"]["Environment"]["Variables"]
    try:
        load_config({}, {name: str(value) for name, value in variables.items()})
    except ConfigError as exc:
        return str(exc)
    return None


DATES = {
    "content dates": {},
    "no content dates": {"ContentDates": "false"},
    "no lastmod": {"Lastmod": "none"},
}


@pytest.mark.parametrize(
    ("indexnow", "key", "write", "dates"),
    [
        pytest.param(
            indexnow,
            key,
            write,
            DATES[dates],
            id=f"{indexnow}-key {bool(key)}-file {write}-{dates}",
        )
        for indexnow, key, write, dates in itertools.product(
            ["off", "send"], ["", KEY], ["false", "true"], DATES
        )
    ],
)
def test_rules_refuse_exactly_what_sitemill_refuses(
    translated: dict[str, Any], indexnow: str, key: str, write: str, dates: dict[str, str]
) -> None:
    # A stack whose every run would fail on a ConfigError is refused at deploy time instead.
    parameters = {"IndexNow": indexnow, "IndexNowKey": key, "IndexNowWriteKeyFile": write}
    stack = make_stack(translated, parameters, dates)
    error = function_config_error(stack)
    assert rules_hold(stack) is (error is None), error
    if error is None:
        variables = stack.resources()["SitemillFunction"]["Properties"]["Environment"]
        config = load_config({}, variables["Variables"])
        assert config.indexnow is IndexNowMode(indexnow)
        assert (config.indexnow_key, config.indexnow_write_key_file) == (key, write == "true")


def key_file_arn(prefix: str, key: str = KEY) -> str:
    return object_arn(f"{prefix}{key}.txt")


@pytest.mark.parametrize("mode", MODES.values(), ids=MODES.keys())
@pytest.mark.parametrize("variant", VARIANTS)
def test_without_the_key_file_indexnow_grants_nothing_new(
    translated: dict[str, Any], mode: dict[str, str], variant: dict[str, str]
) -> None:
    baseline = make_stack(translated, mode, variant).role_statements()
    for parameters in (
        SEND,
        {**SEND, "IndexNowWriteKeyFile": "false"},
        {"IndexNowKey": KEY},
        {"IndexNowWriteKeyFile": "true"},  # (no key: the rule refuses it; no grant either)
    ):
        stack = make_stack(translated, mode, variant, parameters)
        assert stack.role_statements() == baseline, parameters
        prefix = stack.value("SourcePrefix")
        for action in ("s3:GetObject", "s3:PutObject"):
            assert not allowed(baseline, action, key_file_arn(prefix)), action


@pytest.mark.parametrize("mode", MODES.values(), ids=MODES.keys())
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_key_file_is_the_one_key_granted_more(
    translated: dict[str, Any], mode: dict[str, str], variant: dict[str, str]
) -> None:
    baseline = make_stack(translated, mode, variant).role_statements()
    stack = make_stack(translated, mode, variant, SEND, KEY_FILE)
    statements = stack.role_statements()
    prefix = stack.value("SourcePrefix")
    added = [statement for statement in statements if statement not in baseline]
    assert [statement for statement in baseline if statement not in statements] == []
    assert added == [
        {
            "Sid": "ReadWriteIndexNowKeyFile",
            "Effect": "Allow",
            "Action": ["s3:GetObject", "s3:PutObject"],
            "Resource": key_file_arn(prefix),
        }
    ]
    for action in ("s3:GetObject", "s3:PutObject"):
        assert allowed(statements, action, key_file_arn(prefix)), action
    assert not allowed(statements, "s3:DeleteObject", key_file_arn(prefix))
    robots = stack.value("RobotsTxt") == "true"
    for elsewhere in (
        f"{prefix}other.txt",
        f"{prefix}{KEY}.txt.bak",
        f"{prefix}a/{KEY}.txt",
        f"{prefix}{KEY[:-1]}.txt",
        f"other/{KEY}.txt",
        f"{prefix}index.html",
        f"{prefix}robots.txt",
    ):
        if elsewhere.endswith("robots.txt") and robots:
            continue
        assert not allowed(statements, "s3:PutObject", object_arn(elsewhere)), elsewhere
    if prefix:
        assert not allowed(statements, "s3:PutObject", key_file_arn(""))
    # A missing key file's GET is a 403 with a prefix: one LIST of exactly its key tells.
    (listing,) = (s for s in statements if s.get("Sid") == "ListSite")
    condition = listing.get("Condition", {}).get("StringLike", {}).get("s3:prefix", "*")
    assert iam_matches(condition, f"{prefix}{KEY}.txt")


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_pending_urls_live_under_the_state_grants(
    translated: dict[str, Any], variant: dict[str, str]
) -> None:
    # Unsharded: in the one state object. Partitioned: sitemill-state/indexnow.json.gz,
    # read and written (never deleted), its missing-key 403 told by a LIST of exactly it.
    stack = make_stack(translated, variant, SEND)
    statements = stack.role_statements()
    prefix = stack.value("SourcePrefix")
    for key in (f"{BUCKET}/{prefix}{STATE}", f"{BUCKET}/{prefix}sitemill-state/indexnow.json.gz"):
        for action in ("s3:GetObject", "s3:PutObject"):
            assert allowed(statements, action, state_arn(key)), (action, key)
        assert not allowed(statements, "s3:DeleteObject", state_arn(key)), key
        (listing,) = (s for s in statements if s.get("Sid") == "ListState")
        patterns = listing["Condition"]["StringLike"]["s3:prefix"]
        assert any(iam_matches(pattern, key) for pattern in patterns), key
        assert listing["Resource"] == f"arn:{PARTITION}:s3:::StateBucket-physical-id"
    # Nothing of IndexNow is ever written in the site bucket but the key file.
    for name in ("indexnow.json.gz", "sitemill-state/indexnow.json.gz"):
        assert not allowed(statements, "s3:PutObject", object_arn(prefix + name)), name
