"""`sitemill check` asks each of the user's sitemaps the build named (its index, robots.txt) on
the site's own origin: live, a sitemap at its start; another host's is never asked, and a note
says so."""

from __future__ import annotations

from pathlib import Path

import pytest
from checkstand import PAGES, build, publish, write_site

from enginestand import Stand
from sitemill.cli.main import main

USER = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n'
    b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>x</loc></url>'
    b"</urlset>\n"
)


def named_site(tmp_path: Path, stand: Stand, other: Stand) -> tuple[list[str], str]:
    """The site built and published; the check's arguments (the same configuration)."""
    root = tmp_path / "site"
    write_site(root, PAGES)
    (root / "blog-sitemap.xml").write_bytes(USER)
    base = stand.origin + "/"
    named = ["--sitemap", "blog-sitemap.xml", "--sitemap", other.origin + "/sitemap.xml"]
    build(root, base, *named)
    stand.files.clear()
    publish(stand, root)
    return ["check", str(root), "--base-url", base, *named], base


def test_a_live_named_sitemap_passes_and_another_host_is_not_asked(
    tmp_path: Path, stands: list[Stand], capsys: pytest.CaptureFixture[str]
) -> None:
    stand, other = stands
    argv, _ = named_site(tmp_path, stand, other)
    capsys.readouterr()
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert ("GET", "/blog-sitemap.xml") in stand.requests
    assert other.requests == []  # no request leaves the site's origin
    assert (
        f"not asked: {other.origin}/sitemap.xml, named by the build on another host (a check "
        "asks the site's own origin only)"
    ) in out
    assert "live: checked 3 sitemap file(s)" in out  # the index, sitemap-1.xml and the user's


@pytest.mark.parametrize(
    ("served", "said"),
    [
        ((404, b"not found", {}), "answers 404"),
        ((200, b"<!doctype html><title>blog</title>", {"Content-Type": "text/html"}), "no sitemap"),
    ],
)
def test_a_named_sitemap_that_is_gone_or_no_sitemap_is_a_problem(
    tmp_path: Path,
    stands: list[Stand],
    capsys: pytest.CaptureFixture[str],
    served: tuple[int, bytes, dict[str, str]],
    said: str,
) -> None:
    stand, other = stands
    argv, base = named_site(tmp_path, stand, other)
    stand.files["/blog-sitemap.xml"] = served
    capsys.readouterr()
    assert main(argv) == 1
    (problem,) = [line for line in capsys.readouterr().out.splitlines() if "problem:" in line]
    assert problem.startswith(f"problem: {base}blog-sitemap.xml: ")
    assert said in problem


def test_a_sitemap_found_in_a_replaced_index_is_asked_from_the_state(
    tmp_path: Path, stand: Stand, capsys: pytest.CaptureFixture[str]
) -> None:
    """No `sitemaps` in the check's configuration: the state names what the build found."""
    root = tmp_path / "site"
    write_site(root, PAGES)
    (root / "blog-sitemap.xml").write_bytes(USER)
    base = stand.origin + "/"
    (root / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex '
        'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"<sitemap><loc>{base}blog-sitemap.xml</loc></sitemap></sitemapindex>\n"
    )
    build(root, base)
    stand.files.clear()
    publish(stand, root)
    del stand.files["/blog-sitemap.xml"]
    capsys.readouterr()
    assert main(["check", str(root), "--base-url", base]) == 1
    assert f"problem: {base}blog-sitemap.xml: answers 404" in capsys.readouterr().out
