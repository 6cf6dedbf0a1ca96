"""A release names its own repository (infra/release_names.py): until the docs' `uses:` lines
and the project URLs name the repository the release runs in, at the tag's major version, the
release stops with one line that says the fix; `--set-repository` is that fix, made once."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from scriptmodule import load_script

ROOT = Path(__file__).resolve().parents[2]


names = load_script(ROOT / "infra" / "release_names.py", "release_names")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """The files a release reads its names from, as this checkout has them."""
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    for name in ("README.md", "pyproject.toml"):
        shutil.copyfile(ROOT / name, tmp_path / name)
    return tmp_path


def test_the_docs_use_the_action_in_every_workflow_they_show() -> None:
    found = list(names.action_uses(ROOT))
    assert len(found) >= 8
    assert {major for _, _, major in found} == {"v1"}  # (the first release is 1.0.0)


def test_a_placeholder_stops_the_release_with_the_fix(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text("```yaml\n      - uses: OWNER/sitemill@v1\n```\n")
    shutil.copyfile(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    with pytest.raises(names.NamesError) as caught:
        names.check_names(tmp_path, "acme/sitemill", "v1.0.0")
    assert str(caught.value) == (
        "README.md uses OWNER/sitemill@v1, not acme/sitemill@v1: run `python "
        "infra/release_files.py --set-repository acme/sitemill` and commit"
    )


def test_set_repository_names_it_everywhere_once(tree: Path) -> None:
    changed = names.set_repository(tree, "acme/sitemill")
    assert tree / "pyproject.toml" in changed and tree / "README.md" in changed
    names.check_names(tree, "acme/sitemill", "v1.2.3")
    assert names.set_repository(tree, "acme/sitemill") == []  # (a second time changes nothing)
    project = tomllib.loads((tree / "pyproject.toml").read_text())["project"]
    assert project["urls"]["Repository"] == "https://github.com/acme/sitemill"
    assert project["scripts"] == {"sitemill": "sitemill.cli:main"}  # (the table after it kept)


def test_another_repository_or_major_stops_the_release(tree: Path) -> None:
    names.set_repository(tree, "acme/sitemill")
    with pytest.raises(names.NamesError, match="not fork/sitemill@v1"):
        names.check_names(tree, "fork/sitemill", "v1.0.0")
    with pytest.raises(names.NamesError, match="uses acme/sitemill@v1, not acme/sitemill@v2"):
        names.check_names(tree, "acme/sitemill", "v2.0.0")


def test_project_urls_of_another_repository_stop_the_release(tree: Path) -> None:
    names.set_repository(tree, "acme/sitemill")
    for page in names.doc_pages(tree):  # the docs moved on, the URLs did not
        page.write_text(page.read_text().replace("acme/sitemill@", "neworg/sitemill@"))
    with pytest.raises(names.NamesError, match=r"\[project.urls\] are not neworg/sitemill's"):
        names.check_names(tree, "neworg/sitemill", "v1.0.0")


@pytest.mark.parametrize("bad", ["acme", "acme/sitemill/extra", "-acme/sitemill", "a b/c", ""])
def test_set_repository_takes_only_owner_slash_name(tree: Path, bad: str) -> None:
    with pytest.raises(names.NamesError, match="is not a GitHub repository's OWNER/NAME"):
        names.set_repository(tree, bad)


def test_the_release_script_stops_before_it_builds_anything(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, ROOT / "infra" / "release_files.py", tmp_path / "out",
         "--repository", "someone/not-this-one"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 1 and not (tmp_path / "out").exists()
    assert done.stderr.startswith("release_files: error: ") and done.stderr.count("\n") == 1
    assert "--set-repository someone/not-this-one" in done.stderr
