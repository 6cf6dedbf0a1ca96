"""An S3 website configuration's redirects read as S3 applies them, bounded and checked."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sitemill.redirects import (
    Redirect,
    RedirectForm,
    parse_routing_rules,
    render_redirects,
)
from sitemill.redirects._routingrules import MAX_RULES_READ

CONFIG: dict[str, Any] = {
    "IndexDocument": {"Suffix": "index.html"},
    "RoutingRules": [
        {"Condition": {"KeyPrefixEquals": "docs/old/x"}, "Redirect": {"ReplaceKeyWith": "docs/x/"}},
        {
            "Condition": {"KeyPrefixEquals": "docs/"},
            "Redirect": {"ReplaceKeyPrefixWith": "documents/", "HttpRedirectCode": "302"},
        },
        {
            "Condition": {"KeyPrefixEquals": "gone/", "HttpErrorCodeReturnedEquals": "404"},
            "Redirect": {"HostName": "archive.example", "Protocol": "https"},
        },
        {
            "Condition": {"HttpErrorCodeReturnedEquals": "500"},
            "Redirect": {"HostName": "status.example"},
        },
        {"Condition": {"KeyPrefixEquals": "away/"}, "Redirect": {"HostName": "Other.Example"}},
    ],
}


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/docs/old/x.html", ("/docs/x/", 301)),
        ("/docs/a%20b.html", ("/documents/a%20b.html", 302)),
        ("/gone/page/", ("https://archive.example/gone/page/", 301)),
        ("/away/p", ("http://other.example/away/p", 301)),  # S3 keeps the request's scheme
        ("/kept.html", None),
    ],
)
def test_what_a_path_is_sent_to(path: str, expected: tuple[str, int] | None) -> None:
    rules = parse_routing_rules(CONFIG)
    assert rules.target_of(path) == expected
    assert rules.ignored == 1  # the rule on a 500: a removed key answers 404 or 403


def test_redirect_all_requests_sends_every_path_to_the_other_host() -> None:
    rules = parse_routing_rules(
        {"RedirectAllRequestsTo": {"HostName": "new.example"}}, scheme="https"
    )
    assert rules.target_of("/a/b.html") == ("https://new.example/a/b.html", 301)


@pytest.mark.parametrize(
    "rule",
    [
        "not a rule",
        {"Condition": {"KeyPrefixEquals": 7}, "Redirect": {}},
        {"Redirect": {"ReplaceKeyWith": "a", "ReplaceKeyPrefixWith": "b"}},
        {"Redirect": {"HttpRedirectCode": "200"}},
        {"Redirect": {"HostName": "evil/path"}},
        {"Redirect": {"Protocol": "ftp", "HostName": "x"}},
        {"Condition": {"KeyPrefixEquals": "k" * 2_000}, "Redirect": {}},
        {"Condition": []},
    ],
)
def test_a_rule_of_the_wrong_shape_is_counted_and_skipped(rule: Any) -> None:
    rules = parse_routing_rules({"RoutingRules": [rule, {"Redirect": {"ReplaceKeyWith": "ok"}}]})
    assert rules.invalid == 1
    assert rules.target_of("/anything") == ("/ok", 301)


def test_a_long_answer_is_read_to_its_bound() -> None:
    listed = [{"Condition": {"KeyPrefixEquals": f"p{i}/"}, "Redirect": {}} for i in range(1_005)]
    rules = parse_routing_rules({"RoutingRules": listed})
    assert (len(rules), rules.truncated) == (MAX_RULES_READ, 5)
    assert parse_routing_rules({"RoutingRules": "nope"}).invalid == 1
    assert len(parse_routing_rules({})) == 0


def test_own_rules_read_back_to_every_redirect() -> None:
    moves = [
        Redirect("/docs/old/", "/docs/new/"),
        Redirect("/docs/old/x.html", "/docs/new/x/", 308),
        Redirect("/docs/caf%C3%A9%20au%20lait.html", "/docs/new/caf%C3%A9/"),
        Redirect("/docs/it's%22q%22.html", "https://other.example/q/"),
    ]
    config = json.loads(render_redirects(moves, RedirectForm.S3_RULES))
    rules = parse_routing_rules(config)
    assert rules.target_of("/docs/old/x.html") == ("/docs/new/x/", 308)  # not the folder's rule
    assert rules.target_of("/docs/old/") == ("/docs/new/", 301)
    assert rules.target_of("/docs/caf%C3%A9%20au%20lait.html") == ("/docs/new/caf%C3%A9/", 301)
    assert rules.target_of("/docs/it's%22q%22.html") == ("https://other.example/q/", 301)


def test_a_rule_for_every_missing_key_is_many_to_one() -> None:
    catch_all = {
        "Condition": {"HttpErrorCodeReturnedEquals": "404"},
        "Redirect": {"ReplaceKeyWith": ""},
    }
    rules = parse_routing_rules({"RoutingRules": [CONFIG["RoutingRules"][0], catch_all]})
    assert rules.target_of("/anything.html") == ("/", 301)
    assert rules.many_to_one("/anything.html")
    assert not rules.many_to_one("/docs/old/x.html")
