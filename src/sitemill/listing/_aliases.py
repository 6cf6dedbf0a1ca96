"""A link to ``/x`` names the folder page ``/x/`` when the site has no page ``/x``."""
# docs/pages.md, "Links without the final slash": a canonical, alternate or link to ``/x`` names the
# page ``/x/`` when the site holds ``x/index.html`` and no ``x``, ``x.html`` or ``x.htm`` (hosts
# serve it there); likewise ``/x/`` names ``/x`` in the ``clean`` style without ``x/index.html``.
#
# Whether the site has a page ``/x`` is exact where the source's files are known (a tree: the
# ``holds`` callable); in S3 key order ``x``, ``x.htm`` and ``x.html`` come before ``x/…``, so once
# a page ``/x/`` was seen, a page ``/x`` that was not never will be; the rest is known at the end.

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from sitemill.bounded.dedupe import SeenUrls
from sitemill.urls import site_file_path

_FILE_SUFFIXES: Final = ("", ".html", ".htm")
_INDEX_NAMES: Final = ("index.html", "index.htm")


class FolderAliases:
    """The keys of the pages a run saw, and which page a link's key names."""

    def __init__(
        self, site_key: str, *, clean: bool, holds: Callable[[str], bool] | None = None
    ) -> None:
        self._site_key = site_key
        self._clean = clean
        self._holds = holds  # whether the site has a page file at this path (trees)
        self._known = SeenUrls()  # every page's key: listed or left out
        self.used = 0
        self.example = ""

    def saw(self, key: str) -> None:
        """A page with this key was found (listed or left out)."""
        self._known.add(key)

    def knows(self, key: str) -> bool:
        return key in self._known

    def other_spelling(self, key: str) -> str | None:
        """``/x`` -> ``/x/``; ``/x/`` -> ``/x`` in the clean style; None for the site's root,
        a URL with a query, or one off the site."""
        if "?" in key or not key.startswith(self._site_key) or len(key) <= len(self._site_key):
            return None
        if not key.endswith("/"):
            return key + "/"
        return key[:-1] if self._clean else None

    def names(self, key: str, *, final: bool = False, own: str | None = None) -> str:
        """The key of the page that a link to ``key`` names: ``key`` itself, or its other
        spelling when that is a page (or ``own``, the linking page's key) and ``key`` surely
        is none. ``final``: every page of the run has been seen."""
        if key in self._known:
            return key
        other = self.other_spelling(key)
        if other is None or not (other == own or other in self._known):
            return key
        if not self._absent(key, final=final):
            return key
        self.used += 1
        if not self.example:
            self.example = f"{key} names {other}"
        return other

    def sources(self, key: str) -> tuple[str, ...]:
        """The keys that may name the page ``key`` by the rule: ``/x`` for ``/x/`` (and
        ``/x/`` for ``/x`` in the clean style)."""
        if key.endswith("/"):
            return (key[:-1],) if len(key) > len(self._site_key) else ()
        return (key + "/",) if self._clean else ()

    def message(self) -> str | None:
        if not self.used:
            return None
        return (
            f"{self.used:,} canonical or alternate link(s) without the final slash named a "
            f"folder page (x/index.html is served at /x/), e.g. {self.example}"
        )

    def _absent(self, key: str, *, final: bool) -> bool:
        """Whether no page has ``key`` (which was not seen yet)."""
        holds = self._holds
        if holds is not None:
            return not any(holds(path) for path in self._paths(key))
        if final:
            return True
        # S3 key order: x, x.htm, x.html come before x/...; once /x/ is known, /x is final.
        return not key.endswith("/") and (key + "/") in self._known

    def _paths(self, key: str) -> list[str]:
        """The site paths of the files that would be the page ``key``."""
        names = _INDEX_NAMES if key.endswith("/") else _FILE_SUFFIXES
        paths = (site_file_path(key + name, self._site_key) for name in names)
        return [path for path in paths if path is not None]
