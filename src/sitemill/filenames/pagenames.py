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

# What no page name holds: a C0 or C1 control character, DEL, a backslash; a segment that is
# empty (an absolute path, "a//b", a folder's "a/"), "." (the root) or ".." (its parent). One
# search: every page of a huge bucket asks, twice.
_NO_PAGE: Final = re.compile(r"[\x00-\x1f\x7f-\x9f\\]|(?:^|/)\.{0,2}(?:/|$)")


def is_page_name(path: str) -> bool:
    """Whether ``path`` can name a page of the site: a path below its root, as a walk or a
    listing names one ("docs/a.html"). Not: an absolute path, a backslash, an empty, ``.`` or
    ``..`` segment (a way out, another host's URL: "https://host/..."), a control character
    (NUL, a newline, a tab), the same once percent-decoded ("%00", "%2e%2e/")."""
    if _NO_PAGE.search(path) is not None:
        return False
    return "%" not in path or _NO_PAGE.search(unquote(path)) is None
