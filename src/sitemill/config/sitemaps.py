"""The user's sitemaps to name (``sitemaps``), resolved against the base URL into one spelling."""
# A relative name is resolved as a browser resolves a link on the site's root page
# (``docs/sitemap.xml`` below the base URL's folder, ``/shop/sitemap.xml`` at the host's root); an
# absolute URL is taken as it is. Each is spelt as the base URL is (lower-case scheme and host, no
# default port, the least percent-encoding), so that a name compares equal to the loc sitemill
# writes. Where each may be named (sitemill's index, or robots.txt only) is the location rule's:
# sitemill.writing.usersitemaps.

from __future__ import annotations

from urllib.parse import urljoin, urlsplit

from sitemill.errors import ConfigError
from sitemill.filenames.outputs import is_own_name
from sitemill.protocol import MAX_URL_LENGTH
from sitemill.urls import encode_uri_part, remove_dot_segments, url_origin

KEY = "sitemaps"


def resolve_sitemaps(names: tuple[str, ...], base_url: str) -> tuple[str, ...]:
    """Each name as an absolute URL, in the order given, each once; as given when there is
    no base URL (a command that needs none)."""
    if not base_url:
        return names
    return tuple(dict.fromkeys(resolve_sitemap(name, base_url) for name in names))


def resolve_sitemap(name: str, base_url: str) -> str:
    """``name`` resolved against ``base_url`` in one spelling; a ConfigError naming the key
    when it names no sitemap file sitemill may name (a folder, another scheme, user info,
    sitemill's own output, a URL too long)."""
    quoted = "the URL given" if "@" in name else repr(name)  # (never a password quoted)
    joined = urljoin(base_url, name)
    try:
        parts = urlsplit(joined)
        parts.port  # noqa: B018 (a port that is no number raises here)
    except ValueError:
        raise ConfigError(KEY, f"{quoted} has a port that is no number") from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ConfigError(
            KEY, f"{quoted} is neither a name relative to base_url nor an absolute http(s) URL"
        )
    if parts.username is not None or parts.password is not None:
        raise ConfigError(KEY, f"{quoted} must not contain user info")
    try:
        origin = url_origin(joined)
    except ConfigError as exc:
        raise ConfigError(KEY, f"{quoted}: {str(exc).partition(': ')[2]}") from exc
    path = remove_dot_segments(encode_uri_part(parts.path or "/"))
    if path.endswith("/"):
        raise ConfigError(KEY, f"{quoted} names a folder, not a sitemap file")
    url = origin + path + ("?" + encode_uri_part(parts.query) if parts.query else "")
    if len(url) > MAX_URL_LENGTH:
        raise ConfigError(KEY, f"{quoted} is longer than {MAX_URL_LENGTH:,} characters")
    if url.startswith(base_url) and is_own_name(url[len(base_url) :]):
        raise ConfigError(KEY, f"{quoted} is sitemill's own output: name the user's sitemaps")
    return url
