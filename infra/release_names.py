"""Where a release names its own repository: the docs' `uses: OWNER/NAME@vN` lines and the
package's project URLs (the package index's sidebar links).

Until the project's repository is decided, the docs say ``OWNER/sitemill`` and pyproject.toml
has no project URLs. ``release_files.py --set-repository OWNER/NAME`` writes both, once; a
release (``release_files.py --repository "$GITHUB_REPOSITORY" --tag vX.Y.Z``) refuses to go on
until they name the repository it runs in, with the tag's major version (``v1`` for 1.2.3), so
no release page or package index page sends a reader to a placeholder or another repository.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Final

PLACEHOLDER: Final = "OWNER/sitemill"
# A workflow's step that uses the action, as the docs write it.
USES: Final = re.compile(r"uses: ([\w.-]+/[\w.-]+)@(v\d+)\b")
REPOSITORY: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9._-]{1,100}")


class NamesError(Exception):
    """The docs or the metadata do not name the repository: one line, with the fix."""


def doc_pages(root: Path) -> list[Path]:
    return [root / "README.md", *sorted((root / "docs").glob("*.md"))]


def action_uses(root: Path) -> Iterator[tuple[Path, str, str]]:
    """Each (page, repository, major tag) that a docs page's workflow uses the action from."""
    for page in doc_pages(root):
        for match in USES.finditer(page.read_text(encoding="utf-8")):
            if match[1].endswith("/sitemill"):
                yield page, match[1], match[2]


def project_urls(repository: str) -> dict[str, str]:
    home = f"https://github.com/{repository}"
    return {
        "Homepage": home,
        "Documentation": f"{home}/tree/main/docs",
        "Changelog": f"{home}/blob/main/CHANGELOG.md",
        "Issues": f"{home}/issues",
        "Repository": home,
    }


def check_names(root: Path, repository: str, tag: str) -> None:
    """The docs use the action from ``repository`` at the tag's major; the project URLs are
    ``repository``'s."""
    fix = f"run `python infra/release_files.py --set-repository {repository}` and commit"
    major = tag.split(".")[0]
    found = list(action_uses(root))
    if not found:
        raise NamesError("README.md and docs/ name no `uses: …/sitemill@vN` line to check")
    for page, named, named_major in found:
        if (named, named_major) != (repository, major):
            where = page.relative_to(root).as_posix()
            raise NamesError(f"{where} uses {named}@{named_major}, not {repository}@{major}: {fix}")
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    if project.get("urls") != project_urls(repository):
        raise NamesError(f"pyproject.toml's [project.urls] are not {repository}'s: {fix}")


def set_repository(root: Path, repository: str) -> list[Path]:
    """Write ``repository`` in place of the placeholder in the docs, and its project URLs into
    pyproject.toml (before [project.scripts]); the files changed."""
    if not REPOSITORY.fullmatch(repository):
        raise NamesError(f"{repository!r} is not a GitHub repository's OWNER/NAME")
    changed = []
    for page in doc_pages(root):
        text = page.read_text(encoding="utf-8")
        if PLACEHOLDER + "@" in text:
            page.write_text(text.replace(PLACEHOLDER + "@", repository + "@"), encoding="utf-8")
            changed.append(page)
    pyproject = root / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    if tomllib.loads(text)["project"].get("urls") is None:
        table = "".join(f'{key} = "{url}"\n' for key, url in project_urls(repository).items())
        if "\n[project.scripts]" not in text:
            raise NamesError("pyproject.toml has no [project.scripts] to put [project.urls] before")
        text = text.replace("\n[project.scripts]", f"\n[project.urls]\n{table}\n[project.scripts]")
        pyproject.write_text(text, encoding="utf-8")
        changed.append(pyproject)
    return changed
