"""Input from outside never breaks a reader, and any redirect round-trips through each form:
generated cases."""

from __future__ import annotations

import json
import tomllib
from typing import Any

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemill.redirects import (
    Redirect,
    RedirectForm,
    parse_redirects_file,
    parse_routing_rules,
    render_redirects,
)

TRICKY = "/ab*:.%#!?=\\'\"\t \n\r\x00\x85\u2028\u3000\xa0é日😀"
WORDS = st.sampled_from(["/a", "/b/*", "/:x", "301", "200!", "404", "Country=us", "x=:y", "#", "*"])
LINES = st.lists(st.one_of(WORDS, st.text(TRICKY, max_size=12)), max_size=8).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(LINES, max_size=20), st.text(TRICKY, max_size=20))
def test_any_redirects_file_reads_and_answers(lines: list[str], path: str) -> None:
    rules = parse_redirects_file("\n".join(lines).encode("utf-8", "surrogatepass"))
    found = rules.target_of("/" + path)
    assert found is None or isinstance(found[1], int)
    rules.many_to_one("/" + path)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(TRICKY, max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
KEYS = st.sampled_from(
    ["KeyPrefixEquals", "HttpErrorCodeReturnedEquals", "ReplaceKeyWith", "ReplaceKeyPrefixWith",
     "HostName", "Protocol", "HttpRedirectCode"]
)  # fmt: skip
PARTS = st.dictionaries(KEYS, JSONISH | st.sampled_from(["404", "301", "https", "a/", ""]))
RULE = st.fixed_dictionaries(
    {}, optional={"Condition": PARTS | JSONISH, "Redirect": PARTS | JSONISH}
)


@settings(max_examples=300, deadline=None)
@given(st.lists(RULE | JSONISH, max_size=6), st.text(TRICKY, max_size=20))
def test_any_website_configuration_reads_and_answers(listed: list[Any], path: str) -> None:
    rules = parse_routing_rules({"RoutingRules": listed})
    found = rules.target_of("/" + path)
    assert found is None or 300 <= found[1] < 400


PATH = st.text(TRICKY.replace("\x00", ""), min_size=1, max_size=16).map(
    lambda text: "/" + "".join(f"%{byte:02X}" for byte in text.encode())
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(PATH, PATH), min_size=1, max_size=6, unique_by=lambda pair: pair[0]))
def test_any_redirect_reads_back_from_each_form(pairs: list[tuple[str, str]]) -> None:
    moves = [Redirect(source, target) for source, target in pairs]
    netlify = parse_redirects_file(render_redirects(moves, RedirectForm.NETLIFY).encode())
    rules = parse_routing_rules(json.loads(render_redirects(moves, RedirectForm.S3_RULES)))
    for move in moves:
        assert netlify.target_of(move.source) is not None
        assert rules.target_of(move.source) is not None
    for form in (RedirectForm.HUGO, RedirectForm.JEKYLL, RedirectForm.MKDOCS):
        text = render_redirects(moves, form)
        yaml.safe_load(text)
        for line in text.splitlines():
            if line.startswith("#   TOML (+++): "):
                tomllib.loads(line.removeprefix("#   TOML (+++): "))
    json.loads(render_redirects(moves, RedirectForm.DOCUSAURUS))
