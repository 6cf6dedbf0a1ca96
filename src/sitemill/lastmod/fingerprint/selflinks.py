"""Links that lead nowhere new (fingerprint version 5): to the page itself, share buttons."""
# A link to the page itself and a share button's link, which carries the page's own URL in its
# query.
#
# A theme that makes a post's headline a link to the post, or whose share buttons move from one
# social site's address to another's, changes no word a reader reads on the page, and what a crawler
# follows from it is the page it is on. Such a link counts as no link: its target and the mark where
# it ends are left out of the reduction, and its text stays as text.

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final
from urllib.parse import unquote

# After a page's own URL in a query: its end, another parameter, a fragment or a quote.
_URL_END: Final = r"(?:/(?:index\.html?)?)?(?:$|[&#;\"'\s])"


@lru_cache(maxsize=4096)
def own_url(origin: str, spelled: str) -> re.Pattern[str] | None:
    """How the page at ``spelled`` (its path in one spelling, fingerprint.targets) on ``origin``
    reads inside another URL's decoded query: its host and path, any scheme, with or without
    a trailing slash or index.html. None without an origin (no base URL known)."""
    host = origin.partition("://")[2]
    if not host:
        return None
    path = "" if spelled == "/" else spelled
    return re.compile(re.escape(host + path) + _URL_END, re.IGNORECASE)


def is_share_link(value: str, own: re.Pattern[str] | None) -> bool:
    """Whether a link's target ``value`` (as written) carries the page's own URL (``own``)
    in its query: a share button's link."""
    query = value.partition("?")[2]
    if own is None or not query:
        return False
    return own.search(unquote(unquote(query.partition("#")[0]))) is not None


def is_self_link(spelled_target: str, spelled_page: str) -> bool:
    """Whether a link's target (spelled as fingerprint.targets spells it) leads to the page itself:
    its path is the page's, with or without a fragment, and it has no query."""
    path = spelled_target.partition("#")[0]
    return path == spelled_page and "?" not in path
