"""Whether a file at an llms name is one sitemill wrote, by its own text (never its shape)."""
# A run replaces or deletes only what it wrote. llms.txt carries sitemill's mark at the end of its
# first paragraph (llms.files); llms-full.txt and a Markdown twin carry SITEMILL_MARK as a line of
# its own in their first MARK_WITHIN bytes (an HTML comment: Markdown readers show nothing of it).
# A file without it, and without the bytes the state records for it, is the user's.

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Final

from sitemill.filenames.outputs import LLMS_TXT

SITEMILL_MARK: Final = "<!-- Written by sitemill from the pages its sitemap lists. -->"
MARK_WITHIN: Final = 16 * 1024
_MARK_LINE: Final = SITEMILL_MARK.encode()


def written_by_sitemill(name: str, data: bytes) -> bool:
    """Whether ``data``, the file at ``name`` (below the site root), is one sitemill wrote."""
    if PurePosixPath(name).name == LLMS_TXT:
        from sitemill.llms.files import has_llms_txt_mark

        return has_llms_txt_mark(data)
    return has_mark_line(data)


def has_mark_line(data: bytes) -> bool:
    """Whether ``data`` (a file's bytes, or their start) is a file sitemill wrote: it holds the
    mark as a line of its own within its first MARK_WITHIN bytes."""
    return _MARK_LINE in data[:MARK_WITHIN].split(b"\n")
