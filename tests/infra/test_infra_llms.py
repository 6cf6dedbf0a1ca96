"""infra/template.yaml and llms.txt (issue 67): the function's roles may read, write and delete
llms.txt (a language folder's too) and llms-full.txt only when LlmsTxt or LlmsFull is on, the
Markdown twins only when LlmsPages is; never a page; the variables reach the function."""

from __future__ import annotations

from typing import Any

import pytest
from test_infra import (
    allowed,
    make_stack,
    object_arn,
    statements_with,
    template,
    translated,
)

LLMS = ("llms.txt", "fr/llms.txt", "docs/en/llms.txt", "llms-full.txt")
TWINS = ("index.html.md", "docs/guide.html.md")
PAGES = ("index.html", "docs/guide.html", "llms.txt.html", "llms-full.txt.bak")
ACTIONS = ("s3:GetObject", "s3:PutObject", "s3:DeleteObject")
ROLES = ("FunctionRole", "ReduceRole")
__all__ = ["template", "translated"]  # (the module's fixtures)


@pytest.mark.parametrize(
    ("parameters", "files", "twins"),
    [
        pytest.param({}, False, False, id="defaults"),
        pytest.param({"LlmsTxt": "true"}, True, False, id="llms-txt"),
        pytest.param({"LlmsTxt": "replace"}, True, False, id="replace"),
        pytest.param({"LlmsFull": "true"}, True, False, id="llms-full"),
        pytest.param({"LlmsPages": "true"}, False, True, id="llms-pages"),
        pytest.param(
            {"LlmsTxt": "true", "LlmsFull": "true", "LlmsPages": "true", "SourcePrefix": "site/"},
            True,
            True,
            id="all",
        ),
    ],
)
@pytest.mark.parametrize("role", ROLES)
def test_llms_names_are_written_only_when_on_and_deleted_whatever(
    translated: dict[str, Any], parameters: dict[str, str], files: bool, twins: bool, role: str
) -> None:
    stack = make_stack(translated, {"Shards": "auto"}, parameters)
    statements = stack.role_statements(role)
    sids = {statement.get("Sid") for statement in statements}
    assert ("WriteLlmsFiles" in sids) is files
    assert ("WriteMarkdownTwins" in sids) is twins
    assert "ReadDeleteLlmsFiles" in sids  # (a run that turns them off deletes sitemill's)
    prefix = stack.value("SourcePrefix")
    for action in ACTIONS:
        for names, on in ((LLMS, files), (TWINS, twins)):
            for name in names:
                granted = allowed(statements, action, object_arn(prefix + name))
                # (the root's llms.txt and llms-full.txt: read and deleted whatever the settings)
                always = name in ("llms.txt", "llms-full.txt") and action != "s3:PutObject"
                assert granted is (on or always), (action, name)
        for page in PAGES:
            if action != "s3:GetObject":  # (pages are read: ReadPageHeads)
                assert not allowed(statements, action, object_arn(prefix + page)), page
    if prefix:
        assert not allowed(statements, "s3:PutObject", object_arn("llms.txt"))
    actions = (s["Action"] for s in statements_with(statements, "s3:"))
    s3_actions = {a for found in actions for a in ([found] if isinstance(found, str) else found)}
    assert s3_actions <= {"s3:ListBucket", *ACTIONS}


def test_the_settings_reach_the_function(translated: dict[str, Any]) -> None:
    parameters = {"LlmsTxt": "replace", "LlmsFull": "true", "LlmsPages": "true"}
    stack = make_stack(translated, parameters, {"LlmsFullMaxBytes": "65536"})
    function = stack.resources()["SitemillFunction"]["Properties"]
    variables = function["Environment"]["Variables"]
    assert variables["SITEMILL_LLMS_TXT"] == "replace"
    assert variables["SITEMILL_LLMS_FULL"] == variables["SITEMILL_LLMS_PAGES"] == "true"
    assert variables["SITEMILL_LLMS_FULL_MAX_BYTES"] == "65536"
