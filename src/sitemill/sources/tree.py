"""Walk a site directory in a stable, sorted order, yielding each regular file inside it once."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from sitemill.errors import SourceError
from sitemill.messages import KindCounts
from sitemill.safefs import is_hidden, relative_inside


@dataclass(frozen=True, slots=True)
class TreeFile:
    """A file under the site root: its POSIX path relative to the root, its mtime and size."""

    path: str
    mtime: float
    size: int = 0


class WalkSkip(Enum):
    """What the walk leaves out besides dot-files, each counted: (one, many) for messages."""

    OUTSIDE = (
        "symbolic link leading outside the site (or into a hidden path), not followed",
        "symbolic links leading outside the site (or into hidden paths), not followed",
    )
    DIRECTORY_LINK = (
        "symbolic link to a directory of the site, not followed (the directory is listed "
        "under its own path)",
        "symbolic links to directories of the site, not followed (each directory is listed "
        "under its own path)",
    )
    REPEATED = (
        "directory already walked (mounted twice)",
        "directories already walked (mounted twice)",
    )
    NOT_REGULAR = ("FIFO, socket or device", "FIFOs, sockets or devices")
    BROKEN = ("broken symbolic link", "broken symbolic links")
    LOOP = ("symbolic link loop", "symbolic link loops")


class WalkSkips(KindCounts[WalkSkip]):
    """The walk's tally of what it left out, by reason, with the first path of each."""

    def messages(self) -> list[str]:
        """One line per reason (a link farm can hold thousands): count, kind and an example."""
        lines = []
        for reason in WalkSkip:
            count = self.counts[reason]
            if count:
                one, many = reason.value
                example = self.examples[reason]
                lines.append(f"skipped {count:,} {one if count == 1 else many}: {example}")
        return lines


def walk_tree(root: Path, skipped: WalkSkips | None = None) -> Iterator[TreeFile]:
    """Depth-first, names sorted by their bytes; dot-files and dot-directories are not entered.

    A symbolic link to a file inside the root is a file of its own. A link to a directory
    inside the root is not followed: the walk reaches every directory there by its own path
    (a generator's ``dev -> latest`` lists ``latest/``, the path git tracks and dates, never
    ``dev/``, whatever sorts first), so a link farm (34 links to ``.`` would double the tree
    34 times) or a loop lists each file once. Links leading outside the root or into a
    dot-directory (``/sys``, ``../.git``) are never entered or read; FIFOs, sockets and
    devices are never yielded. Each of these is counted in ``skipped``. Names that are not
    valid UTF-8 keep their bytes as surrogate escapes.
    """
    tally = WalkSkips() if skipped is None else skipped
    info = _root_status(root)
    root_real = os.path.realpath(root)
    walked = {(info.st_dev, info.st_ino)}
    # An explicit stack, not recursion: a committed tree may be thousands of levels deep.
    stack = [("", iter(_listing(os.fspath(root))))]
    while stack:
        prefix, items = stack[-1]
        item = next(items, None)
        if item is None:
            stack.pop()
            continue
        if item.name.startswith("."):
            continue
        path = prefix + item.name
        try:
            if item.is_symlink():
                target = _link_target(item.path, root_real)
                if isinstance(target, WalkSkip):
                    tally.count(target, path)
                    continue
                found = os.stat(target)
                if stat.S_ISDIR(found.st_mode):
                    # Inside the root and out of dot-folders: its own path is walked.
                    tally.count(WalkSkip.DIRECTORY_LINK, path)
                    continue
            else:
                found = item.stat(follow_symlinks=False)
        except FileNotFoundError:  # gone since the directory was listed
            tally.count(WalkSkip.BROKEN, path)
            continue
        except OSError as exc:
            raise SourceError(f"cannot read {item.path}: {exc.strerror or exc}") from exc
        mode = found.st_mode
        if stat.S_ISREG(mode):
            yield TreeFile(path, found.st_mtime, found.st_size)
        elif stat.S_ISDIR(mode):
            key = (found.st_dev, found.st_ino)
            if key in walked:
                tally.count(WalkSkip.REPEATED, path)
                continue
            walked.add(key)
            stack.append((path + "/", iter(_listing(item.path))))
        else:
            tally.count(WalkSkip.NOT_REGULAR, path)


def _root_status(root: Path) -> os.stat_result:
    """The site directory's status; a SourceError when it is missing or not a directory."""
    try:
        info = root.stat()
    except FileNotFoundError as exc:
        raise SourceError(f"site directory {root} does not exist") from exc
    except OSError as exc:
        raise SourceError(f"cannot read site directory {root}: {exc.strerror or exc}") from exc
    if not stat.S_ISDIR(info.st_mode):
        raise SourceError(f"site directory {root} is not a directory")
    return info


def _listing(directory: str) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(directory) as scan:
            return sorted(scan, key=lambda item: os.fsencode(item.name))
    except OSError as exc:
        raise SourceError(f"cannot read directory {directory}: {exc.strerror or exc}") from exc


def _link_target(link: str, root_real: str) -> str | WalkSkip:
    """The real path a link leads to, or why it is not followed.

    Only links pay for a ``realpath``: plain entries are inside the root by construction.
    """
    try:
        real = os.path.realpath(link, strict=True)
    except FileNotFoundError:
        return WalkSkip.BROKEN
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return WalkSkip.LOOP
        raise
    inside = relative_inside(root_real, real)
    if inside is None or is_hidden(inside):
        return WalkSkip.OUTSIDE
    return real
