"""The inputs whose readings by node tools are recorded in node_answers.json, and the reading of
that record. record_node_answers.py (beside this) asks the tools again where node and
netlify-redirect-parser are installed; the tests compare sitemill with the record everywhere."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_netlify_toml import TOML

from sitemill.redirects import Redirect, RedirectForm, render_redirects

ANSWERS = Path(__file__).with_name("node_answers.json")
RECORD = "NODE_PATH=... PYTHONPATH=src python tests/redirects/record_node_answers.py"

NETLIFY_FILES = {
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
# netlify.toml after a _redirects file: Netlify merges them, the file's rules first.
FILE_BEFORE_TOML = b"/old /from-file 301\n/blog/x /file-x 301\n"
NETLIFY_TOML = TOML

DOCUSAURUS_HOSTILE = [
    Redirect(f"/{name}.html", "/new/")
    for name in ("a%20b", "caf%C3%A9", "%22q%22", "it's", "100%25", "%E6%97%A5", "a%3Fb",
                 "a%23b", "a%0Ab", "a%5Cb", "a%09b", "%7Bx%7D", "a%60b", "%3Cx%3E")
]  # fmt: skip
DOCUSAURUS_AS_SCRIPT = [Redirect("/a%E2%80%A8b/", "/c/"), Redirect("/%F0%9F%98%80/", "/d/")]


def node_inputs() -> dict[str, dict[str, str]]:
    """Each recorded case's inputs, by name: the files (or text) a tool was given."""
    cases = {
        f"netlify-redirect-parser, _redirects: {name}": {"_redirects": text.decode()}
        for name, text in NETLIFY_FILES.items()
    }
    cases["netlify-redirect-parser, _redirects then netlify.toml"] = {
        "_redirects": FILE_BEFORE_TOML.decode(),
        "netlify.toml": NETLIFY_TOML.decode(),
    }
    docusaurus = RedirectForm.DOCUSAURUS
    cases["docusaurus pathnames"] = {"text": render_redirects(DOCUSAURUS_HOSTILE, docusaurus)}
    cases["docusaurus as javascript"] = {"text": render_redirects(DOCUSAURUS_AS_SCRIPT, docusaurus)}
    return cases


def recorded_answer(case: str) -> Any:
    """The tool's recorded answer for `case`, whose inputs must be today's (else: record again)."""
    record = json.loads(ANSWERS.read_text(encoding="utf-8"))
    inputs = node_inputs()[case]
    if record["cases"][case]["inputs"] != inputs:
        pytest.fail(f"{case}: the inputs are not the recorded ones; record again: {RECORD}")
    return record["cases"][case]["answer"]
