"""netlify.toml's [[redirects]] read after `_redirects`, and the work a lookup does."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemill.cli.main import main
from sitemill.redirects import parse_netlify_toml, parse_redirects_file
from sitemill.redirects.netlifyfile import PatternRule

TOML = b"""
[build]
publish = "public"

[[redirects]]
from = "/old"
to = "/new"

[[redirects]]
from = "/blog/*"
to = "/posts/:splat"
status = 302
force = true

[[redirects]]
from = "/search"
to = "/find"
query = {q = ":q"}

[[redirects]]
from = "/fr"
to = "/fr/home/"
conditions = {Language = ["fr"]}

[[redirects]]
from = "/app/*"
to = "/index.html"
status = 200

[[redirects]]
from = "/bad"
status = 301

[[redirects]]
from = "/worse"
to = "/x"
status = true
"""


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/old/", ("/new", 301)),
        ("/blog/2024/a.html", ("/posts/2024/a.html", 302)),
        ("/search", None),
        ("/fr", None),
        ("/app/settings", ("/index.html", 200)),
        ("/bad", None),
    ],
)
def test_what_a_path_is_sent_to(path: str, expected: tuple[str, int] | None) -> None:
    rules = parse_netlify_toml(TOML)
    assert rules.target_of(path) == expected
    assert (rules.ignored, rules.invalid) == (2, 2)


@pytest.mark.parametrize("data", [b"not = [toml", b"\xff\xfe", b"redirects = 3", b" " * 5_000_000])
def test_a_file_that_is_no_netlify_toml_gives_no_rules(data: bytes) -> None:
    rules = parse_netlify_toml(data)
    assert len(rules) == 0
    assert rules.target_of("/x") is None


def test_redirects_file_rules_come_first_then_the_toml() -> None:
    file_rules = parse_redirects_file(b"/old /from-file 301\n/only-file/* /f/:splat 301\n")
    both = file_rules.then(parse_netlify_toml(TOML))
    assert both.target_of("/old") == ("/from-file", 301)
    assert both.target_of("/blog/x") == ("/posts/x", 302)
    assert both.target_of("/only-file/y") == ("/f/y", 301)
    assert (both.ignored, both.invalid) == (2, 2)
    toml_first = parse_netlify_toml(TOML).then(file_rules)
    assert toml_first.target_of("/old") == ("/new", 301)


def test_only_a_newline_ends_a_line_and_any_javascript_space_ends_a_word() -> None:
    # as Netlify's own parser: text.split("\n"), then words split on JavaScript's \s
    rules = parse_redirects_file("/a /b 301\u2028/c /d 301\n/e\xa0/f\u3000302\n".encode())
    assert rules.target_of("/c") is None  # no second line: words of the first one
    assert rules.target_of("/e") == ("/f", 302)


def test_netlify_reads_every_word_before_the_target_as_a_query_and_a_lone_status_as_forward() -> (
    None
):
    rules = parse_redirects_file(b"/a junk /b\n/app/* 200\n/c 301\n/d /e 30x\n/f /g 301! Sign=K\n")
    assert rules.target_of("/a") is None  # a rule on the query string
    assert rules.target_of("/app/x") == ("/app/x", 200)  # a forward rule: served
    assert rules.target_of("/c") is None and rules.target_of("/d") == ("/e", 30)
    assert rules.target_of("/f") == ("/g", 301)  # a signature is no condition
    assert (rules.ignored, rules.invalid) == (1, 1)


def test_a_lookup_tries_only_the_patterns_before_its_exact_rule(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lines = [b"/early/* /e/:splat 301"]
    lines += [b"/p%d /q%d 301" % (i, i) for i in range(50_000)]
    lines += [b"/late%d/* /l/:splat 301" % i for i in range(500)]
    rules = parse_redirects_file(b"\n".join(lines))
    tried = []
    original = PatternRule.target_of

    def counting(self: PatternRule, path: str) -> tuple[str, int] | None:
        tried.append(path)
        return original(self, path)

    monkeypatch.setattr(PatternRule, "target_of", counting)
    assert rules.target_of("/p49999") == ("/q49999", 301)
    assert len(tried) == 1  # the one pattern above it, not 500 below nor 50,000 exact rules
    tried.clear()
    assert rules.target_of("/nowhere") is None
    assert len(tried) == 501  # every pattern, and no exact rule one by one


def test_the_toml_takes_the_old_names_and_forward_rules_as_netlify_does() -> None:
    toml = b"""
[[redirects]]
origin = "/old"
destination = "/new"
status = 302

[[redirects]]
from = "/spa/*"
status = 200

[[redirects]]
from = "/q"
to = "/r"
params = {a = "b"}
"""
    rules = parse_netlify_toml(toml)
    assert rules.target_of("/old") == ("/new", 302)
    assert rules.target_of("/spa/x") == ("/spa/x", 200)
    assert rules.target_of("/q") is None and rules.ignored == 1
    assert parse_netlify_toml(b"[redirects]\nfrom = '/a'\nto = '/b'\n").invalid == 1


NESTED = b"x = " + b"[" * 5_000 + b"]" * 5_000 + b'\n[[redirects]]\nfrom = "/b"\nto = "/a"\n'


def test_a_toml_nested_past_the_recursion_limit_gives_no_rules() -> None:
    rules = parse_netlify_toml(NESTED)
    assert (len(rules), rules.invalid) == (0, 1)
    assert rules.target_of("/b") is None


@pytest.mark.parametrize("command", ["build", "diff"])
def test_build_and_diff_read_a_deeply_nested_netlify_toml_without_a_traceback(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A page removed since the last build sends sitemill to the site's netlify.toml: one
    nested 5,000 deep (tomllib recurses) is a file without rules, not a RecursionError."""
    site, out = tmp_path / "site", tmp_path / "out"
    site.mkdir()
    for name in ("index", "a", "b"):
        words = " ".join(f"{name}{n}" for n in range(80))
        (site / f"{name}.html").write_text(
            f"<html><head><title>{name}</title></head><body><main><p>{words}</p></main></body></html>",
            encoding="utf-8",
        )
    argv = [str(site), "--out", str(out), "--base-url", "https://example.org/"]
    assert main(["-q", "build", *argv]) == 0
    (site / "b.html").unlink()
    (site / "netlify.toml").write_bytes(NESTED)
    capsys.readouterr()
    assert main([command, *argv]) == 0
    printed = capsys.readouterr()
    assert "Traceback" not in printed.err and "Recursion" not in printed.err + printed.out
    assert command == "build" or "1 gone" in printed.out
