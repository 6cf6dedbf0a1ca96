"""Where a listed page stands in the site: its path below the base URL and its top folder."""

# A page's top folder is the first folder of its path below the base ("docs" for docs/intro/); a
# page at the top (index.html, about.html) is in none, except that a URL without a slash is the
# index of the folder of that name when another page lives in it (Docusaurus and sitemill's clean
# URLs list /blog beside /blog/first-post, and /fr beside /fr/docs/intro).

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit


def path_below(url: str, base_url: str) -> str:
    """The URL's path below the site's base URL's, as the sitemap writes it ("docs/intro/")."""
    if url.startswith(base_url):  # (most URLs: no parse needed)
        return url[len(base_url) :].partition("#")[0].partition("?")[0]
    path, base_path = urlsplit(url).path, urlsplit(base_url).path
    return path[len(base_path) :] if path.startswith(base_path) else path.lstrip("/")


def top_folders(belows: Sequence[str]) -> list[str]:
    """The top folder of each path below the base ("" for a page in none), in order."""
    tops = [head if slash else "" for head, slash, _ in (below.partition("/") for below in belows)]
    folders = set(tops)
    return [
        top or (below if below in folders else "") for top, below in zip(tops, belows, strict=True)
    ]


def is_home(url: str, base_url: str) -> bool:
    """Whether ``url`` is the site's home page (the base URL; the host's case aside)."""
    if len(url) not in {len(base_url), len(base_url) - 1}:  # (most URLs: no parse needed)
        return False
    page, base = urlsplit(url), urlsplit(base_url)
    same_host = page.netloc.casefold() == base.netloc.casefold()
    return same_host and page.path in {base.path, base.path.rstrip("/")} and not page.query
