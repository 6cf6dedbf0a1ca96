"""What the fingerprint does to a page's reduction after its region is selected."""
# Link and image targets in one spelling, self-dates and empty descriptions left out.
#
# - **Targets as a reader follows them**: each link, image and srcset target is resolved against the
#   page's URL and written in one spelling: its site's own origin left out, dot segments resolved,
#   percent-encoding decoded, a last ``index.html`` (``index.htm``), the ``.html`` of a file and a
#   trailing slash dropped. So ``x``, ``x/``, ``x/index.html``, ``x.html``, ``./x/`` and
#   ``https://host/x/`` (from a page of ``https://host/``) are one target, as static hosts serve
#   them: a theme that drops a trailing slash or makes its links relative moves no date, nor does
#   ``#part`` spelled ``/page#part``. Fragments and queries stay (they go elsewhere); other origins,
#   ``mailto:``, ``data:`` and the like are kept as written.
# - **Read as a browser reads it, at the root the page declares** (version 13, issue 79): each
#   target first as the URL parser normalises it (fingerprint.browserurl: a backslash is a slash in
#   http(s) and file URLs), then, where the page's canonical declares the site's root on another
#   host (fingerprint.declaredroot: a Windows preview's ``file:///C:\…\preview/``, an export's
#   ``http://localhost:8089/``), a target under that root read under the page's own; a share
#   button's query that carries the page's own path at that root, or after no URL's root (a
#   placeholder a script fills in), is a share button too (fingerprint.selflinks). So a site whose
#   URLs moved from its host to its preview folder and then to relative links made no edit.
# - **Self-dates**: "Last updated on <date>", "Last modified <date>", "Page last updated <date>: <a
#   href=…/commit/…>message</a>" (Docsy), "Last updated: <date>" (Starlight) say when the page
#   changed: they change with it (or with a repository rename) and are no content.
# - **An empty description** (``content=""`` or a bare ``content``) is none.
#
# - **Inline targets** (``data:``): an image by its media type, not its bytes: a blurred placeholder
#   that an image library encodes anew (Gatsby, Next.js, Astro) is what a reader sees for a moment
#   while the image itself loads (one library upgrade re-dated 35 of 52 pages of a Gatsby blog);
#   the image's own URL, beside it, still counts. A link's or an SVG image's by its bytes too.
# - **Links that lead nowhere new** (to the page itself, share buttons: fingerprint.selflinks) are
#   read as no link; from version 7 one whose text holds no letter or digit (a heading's permalink
#   anchor: "#", "¶", a zero-width space) with its text: its symbols are no words.
# - **White space inside a target is part of it** (version 7), as a browser reads it (the URL
#   standard: tabs and newlines left out, any other white space percent-encoded): an image repaired
#   from ``meet-nina-alex⏎  .svg`` to ``meet-nina-alex.svg`` is a new target, where the reduction's
#   white space collapsed and left out beside punctuation made the two one.

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from typing import Final, Protocol
from urllib.parse import quote, unquote

from sitemill.lastmod.fingerprint import _selfdates as selfdates
from sitemill.lastmod.fingerprint import _selflinks as selflinks
from sitemill.lastmod.fingerprint._browserurl import SCHEME as SCHEME  # (history.targetmoves)
from sitemill.lastmod.fingerprint._browserurl import browser_read, split_at_query
from sitemill.lastmod.fingerprint._whitespace import WHITESPACE
from sitemill.lastmod.fingerprint.targetmarks import MARK_EDGE
from sitemill.urls import remove_dot_segments


class SiteRoot(Protocol):
    """The site's root a page's canonical declares (fingerprint.declaredroot.DeclaredRoot)."""

    def at_home(self, value: str) -> str:
        """A URL ``value`` under the root, written under the page's URL's root instead."""

    def home_path(self) -> str:
        """The path of the page's URL's root ("" for the host's root)."""

    def shared_root(self) -> str:
        """The root as a share button's query carries it (selflinks.carries_own_path)."""


_SPACES: Final = re.compile("  +")
_KINDS: Final = ("H", "I", "S")
# Marks spelled before, by the page's origin and path (a page's versions, and the pages of
# one folder, share most): a dict lookup instead of a call. Bounded: cleared when full.
_SPELLED: dict[tuple[str, str, bool, SiteRoot | None], dict[str, str]] = {}
_PAGES_REMEMBERED: Final = 1024
_TARGETS_REMEMBERED: Final = 4096  # (targetmarks.py: a link's target, an image's, a srcset's)
EMPTY_DESCRIPTION: Final = f"{MARK_EDGE}D{MARK_EDGE}"  # (left out before the white space collapses)
DIGEST_HEX: Final = 16  # hex digits of an inline target's bytes


# White space in a target (version 7): the URL standard leaves tabs and newlines out.
_SPACE_IN_TARGET: Final = re.compile(f"[{WHITESPACE}]")
_SPACED_MARK: Final = re.compile(f"{MARK_EDGE}[HIS][^{MARK_EDGE}{WHITESPACE}]*+[{WHITESPACE}]")
_URL_DROPPED: Final = "\t\n\r"


def spaced_targets(text: str) -> str:
    """A reduction before its white space collapses with the white space inside each link's,
    image's and srcset's target as a browser reads it (version 7: see above), so that it stays a
    part of the target. One search for a page without such a target."""
    if _SPACED_MARK.search(text) is None:
        return text
    parts = text.split(MARK_EDGE)  # (marks and text alternate: the marks are at odd places)
    for place in range(1, len(parts), 2):
        mark = parts[place]
        if mark[:1] in _KINDS and _SPACE_IN_TARGET.search(mark) is not None:
            value = mark[1:]
            for dropped in _URL_DROPPED:
                value = value.replace(dropped, "")
            parts[place] = mark[0] + _encoded_spaces(value)
    return MARK_EDGE.join(parts)


def _encoded_spaces(value: str) -> str:
    """``value`` with each white-space character percent-encoded (its UTF-8)."""
    return _SPACE_IN_TARGET.sub(lambda space: quote(space[0]), value)


def finish_reduction(text: str, url: str, version: int, root: SiteRoot | None = None) -> str:
    """A collapsed reduction (see above), for the page at ``url``, by fingerprint ``version``,
    its targets read at the ``root`` its canonical declares (version 13: declaredroot)."""
    text = selfdates.without_self_dates(text, version)
    if MARK_EDGE not in text:
        return text
    parts = text.split(MARK_EDGE)  # (marks and text alternate: the marks are at odd places)
    origin, _, page = _split(url)
    read = version >= 13  # (a target read as a browser reads it, at the declared root)
    key = (origin, page, read, root if read else None)
    spelled = _SPELLED.get(key)
    if spelled is None:
        if len(_SPELLED) >= _PAGES_REMEMBERED:
            _SPELLED.clear()
        spelled = _SPELLED[key] = {}
    scheme = origin.partition(":")[0] or "https"
    marks = parts[1::2]
    nowhere: list[int] = []  # (the links that lead nowhere new)
    own = _spelled(page) if url else ""  # (no URL: no page to be)
    for index, mark in enumerate(marks):
        if mark[:1] in _KINDS:
            if mark[1:6].lower() == "data:":
                marks[index] = mark[0] + inline_target(mark)
                continue
            found = spelled.get(mark)
            if found is None:
                if len(spelled) >= _TARGETS_REMEMBERED:
                    spelled.clear()
                value = mark[1:]
                if read:
                    value = browser_read(value, scheme)
                    value = value if root is None else root.at_home(value)
                found = mark[0] + target(value, origin, page)
                if _SPACE_IN_TARGET.search(found) is not None:
                    found = _encoded_spaces(found)  # (decoded from a %20: the same target)
                spelled[mark] = found
            marks[index] = found
            if (
                own
                and mark[0] == "H"
                and (
                    selflinks.is_self_link(found[1:], own)
                    or ("?" in mark and _is_share_link(mark[1:], origin, own, version, root))
                )
            ):
                nowhere.append(index)
    parts[1::2] = marks
    if nowhere:
        return _unlinked(parts, nowhere)
    return MARK_EDGE.join(parts)


def _is_share_link(value: str, origin: str, own: str, version: int, root: SiteRoot | None) -> bool:
    """Whether a link's target ``value`` (as written, with a query) on the page whose path is
    spelled ``own`` (on ``origin``) carries the page's own URL in its query, read as a browser
    reads it: a share button (fingerprint.selflinks); from version 13 also at the ``root`` the
    page declares, or after no URL's root (selflinks.carries_own_path)."""
    if any(_spelled(path or "/") == own for path in selflinks.shared_paths(value, origin)):
        return True
    if version < 13:
        return False
    home = "" if root is None else root.home_path()
    declared = "" if root is None else root.shared_root()
    return selflinks.carries_own_path(
        value, own[len(home) :] if own.startswith(home) else own, declared
    )


def follow(value: str, url: str) -> str | None:
    """A target ``value`` on the page at ``url`` in the one spelling of a link's (target),
    None where it leads to the page itself (a self link: selflinks.is_self_link)."""
    origin, _, page = _split(url)
    found = target(value, origin, page)
    if url and selflinks.is_self_link(found, _spelled(page)):
        return None
    return found


def spelled_page(url: str) -> str:
    """The path of the page at ``url`` spelled as follow spells a link's ("/" for none)."""
    return _spelled(_split(url)[2])


def _unlinked(parts: list[str], links: list[int]) -> str:
    """The reduction ``parts`` (text and marks alternate) with the links at mark places
    ``links`` read as no link: each one's mark and the end mark after it left out, before the
    spaces beside marks go (targetmarks.unspace_marks), so the text reads as the
    same page's without the link. A link whose text holds no letter
    or digit and no other mark goes with its text (a permalink anchor's "#" or "¶"). A space
    stands where each mark was (from version 9), so that the words beside it stay
    apart as they were beside the link (history.edits reads "link." and "link", "." as other
    words: a post that linked to itself at the host the site moved from had an edit of its own)."""
    dropped = set()
    for index in links:
        dropped.add(2 * index + 1)
        for place in range(2 * index + 3, len(parts), 2):
            if parts[place][:1] == "E":
                dropped.add(place)
                if place == 2 * index + 3 and not _has_word(parts[place - 1]):
                    parts[place - 1] = " "
                break
            if parts[place][:1] == "H":
                break
    kept = [parts[0]]
    for place in range(1, len(parts), 2):
        following = parts[place + 1] if place + 1 < len(parts) else ""
        if place in dropped:
            kept[-1] += " " + following
        else:
            kept.extend((parts[place], following))
    return _SPACES.sub(" ", MARK_EDGE.join(kept)).strip(" ")


def _has_word(text: str) -> bool:
    """Whether ``text`` holds a letter or a digit."""
    return any(character.isalnum() for character in text)


def inline_target(mark: str) -> str:
    """A ``data:`` target as the fingerprint counts it (``mark``: its kind letter and value): a
    link's or an SVG image's by its bytes (an inline drawing or a download is content embedded
    in the page), any other image's by its media type (a blurred placeholder an image library
    encodes anew)."""
    value = mark[1:]
    media = _media_type(value)
    if mark[0] != "H" and media != "data:image/svg+xml":
        return media
    digest = hashlib.blake2b(value.encode("utf-8", "surrogatepass"), digest_size=DIGEST_HEX // 2)
    return f"{media};{digest.hexdigest()}"


def _media_type(value: str) -> str:
    """A ``data:`` target's media type alone, in lower case."""
    media = value[len("data:") :].split(",", 1)[0].split(";", 1)[0]
    return "data:" + media.strip().lower()


_ORIGIN_AND_PATH: Final = re.compile(r"([a-zA-Z][a-zA-Z0-9+.-]*://[^/?#]*)([^?#]*)")


def _split(url: str) -> tuple[str, str, str]:
    """A page's URL as its origin in lower case, "", and its path ("/" if none)."""
    found = _ORIGIN_AND_PATH.match(url)
    if found is None:
        return "", "", "/"
    return found[1].lower(), "", found[2] or "/"


@lru_cache(maxsize=64 * 1024)
def target(value: str, origin: str, page: str) -> str:
    """A link's target ``value`` on the page whose path is ``page`` (on ``origin``) as a
    reader follows it, in one spelling (see above)."""
    path, suffix = split_at_query(value)
    if path.startswith("//"):
        path = "http:" + path
    if SCHEME.match(path):
        scheme, _, rest = path.partition("://")
        host, slash, local = rest.partition("/")
        if scheme.lower() not in ("http", "https") or not _same_host(host, origin):
            return value
        path = slash + local
    elif not path:
        path = page
    elif not path.startswith("/"):
        path = page[: page.rfind("/") + 1] + path
    return _spelled(path) + suffix


def _same_host(host: str, origin: str) -> bool:
    """Whether ``host`` (of an http or https URL) is that of ``origin``."""
    return bool(origin) and origin.partition("://")[2] == host.lower()


def _spelled(path: str) -> str:
    """An absolute path with its dot segments resolved, without a last index.html or
    index.htm or a trailing slash ("/" for the root)."""
    if "%" in path:
        path = unquote(path, errors="surrogateescape")
    segments = remove_dot_segments(path).split("/")
    last = segments[-1].lower()
    if last in ("index.html", "index.htm"):
        segments[-1] = ""
    elif last.endswith(".html"):
        segments[-1] = segments[-1][: -len(".html")]
    spelled = "/".join(segments).rstrip("/")
    return spelled or "/"
