"""A target names a scheme and host only at its start (RFC 3986 section 3.1; dating rules 19,
issue 79, genieblog): ``href=";https://tools.example/Boot/"`` is a relative path, a 404 under
the post's own path, and a commit that repaired it to ``https://tools.example/Boot/`` led the
link to another page, the post's own edit, not "another site's host moved alone" (a ``://``
read anywhere made the site's own path a host). Another site's host moved alone, the path kept,
still dates none (dating rules 18). Shaped like a Jigsaw blog's post (text our own), in a real
repository with fixed dates."""

from __future__ import annotations

from pathlib import Path

from sitemill.lastmod.history._targetmoves import names_host
from treedates import at, dated

POSTS = ("first-steps", "windows-ready", "notes-on-boot")
LINKS = ("https://tools.example/Boot/", "https://www.news.example/how-to-make-a-usb-stick/")


def post(name: str, links: tuple[str, ...]) -> str:
    told = "".join(
        f"<p>Step {n} of {name}: see <a href='{link}'>this guide</a>.</p>"
        for n, link in enumerate(links)
    )
    return (
        f"<html><head><title>{name} | Blog</title></head><body><nav><a href='/'>Blog</a></nav>"
        f"<main><h1>{name}</h1><p>What {name} says, in words of its own.</p>{told}</main>"
        "</body></html>\n"
    )


def blog(windows: tuple[str, ...]) -> dict[str, str]:
    """Every post linking LINKS, the windows-ready post linking ``windows`` instead."""
    return {
        f"blog/{name}/index.html": post(name, windows if name == "windows-ready" else LINKS)
        for name in POSTS
    }


def test_a_link_repaired_from_a_relative_path_to_another_site_dates_the_page(
    tmp_path: Path,
) -> None:
    # The post went out with its links broken (";" before each scheme: relative paths);
    # the next deploy repaired them alone. A reader follows them to other pages now.
    broken = tuple(";" + link for link in LINKS)
    found = dated(tmp_path, [blog(broken), blog(LINKS)])
    expected = {f"blog/{name}": at(0) for name in POSTS}
    assert found == expected | {"blog/windows-ready": at(1)}, sorted(found.items())


def test_another_sites_host_moved_alone_on_one_page_still_dates_none(tmp_path: Path) -> None:
    # The next deploy moved one post's guide to its host's www name, the path kept: the same
    # page at another site's other name; no content.
    moved = (LINKS[0].replace("//tools.", "//www.tools."), LINKS[1])
    found = dated(tmp_path, [blog(LINKS), blog(moved)])
    assert found == {f"blog/{name}": at(0) for name in POSTS}, sorted(found.items())


def test_a_scheme_names_a_host_only_at_the_targets_start() -> None:
    assert names_host("https://tools.example/Boot")
    assert names_host("HTTP://tools.example")
    assert not names_host("/blog/windows-ready/;https://tools.example/Boot")
    assert not names_host("/search?next=https://tools.example/")
    assert not names_host("mailto:me@blog.example")
    assert not names_host("//tools.example/Boot")  # (the reduction keeps it as written)
