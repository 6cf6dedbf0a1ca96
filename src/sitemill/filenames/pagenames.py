"""What can name a page of a site: one rule for a tree's files, a bucket's keys and a state."""
# A file or key whose name holds a control character (a newline, a tab, NUL), a backslash (a
# browser reads it as a slash: its URL names another path), or an empty, "." or ".." segment
# names no page that a URL can reach as it is. The walk and the bucket listing leave such a
# name out of the page set (sitemill.rules.builtin_exclusion, counted as excluded), and a state
# that names one is not trusted with it (sitemill.state.parse): the three agree, so a name a run
# lists is one the next run's state keeps.

from __future__ import annotations

import re
from typing import Final
from urllib.parse import unquote

# C0 and C1 control characters, DEL.
_CONTROL: Final = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_NO_PAGE_SEGMENTS: Final = frozenset({"", ".", ".."})  # a folder, the root, its parent


def is_page_name(path: str) -> bool:
    """Whether ``path`` can name a page of the site: a path below its root, as a walk or a
    listing names one ("docs/a.html"). Not: an absolute path, a backslash, an empty, ``.`` or
    ``..`` segment (a way out, another host's URL: "https://host/..."), a control character
    (NUL, a newline, a tab), the same once percent-decoded ("%00", "%2e%2e/")."""
    return _is_relative_path(path) and _is_relative_path(unquote(path))


def _is_relative_path(path: str) -> bool:
    if not path or path.startswith("/") or "\\" in path or _CONTROL.search(path):
        return False
    return _NO_PAGE_SEGMENTS.isdisjoint(path.split("/"))
