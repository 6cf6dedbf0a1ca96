"""A refused run leaves the work tree as it found it: the site's files set aside, put back."""
# The Action refuses a base URL the site contradicts only once the build has read the pages
# (their canonicals say where the site is served), when the sitemaps and the state are written:
# "nothing was committed" must also mean nothing changed on disk, or a later `if: always()` step
# or an artifact upload ships the refused URL, and the next run reads it back as the site's.
#
# Every write of a run replaces a file by a rename and every deletion unlinks one: a file's bytes
# are never changed in place. So a hard link to each regular file, taken before the run in a
# folder beside the work tree, keeps what the run replaces or deletes, at the cost of one link
# per file (a copy where the file system refuses links). Undoing puts back each file whose inode
# changed or went away, and removes each file and folder the run created: nothing else was
# writing in the job's work tree, so a file that appeared during the run is the run's own.

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path


class Undo:
    """The regular files below ``roots``, and the ``files`` named (a state kept elsewhere), as
    they were, kept aside until ``restore`` or ``discard``; symbolic links, FIFOs and the like
    are left alone (a run writes none)."""

    def __init__(self, roots: Sequence[Path], files: Sequence[Path], aside: Path) -> None:
        unique = list(dict.fromkeys(roots))
        self.roots = [root for root in unique if not any(up in root.parents for up in unique)]
        self.loose = [path for path in files if not any(up in path.parents for up in self.roots)]
        self.aside = aside
        self.kept: dict[Path, tuple[Path, int, int]] = {}  # path -> (its link, device, inode)
        self.folders: set[Path] = set()
        for path, info in self._files(self.folders):
            kept = aside / str(len(self.kept))
            try:
                os.link(path, kept)
            except OSError:
                shutil.copyfile(path, kept)
            self.kept[path] = (kept, info.st_dev, info.st_ino)

    @classmethod
    def take(cls, roots: Sequence[Path], files: Sequence[Path], beside: Path) -> Undo:
        """Set aside the files below ``roots`` and the ``files`` in a new folder next to
        ``beside`` (the same file system, so that links are free), else in the system's
        temporary folder."""
        try:
            aside = Path(tempfile.mkdtemp(prefix=".sitemill-undo-", dir=beside.parent))
        except OSError:
            aside = Path(tempfile.mkdtemp(prefix="sitemill-undo-"))
        try:
            return cls(roots, files, aside)
        except BaseException:
            shutil.rmtree(aside, ignore_errors=True)
            raise

    def restore(self) -> None:
        """Put every file back as it was; remove the files and folders the run created."""
        folders: set[Path] = set()
        now = set()
        for path, info in self._files(folders):
            now.add(path)
            kept = self.kept.get(path)
            if kept is None:
                path.unlink()  # the run's own: it was not there before
            elif kept[1:] != (info.st_dev, info.st_ino):
                os.replace(kept[0], path)
        for path in self.kept.keys() - now:
            path.parent.mkdir(parents=True, exist_ok=True)
            os.replace(self.kept[path][0], path)
        for folder in sorted(folders - self.folders, key=lambda p: len(p.parts), reverse=True):
            with contextlib.suppress(OSError):
                folder.rmdir()  # (only when empty: a folder the run made for its files)

    def discard(self) -> None:
        shutil.rmtree(self.aside, ignore_errors=True)

    def _files(self, folders: set[Path]) -> Iterator[tuple[Path, os.stat_result]]:
        """Each regular file below the roots and each loose file, with its lstat."""
        for root in self.roots:
            yield from _walk(root, folders)
        for path in self.loose:
            with contextlib.suppress(FileNotFoundError):
                if stat.S_ISREG((info := path.lstat()).st_mode):
                    yield path, info


def _walk(root: Path, folders: set[Path]) -> Iterator[tuple[Path, os.stat_result]]:
    """Each regular file below ``root`` with its lstat, never through a link or into .git;
    the folders seen are added to ``folders``."""
    for top, names, files in os.walk(root):
        names[:] = [name for name in names if name != ".git"]
        folders.update(Path(top, name) for name in names)
        for name in files:
            path = Path(top, name)
            info = path.lstat()
            if stat.S_ISREG(info.st_mode):
                yield path, info
