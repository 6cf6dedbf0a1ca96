"""A site with a page of every kind the sitemaps leave out, and a search of every byte
sitemill publishes for their names (docs/state.md, "Public, and trusted by no one")."""

from __future__ import annotations

import gzip
import json
from collections.abc import Collection, Iterator, Mapping

BASE = "https://example.com/"
_TOO_LONG_FOLDER = "/".join(["toolong-" + "x" * 200] * 10)


def page(title: str, head: str = "") -> str:
    return (
        f"<!doctype html><html><head><title>{title}</title>{head}</head>"
        f"<body><p>{title}</p></body></html>"
    )


LISTED = {"index.html": page("Home"), "about.html": page("About")}
# Each page the sitemaps leave out, by why, with a name found nowhere else.
HIDDEN = {
    "drafts/upcoming-robots.html": page("disallowed by robots.txt"),
    "ruled/hidden-by-rule.html": page("excluded by a [[rules]] exclude"),
    "globbed/hidden-by-exclude.html": page("excluded by exclude"),
    "hidden-noindex.html": page("noindex", '<meta name="robots" content="noindex">'),
    "hidden-redirect.html": page(
        "redirect stub", '<meta http-equiv="refresh" content="0; url=hidden-target.html">'
    ),
    "hidden-canonical.html": page(
        "a copy",
        '<link rel="canonical" href="about.html">'
        '<link rel="alternate" hreflang="fr" href="hidden-copy-fr.html">',
    ),
    "hidden-template.html": "{% macro nav() %}<nav>{{ links }}</nav>{% endmacro %}\n",
    "google0123456789abcdef.html": "google-site-verification: google0123456789abcdef.html",
    "hidden-dup/index.html": page("the second file of one URL"),
    f"{_TOO_LONG_FOLDER}/hidden-too-long.html": page("a URL over 2,048 characters"),
    "404.html": page("not found"),
    # Named only by the pages left out: a copy's alternate and a redirect's target, each
    # itself left out.
    "hidden-copy-fr.html": page("alternate of a copy", '<meta name="robots" content="noindex">'),
    "hidden-target.html": page("target", '<meta name="robots" content="noindex">'),
}
SITE: dict[str, str] = {
    **LISTED,
    "hidden-dup/index.htm": page("the first file of one URL (the walk's order, S3's too)"),
    **HIDDEN,
    "robots.txt": "User-agent: *\nDisallow: /drafts/\n",
}
CONFIG = {
    "base_url": BASE,
    "exclude": ["globbed/**"],
    "rules": [{"pattern": "ruled/**", "exclude": True}],
}
CONFIG_TOML = (
    f'base_url = "{BASE}"\nexclude = ["globbed/**"]\n\n'
    '[[rules]]\npattern = "ruled/**"\nexclude = true\n'
)


DUPLICATE = "hidden-dup/index.html"  # its URL is listed: the other file's


def names(path: str) -> set[str]:
    """Every way a published file could name the page at ``path``: path, URL, URL path."""
    url_path = path.removesuffix("index.html").removesuffix("index.htm")
    forms = {path, "/" + path, BASE + path}
    if url_path != path and path != DUPLICATE:
        forms |= {url_path, "/" + url_path, BASE + url_path}
    return {form for form in forms if form not in ("", "/")}


def readable(data: bytes) -> str:
    """A published file as text, gunzipped when it is gzip."""
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data.decode("utf-8", "surrogateescape")


def assert_names_no_hidden_page(
    files: Mapping[str, bytes], *, sitemaps: bool = True, but: Collection[str] = ()
) -> None:
    """No byte of ``files`` (name -> bytes, gzip read through) names a hidden page (``but``
    these), in text or as a JSON string, in any of its forms; and the listed pages are there
    (``sitemaps``)."""
    texts = {name: readable(data) for name, data in files.items()}
    assert texts, "nothing published"
    for path in set(HIDDEN) - set(but):
        forms = names(path)
        for name, text in texts.items():
            strings = set(json_strings(json.loads(text))) if name.endswith(".json.gz") else set()
            assert not forms & strings, f"{name} names {path}"
            for form in forms:
                if "/" in form or "." in form:
                    assert not _mentions(text, form), f"{name} names {path} as {form}"
    if sitemaps:
        found = "".join(text for name, text in texts.items() if name.startswith("sitemap"))
        assert BASE + "about.html" in found


def _mentions(text: str, form: str) -> bool:
    """``form`` in ``text`` as a whole name: not inside a longer path or name."""
    start = text.find(form)
    while start >= 0:
        before = text[start - 1] if start else " "
        end = start + len(form)
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() or before in "/-_.") and not (after.isalnum() or after in "-_."):
            return True
        start = text.find(form, start + 1)
    return False


def json_strings(value: object) -> Iterator[str]:
    """Every key and string value in a JSON document."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from json_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from json_strings(item)
