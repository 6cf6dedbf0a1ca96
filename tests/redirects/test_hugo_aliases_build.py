"""The Hugo form built by Hugo: each alias, put in the front matter of the page named, gives a
redirect page at the removed URL that leads to that page (skipped without a hugo binary:
.ci/run installs it)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote

import pytest
import yaml

from sitemill.redirects import Redirect, RedirectForm, render_redirects

BASE = "https://example.org/docs/"
PAGES = {  # the URL path a page is served at -> its source file
    "/docs/new/x/": "new/x.md",
    "/docs/guide/": "guide.md",
    "/docs/caf%C3%A9/": "café.md",
}
MOVES = [
    Redirect("/docs/old/x.html", "/docs/new/x/"),
    Redirect("/docs/old/", "/docs/new/x/"),
    Redirect("/docs/guide%20v1.html", "/docs/guide/"),
    Redirect("/docs/caf%C3%A9-old/", "/docs/caf%C3%A9/"),
]


def front_matter(text: str, served_at: str, toml: bool) -> str:
    """The page's front matter, from the block the Hugo form wrote for it."""
    if not toml:
        aliases = yaml.safe_load(text)[served_at]["aliases"]
        return "---\ntitle: t\n" + yaml.safe_dump({"aliases": aliases}) + "---\n"
    lines = text.splitlines()
    block = lines.index(f'"{served_at}":')
    toml_line = lines[block - 1].removeprefix("#   TOML (+++): ")
    return f'+++\ntitle = "t"\n{toml_line}\n+++\n'


def test_hugo_writes_a_redirect_page_at_each_removed_url(tmp_path: Path) -> None:
    if shutil.which("hugo") is None:
        pytest.skip("hugo is not installed; .ci/run installs the Debian package")
    text = render_redirects(MOVES, RedirectForm.HUGO, base_path="/docs/")
    (tmp_path / "config.toml").write_text(
        f'baseURL = "{BASE}"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n'
    )
    (tmp_path / "layouts" / "_default").mkdir(parents=True)
    for name in ("single.html", "list.html"):
        (tmp_path / "layouts" / "_default" / name).write_text("<p>{{ .Title }}</p>")
    for index, (served_at, source) in enumerate(sorted(PAGES.items())):
        page = tmp_path / "content" / source
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(front_matter(text, served_at, toml=index % 2 == 0), encoding="utf-8")
    subprocess.run(["hugo", "--quiet"], cwd=tmp_path, check=True, capture_output=True)
    for move in MOVES:
        stub = unquote(move.source).removeprefix("/docs/")
        stub += "index.html" if stub.endswith("/") else ""
        html = (tmp_path / "public" / stub).read_text(encoding="utf-8")
        found = re.search(r'http-equiv="?refresh"? content="?0; ?url=([^">]*)', html)
        assert found is not None, stub
        assert found.group(1) == "https://example.org" + move.target
