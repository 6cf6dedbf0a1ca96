"""The Jekyll form built by Jekyll with jekyll-redirect-from: each `redirect_from`, put in the
front matter of the page named, gives a redirect page at the removed URL that leads to that
page (skipped without jekyll and the plugin: .ci/run installs both)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote

import pytest
import yaml

from sitemill.redirects import Redirect, RedirectForm, render_redirects

PAGES = {"/docs/new/x/": "new-x.md", "/docs/guide/": "guide.md", "/docs/caf%C3%A9/": "cafe.md"}
MOVES = [
    Redirect("/docs/old/x.html", "/docs/new/x/"),
    Redirect("/docs/old/", "/docs/new/x/"),
    Redirect("/docs/guide%20v1.html", "/docs/guide/"),
    Redirect("/docs/caf%C3%A9-old/", "/docs/caf%C3%A9/"),
]


def test_jekyll_writes_a_redirect_page_at_each_removed_url(tmp_path: Path) -> None:
    if shutil.which("jekyll") is None:
        pytest.skip("jekyll is not installed; .ci/run installs the Debian package")
    blocks = yaml.safe_load(render_redirects(MOVES, RedirectForm.JEKYLL, base_path="/docs/"))
    config = {"url": "https://example.org", "baseurl": "/docs", "plugins": ["jekyll-redirect-from"]}
    (tmp_path / "_config.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    for served_at, source in PAGES.items():
        matter = {"title": "t", "permalink": unquote(served_at).removeprefix("/docs")}
        matter |= blocks[served_at]
        text = "---\n" + yaml.safe_dump(matter, allow_unicode=True) + "---\nbody\n"
        (tmp_path / source).write_text(text, encoding="utf-8")
    done = subprocess.run(["jekyll", "build"], cwd=tmp_path, capture_output=True, text=True)
    if "jekyll-redirect-from" in done.stderr and done.returncode:
        pytest.skip("jekyll-redirect-from is not installed (.ci/run: ruby-jekyll-redirect-from)")
    assert done.returncode == 0, done.stderr
    for move in MOVES:
        stub = unquote(move.source).removeprefix("/docs/")
        stub += "index.html" if stub.endswith("/") else ""
        html = (tmp_path / "_site" / stub).read_text(encoding="utf-8")
        found = re.search(r'http-equiv="refresh" content="0; url=([^"]*)"', html)
        assert found is not None, stub
        assert found.group(1) == "https://example.org" + move.target
