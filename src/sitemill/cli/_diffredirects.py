"""`sitemill diff`'s suggested redirects: in the host's form, as JSON or into a file."""
# A file sitemill writes is its own: an existing FILE is replaced only when it holds what sitemill
# wrote (its header says so) or the very bytes it would write; the user's own redirects file
# (`_redirects` beside the pages) is never overwritten: one line says to name another. It is written
# only as a regular file inside its wall (the site's folder when FILE lies in it, else FILE's own
# folder), never through a link a checkout holds (safefs.write_inside).

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sitemill.errors import RefusedError, UsageError
from sitemill.messages import shown

if TYPE_CHECKING:
    from sitemill.commands.diff import TreeDiff

SUGGESTED_MARK = b"suggested by sitemill diff"  # in the first lines of every form that has comments


def suggestions(
    found: TreeDiff, base_url: str, form_name: str | None, file: Path | None
) -> dict[str, Any] | None:
    """The suggested redirects as JSON (form, count, notes, text); None when none."""
    from sitemill.redirects import RedirectForm

    form = None if form_name is None else RedirectForm(form_name)
    made = found.suggested(base_url, form, None if file is None else file.name)
    if made is None:
        return None
    return {"form": made.form, "count": made.count, "notes": list(made.notes), "text": made.text}


def redirects_wall(file: Path, site_dir: Path) -> Path:
    """The folder FILE is written inside: the site's when FILE lies in it (a link the site
    commits may not lead the write elsewhere), else FILE's own folder."""
    from sitemill.safefs import relative_inside

    inside = relative_inside(os.path.abspath(site_dir), os.path.abspath(file))
    return site_dir if inside else file.parent


def check_redirects_target(file: Path, site_dir: Path) -> int | None:
    """check_writable for FILE, its refusal one line (UsageError)."""
    from sitemill.safefs import check_writable

    try:
        return check_writable(redirects_wall(file, site_dir), file)
    except (RefusedError, OSError) as exc:
        raise _cannot_write(file, exc) from None


def write_suggestions(file: Path, suggested: dict[str, Any] | None, site_dir: Path) -> str:
    """Write the suggestions to ``file`` (nothing when there are none) and say what was done."""
    from sitemill.safefs import read_regular, write_inside

    if suggested is None:
        return f"no redirect to suggest: {shown(str(file))} not written"
    data = suggested["text"].encode("utf-8")
    mode = check_redirects_target(file, site_dir)
    try:
        before = None if mode is None else read_regular(file, len(data) + 1, follow_symlinks=False)
    except (OSError, RefusedError) as exc:
        reason = exc.reason if isinstance(exc, RefusedError) else exc.strerror
        raise UsageError(f"--write-redirects: cannot read {shown(str(file))}: {reason}") from None
    if before is not None and before != data and SUGGESTED_MARK not in before[:1024]:
        raise UsageError(
            f"--write-redirects: {shown(str(file))} is not a file sitemill wrote; name a new "
            "file and merge its lines into yours"
        )
    if before != data:
        try:
            write_inside(redirects_wall(file, site_dir), file, data)
        except (RefusedError, OSError) as exc:
            raise _cannot_write(file, exc) from None
    count = suggested["count"]
    return f"wrote {count:,} suggested redirect(s) to {shown(str(file))} ({suggested['form']})"


def _cannot_write(file: Path, exc: RefusedError | OSError) -> UsageError:
    """The one line of a refusal (a link, no regular file) or of the system's answer."""
    if isinstance(exc, RefusedError):
        return _refused(exc)
    return UsageError(f"--write-redirects: cannot write {shown(str(file))}: {exc.strerror}")


def _refused(exc: RefusedError) -> UsageError:
    return UsageError(
        f"--write-redirects: {shown(str(exc))}; sitemill writes only a regular file, never "
        "through a link"
    )
