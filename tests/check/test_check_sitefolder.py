"""check.published.SiteFolder: each real path is os.path.realpath's own, links and odd paths too."""

from __future__ import annotations

import os
from pathlib import Path

from sitemill.check.published import SiteFolder


def test_real_paths_are_realpaths_own(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    (outside / "deep").mkdir(parents=True)
    (outside / "deep" / "page.html").write_text("x")
    root = tmp_path / "site"
    (root / "en" / "docs").mkdir(parents=True)
    (root / "en" / "docs" / "page.html").write_text("x")
    (root / "en" / "linked.html").symlink_to("docs/page.html")
    (root / "en" / "away.html").symlink_to(outside / "deep" / "page.html")
    (root / "fr").symlink_to("en")
    (root / "out").symlink_to(outside)
    (root / "loop").symlink_to("loop")
    (root / "up").symlink_to("..")
    linked = tmp_path / "linked-site"
    linked.symlink_to(root)
    paths = [
        "en/docs/page.html", "en/linked.html", "en/away.html", "fr/docs/page.html",
        "fr/linked.html", "out/deep/page.html", "loop/page.html", "loop", "up/site/en/x.html",
        "up/outside/deep/page.html", "en/missing/page.html", "missing.html", "en/../fr/x",
        "./en/docs/page.html", "en//docs/page.html", "en/docs/", "", ".", "..", "/etc/hosts",
        "en/docs/page.html/..", "fr", "en/docs/page.html/x",
    ]  # fmt: skip
    for base in (root, linked, Path(os.path.relpath(root))):
        folder = SiteFolder(base)
        assert folder.real == os.path.realpath(base)
        for path in paths + paths[::-1]:  # (again, from what it remembers)
            assert folder.real_path(path) == os.path.realpath(base / path), (base, path)
