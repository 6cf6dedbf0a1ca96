"""`make docs`: docs/ builds with MkDocs in strict mode, and the site's sitemap is sitemill's.

MkDocs always writes its own sitemap.xml and sitemap.xml.gz; the site must publish the one sitemill
writes from the built pages, with no stale twin of MkDocs' beside it. Strict mode must fail on a
broken link or anchor between pages and on a page missing from the nav (mkdocs.yml's
validation settings; headings get GitHub's anchors, so a link works on GitHub and on the site)."""

from __future__ import annotations

import gzip
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from outputlist import validate_paths

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
DOCS_URL = "https://docs.example.com/sitemill/"
DOCS_WORKFLOW = ROOT / ".github" / "workflows" / "docs.yml"


def make_docs(site: Path) -> subprocess.CompletedProcess[str]:
    """The Makefile's own target, with this interpreter's scripts (STAMP= skips the venv)."""
    return subprocess.run(
        ["make", "-s", "docs", f"BIN={BIN}", "STAMP=", f"DOCS_SITE={site}", f"DOCS_URL={DOCS_URL}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def mkdocs_strict(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": str(BIN), "NO_MKDOCS_2_WARNING": "1"},
    )


def test_make_docs_builds_the_site_and_sitemill_writes_its_sitemap(tmp_path: Path) -> None:
    site = tmp_path / "site"
    done = make_docs(site)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "sitemill: error" not in done.stderr

    # Every page MkDocs built, at its folder URL; the 404 page is not one.
    folders = [path.parent.relative_to(site).as_posix() for path in site.rglob("index.html")]
    expected = sorted(DOCS_URL if name == "." else f"{DOCS_URL}{name}/" for name in folders)
    assert len(expected) == len(list((ROOT / "docs").glob("*.md")))  # one per page of the nav

    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert sorted(re.findall(r"<loc>([^<]*)</loc>", sitemap)) == expected
    assert f"<loc>{DOCS_URL}404.html</loc>" not in sitemap
    # sitemill's, not MkDocs': its state is beside it, and MkDocs' .gz twin is gone.
    state = json.loads(gzip.decompress((site / "sitemill-state.json.gz").read_bytes()))
    assert isinstance(state, dict)
    assert not (site / "sitemap.xml.gz").exists()
    assert sorted(path.name for path in site.glob("sitemap*")) == ["sitemap.xml"]
    # MkDocs wrote each page's canonical from the same URL, so sitemill listed every page.
    page = (site / "cli" / "index.html").read_text(encoding="utf-8")
    assert f'<link rel="canonical" href="{DOCS_URL}cli/">' in page
    assert validate_paths([site], DOCS_URL) == []


@pytest.mark.parametrize(
    ("page", "text", "said"),
    [
        ("orphan.md", "# Not in the nav\n", "orphan.md"),
        ("README.md", "# Home\n\n[a page that is not there](nowhere.md)\n", "nowhere.md"),
        ("README.md", "# Home\n\n[a heading that is not there](cli.md#nowhere)\n", "#nowhere"),
    ],
    ids=["a page missing from the nav", "a broken link", "a broken anchor"],
)
def test_strict_mode_fails_on_what_would_break_the_site(
    tmp_path: Path, page: str, text: str, said: str
) -> None:
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    (tmp_path / "docs" / page).write_text(text, encoding="utf-8")
    done = mkdocs_strict(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert done.returncode != 0
    assert said in done.stderr


def test_the_docs_workflow_publishes_with_the_repositorys_own_action() -> None:
    data = yaml.safe_load(DOCS_WORKFLOW.read_text(encoding="utf-8"))
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert data["permissions"] == {"contents": "read"}
    build = data["jobs"]["build"]["steps"]
    uses = [str(item.get("uses", "")) for item in build]
    (sitemap,) = [item for item in build if item.get("uses") == "./"]
    assert set(sitemap["with"]) <= set(action["inputs"])
    assert sitemap["with"]["path"] == "site"
    assert sitemap["with"]["commit"] is False
    # MkDocs builds (strict), then sitemill replaces its sitemap and the .gz twin (no rm of
    # its own: the step's sitemill does it, as make docs shows); the pages are uploaded after.
    (mkdocs,) = [item for item in build if "mkdocs build --strict" in item.get("run", "")]
    assert "sitemap" not in mkdocs["run"]
    assert build.index(mkdocs) < build.index(sitemap)
    upload = next(n for n, name in enumerate(uses) if name.startswith("actions/upload-pages"))
    assert build.index(sitemap) < upload
    assert build[upload]["with"]["path"] == "site"
    deploy = data["jobs"]["deploy"]
    assert deploy["needs"] == "build"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["steps"][0]["uses"].startswith("actions/deploy-pages@")
