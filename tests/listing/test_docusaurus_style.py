"""A Docusaurus-shaped site (``trailingSlash`` undefined: ``x/index.html`` files whose
canonicals and hreflang alternates name ``/x``, without the final slash): the report says
which url style ``auto`` chose and why, counting only the canonicals that name the listed URL
as it is written; the note about links without the final slash is said once, by the run that
changed the sitemap, not by every later run that changes nothing."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import write_site
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.report import Report, style_line
from sitemill.sinks import MemorySink

BASE = "https://example.com/"
FOLDERS = [f"docs/d{n}" for n in range(14)] + ["blog", "docs"]
NOTE = "without the final slash named a folder page"


def docusaurus_page(folder: str) -> str:
    """What Docusaurus writes at <folder>/index.html: canonical, alternates and links all name
    /<folder>, without the final slash."""
    url = f"{BASE}{folder}"
    links = "".join(f'<a href="/{other}">{other}</a>' for other in FOLDERS)
    return (
        f'<!doctype html><html lang="en"><head><title>{folder}</title>'
        f'<link rel="canonical" href="{url}">'
        f'<link rel="alternate" hreflang="en" href="{url}">'
        f'<link rel="alternate" hreflang="x-default" href="{url}">'
        f"</head><body><main>{folder}{links}</main></body></html>"
    )


def docusaurus_site(root: Path) -> Path:
    files = {f"{folder}/index.html": docusaurus_page(folder) for folder in FOLDERS}
    home = f'<link rel="canonical" href="{BASE}">'
    files["index.html"] = f"<!doctype html><html><head><title>Home</title>{home}</head></html>"
    return write_site(root, files)


def build(site: Path, sink: MemorySink) -> Report:
    config = load_config({"base_url": BASE, "lastmod": "mtime"})
    return build_from_tree(config, site, sink)


def test_the_style_line_counts_the_canonicals_that_name_the_listed_url(tmp_path: Path) -> None:
    site, sink = docusaurus_site(tmp_path / "site"), MemorySink()
    report = build(site, sink)
    listed = re.findall(r"<loc>(.*?)</loc>", sink.files["sitemap.xml"].decode())
    # Every folder page is listed at …/x/ (where hosts serve x/index.html), its canonical …/x.
    assert f"{BASE}docs/d0/" in listed and f"{BASE}docs/d0" not in listed
    agree = [url for url in listed if url == BASE or url.rstrip("/") in listed]
    assert agree == [BASE]  # the home page alone names its listed URL exactly
    line = style_line(report)
    assert line.startswith("url style: clean (1 of 17 pages' own canonicals name their listed URL")
    assert "16 more without its final slash" in line
    assert "17 of 17" not in line
    # A later run keeps the decision and still tells it truthfully.
    again = style_line(build(site, sink))
    assert again.startswith(
        "url style: clean (kept from an earlier run: 1 of 17 pages' own canonicals named"
    )
    assert "16 more without its final slash" in again


def test_the_folder_link_note_is_said_once(tmp_path: Path) -> None:
    site, sink = docusaurus_site(tmp_path / "site"), MemorySink()
    first = build(site, sink)
    assert first.result.changed
    assert [line for line in first.warnings if NOTE in line]
    unchanged = build(site, sink)
    assert not unchanged.result.changed
    assert [line for line in unchanged.warnings if NOTE in line] == []
    # A run that changes the sitemap says it again (the links are the input it read).
    write_site(site, {"docs/new/index.html": docusaurus_page("docs/new")})
    changed = build(site, sink)
    assert changed.result.changed
    assert [line for line in changed.warnings if NOTE in line]
