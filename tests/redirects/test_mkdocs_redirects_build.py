"""The MkDocs form built by MkDocs with the mkdocs-redirects plugin: a redirect page stands
at each removed URL and leads to its target (the plugin is in the dev extra: never skipped)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from urllib.parse import unquote, urljoin

import pytest
import yaml

from sitemill.redirects import Redirect, RedirectForm, render_redirects

PAGES = ["index.md", "new.md", "new/x.md", "guide.md", "café.md"]
MOVES = {
    True: [  # use_directory_urls: pages at /a/b/
        Redirect("/old/", "/new/"),
        Redirect("/old/x/", "/new/x/"),
        Redirect("/guide%20v1/", "/guide/"),
        Redirect("/caf%C3%A9-old/", "/caf%C3%A9/"),
        Redirect("/away/", "https://other.example/a/"),
    ],
    False: [  # pages at /a/b.html
        Redirect("/old.html", "/new.html"),
        Redirect("/old/x.html", "/new/x.html"),
        Redirect("/guide%20v1.html", "/guide.html"),
    ],
}


@pytest.mark.parametrize("directory_urls", [True, False])
def test_mkdocs_writes_a_redirect_page_at_each_removed_url(
    tmp_path: Path, directory_urls: bool
) -> None:
    plugin = importlib.util.find_spec("mkdocs_redirects")
    assert plugin is not None, "mkdocs-redirects is in the dev extra: make venv installs it"
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    for page in PAGES:
        (tmp_path / "docs" / page).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "docs" / page).write_text(f"# {page}\n", encoding="utf-8")
    moves = MOVES[directory_urls]
    config = yaml.safe_load(render_redirects(moves, RedirectForm.MKDOCS))
    config |= {"site_name": "t", "use_directory_urls": directory_urls, "strict": True}
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    build(load_config(str(tmp_path / "mkdocs.yml")))
    site = tmp_path / "site"
    for move in moves:
        stub = unquote(move.source).lstrip("/") + ("index.html" if directory_urls else "")
        text = (site / stub).read_text(encoding="utf-8")
        found = re.search(r'http-equiv="refresh" content="0; url=([^"]*)"', text)
        assert found is not None, stub
        assert urljoin("https://h" + move.source, found.group(1)) == urljoin(
            "https://h", move.target
        )
