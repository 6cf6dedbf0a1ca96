"""Whether a file at an llms name is one sitemill wrote, by its own text (never its shape)."""
# A run replaces or deletes only what it wrote. llms.txt carries sitemill's mark at the end of its
# first paragraph (llms.files); llms-full.txt and a Markdown twin carry SITEMILL_MARK as a line of
# its own in their first MARK_WITHIN bytes (an HTML comment: Markdown readers show nothing of it).
# A file without it, and without the bytes the state records for it, is the user's.

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Final

from sitemill.filenames.outputs import ENTRY_TXT, ENTRY_XML, LLMS_FULL, LLMS_TXT, MARKDOWN_SUFFIX

SITEMILL_MARK: Final = "<!-- Written by sitemill from the pages its sitemap lists. -->"
MARK_WITHIN: Final = 16 * 1024
_MARK_LINE: Final = SITEMILL_MARK.encode()


def written_by_sitemill(name: str, data: bytes) -> bool:
    """Whether ``data``, the file at ``name`` (below the site root), is one sitemill wrote."""
    if PurePosixPath(name).name == LLMS_TXT:
        from sitemill.llms._files import has_llms_txt_mark

        return has_llms_txt_mark(data)
    return has_mark_line(data)


def has_mark_line(data: bytes) -> bool:
    """Whether ``data`` (a file's bytes, or their start) is a file sitemill wrote: it holds the
    mark as a line of its own within its first MARK_WITHIN bytes."""
    return _MARK_LINE in data[:MARK_WITHIN].split(b"\n")


def proves_llms_file(name: str, data: bytes, base_url: str) -> bool:
    """Whether ``data``, at an llms name and with the MD5 sitemill recorded for it, is in the
    form sitemill writes there (writing.ownbytes): llms.txt with its mark (llms.files),
    llms-full.txt with this site's head (llms.full), a twin whole in its form (llms.twins)."""
    if PurePosixPath(name).name == LLMS_TXT:
        from sitemill.llms._files import has_llms_txt_mark

        return has_llms_txt_mark(data)
    if name == LLMS_FULL:
        return _is_full_text(data, base_url)
    return name.endswith(MARKDOWN_SUFFIX) and _is_twin(data)


def _is_twin(data: bytes) -> bool:
    """Whether ``data`` is whole in the form of a twin (llms.twins.twin_bytes)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    heading, found, rest = text.partition(f"\n\n{SITEMILL_MARK}\n")
    if not found or not heading.startswith("# ") or "\n" in heading:
        return False
    title = heading[2:]
    if not title or " ".join(title.split()) != title:
        return False
    if not rest:
        return True
    return (
        rest.startswith("\n") and rest[1:2] != "\n" and rest.endswith("\n") and rest[-2:] != "\n\n"
    )


def _is_full_text(data: bytes, base_url: str) -> bool:
    """Whether ``data`` begins with the head llms-full.txt has for the site at ``base_url``
    (llms.full.full_head): its name, an optional summary, the line naming the site's sitemap,
    the mark."""
    text = data[: 64 * 1024].decode("utf-8", "ignore")
    lines = text.split("\n", 8)
    if len(lines) < 5 or not lines[0].startswith("# ") or lines[1]:
        return False
    at = 4 if lines[2].startswith("> ") and not lines[3] else 2
    if len(lines) < at + 4:
        return False
    named = (
        f"The content of the pages {base_url}{entry} lists, as Markdown, in its order."
        for entry in (ENTRY_XML, ENTRY_TXT)
    )
    return lines[at] in named and not lines[at + 1] and lines[at + 2] == SITEMILL_MARK
