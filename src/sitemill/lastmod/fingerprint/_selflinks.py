"""Links that lead nowhere new (fingerprint version 5): to the page itself, share buttons."""
# A link to the page itself and a share button's link, which carries the page's own URL in its
# query.
#
# From version 7 the query is read as a browser reads it (shared_paths): each parameter's value
# percent-decoded (``+`` a space), and the page's URL found anywhere inside a value, with any
# scheme or none, spelled as the page's own links are (fingerprint.targets: with or without a
# trailing slash, ``index.html`` or ``.html``). A tweet button's ``text=<title> <URL>`` carries
# it after the title, and a Jekyll page's URL ends in ``.html``: a deploy that dropped
# ``via=AEAData&`` from such buttons re-dated 38 pages (issue 79).
#
# From version 13 a share button's query carries the page's URL at the root the page declares too
# (carries_own_path, fingerprint.declaredroot: a Windows preview's ``file:///C:\\…\\preview/``,
# read as a browser reads it), or after no URL's root at all: its path from the site's root, or
# after a placeholder its script fills in (Publii's ``#PUBLII_RELATIVE_URL_BASE#/post/``, which its
# share buttons' script makes the page's URL on a click). A move of the site's host and base path
# is one edit, a share button's too; the page's path on another host stays another URL.
#
# A theme that makes a post's headline a link to the post, or whose share buttons move from one
# social site's address to another's, changes no word a reader reads on the page, and what a crawler
# follows from it is the page it is on. Such a link counts as no link: its target and the mark where
# it ends are left out of the reduction, and its text stays as text.

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final
from urllib.parse import parse_qsl, unquote

_SLASHES: Final = re.compile("/+")


@lru_cache(maxsize=1024)
def _host_in_value(host: str) -> re.Pattern[str]:
    """``host`` (its name and port) inside a query's value, not inside a longer host name,
    any scheme or none before it, and the path, query and fragment after it (up to a space,
    a quote or a bracket)."""
    return re.compile(
        rf"(?<![\w.-]){re.escape(host)}(?![\w.:-])((?:[/?#][^\s\"'<>]*)?)",
        re.IGNORECASE,
    )


@lru_cache(maxsize=4096)
def shared_paths(value: str, origin: str) -> tuple[str, ...]:
    """The paths on ``origin`` of the URLs that a link's target ``value`` (as written) carries in
    its query's values, read as a browser reads them (version 7: see above), each without its
    fragment, and only those with no query of their own ("" for the origin's root)."""
    return _carried_paths(value, origin.partition("://")[2])


@lru_cache(maxsize=4096)
def carries_own_path(value: str, own: str, root: str = "") -> bool:
    """Whether a link's target ``value`` (as written) carries in its query's values, read as
    shared_paths reads them and their backslashes slashes (a URL of a special scheme:
    fingerprint.browserurl), the path of the page itself (``own``, as fingerprint.targets spells
    it; not the root, which every page's path ends in), with no query of its own, at the
    ``root`` the page declares (``host/path``, or ``scheme://host/path`` for a scheme other than
    http(s); "" for none) or after no URL at all: nothing (a path from the site's root) or a
    placeholder with no ".", ":" or "/" in it, which a script fills in (version 13: see above)."""
    query = value.partition("?")[2].partition("#")[0]
    if own in ("", "/") or not query:
        return False
    found = _own_path_in_value(own)
    for _, carried in parse_qsl(query, keep_blank_values=True):
        if "%" in carried:  # (a URL encoded twice: some buttons encode the page's URL again)
            carried = unquote(carried)
        carried = carried.replace("\\", "/")
        for match in found.finditer(carried):
            before = carried[: match.start()]
            start = max(before.rfind(space) for space in " \t\n\f\r") + 1
            if _is_root(before[start:], root):
                return True
    return False


def _is_root(written: str, root: str) -> bool:
    """Whether ``written``, what stands before a page's path in a URL, is the ``root`` the page
    declares (an http(s) root with any scheme or none) or no URL's root at all (see
    carries_own_path)."""
    if not any(sign in written for sign in "./:"):
        return True
    if not root:
        return False
    written = written.lower()
    for scheme in ("https:", "http:", ""):
        if "://" not in root and written.startswith(scheme + "//"):
            written = written[len(scheme) + 2 :]
            break
    return _SLASHES.sub("/", written) == _SLASHES.sub("/", root)  # (a file path's "//" is "/")


@lru_cache(maxsize=1024)
def _own_path_in_value(own: str) -> re.Pattern[str]:
    """The page's path ``own`` at the end of a URL's path inside a query's value, spelled any
    way its links are (a trailing slash, ``index.html``, ``.html``), before the URL's end or its
    fragment (a URL with a query of its own is another)."""
    return re.compile(rf"{re.escape(own)}(?:/index\.html?|\.html?|/)?(?=[\s#\"'<>]|$)")


def _carried_paths(value: str, host: str) -> tuple[str, ...]:
    """shared_paths' paths under ``host``."""
    query = value.partition("?")[2].partition("#")[0]
    if not host or not query:
        return ()
    found = []
    for _, carried in parse_qsl(query, keep_blank_values=True):
        if "%" in carried:  # (a URL encoded twice: some buttons encode the page's URL again)
            carried = unquote(carried)
        for match in _host_in_value(host).finditer(carried):
            path = match[1].partition("#")[0]
            if "?" not in path:
                found.append(path)
    return tuple(found)


def is_self_link(spelled_target: str, spelled_page: str) -> bool:
    """Whether a link's target (spelled as fingerprint.targets spells it) leads to the page itself:
    its path is the page's, with or without a fragment, and it has no query."""
    path = spelled_target.partition("#")[0]
    return path == spelled_page and "?" not in path
