"""The line that tells a file sitemill wrote (llms-full.txt, a Markdown twin) from a user's."""
# A run replaces or deletes only what it wrote: a file without this line, in its first
# MARK_WITHIN bytes, is the user's. An HTML comment: Markdown readers show nothing of it.

from __future__ import annotations

from typing import Final

SITEMILL_MARK: Final = "<!-- Written by sitemill from the pages its sitemap lists. -->"
MARK_WITHIN: Final = 16 * 1024
_MARK_LINE: Final = SITEMILL_MARK.encode()


def written_by_sitemill(data: bytes) -> bool:
    """Whether ``data`` (a file's bytes, or their start) is a file sitemill wrote: it holds the
    mark as a line of its own within its first MARK_WITHIN bytes."""
    return _MARK_LINE in data[:MARK_WITHIN].split(b"\n")
