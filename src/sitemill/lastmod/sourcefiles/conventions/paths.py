"""The paths a convention works out: a source's stem and extension, the file a route is built to."""

from __future__ import annotations

import posixpath
from collections.abc import Callable

RouteFile = Callable[[str], str]  # a route -> the file it is built to (a site's URL style)


def join(*parts: str) -> str:
    """POSIX join that drops empty parts and leading/trailing slashes ("" for none)."""
    return "/".join(part.strip("/") for part in parts if part.strip("/"))


def split_extension(path: str) -> tuple[str, str]:
    """``("a/b", ".md")`` for ``"a/b.md"``, the extension lower-cased."""
    stem, extension = posixpath.splitext(path)
    return stem, extension.lower()


def directory_page(route: str) -> str:
    """The file a route is built to in the directory style: "a/b" -> "a/b/index.html"."""
    return join(route, "index.html")


def file_page(route: str) -> str:
    """The file a route is built to in the file style: "a/b" -> "a/b.html" ("" -> index)."""
    return f"{route.strip('/')}.html" if route.strip("/") else "index.html"


def url_page(url: str, *, bare: RouteFile = directory_page) -> str:
    """The file a URL path from front matter or a permalink is built to: "/a/" ->
    "a/index.html", "/a.html" as is, "/a" by ``bare`` (the generator's choice)."""
    path = url.split("#", 1)[0].split("?", 1)[0]
    if not path.strip("/") or path.endswith("/"):
        return directory_page(path)
    last = path.rstrip("/").rsplit("/", 1)[-1]
    if "." in last:
        return path.strip("/")
    return bare(path)
