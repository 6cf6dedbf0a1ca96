"""The site folder a tree's check reads published pages from, its real paths resolved once."""
# os.path.realpath asks the file system about every component of a path (13 lstat calls for a page
# in a folder 8 deep), and a check asked it twice a page: the folder's and the page's. Here the
# folder's real path is made once, and each folder's in it once, from its parent's and one lstat
# of its own, so a page is one lstat more; each answer is os.path.realpath's own (a symbolic link
# is handed to it whole, and so is a path that is not plain: absolute, or with "", "." or "..").

from __future__ import annotations

import os
import stat
from pathlib import Path


class SiteFolder:
    """The folder ``root``: its real path, and the real path of a file in it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.real = os.path.realpath(root)
        self._real_folders: dict[str, str] = {"": self.real}

    def real_path(self, path: str) -> str:
        """``os.path.realpath(root / path)``."""
        if path.startswith("/") or "\0" in path or not _plain(path):
            return os.path.realpath(self.root / path)
        folder, _, name = path.rpartition("/")
        return _resolved(self._real_folder(folder), name)

    def _real_folder(self, folder: str) -> str:
        real = self._real_folders.get(folder)
        if real is None:
            parent, _, name = folder.rpartition("/")
            real = self._real_folders[folder] = _resolved(self._real_folder(parent), name)
        return real


def _plain(path: str) -> bool:
    return all(part not in ("", ".", "..") for part in path.split("/"))


def _resolved(real_folder: str, name: str) -> str:
    """The real path of ``name`` in the folder whose real path is ``real_folder``."""
    path = os.path.join(real_folder, name)
    try:
        link = stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:  # (missing, or below a loop: os.path.realpath keeps the name as is)
        link = False
    return os.path.realpath(path) if link else path
