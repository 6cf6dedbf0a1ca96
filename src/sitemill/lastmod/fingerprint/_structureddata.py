"""Structured data counts (fingerprint version 6): a page's JSON-LD as marks of its reduction."""
# Every <script type="application/ld+json"> of the page, wherever it stands (its <head> too: it
# describes the page), is read with the json module and written as one mark per leaf, kind "J",
# its value ``path=value``: the keys from the top down, joined by ".", in sorted order (an array's
# items in their order, under its key: no index, so a node put in before others shifts none of
# theirs), so that re-indenting the JSON or reordering its keys moves nothing. Left out:
#
# - ``@context`` (the vocabulary, not the page), blank nodes' ids (``_:b0``), null and "";
#   from version 10 each ``@type`` value too: a term of that vocabulary (schema.org's BlogPosting,
#   ListItem, Person), which names what kind of thing a node is and no word a reader sees;
# - dates: a value in ISO 8601's shape, a date with or without its time and zone (2024-03-09,
#   2024-03-09T10:00:00+01:00, Hugo's 2024-03-09 10:00:00 +0000 UTC), whatever its key, and any
#   value with a digit under a key named with "date" (datePublished, uploadDate, a
#   dateModified written "March 9, 2024"): when the page was made or changed is no content;
# - a target that leads to the page itself (its ``url``, ``mainEntityOfPage``, an ``@id`` of
#   ``#webpage``), as a self link counts as none. A value of ``@id`` and one in the shape of a
#   URL (``http(s)://``, ``//``, ``/``, ``./``, ``../``) is a target, spelled as a link's
#   (fingerprint.targets.follow, an asset's cache buster cut: targetmarks.without_cache_buster).
#
# What restates the page says nothing new (version 7): a text value whose letters and digits
# (excerpts.letters) are the page's title or one of its parts, one of its descriptions, or a
# sentence's worth of its kept text (excerpts.MIN_LETTERS: an auto-excerpt, as a description that
# is one adds nothing), and a node that stands for another page of the site (its ``url`` or
# ``item``, or an ``@id`` with no fragment, leads to a page of the site other than this one: a
# listed page, a breadcrumb's crumb, the blog a post is part of), whole: its title and URL are the
# list's, its other values that page's words (a teaser's). So an insertion that differs between
# pages only by those values (a generator upgrade that writes BlogPosting, Blog and BreadcrumbList
# JSON-LD into every page) is one edit on every page: template (history.templateedits).
#
# From version 10 (issue 79), two more restatements (fingerprint.restated): a node inside another
# that names the page itself (its ``url``, ``item`` or ``@id`` without a fragment leads to it: the
# page's own crumb in its BreadcrumbList, the WebPage an article is mainEntityOfPage of) is a
# reference to the page, as a link to the page itself is none, whole: its title and URL are the
# page's, its position the list's; and a node whose every value the page shows (a post's byline
# written again as its author's node) says nothing beyond it. A script's own nodes (its top, its
# array's items, its @graph's members) say what the page is: one that names the page keeps its
# other values. On archcraft's Docusaurus 3.8 upgrade each page was left with what only its kind
# of page got (a post its author's node, a doc its crumb's position, a blog list its type).
#
# From version 12 (issue 79), structured data that counts or places the page itself says nothing
# new: a value the page's own text determines (schema.org's ``wordCount``, and ``timeRequired``,
# the time it takes to work through the page: a theme's reading time) is the text's, whose change
# the text counts (Hugo counting a page's words anew, 461 -> 460, with no word of it changed); and
# a node inside another names the page itself also by its title alone, with no address (no
# ``url``, ``item`` or ``@id``: Congo's last crumb ``{"name": "Charts", "position": 3}``), its
# ``name`` the page's title or one of its parts: its ``position`` goes with it, the list's.
#
# From version 13 (issue 79), a URL at the site's root that the page's own canonical declares on
# another host (fingerprint.declaredroot: a Ghost export's ``http://localhost:8089``) is read at the
# page's own root: the page itself and the site's other pages, whichever host the page was written
# for. A move of the site's host is one edit, wherever it stands. And (amended, issue 79: block98)
# a text value that is the page's title with its parts in another order restates it as the title
# itself does: the fingerprint reads a title as its parts, not their order (fingerprint.titleparts:
# a Publii home page's Organization ``name`` "Lab - Blog" beside its ``<title>`` "Lab - Blog",
# which the reduction reads as "Blog | Lab"). And (amended, issue 79: hugo99) a text value is read
# for what it restates with its HTML character references decoded, as the page's own text and
# descriptions are: generators write a script's values HTML-escaped (Hugo's JSON-LD ``description``
# "…めんどい&amp;固まる…", "&#34;", "&mdash;", "&rsquo;" where the meta description and the text
# read "&", '"', "—", "’"), so the excerpt the meta description restates is the same excerpt, and
# an upgrade that re-cut it (10 posts of a Hugo blog) moves no date through it.
#
# What most pages of a site share (the WebSite and Organization nodes, the publisher's logo) is the
# template's in a git history as any block most pages carry is: an edit of those leaves made on
# most pages of a commit is template (history.templateedits). Each leaf is one token there.
#
# Bounded: a script of more than MAX_SCRIPT_CHARS, or nested deeper than MAX_STRUCTURED_DEPTH, and
# one that is no JSON, count as nothing and raise nothing; the pass over the page is linear (a
# comment or a script still open where the page ends runs to it, as fingerprint.taggrammar reads
# them).

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from sitemill.lastmod.fingerprint._browserurl import browser_read
from sitemill.lastmod.fingerprint._declaredroot import DeclaredRoot, at_home, declared_root
from sitemill.lastmod.fingerprint._restated import Said
from sitemill.lastmod.fingerprint._taggrammar import ATTRS, COMMENT, END, NAME_END
from sitemill.lastmod.fingerprint._titleparts import title_parts
from sitemill.lastmod.fingerprint.targetmarks import (
    MARK_EDGE,
    attribute_value,
    without_cache_buster,
)
from sitemill.lastmod.fingerprint.targets import follow
from sitemill.lastmod.fingerprint.versions import FINGERPRINT_VERSION

# A script of more characters counts as nothing (a page's own data is a few kilobytes).
MAX_SCRIPT_CHARS: Final = 512 * 1024
# A script nested deeper counts as nothing (the json module's own limit is about 1,000).
MAX_STRUCTURED_DEPTH: Final = 32
KIND: Final = "J"  # (targetmarks.py's kinds: H, E, I, S, D, T)
# Its type, any case but for "ld+json" (found first, at one search's cost: digest.reduce_html).
MEDIA_TYPE: Final = "application/ld+json"
# A comment (skipped: what it holds is no script) or a script element with its type and content,
# as fingerprint.taggrammar reads hidden elements.
_SCRIPT: Final = re.compile(
    rf"""< (?: {COMMENT}
    | (?ai:script){NAME_END} {attribute_value("type", "type")} {ATTRS} {END}
      (?P<body> (?: [^<]++ | <(?!/(?ai:script){NAME_END}) )*+ )
      (?: </(?ai:script) {ATTRS} {END} | \Z ) )""",
    re.VERBOSE,
)
_DATE: Final = re.compile(
    r"\d{4}-\d{1,2}-\d{1,2}"
    r"(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)?(?:\ ?(?:Z|[+-]\d{2}(?::?\d{2})?))?"
    r"(?:\ ?[A-Z]{2,5})?",
    re.ASCII,
)
_URL: Final = re.compile(r"(?:https?:)?//|\.{0,2}/", re.IGNORECASE)
_DIGIT: Final = re.compile(r"\d")
# The keys by which a node names the page it stands for (an @id only without a fragment: with
# one it names a node, "#organization").
_PAGE_KEYS: Final = ("url", "item", "@id")
# The paths of a script's own nodes (its top, its array's items, its @graph's members): any other
# node stands inside another (version 10: one that names the page itself is a reference to it).
_TOP_PATHS: Final = ("", "@graph")
# The keys whose values the page's own text determines (version 12: see above).
_MEASURED_KEYS: Final = frozenset({"wordCount", "timeRequired"})


class _TooDeep(Exception):
    """A script nested deeper than MAX_STRUCTURED_DEPTH: it counts as nothing."""


@dataclass(frozen=True, slots=True)
class _Page:
    """The page a script is read on: its URL, what it says already (version 7: None reads
    nothing as restated), the fingerprint version, the root its canonical declares (version
    13)."""

    url: str
    said: Said | None
    version: int
    root: DeclaredRoot | None = None


# A leaf: its path, its value, whether the value is a target (a URL spelled as a link's).
_Leaf = tuple[str, str, bool]


def structured_data(
    text: str, url: str, said: Said | None = None, version: int = FINGERPRINT_VERSION
) -> str:
    """The JSON-LD of the page ``text`` at ``url`` as marks (see above), "" if it has none;
    with ``said`` (version 7), less what restates the page, by fingerprint ``version``."""
    marks: list[str] = []
    page: _Page | None = None
    for found in _SCRIPT.finditer(text):
        body = found["body"]
        if body is None or not _is_json_ld(found["type"]):
            continue
        if page is None:  # (the canonical read once, on a page with JSON-LD: version 13)
            declared = declared_root(text, url) if said is not None and version >= 13 else None
            page = _Page(url, said, version, declared)
        leaves = _leaves(body.strip(), page)
        marks.extend(f"{MARK_EDGE}{KIND}{path}={value}{MARK_EDGE}" for path, value, _ in leaves)
    return "".join(marks)


def _is_json_ld(value: str | None) -> bool:
    """Whether a script's ``type`` attribute (as written, quoted or not) is JSON-LD's: every
    generator writes "ld+json" in lower case, which a page is searched for first."""
    if value is None or "ld+json" not in value:
        return False
    bare = value.strip("\"'").partition(";")[0]
    return bare.strip("\t\n\f\r ").lower() == MEDIA_TYPE


def _leaves(body: str, page: _Page) -> list[_Leaf]:
    """The leaves of a script's JSON (see above), none where it is not JSON or too big."""
    if not body or len(body) > MAX_SCRIPT_CHARS:
        return []
    try:  # (numbers as written: no conversion of a hostile number of digits)
        data = json.loads(body, parse_int=str, parse_float=str, parse_constant=str)
        return list(_walk(data, "", "", page, 0))
    except (ValueError, RecursionError, _TooDeep):
        return []


def _walk(node: object, path: str, key: str, page: _Page, depth: int) -> Iterator[_Leaf]:
    """The leaves under ``node`` at ``path`` (``key``: its own key), in order, on ``page``."""
    if depth > MAX_STRUCTURED_DEPTH:
        raise _TooDeep
    said = page.said
    if isinstance(node, dict):
        if said is not None and _names_a_page(node, page, inside=path not in _TOP_PATHS):
            return
        found: list[_Leaf] = []
        for name in sorted(node):
            if name == "@context":
                continue
            clean = " ".join(name.replace(MARK_EDGE, " ").split())
            inner = f"{path}.{clean}" if path else clean
            found.extend(_walk(node[name], inner, name, page, depth + 1))
        if said is not None and found and _all_shown(found, said):
            return
        yield from found
    elif isinstance(node, list):
        for item in node:
            yield from _walk(item, path, key, page, depth + 1)
    else:
        value = _value(node, key, page)
        if value and not (said is not None and _restated(value, key, page, said)):
            yield path, value, key == "@id" or _URL.match(value) is not None


def _all_shown(leaves: list[_Leaf], said: Said) -> bool:
    """Whether the page shows every leaf of a node (version 10: see above)."""
    return all(said.shows(value, target=target) for _, value, target in leaves)


def _restated(value: str, key: str, page: _Page, said: Said) -> bool:
    """Whether a leaf's ``value`` (under ``key``) restates the page (see above): text that the
    page says, or (version 12) a value its text determines; types and targets never are."""
    if key in _MEASURED_KEYS:  # (version 12)
        return True
    if key in ("@type", "@id") or _URL.match(value):
        return False
    if page.version >= 13 and "&" in value:  # (its character references decoded: see above)
        value = html.unescape(value)
    return said.restates(value) or (page.version >= 13 and said.titles(title_parts(value)))


def _names_a_page(node: dict[str, object], page: _Page, *, inside: bool) -> bool:
    """Whether a JSON-LD ``node`` stands for a page of the site other than ``page``, or (from
    version 10) for ``page`` itself ``inside`` another node: by its address, or (version 12) by
    the page's title alone (see above)."""
    itself = inside and bool(page.url)
    for name in _PAGE_KEYS:
        value = node.get(name)
        if not isinstance(value, str) or (name == "@id" and "#" in value):
            continue
        found = _followed(value.strip(), page)
        if found is None:
            if itself:
                return True
        elif found.startswith("/") and not found.startswith("//"):
            return True
    return inside and _titled(node, page.said)  # (version 12)


def _titled(node: dict[str, object], said: Said | None) -> bool:
    """Whether a ``node`` names the page by its title alone (version 12): no address of any
    kind (_PAGE_KEYS), its ``name`` the page's title or one of its parts."""
    name = node.get("name")
    if said is None or not isinstance(name, str):
        return False
    return all(node.get(key) is None for key in _PAGE_KEYS) and said.titles(name)


def _value(node: object, key: str, page: _Page) -> str | None:
    """What a leaf counts as: its value, a target spelled, or None (see above)."""
    if node is None:
        return None
    if node is True or node is False:
        return "true" if node else "false"
    if key == "@type":
        return None
    value = " ".join(str(node).replace(MARK_EDGE, " ").split())
    if _DATE.fullmatch(value) or ("date" in key.lower() and _DIGIT.search(value)):
        return None
    if key == "@id" and value.startswith("_:"):
        return None
    if key == "@id" or _URL.match(value):
        return _followed(value, page)
    return value


def _followed(value: str, page: _Page) -> str | None:
    """A target ``value`` as a link's on ``page`` (None: the page itself), read as a browser
    reads it and at the page's own root where it stands at the root its canonical declares
    (version 13: see above)."""
    if page.version >= 13:
        value = at_home(
            browser_read(value, page.url.partition(":")[0].lower() or "https"), page.root
        )
    return follow(without_cache_buster(value), page.url)
