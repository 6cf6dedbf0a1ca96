"""A page's image sources as a sitemap lists them, and which hosts the others are on."""
# Resolved as a browser resolves them, on the site's hosts, percent-encoded; the other hosts are
# named for one summary line.
# https://developers.google.com/search/docs/crawling-indexing/sitemaps/image-sitemaps

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final
from urllib.parse import urlsplit, urlunsplit

from sitemill.errors import ConfigError
from sitemill.html.links import resolve_url
from sitemill.urls import (
    C0_OR_SPACE,
    encode_host,
    encode_uri_part,
    join_plain,
    remove_dot_segments,
)

MAX_IMAGES_PER_PAGE: Final = 1_000  # Google reads at most 1,000 <image:image> per <url>

_DEFAULT_PORTS: Final = {"http": 80, "https": 443}


def page_images(
    sources: Iterable[str],
    page_url: str,
    base_href: str | None,
    site_hosts: frozenset[str],
    off_site: Callable[[str], None] | None = None,
) -> tuple[str, ...]:
    """The image ``sources`` of the page at ``page_url`` as a sitemap lists them: resolved
    against the document's base URL (``base_href`` if it has a <base>), kept if http(s) on
    one of ``site_hosts``, percent-encoded as sitemill encodes URLs (so safe in XML once
    escaped), fragment dropped; each once, in order, at most MAX_IMAGES_PER_PAGE. A source
    that cannot be resolved is left out; ``off_site`` is told the host of each distinct
    http(s) image left out for being on another host."""
    found: dict[str, None] = {}
    elsewhere: set[str] = set()
    # A plain relative source on a page of a listed host needs no URL parser (most do).
    page = _image_url(page_url, page_url, None)
    plain = base_href is None and page is not None and page[0] in site_hosts
    for source in sources:
        url = join_plain(source, page_url) if plain else None
        if url is None:
            resolved = _image_url(source, page_url, base_href)
            if resolved is None:
                continue
            host, url = resolved
            if host not in site_hosts:
                if off_site is not None and url not in elsewhere:
                    elsewhere.add(url)
                    off_site(host)
                continue
        found[url] = None
        if len(found) >= MAX_IMAGES_PER_PAGE:
            break
    return tuple(found)


def site_hosts(base_url: str, image_hosts: Iterable[str]) -> frozenset[str]:
    """The hosts whose images are listed: the base URL's and ``image_hosts`` (CDN host names
    or http(s) URLs), lower case and IDNA-encoded as encode_host writes them. Raises
    ConfigError for a value without a valid host."""
    hosts = {_host("base_url", base_url)}
    hosts.update(_host("image_hosts", value) for value in image_hosts if value.strip())
    return frozenset(hosts)


def _host(key: str, value: str) -> str:
    text = value.strip()
    try:
        hostname = urlsplit(text if "//" in text else f"//{text}").hostname
    except ValueError:  # an invalid IPv6 host, a port that is not a number
        hostname = None
    if not hostname:
        raise ConfigError(key, f"{text!r} is not a host name (like cdn.example.com)")
    return encode_host(hostname, key)


def _image_url(source: str, page: str, base: str | None) -> tuple[str, str] | None:
    """One source as (its encoded host, its absolute, encoded URL), or None when it is no
    http(s) URL a sitemap may name."""
    text = source.strip(C0_OR_SPACE)
    url = resolve_url(text, page, base) if text else None  # ("" would be the page itself)
    if url is None:
        return None
    try:
        parts = urlsplit(url)
        port, hostname = parts.port, parts.hostname
        if not hostname or parts.username is not None or parts.password is not None:
            return None  # credentials are not published
        host = encode_host(hostname, "image")
        path, query = encode_uri_part(parts.path), encode_uri_part(parts.query)
    except (ValueError, ConfigError):  # a bad port, IPv6 or IDNA host; a lone surrogate
        return None
    scheme = parts.scheme.lower()
    netloc = host
    if port is not None and port != _DEFAULT_PORTS[scheme]:
        netloc = f"{host}:{port}"
    return host, urlunsplit((scheme, netloc, remove_dot_segments(path or "/"), query, ""))
