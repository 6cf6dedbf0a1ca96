"""Whether a site directory holds a file at a site path, as a web server finds it."""
# A web server on Linux compares names exactly: a page that says ``images/algo.png`` when the file
# is ``images/Algo.png`` shows a broken image there, even though ``os.path.exists`` finds it on a
# case-insensitive file system (macOS, Windows). So each name of the path is looked up among the
# names its directory lists (each directory listed once, remembered), and the file must then resolve
# inside the site root (sitemill.safefs: no link leading out, no hidden path) to a regular file.
# Nothing is opened or read.

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Final

from sitemill.safefs import Root

# Directories whose names are remembered (a huge site's are listed again past this), and
# answers remembered per path (the same logo on every page is looked up once).
MAX_DIRECTORIES_REMEMBERED: Final = 10_000
MAX_PATHS_REMEMBERED: Final = 100_000


class TreeFiles:
    """The files of a site directory, looked up by site path (``img/a.png``)."""

    def __init__(self, site_dir: Path) -> None:
        self._root = Root(site_dir)
        self._names: dict[str, frozenset[str] | None] = {}  # directory -> names it holds
        self._known: dict[str, bool] = {}

    def holds(self, path: str) -> bool:
        """Whether the site holds a regular file at ``path``, every name of it written
        exactly as on disk, inside the site root."""
        known = self._known.get(path)
        if known is None:
            known = self._look_up(path)
            if len(self._known) < MAX_PATHS_REMEMBERED:
                self._known[path] = known
        return known

    def _look_up(self, path: str) -> bool:
        segments = path.split("/")
        directory = ""
        for name in segments:
            names = self._listed(directory)
            if names is None or name not in names:
                return False  # (".." and "" are never listed: no way above the root)
            directory = f"{directory}/{name}" if directory else name
        try:
            real = self._root.resolve(path)
            return stat.S_ISREG(os.stat(real).st_mode)
        except (OSError, ValueError):  # gone, a link loop, outside or hidden (RefusedError)
            return False

    def _listed(self, directory: str) -> frozenset[str] | None:
        """The names in the site's ``directory`` ("" for the root), or None when it is no
        directory inside the root (its own names were checked on the way down)."""
        if directory in self._names:
            return self._names[directory]
        try:
            real = self._root.resolve(directory)  # ("": the root itself)
            names: frozenset[str] | None = frozenset(os.listdir(real))
        except (OSError, ValueError):  # not a directory, outside, hidden (RefusedError)
            names = None
        if len(self._names) >= MAX_DIRECTORIES_REMEMBERED:
            self._names.clear()
        self._names[directory] = names
        return names
