"""Whether a file at an llms name is one sitemill wrote, by its own text (never its shape)."""
# llms.txt carries sitemill's mark at the end of its first paragraph (llms.files); llms-full.txt
# and a Markdown twin carry it as a comment line of their own (llms.ownership). A file without
# it, and without the bytes the state records for it, is the user's.

from __future__ import annotations

from pathlib import PurePosixPath

from sitemill.filenames.outputs import LLMS_TXT


def written_by_sitemill(name: str, data: bytes) -> bool:
    """Whether ``data``, the file at ``name`` (below the site root), is one sitemill wrote."""
    if PurePosixPath(name).name == LLMS_TXT:
        from sitemill.llms.files import written_by_sitemill as llms_txt_mark

        return llms_txt_mark(data)
    from sitemill.llms.ownership import written_by_sitemill as comment_mark

    return comment_mark(data)
