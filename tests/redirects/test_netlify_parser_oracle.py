"""`_redirects` files read by sitemill and by Netlify's own parser (netlify-redirect-parser, its
answers recorded in node_answers.json by record_node_answers.py: no node needed here): the
same rules, the same statuses, the same rules left aside."""

from __future__ import annotations

import pytest
from node_cases import FILE_BEFORE_TOML, NETLIFY_FILES, NETLIFY_TOML, recorded_answer

from sitemill.redirects import parse_netlify_toml, parse_redirects_file


@pytest.mark.parametrize("name", sorted(NETLIFY_FILES))
def test_sitemill_reads_each_rule_as_netlify_does(name: str) -> None:
    netlify = recorded_answer(f"netlify-redirect-parser, _redirects: {name}")
    rules = parse_redirects_file(NETLIFY_FILES[name])
    plain = [
        rule for rule in netlify["redirects"]
        if not rule.get("query") and not rule.get("conditions") and "host" not in rule
    ]  # fmt: skip
    assert rules.ignored == len(netlify["redirects"]) - len(plain)
    assert rules.invalid == netlify["errors"]
    seen: set[str] = set()
    for rule in plain:
        source = rule["from"]
        if "*" in source or ":" in source or source in seen:
            continue
        seen.add(source)
        assert rules.target_of(source) == (rule["to"], rule.get("status", 301)), rule
    assert len(seen) >= 5


def test_the_toml_after_the_file_reads_as_netlify_merges_them() -> None:
    netlify = recorded_answer("netlify-redirect-parser, _redirects then netlify.toml")
    rules = parse_redirects_file(FILE_BEFORE_TOML).then(parse_netlify_toml(NETLIFY_TOML))
    assert rules.invalid == netlify["errors"]
    first: dict[str, tuple[str, int]] = {}
    for rule in netlify["redirects"]:
        if not rule.get("query") and not rule.get("conditions"):
            first.setdefault(rule["from"], (rule["to"], rule.get("status", 301)))
    for source, expected in first.items():
        if "*" not in source:
            assert rules.target_of(source) == expected, source
    assert rules.target_of("/blog/y") == ("/posts/y", 302)
