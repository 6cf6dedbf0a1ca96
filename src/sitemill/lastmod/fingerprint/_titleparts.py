"""A page's ``<title>`` as fingerprint version 5 reads it: its parts, not their order."""
# Themes join a page's own title and the site's name with a separator, and generators change the
# join: Quarto 1.5 turned ``Book - 1 What is accessibility?`` into ``1 What is accessibility? –
# Book`` on every page of a book, and no reader saw a page change. The title is split where a
# separator stands between spaces (a hyphen, an en or em dash, ``|``, ``·``, ``•``, ``»``, ``::``),
# and its parts are counted in sorted order: a part that moves or a separator that changes moves no
# date; a part added, dropped or reworded does.

from __future__ import annotations

import re
from typing import Final

# (A match starts only where white space does: linear on a title of nothing but spaces.)
_SEPARATOR: Final = re.compile(r"(?<!\s)\s+(?:[-–—|·•»]|::)\s+")
JOINER: Final = " | "


def title_parts(title: str) -> str:
    """``title`` (its text, white space as written) as its parts in sorted order."""
    if not _SEPARATOR.search(title):
        return title
    return JOINER.join(sorted(split_title(title)))


def split_title(title: str) -> list[str]:
    """The parts of ``title`` (see above), in their order, none empty."""
    return [part for part in map(str.strip, _SEPARATOR.split(title)) if part]
