"""Evidence must be proof: a source dates a page only when the folder is that generator's output
for the config found above it (its output setting, else its default; Sphinx: a _build or build
folder, or pages whose generator meta says Sphinx), never a copy of other pages in another folder
(docs/lastmod.md, "Rung 2: the page's source"). A real repository with fixed dates, the built
pages untracked, as a quick start leaves them."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from srcmaputil import prose

from gitutil import commit, make_repo
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.jobs._treesiteurl import tree_site_urls
from sitemill.sinks import LocalDirSink

BASE = "https://www.example.com/"
WHEN = "2021-04-05T06:07:08"
DATED = f"{WHEN}+00:00"
TEXT, NOTE = prose("home"), prose("note")
URL = re.compile(r"<url><loc>(.*?)</loc>(?:<lastmod>(.*?)</lastmod>)?")
MKDOCS_SOURCES = {"docs/README.md": f"# Home\n\n{TEXT}\n", "notes/note.md": f"# Note\n\n{NOTE}\n"}
HUGO_SOURCES = {"content/_index.md": f"---\ntitle: Home\n---\n{TEXT}\n", "layouts/x.html": "x"}
JEKYLL_SOURCES = {"index.md": f"---\ntitle: Home\n---\n{TEXT}\n"}

# (case, the repository's files, the folder the pages are built in, dated by the source)
CASES = [
    ("mkdocs site_dir site, built in public", {"mkdocs.yml": "site_dir: site\n"}, "public", False),
    ("mkdocs site_dir site, built in site", {"mkdocs.yml": "site_dir: site\n"}, "site", True),
    ("mkdocs default, built in public", {"mkdocs.yml": "site_name: S\n"}, "public", False),
    ("mkdocs default, built in site", {"mkdocs.yml": "site_name: S\n"}, "site", True),
    ("mkdocs site_dir public", {"mkdocs.yml": "site_dir: ./public/\n"}, "public", True),
    ("mkdocs site_dir public, built in site", {"mkdocs.yml": "site_dir: public\n"}, "site", False),
    ("mkdocs beside, built in docs/site", {"docs/mkdocs.yml": "docs_dir: .\n"}, "docs/site", True),
    ("hugo default, built in public", {"hugo.toml": "title = 'S'\n"}, "public", True),
    ("hugo publishDir out, in public", {"hugo.toml": "publishDir = 'out'\n"}, "public", False),
    ("hugo publishDir out, in out", {"hugo.toml": "publishDir = 'out'\n"}, "out", True),
    ("hugo publishdir any case", {"hugo.yaml": "PublishDir: out\n"}, "out", True),
    ("jekyll default, built in public", {"_config.yml": "title: S\n"}, "public", False),
    ("jekyll default, built in _site", {"_config.yml": "title: S\n"}, "_site", True),
    ("jekyll destination built", {"_config.yml": "destination: built\n"}, "built", True),
    ("jekyll destination, in _site", {"_config.yml": "destination: built\n"}, "_site", False),
]
SOURCES = {"mkdocs": MKDOCS_SOURCES, "hugo": HUGO_SOURCES, "jekyll": JEKYLL_SOURCES}


def html(text: str, head: str = "") -> str:
    head = f"<!doctype html><html><head><title>Home</title>{head}</head>"
    return f"{head}<body><main><p>{text}</p></main></body></html>"


def built_repo(tmp_path: Path, files: dict[str, str], folder: str, head: str = "") -> Path:
    """A repository of ``files`` committed at WHEN (the built folders ignored) and its pages
    built in ``folder``: the home page (the README's text), and a page of the note's text."""
    repo = make_repo(tmp_path / "repo")
    ignored = "public/\nsite/\nout/\n_site/\nbuilt/\ndist/\ndocs/site/\ndocs/_build/\n"
    commit(repo, {".gitignore": ignored, **files}, WHEN)
    site = repo / folder
    site.mkdir(parents=True)
    (site / "index.html").write_text(html(TEXT, head))
    (site / "note.html").write_text(html(NOTE, head))
    return site


def build(site: Path) -> dict[str, str | None]:
    build_from_tree(load_config({"base_url": BASE}), site, LocalDirSink(site), output_dir=site)
    text = (site / "sitemap.xml").read_text()
    return {loc.removeprefix(BASE): lastmod or None for loc, lastmod in URL.findall(text)}


def family(files: dict[str, str]) -> str:
    name = next(iter(files)).rsplit("/", 1)[-1]
    return {"mkdocs.yml": "mkdocs", "_config.yml": "jekyll"}.get(name, "hugo")


@pytest.mark.parametrize(
    ("config", "folder", "dated"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_a_source_dates_a_page_only_in_the_configured_output(
    tmp_path: Path, config: dict[str, str], folder: str, dated: bool
) -> None:
    files = {**config, **SOURCES[family(config)]}
    if "docs/mkdocs.yml" in config:  # (the project in docs/, its pages beside the config)
        files = {**config, "docs/index.md": f"# Home\n\n{TEXT}\n"}
    listed = build(built_repo(tmp_path, files, folder))
    assert listed[""] == (DATED if dated else None)


def test_a_content_match_dates_no_page_outside_the_configured_output(tmp_path: Path) -> None:
    # note.html holds notes/note.md's text, which no convention maps: in MkDocs' own site/
    # the content match dates it; in a copy in public/ nothing of the repository does.
    files = {"mkdocs.yml": "site_dir: site\n", **MKDOCS_SOURCES}
    assert build(built_repo(tmp_path / "a", files, "site")) == {"": DATED, "note.html": DATED}
    assert build(built_repo(tmp_path / "b", files, "public")) == {"": None, "note.html": None}


def test_the_repository_quick_start_dates_no_page_by_its_own_docs(tmp_path: Path) -> None:
    # This repository's case: mkdocs.yml builds its docs/ into site/; the example site copied to
    # public/ (README, "Quick start: the CLI") had its home page dated by docs/README.md.
    files = {"mkdocs.yml": "docs_dir: docs\nsite_dir: site\n", "docs/README.md": "# sitemill\n"}
    site = built_repo(tmp_path, files, "public")
    shutil.copy(site / "index.html", site / "about.html")
    (site / "index.html").write_text(html("A small static site for the sitemill demo."))
    assert build(site)[""] is None


@pytest.mark.parametrize(
    ("generator", "dated"),
    [("mkdocs-1.6.0, mkdocs-material-9.5.0", True), ("Hugo 0.125.0", False), (None, True)],
)
def test_pages_that_name_another_generator_are_no_build_of_the_config(
    tmp_path: Path, generator: str | None, dated: bool
) -> None:
    head = "" if generator is None else f'<meta name="generator" content="{generator}">'
    files = {"mkdocs.yml": "site_name: S\n", **MKDOCS_SOURCES}
    assert build(built_repo(tmp_path, files, "site", head))[""] == (DATED if dated else None)


SPHINX = {"docs/conf.py": "project = 'S'\n", "docs/index.rst": f"Home\n====\n\n{TEXT}\n"}


@pytest.mark.parametrize(
    ("folder", "generator", "dated"),
    [
        ("docs/_build/html", None, True),
        ("public", None, False),
        ("public", "Sphinx 7.2.6", True),
        ("public", "MkDocs 1.6", False),
    ],
)
def test_sphinx_builds_in_its_build_folder_or_where_its_pages_say_so(
    tmp_path: Path, folder: str, generator: str | None, dated: bool
) -> None:
    head = "" if generator is None else f'<meta name="generator" content="{generator}">'
    site = built_repo(tmp_path, SPHINX, folder, head)
    assert build(site)[""] == (DATED if dated else None)


def test_the_site_url_evidence_asks_the_same_question(tmp_path: Path) -> None:
    # One output folder for both: a config's site URL is strong evidence for its own output
    # only, as its setting names it (Astro's outDir was read by neither before).
    config = (
        "export default defineConfig({ site: 'https://docs.example.org', outDir: './built/docs' })"
    )
    files = {"astro.config.mjs": config}
    for folder, strong in (("built/docs", True), ("dist", False)):
        site = built_repo(tmp_path / folder.replace("/", "-"), files, folder)
        (found,) = tree_site_urls(site, None, BASE)
        assert (found.base, found.strong) == ("https://docs.example.org/", strong)
