"""`_redirects` files read by sitemill and by Netlify's own parser (netlify-redirect-parser,
under node, found on NODE_PATH; skipped without it): the same rules, the same statuses, the
same rules left aside."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from test_netlify_toml import TOML

from sitemill.redirects import (
    Redirect,
    RedirectForm,
    parse_netlify_toml,
    parse_redirects_file,
    render_redirects,
)

READ = """
const [file, config] = process.argv.slice(1);
let resolved;
try { resolved = require.resolve("netlify-redirect-parser"); } catch { process.exit(3); }
import(require("url").pathToFileURL(resolved)).then(async ({ parseAllRedirects }) => {
  const { redirects, errors } = await parseAllRedirects({
    redirectsFiles: [file], netlifyConfigPath: config,
  });
  process.stdout.write(JSON.stringify({ redirects, errors: errors.length }));
});
"""

FILES = {
    "netlify": b"""# rules of every kind
/old            /new
/news/*         /blog/:splat        302
/store id=:id   /blog/:id           301
/fr/*           /fr/404.html        404
/spa/*          200
/geo            /us/                302  Country=us,ca
https://old.example.com/*  https://new.example.com/:splat  301!
/caf\xc3\xa9           /coffee/
/dup            /first
/dup            /second
/signed         https://api.example.com/  200  Sign=KEY
/trailing       /t   # a trailing comment
/e\xc2\xa0/f\xe3\x80\x80302
/c 301
/d /e nope
""",
    "own": render_redirects(
        [
            Redirect("/docs/a b.html", "/docs/new/a b/"),
            Redirect('/docs/it\'s "q".html', "https://other.example/q/", 308),
            Redirect("/docs/100%25.html", "/docs/new/pct/", 302),
            Redirect("/docs/caf%C3%A9.html", "/docs/new/caf%C3%A9/"),
            Redirect("/docs/line%0Abreak\r\n/x /evil 200", "/docs/new/nl/"),
            Redirect("/docs/#comment", "/docs/new/c/"),
        ],
        RedirectForm.NETLIFY,
    ).encode(),
}


def netlify_reading(path: Path, config: Path | None = None) -> dict[str, Any]:
    command = ["node", "-e", READ, str(path), str(config or path.with_name("none.toml"))]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode in (3, 127):
        pytest.skip("node or netlify-redirect-parser is not installed (NODE_PATH)")
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize("name", sorted(FILES))
def test_sitemill_reads_each_rule_as_netlify_does(tmp_path: Path, name: str) -> None:
    path = tmp_path / "_redirects"
    path.write_bytes(FILES[name])
    netlify = netlify_reading(path)
    rules = parse_redirects_file(FILES[name])
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


def test_the_toml_after_the_file_reads_as_netlify_merges_them(tmp_path: Path) -> None:
    (tmp_path / "_redirects").write_bytes(b"/old /from-file 301\n/blog/x /file-x 301\n")
    (tmp_path / "netlify.toml").write_bytes(TOML)
    netlify = netlify_reading(tmp_path / "_redirects", tmp_path / "netlify.toml")
    rules = parse_redirects_file((tmp_path / "_redirects").read_bytes()).then(
        parse_netlify_toml(TOML)
    )
    assert rules.invalid == netlify["errors"]
    first: dict[str, tuple[str, int]] = {}
    for rule in netlify["redirects"]:
        if not rule.get("query") and not rule.get("conditions"):
            first.setdefault(rule["from"], (rule["to"], rule.get("status", 301)))
    for source, expected in first.items():
        if "*" not in source:
            assert rules.target_of(source) == expected, source
    assert rules.target_of("/blog/y") == ("/posts/y", 302)
