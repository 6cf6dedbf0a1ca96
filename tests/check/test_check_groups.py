"""`sitemill check` of a site built with named groups (docs/output.md, Named groups): a group's
children are the build's own files, checked live as the others are."""

from __future__ import annotations

from pathlib import Path

from checkstand import PAGES, build, check, publish, write_site

from enginestand import Stand

GROUPS = '[[groups]]\nname = "blog"\ninclude = ["blog/**"]\n'


def test_a_groups_children_are_checked_as_the_builds_own(tmp_path: Path, stand: Stand) -> None:
    root = tmp_path / "site"
    write_site(root, PAGES)
    (tmp_path / "sitemill.toml").write_text(GROUPS, encoding="utf-8")
    base = stand.origin + "/"
    build(root, base, "--config", str(tmp_path / "sitemill.toml"))
    assert (root / "sitemap-blog.xml").is_file()
    stand.files.clear()
    publish(stand, root)
    checked = check(root, base)
    assert checked.report.sorted_problems() == []
    # another sitemap-blog.xml served than the one built: the check says so
    stand.files["/sitemap-blog.xml"] = (200, b"<urlset/>", {"Content-Type": "application/xml"})
    problems = check(root, base).report.sorted_problems()
    assert problems and any("sitemap-blog.xml" in str(problem) for problem in problems)
