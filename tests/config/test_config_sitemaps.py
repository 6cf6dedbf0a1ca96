"""`sitemaps`: each name resolved against the base URL into the one spelling sitemill writes,
from every front-end's spelling (file list, repeated flag, newline/comma env list); a bad one is
a ConfigError naming the key."""

from __future__ import annotations

import pytest

from sitemill.config.model import load_config
from sitemill.errors import ConfigError

BASE = "https://example.com/docs/"


@pytest.mark.parametrize(
    ("name", "url"),
    [
        ("blog-sitemap.xml", f"{BASE}blog-sitemap.xml"),
        ("sub/sitemap.xml", f"{BASE}sub/sitemap.xml"),
        ("/shop/sitemap.xml", "https://example.com/shop/sitemap.xml"),  # above the folder
        ("../sitemap-blog.xml", "https://example.com/sitemap-blog.xml"),
        ("HTTPS://Example.COM:443/docs/a.xml", f"{BASE}a.xml"),
        ("https://shop.example.net/sitemap.xml", "https://shop.example.net/sitemap.xml"),
        ("caf\u00e9.xml", f"{BASE}caf%C3%A9.xml"),
        ("feed.xml?kind=sitemap", f"{BASE}feed.xml?kind=sitemap"),
    ],
)
def test_a_name_resolves_against_the_base_url(name: str, url: str) -> None:
    assert load_config({"base_url": BASE, "sitemaps": [name]}).sitemaps == (url,)


def test_every_spelling_gives_the_same_list() -> None:
    wanted = (f"{BASE}a.xml", "https://shop.example.net/sitemap.xml")
    names = ["a.xml", "https://shop.example.net/sitemap.xml", "a.xml"]
    assert load_config({"base_url": BASE}, file_values={"sitemaps": names}).sitemaps == wanted
    assert load_config({"base_url": BASE, "sitemaps": names}).sitemaps == wanted
    env = {"SITEMILL_SITEMAPS": "a.xml\n https://shop.example.net/sitemap.xml ,"}
    assert load_config({"base_url": BASE}, env).sitemaps == wanted


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("sitemap.xml", "sitemill's own output"),
        ("sitemap-3.xml.gz", "sitemill's own output"),
        ("sitemill-state.json.gz", "sitemill's own output"),
        ("sub/", "names a folder"),
        ("ftp://example.com/s.xml", "absolute http(s) URL"),
        ("https://user:pw@example.com/s.xml", "user info"),
        ("a b.xml", "no spaces"),
        ("\udcff.xml", "not UTF-8"),  # (a byte of argv that is no UTF-8)
        ("s.xml#top", "no spaces, controls or #"),
        ("https://example.com:99999/s.xml", "port"),
        ("a" * 2100 + ".xml", "longer than 2,048"),
    ],
)
def test_a_bad_name_is_an_error_naming_the_key(name: str, said: str) -> None:
    with pytest.raises(ConfigError) as raised:
        load_config({"base_url": BASE, "sitemaps": [name]})
    assert raised.value.key == "sitemaps"
    assert said in str(raised.value)
    assert ":pw@" not in str(raised.value)  # a password is never quoted


def test_not_a_list_is_an_error() -> None:
    with pytest.raises(ConfigError, match=r"^sitemaps: "):
        load_config({"base_url": BASE}, file_values={"sitemaps": 3})
