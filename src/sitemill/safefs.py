"""Safe reads and writes inside a root: only regular files, never through a link, bounded."""
# Every file sitemill reads from a site, a workspace or an output folder goes through here, so that
# a committed symbolic link cannot make it read ``../.git/config`` or ``/proc/self/environ`` (and
# write their bytes into a robots.txt it commits), and a FIFO or ``/dev/zero`` cannot make it hang
# or fill memory. The rules:
#
# - the path is resolved (every link followed) and must lie inside the resolved root; with
#   ``hidden=False`` not in a dot-file or dot-directory of it either (a site's ``.git``);
# - only a regular file is opened: a FIFO, socket, device or directory is refused after a ``stat``,
#   before any ``open`` (opening a device can have effects), and the ``open`` itself neither blocks
#   (``O_NONBLOCK``) nor follows a link swapped in meanwhile (``O_NOFOLLOW``) and is checked again
#   with ``fstat``;
# - at most ``limit`` bytes are read (``/proc`` files say size 0 and hold data, so the size is never
#   trusted).
#
# What is refused raises ``RefusedError`` (a ``ValueError``, like ``GlobSyntaxError``): each caller
# decides whether that is a warning (a page, the site's robots.txt) or a ``SitemillError`` (a config
# file, a file in the output folder). A file that does not exist is ``None`` from ``Root.read`` and
# ``FileNotFoundError`` from ``read_regular``; any other OSError passes through.
#
# A process that swaps a directory of the root for a link *while* sitemill reads can still race the
# resolve-then-open sequence above; the threat here is committed content, not a live attacker.
#
# A file sitemill writes for the user (``write_inside``) is held to the same wall: no folder
# between the root and the file is a link, the file itself is a regular file or none, and it is
# written to a temporary file beside it, then renamed over it (a rename replaces a link that
# appears meanwhile, it never writes through one).

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path
from typing import Final

from sitemill.errors import RefusedError, TooLargeError

# A FIFO opened for reading would wait for a writer; a link at the last component is refused.
_O_NOFOLLOW: Final = getattr(os, "O_NOFOLLOW", 0)
_OPEN_FLAGS: Final = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_NOCTTY", 0)
)
_CHUNK: Final = 1024 * 1024
_KINDS: Final = (
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


class Root:
    """A directory whose files are read only where they resolve to inside it.

    ``hidden=False`` also refuses what resolves into a dot-file or dot-directory of the root:
    sitemill never lists those, so a link into ``.git`` is a way out, not a page.
    """

    def __init__(self, path: Path, *, hidden: bool = False) -> None:
        self.path = path
        self.real = os.path.realpath(path)
        self.hidden = hidden
        self._directories: dict[str, str] = {}  # a directory as joined -> its real path

    def resolve(self, path: str | os.PathLike[str]) -> str:
        """The real path of ``path`` (relative to the root, or absolute), if it lies inside.

        FileNotFoundError when it does not exist (a broken link too); RefusedError when it
        leads outside the root, into a hidden path, or round a link loop.
        """
        return self._resolved(path)[0]

    def _resolved(self, path: str | os.PathLike[str]) -> tuple[str, int | None]:
        """resolve, and the mode of the file it found when no link led there (its lstat's:
        what read_regular would stat again)."""
        joined = os.path.join(self.path, path)
        try:
            real, mode = self._realpath(joined)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise RefusedError(joined, "is a symbolic link loop") from exc
            raise
        inside = relative_inside(self.real, real)
        if inside is None:
            raise RefusedError(joined, f"leads outside {self.path} (to {real})")
        if not self.hidden and is_hidden(inside):
            raise RefusedError(joined, f"leads to a hidden path of {self.path} ({inside})")
        return real, mode

    def _realpath(self, joined: str) -> tuple[str, int | None]:
        """``os.path.realpath(joined, strict=True)``, with the real path of each directory
        remembered: a tree's pages share few directories, and resolving every component of
        every page again (an lstat each) was most of a 10,000-page build's time. With it, the
        mode of the file when it is no link (None: one was followed)."""
        directory, name = os.path.split(joined)
        real_directory = self._directories.get(directory)
        if real_directory is None:
            real_directory = os.path.realpath(directory, strict=True)
            self._directories[directory] = real_directory
        candidate = os.path.join(real_directory, name)
        mode = os.lstat(candidate).st_mode if name else None
        if mode is None or stat.S_ISLNK(mode):
            return os.path.realpath(candidate, strict=True), None
        return candidate, mode

    def read(
        self, path: str | os.PathLike[str], limit: int, *, whole: bool = False
    ) -> bytes | None:
        """The first ``limit`` bytes of the regular file at ``path`` inside the root.

        With ``whole``, all of it, and RefusedError when it holds more than ``limit`` bytes.
        None when it does not exist.
        """
        try:
            real, mode = self._resolved(path)
            if mode is None:
                mode = os.stat(real, follow_symlinks=False).st_mode
            return _read_checked(real, mode, limit, whole=whole, follow_symlinks=False)
        except FileNotFoundError:
            return None


def read_regular(
    path: str | os.PathLike[str],
    limit: int,
    *,
    whole: bool = False,
    follow_symlinks: bool = True,
) -> bytes:
    """The first ``limit`` bytes of the regular file at ``path`` (anywhere: no root).

    With ``whole``, all of it, and RefusedError when it holds more than ``limit`` bytes.
    Without ``follow_symlinks`` a link at ``path`` itself is refused, never followed.
    """
    mode = os.stat(path, follow_symlinks=follow_symlinks).st_mode
    return _read_checked(path, mode, limit, whole=whole, follow_symlinks=follow_symlinks)


def _read_checked(
    path: str | os.PathLike[str], mode: int, limit: int, *, whole: bool, follow_symlinks: bool
) -> bytes:
    """read_regular of a file whose ``mode`` was just read (by a stat, or the root's lstat):
    refused unless regular, opened without blocking, its mode checked again once open."""
    _require_regular(path, mode)
    flags = _OPEN_FLAGS if follow_symlinks else _OPEN_FLAGS | _O_NOFOLLOW
    try:
        descriptor = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow_symlinks:
            raise RefusedError(path, "is a symbolic link") from exc
        raise
    try:
        _require_regular(path, os.fstat(descriptor).st_mode)
        data = _read_at_most(descriptor, limit + 1 if whole else limit)
    finally:
        os.close(descriptor)
    if whole and len(data) > limit:
        raise TooLargeError(path, f"is larger than {limit:,} bytes")
    return data


def check_writable(root: str | os.PathLike[str], path: str | os.PathLike[str]) -> int | None:
    """The mode of the regular file at ``path`` (None when there is none), where ``path`` lies
    inside ``root`` (as spelt) and may be written: RefusedError when a folder between the root
    and it is a link or no folder, or ``path`` is a link (a dangling one too) or no regular
    file. ``root`` itself may be a link (the user names it); what lies below it may not."""
    top = os.path.abspath(root)
    target = os.path.abspath(path)
    inside = relative_inside(top, target)
    if not inside:
        raise RefusedError(path, f"is not a file inside {os.fspath(root)}")
    folder = top
    for part in inside.split(os.sep)[:-1]:
        folder = os.path.join(folder, part)
        mode = os.lstat(folder).st_mode
        if stat.S_ISLNK(mode):
            raise RefusedError(folder, "is a symbolic link, not a folder")
        if not stat.S_ISDIR(mode):
            raise RefusedError(folder, "is not a folder")
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return None
    _require_regular(path, mode)
    return mode


def write_inside(root: str | os.PathLike[str], path: str | os.PathLike[str], data: bytes) -> None:
    """Put ``data`` at ``path`` inside ``root`` (see check_writable): written to a temporary
    file beside it, then renamed over it, keeping an existing file's permissions."""
    mode = check_writable(root, path)
    folder = os.path.dirname(os.path.abspath(path))
    # mkstemp creates with O_EXCL: never an existing file, never through a link.
    handle, temporary = tempfile.mkstemp(prefix=".sitemill-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            os.fchmod(stream.fileno(), 0o644 if mode is None else stat.S_IMODE(mode))
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def relative_inside(root_real: str, real: str) -> str | None:
    """``real`` relative to ``root_real`` ("" for the root itself), or None when outside.

    Both must be real paths (``os.path.realpath``): this compares strings only.
    """
    if real == root_real:
        return ""
    prefix = root_real if root_real.endswith(os.sep) else root_real + os.sep
    return real[len(prefix) :] if real.startswith(prefix) else None


def is_hidden(relative: str) -> bool:
    """Whether a relative path has a dot-file or dot-directory in it."""
    return relative.startswith(".") or f"{os.sep}." in relative


def _require_regular(path: str | os.PathLike[str], mode: int) -> None:
    if stat.S_ISREG(mode):
        return
    kind = next((name for test, name in _KINDS if test(mode)), "of an unknown kind")
    raise RefusedError(path, f"is {kind}, not a regular file")


def _read_at_most(descriptor: int, limit: int) -> bytes:
    chunks: list[bytes] = []
    left = limit
    while left > 0:
        chunk = os.read(descriptor, min(left, _CHUNK))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)
