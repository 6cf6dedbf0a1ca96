"""Where a page says its site stands: the root its own canonical names on another host."""
# Fingerprint version 13 (issue 79), for every target of the page: its links, images, srcsets and
# share buttons' queries (fingerprint.targets) and its JSON-LD (fingerprint.structureddata). A page
# names itself in its ``<link rel="canonical">``; where that URL, read as a browser reads it
# (fingerprint.browserurl), ends in the page's own path (as spelled by fingerprint.targets: "x/",
# "x/index.html" and "x" one), what comes before it is the site's root as the page declares it
# (as listing.declaredbase reads the base URL a site's canonicals declare). A home page's own path
# is none: what its canonical names is the root.
# A Ghost export written at ``http://localhost:8089`` names that host in its canonical and in every
# URL of its JSON-LD (the page's own ``url``, the home page a tag page is ``mainEntityOfPage`` of,
# the publisher's address); a Publii site previewed on Windows names
# ``file:///C:\Users\me\Documents\Publii\sites\blog\preview/`` in its canonical, links,
# images and share buttons; the same page deployed names its real host, or writes its links
# relative. Read at the host the page declares, those URLs are the page itself and the site's
# other pages in every version, which say nothing new: a move of the site's host and base path is
# one edit, wherever it stands.
#
# Nothing is declared where the canonical is on the page's own host (its URLs are read as they are
# already), is no absolute URL of a special scheme, or names another page (no last segment of the
# two paths in common, the page not the home: a paginated list's page 2 naming page 1). The first
# canonical counts. An http and an https URL of one host are the same root's.

from __future__ import annotations

import html
import re
from typing import Final, NamedTuple

from sitemill.lastmod.fingerprint._browserurl import browser_read
from sitemill.lastmod.fingerprint._taggrammar import ATTRS, END, NAME_END
from sitemill.lastmod.fingerprint.targetmarks import attribute_value
from sitemill.lastmod.fingerprint.targets import spelled_page

# A link start tag with its rel and href, read from its "<" (found before the word "canonical").
_LINK: Final = re.compile(
    rf"""<(?ai:link){NAME_END} {attribute_value("rel", "rel")} {attribute_value("href", "href")}
    {ATTRS} {END}""",
    re.VERBOSE,
)
_WORD: Final = "canonical"  # (as generators write the rel: lower case)
_FOUND_AT_MOST: Final = 8  # the word's first places looked at (a page names it once or twice)
_PATH_ENDS: Final = ("", "/", "?", "#")  # (what may follow a path's last segment)
_HTTP_URL: Final = re.compile(r"(https?:)?//([^/?#]*)([^?#]*)", re.IGNORECASE)
# An absolute URL of a special scheme, or one with none (fingerprint.browserurl has read it).
_URL: Final = re.compile(r"(?:(https?|file|ftp|wss?):)?//([^/?#]*)([^?#]*)", re.IGNORECASE)
_HOST_ALONE: Final = frozenset(("", "http", "https"))  # (schemes whose URLs compare by host)


class DeclaredRoot(NamedTuple):
    """The site's root as the page declares it (its host, or for a scheme other than http(s)
    its scheme and host, and its path, "" for the host's root) and as the page's URL has it
    (an origin and path, as written)."""

    host: str
    path: str
    home: str

    def at_home(self, value: str) -> str:
        """A URL ``value`` (read as a browser reads it: fingerprint.browserurl) under this root,
        written under the page's URL's root instead; any other value as it is."""
        found = _URL.match(value)
        if found is None or _host(found) != self.host:
            return value
        rest = value[found.start(3) :]
        after = _after_root(rest, self.path)
        if after is None or rest[after : after + 1] not in _PATH_ENDS:
            return value  # (the root's path ends there: "/x", not "/xy")
        return self.home + rest[after:]

    def home_path(self) -> str:
        """The path of the page's URL's root ("" for the host's root)."""
        found = _HTTP_URL.match(self.home)
        return "" if found is None else found[3].rstrip("/")

    def shared_root(self) -> str:
        """The root as a share button's query carries it: its host and path in lower case, an
        http(s) root without its scheme (fingerprint.selflinks.carries_own_path)."""
        return (self.host + self.path).lower()


def declared_root(text: str, url: str) -> DeclaredRoot | None:
    """The root the canonical of the page ``text`` at ``url`` declares, when on another host
    than ``url``'s (see above); None else."""
    canonical = _canonical(text)
    page = _HTTP_URL.match(url)
    if page is None or canonical is None:
        return None
    named = _URL.match(browser_read(canonical, (page[1] or "https:")[:-1].lower()))
    if named is None or _host(named) == page[2].lower():
        return None
    own, declared = _segments(page[3]), _segments(named[3])
    common = 0
    while common < min(len(own), len(declared)) and own[-1 - common] == declared[-1 - common]:
        common += 1
    if not common and own:
        return None
    home_path = "".join(f"/{part}" for part in own[: len(own) - common])
    declared_path = "".join(f"/{part}" for part in declared[: len(declared) - common])
    return DeclaredRoot(_host(named), declared_path, url[: page.start(3)] + home_path)


def at_home(value: str, root: DeclaredRoot | None) -> str:
    """A URL ``value`` under the ``root`` a page declares, written under the page's URL's root
    instead (DeclaredRoot.at_home); any other value, and any value where none is declared, as
    it is."""
    return value if root is None else root.at_home(value)


def _host(found: re.Match[str]) -> str:
    """A URL's root as roots compare (_URL's match ``found``): an http(s) URL's host, any other
    scheme's scheme and host, in lower case."""
    scheme = (found[1] or "").lower()
    host = found[2].lower()
    return host if scheme in _HOST_ALONE else f"{scheme}://{host}"


def _canonical(text: str) -> str | None:
    """The href of the page's first ``<link rel="canonical">`` (entities decoded)."""
    at = -1
    for _ in range(_FOUND_AT_MOST):
        at = text.find(_WORD, at + 1)
        if at < 0:
            return None
        found = _LINK.match(text, max(text.rfind("<", 0, at), 0))
        if found is None or found.end() <= at or found["href"] is None:
            continue
        rel = html.unescape(found["rel"] or "").strip("\"'").lower().split()
        if _WORD in rel:
            return html.unescape(found["href"].strip("\"'")).strip(" \t\n\f\r")
    return None


def _after_root(path: str, root: str) -> int | None:
    """Where ``path`` goes on past the ``root`` path it starts with (None: it does not), a run of
    slashes in it read as one, as a file system reads a path: a macOS preview's canonical
    ``file:////Users/me/…/preview/x/`` and its images' ``file:///Users/me/…/preview/x.png`` stand
    under one root (its empty segments are none: _segments)."""
    at = 0
    for character in root:
        if at >= len(path) or path[at] != character:
            return None
        at += 1
        while character == "/" and path[at : at + 1] == "/":
            at += 1
    return at


def _segments(path: str) -> list[str]:
    """A path's segments as fingerprint.targets spells a page's ("/" for none: no segment)."""
    spelled = spelled_page("http://h" + (path or "/"))
    return [part for part in spelled.split("/") if part]
