"""The README and docs/ hold together: every relative link and anchor resolves, no page is an
orphan, and the README still opens with the two commands."""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
_FENCE = re.compile(r"^(`{3,}|~{3,})")
_INLINE_CODE = re.compile(r"(`+).*?\1")
_LINK = re.compile(r"\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+(?:\([^()\s]*\))?[^()\s]*)\)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def outside_fences(path: Path) -> Iterator[str]:
    """The lines of a Markdown file that are not in a fenced code block."""
    fence = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        opening = _FENCE.match(line.strip())
        if opening and (not fence or opening.group(1)[0] == fence[0]):
            fence = "" if fence else opening.group(1)
        elif not fence:
            yield line


def prose_lines(path: Path) -> list[str]:
    """The lines outside fenced code blocks, inline code removed."""
    return [_INLINE_CODE.sub("", line) for line in outside_fences(path)]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text stays
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


@functools.cache
def anchors(path: Path) -> frozenset[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for line in outside_fences(path):
        heading = _HEADING.match(line)
        if heading:
            base = slug(heading.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return frozenset(found)


def relative_links(path: Path) -> list[str]:
    return [
        target
        for line in prose_lines(path)
        for target in _LINK.findall(line)
        if not re.match(r"[a-z][a-z0-9+.-]*:", target, re.IGNORECASE)  # http:, mailto:
    ]


def broken_links(path: Path) -> list[str]:
    broken = []
    for target in relative_links(path):
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            where = os.path.relpath(linked, path.parent)
            broken.append(f"{target}: no heading #{anchor} in {where}")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    assert broken_links(page) == []


def test_no_docs_page_is_an_orphan() -> None:
    linked = {
        (index.parent / target.partition("#")[0]).resolve()
        for index in (ROOT / "README.md", ROOT / "docs" / "README.md")
        for target in relative_links(index)
    }
    linked.add(ROOT / "README.md")
    assert [str(page.relative_to(ROOT)) for page in PAGES if page.resolve() not in linked] == []


def test_the_readme_opens_with_the_two_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = text.split("```", 2)[1]
    assert re.search(r"^make demo\b", first_block, re.MULTILINE)
    assert re.search(r"^make test\b", first_block, re.MULTILINE)


def test_a_broken_link_and_a_missing_anchor_are_found(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text(
        "# Title: one `thing`\n\n## Twice\n\n## Twice\n\n"
        "[ok](#title-one-thing) [ok](#twice-1) [ok](b.md) [bad](#nowhere) [bad](c.md)\n"
        "```\n[not a link](d.md)\n```\n`[code](e.md)` [web](https://example.com/x)\n",
        encoding="utf-8",
    )
    (tmp_path / "b.md").write_text("# B\n", encoding="utf-8")
    assert broken_links(tmp_path / "a.md") == [
        "#nowhere: no heading #nowhere in a.md",
        "c.md: no such file",
    ]
