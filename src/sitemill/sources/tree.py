"""Walk a site directory in a stable, sorted order, yielding every regular file."""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from sitemill.errors import SourceError

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TreeFile:
    """A file under the site root: its POSIX path relative to the root, and its mtime."""

    path: str
    mtime: float


def walk_tree(root: Path) -> Iterator[TreeFile]:
    """Depth-first, names sorted by their bytes; dot-files and dot-directories are not entered.

    Symlinks to files and directories are followed (static site generators use them); a
    link that loops back into its own ancestry, or that points nowhere, is skipped with a
    warning. Names that are not valid UTF-8 keep their bytes as surrogate escapes.
    """
    try:
        info = root.stat()
    except FileNotFoundError as exc:
        raise SourceError(f"site directory {root} does not exist") from exc
    except OSError as exc:
        raise SourceError(f"cannot read site directory {root}: {exc.strerror or exc}") from exc
    if not stat.S_ISDIR(info.st_mode):
        raise SourceError(f"site directory {root} is not a directory")
    yield from _walk(root, "", {(info.st_dev, info.st_ino)})


def _walk(directory: Path, prefix: str, ancestors: set[tuple[int, int]]) -> Iterator[TreeFile]:
    try:
        with os.scandir(directory) as scan:
            items = sorted(scan, key=lambda item: os.fsencode(item.name))
    except OSError as exc:
        raise SourceError(f"cannot read directory {directory}: {exc.strerror or exc}") from exc
    for item in items:
        if item.name.startswith("."):
            continue
        path = prefix + item.name
        try:
            info = item.stat()  # follows symlinks
        except FileNotFoundError:
            log.warning("skipping %s: broken symbolic link", path)
            continue
        except OSError as exc:
            if exc.errno == 40:  # ELOOP: a link chain that never ends
                log.warning("skipping %s: symbolic link loop", path)
                continue
            raise SourceError(
                f"cannot read {directory / item.name}: {exc.strerror or exc}"
            ) from exc
        if stat.S_ISDIR(info.st_mode):
            key = (info.st_dev, info.st_ino)
            if key in ancestors:
                log.warning("skipping %s: symbolic link loop back to a parent directory", path)
                continue
            ancestors.add(key)
            yield from _walk(Path(item.path), path + "/", ancestors)
            ancestors.discard(key)
        elif stat.S_ISREG(info.st_mode):
            yield TreeFile(path, info.st_mtime)
