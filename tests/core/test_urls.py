"""URL mapping: url_style, percent-encoding, base URL checks."""

import re
import string
from urllib.parse import unquote_to_bytes, urljoin

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitemill.errors import ConfigError
from sitemill.html.links import url_key
from sitemill.urls import (
    UrlStyle,
    encode_path,
    encode_uri_part,
    encode_uri_text,
    join_plain,
    normalize_base_url,
    page_url,
    path_key,
    url_path,
)


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("https://example.com", "https://example.com/"),
        ("HTTPS://Example.COM/", "https://example.com/"),
        ("http://example.com:8080/docs", "http://example.com:8080/docs/"),
        ("https://example.com/my site/", "https://example.com/my%20site/"),
        ("https://bücher.example/", "https://xn--bcher-kva.example/"),
        ("https://example.com/a&b/", "https://example.com/a&b/"),
        ("  https://example.com/x/  ", "https://example.com/x/"),
    ],
)
def test_base_url_is_normalized(given: str, expected: str) -> None:
    assert normalize_base_url(given) == expected


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "example.com",
        "/relative/path",
        "ftp://example.com/",
        "file:///srv/site",
        "https://example.com/?q=1",
        "https://example.com/?",
        "https://example.com/#top",
        "https://user:pw@example.com/",
        "https://",
        "https://example.com:99999/",
    ],
)
def test_bad_base_url_is_a_config_error_naming_the_key(bad: str) -> None:
    with pytest.raises(ConfigError) as info:
        normalize_base_url(bad)
    assert info.value.key == "base_url"
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("path", "style", "expected"),
    [
        ("index.html", UrlStyle.DIRECTORY, ""),
        ("a/index.html", UrlStyle.DIRECTORY, "a/"),
        ("a/index.htm", UrlStyle.DIRECTORY, "a/"),
        ("a/b.html", UrlStyle.DIRECTORY, "a/b.html"),
        ("a/b.html", UrlStyle.CLEAN, "a/b"),
        # Hosts map /a/b to a/b.html only (GitHub Pages, Netlify, Cloudflare Pages): a .htm
        # page keeps its name, or its URL would be a 404.
        ("a/b.htm", UrlStyle.CLEAN, "a/b.htm"),
        ("post.htm", UrlStyle.CLEAN, "post.htm"),
        ("a/b.HTML", UrlStyle.CLEAN, "a/b.HTML"),
        ("a/b.html.htm", UrlStyle.CLEAN, "a/b.html.htm"),
        ("a/b.htm.html", UrlStyle.CLEAN, "a/b.htm"),
        ("a/index.html", UrlStyle.CLEAN, "a/"),
        ("a/index.htm", UrlStyle.CLEAN, "a/"),
        ("a/.htm", UrlStyle.CLEAN, "a/.htm"),
        ("a/.html", UrlStyle.CLEAN, "a/.html"),
        ("doc.pdf", UrlStyle.CLEAN, "doc.pdf"),
        ("a/index.html", UrlStyle.FILE, "a/index.html"),
        ("myindex.html", UrlStyle.DIRECTORY, "myindex.html"),
    ],
)
def test_url_style(path: str, style: UrlStyle, expected: str) -> None:
    assert url_path(path, style) == expected


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("a b.html", "a%20b.html"),
        # The least encoding: a path keeps the sub-delims, ":" and "@" raw (RFC 3986 pchar)...
        ("C/unicode(a)!/x.html", "C/unicode(a)!/x.html"),
        ("!$&'()*,;=:@.html", "!$&'()*,;=:@.html"),
        # ...but "+", which S3 reads as a space; "%" is data in a name, never an escape.
        ("a&b<c>'\"#?%+.html", "a&b%3Cc%3E'%22%23%3F%25%2B.html"),
        ("%28.html", "%2528.html"),
        ("[x]{y}|^`\\.html", "%5Bx%5D%7By%7D%7C%5E%60%5C.html"),
        ("tab\there.html", "tab%09here.html"),
        ("new\nline.html", "new%0Aline.html"),
        ("café.html", "caf%C3%A9.html"),
        ("日本/ページ.html", "%E6%97%A5%E6%9C%AC/%E3%83%9A%E3%83%BC%E3%82%B8.html"),
        ("bad\udcff.html", "bad%FF.html"),  # a name that is not UTF-8 keeps its byte
        ("ctl\x01.html", "ctl%01.html"),
        ("keep-._~/x.html", "keep-._~/x.html"),
    ],
)
def test_paths_are_percent_encoded(path: str, expected: str) -> None:
    assert encode_path(path) == expected


# RFC 3986, appendix A: path-abempty = *( "/" segment ), segment = *pchar,
# pchar = unreserved / pct-encoded / sub-delims / ":" / "@".
RFC3986_PATH = re.compile(r"(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-F]{2})*")
RAW_IN_PATH = frozenset(string.ascii_letters + string.digits + "-._~!$&'()*,;=:@/")


@given(st.text(min_size=1))
def test_encoding_round_trips_with_the_least_encoding(name: str) -> None:
    encoded = encode_path(name)
    assert unquote_to_bytes(encoded) == name.encode("utf-8", "surrogateescape")
    assert RFC3986_PATH.fullmatch(encoded)
    # Least: no escape of a character a path may hold raw ("+" alone is escaped, for S3).
    escaped = {chr(int(hex_, 16)) for hex_ in re.findall(r"%([0-9A-F]{2})", encoded)}
    assert not escaped & RAW_IN_PATH
    assert "+" not in encoded
    # A loc written again reads the same: an already encoded path is never encoded twice.
    assert encode_uri_part(encoded) == encoded
    # And its key is the key of the path as a reader's link spells it.
    assert url_key("https://e.com/" + encoded) == url_key("https://e.com/" + path_key(encoded))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("https://e.com/a b", "https://e.com/a%20b"),
        ("https://e.com/%41ok", "https://e.com/Aok"),  # normal form: unreserved decoded
        ("https://e.com/%2fok", "https://e.com/%2Fok"),  # upper-case hex
        ("https://e.com/100%", "https://e.com/100%25"),
        ("https://e.com/?a=1&b=2", "https://e.com/?a=1&b=2"),
        ("https://e.com/é", "https://e.com/%C3%A9"),
        ("https://e.com/<x>", "https://e.com/%3Cx%3E"),
    ],
)
def test_uri_text_encoding_keeps_valid_escapes(text: str, expected: str) -> None:
    assert encode_uri_text(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A URL list's spelling is kept: sub-delims raw or escaped, as given (RFC 3986
        # 6.2.2.2 makes only unreserved characters' escapes equivalent)...
        ("https://e.com/a(b)!/", "https://e.com/a(b)!/"),
        ("https://e.com/a%28b%29%21/", "https://e.com/a%28b%29%21/"),
        ("https://e.com/a%2bb+c", "https://e.com/a%2Bb+c"),
        ("https://e.com/x;y=1,z", "https://e.com/x;y=1,z"),
        # ...already encoded text is never encoded again, and unreserved escapes decoded.
        ("https://e.com/caf%C3%A9/%7Euser/%2D", "https://e.com/caf%C3%A9/~user/-"),
        ("https://e.com/[x]", "https://e.com/%5Bx%5D"),
    ],
)
def test_a_url_lists_spelling_is_kept_but_for_unreserved_escapes(text: str, expected: str) -> None:
    assert encode_uri_text(text) == expected
    assert encode_uri_text(expected) == expected


@pytest.mark.parametrize(
    ("one", "other"),
    [
        # A canonical written with escapes names the page its raw spelling names: every
        # static host serves one file at both (RFC 3986 calls them two URLs).
        ("https://e.com/C/a%28b%29%21/", "https://e.com/C/a(b)!/"),
        ("https://e.com/tags/c%2B%2B/", "https://e.com/tags/c++/"),
        ("https://e.com/a%3Ab%40c%3D", "https://e.com/a:b@c="),
        ("https://e.com/a%28b%29.html", "https://e.com/a(b)"),
    ],
)
def test_escaped_delimiters_in_a_path_name_the_same_page(one: str, other: str) -> None:
    assert url_key(one) == url_key(other)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("https://e.com/a%2Fb", "https://e.com/a/b"),  # "/" is structure, not data
        ("https://e.com/a%2528", "https://e.com/a("),  # decoded once, never twice
        ("https://e.com/a%3Fb", "https://e.com/a?b"),
        ("https://e.com/a%23b", "https://e.com/a#b"),
        ("https://e.com/?a=%26", "https://e.com/?a=&"),  # a query's delimiters are its own
    ],
)
def test_other_escapes_name_other_urls(one: str, other: str) -> None:
    assert url_key(one) != url_key(other)


def test_page_url_joins_base_and_encoded_path() -> None:
    base = normalize_base_url("https://example.com/docs")
    assert page_url(base, "a b/index.html", UrlStyle.DIRECTORY) == "https://example.com/docs/a%20b/"
    assert page_url(base, "index.html", UrlStyle.DIRECTORY) == "https://example.com/docs/"


@given(
    st.text(alphabet="ab./-~_", max_size=30),
    st.sampled_from(
        ["https://example.com/", "https://example.com/a/b/", "https://example.com/a/b.html"]
    ),
)
def test_join_plain_agrees_with_the_url_parser(href: str, page: str) -> None:
    joined = join_plain(href, page)
    if joined is None:
        assert not href or "//" in href
        return
    # urljoin keeps dot segments in some spellings that every browser removes: compare keys.
    assert url_key(joined) == url_key(urljoin(page, href))
    assert "/./" not in joined and "/../" not in joined


@pytest.mark.parametrize(
    ("href", "page", "joined"),
    [
        ("../../fr/guide/", "https://example.com/en/guide/", "https://example.com/fr/guide/"),
        ("/de/", "https://example.com:8080/en/", "https://example.com:8080/de/"),
        ("img/a.png", "https://example.com/p/x.html", "https://example.com/p/img/a.png"),
        ("../../../..", "https://example.com/a/", "https://example.com/"),
        ("a?b", "https://example.com/", None),
        ("https://example.com/", "https://example.com/", None),
        ("a%20b", "https://example.com/", None),
        ("//cdn.example.com/a.png", "https://example.com/", None),
        ("", "https://example.com/", None),
    ],
)
def test_join_plain(href: str, page: str, joined: str | None) -> None:
    assert join_plain(href, page) == joined
