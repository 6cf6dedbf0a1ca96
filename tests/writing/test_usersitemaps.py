"""Which of the user's sitemaps a run names, and where: the index (at or below its folder, on
its host, a sitemap the site holds or one it does not hold at all) or robots.txt (the rest);
those found in a replaced index are remembered and named while their file is a sitemap."""

from __future__ import annotations

from sitemill.config.model import load_config
from sitemill.writing._namedsitemaps import KeptBecause, KeptSitemap
from sitemill.writing.usersitemaps import name_user_sitemaps, user_sitemaps

BASE = "https://example.com/site/"
SITEMAP = b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>'
PAGE = b"<!doctype html><title>page</title>"


class Files:
    def __init__(self, files: dict[str, bytes]) -> None:
        self.files = files
        self.reads: list[str] = []

    def read(self, name: str, limit: int) -> bytes | None:
        self.reads.append(name)
        data = self.files.get(name)
        return None if data is None else data[:limit]

    def delete(self, name: str) -> None:
        raise AssertionError("nothing of the user's is deleted")


def kept(name: str) -> KeptSitemap:
    return KeptSitemap(BASE + name, name, KeptBecause.NOT_ITS_OWN)


def test_the_configured_go_where_the_location_rule_allows() -> None:
    files = Files({"a.xml": SITEMAP, "sub/b.xml": SITEMAP, "list.txt": b"https://example.com/\n"})
    configured = [
        f"{BASE}sub/b.xml",
        f"{BASE}a.xml",
        "https://shop.example.net/sitemap.xml",
        "https://example.com/other/sitemap.xml",  # above the folder: the index may not name it
        f"{BASE}list.txt",  # a text sitemap
    ]
    named = name_user_sitemaps(BASE, configured, [], [], files.read)
    assert named.index == [f"{BASE}a.xml", f"{BASE}list.txt", f"{BASE}sub/b.xml"]  # sorted
    assert named.robots == [
        "https://shop.example.net/sitemap.xml",
        "https://example.com/other/sitemap.xml",
    ]
    assert named.found == [] and named.warnings == []
    assert sorted(files.reads) == ["a.xml", "list.txt", "sub/b.xml"]  # never elsewhere


def test_a_page_is_not_named_and_an_absent_one_is_with_a_warning() -> None:
    files = Files({"page.xml": PAGE})
    named = name_user_sitemaps(BASE, [f"{BASE}page.xml", f"{BASE}shop.xml"], [], [], files.read)
    assert named.index == [f"{BASE}shop.xml"]
    assert [line.split(" is ")[1][:10] for line in named.warnings] == ["not a site", "not in the"]


def test_found_and_remembered_are_named_while_they_are_sitemaps() -> None:
    files = Files({"blog.xml": SITEMAP, "kept.xml": SITEMAP, "now-a-page.xml": PAGE})
    remembered = ["kept.xml", "gone.xml", "now-a-page.xml"]
    named = name_user_sitemaps(BASE, [], [kept("blog.xml")], remembered, files.read)
    assert named.index == [f"{BASE}blog.xml", f"{BASE}kept.xml"]
    assert named.found == ["blog.xml", "kept.xml"]
    assert named.warnings == []  # a found one that went is no longer named, silently
    assert "blog.xml" not in files.reads  # (the takeover read it: a sitemap)


def test_a_name_sitemill_writes_is_never_the_users_and_names_are_encoded() -> None:
    files = Files({})
    found = [kept("sitemap-1.xml"), kept("caf\u00e9 x.xml")]
    named = name_user_sitemaps(BASE, [], found, [], files.read)
    assert named.index == [f"{BASE}caf%C3%A9%20x.xml"]


def test_the_line_to_add_is_said_unless_sitemill_keeps_robots_txt() -> None:
    elsewhere = "https://shop.example.net/s\u202e.xml"
    for robots, lines in ((False, 1), (True, 0)):
        config = load_config({"base_url": BASE, "sitemaps": [elsewhere], "robots_txt": robots})
        named = user_sitemaps(config, Files({}), None, ())
        assert named.robots == ["https://shop.example.net/s%E2%80%AE.xml"]
        assert len(named.warnings) == lines
        assert all(line.isprintable() for line in named.warnings)
