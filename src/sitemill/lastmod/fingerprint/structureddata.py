"""Structured data counts (fingerprint version 6): a page's JSON-LD as marks of its reduction."""
# Every <script type="application/ld+json"> of the page, wherever it stands (its <head> too: it
# describes the page), is read with the json module and written as one mark per leaf, kind "J",
# its value ``path=value``: the keys from the top down, joined by ".", in sorted order (an array's
# items in their order, under its key: no index, so a node put in before others shifts none of
# theirs), so that re-indenting the JSON or reordering its keys moves nothing. Left out:
#
# - ``@context`` (the vocabulary, not the page), blank nodes' ids (``_:b0``), null and "";
# - dates: a value in ISO 8601's shape, a date with or without its time and zone (2024-03-09,
#   2024-03-09T10:00:00+01:00, Hugo's 2024-03-09 10:00:00 +0000 UTC), whatever its key, and any
#   value with a digit under a key named with "date" (datePublished, uploadDate, a
#   dateModified written "March 9, 2024"): when the page was made or changed is no content;
# - a target that leads to the page itself (its ``url``, ``mainEntityOfPage``, an ``@id`` of
#   ``#webpage``), as a self link counts as none. A value of ``@id`` and one in the shape of a
#   URL (``http(s)://``, ``//``, ``/``, ``./``, ``../``) is a target, spelled as a link's
#   (fingerprint.targets.follow, an asset's cache buster cut: targetmarks.without_cache_buster).
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

import json
import re
from collections.abc import Iterator
from typing import Final

from sitemill.lastmod.fingerprint.taggrammar import ATTRS, COMMENT, END, NAME_END
from sitemill.lastmod.fingerprint.targetmarks import (
    MARK_EDGE,
    attribute_value,
    without_cache_buster,
)
from sitemill.lastmod.fingerprint.targets import follow

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


class _TooDeep(Exception):
    """A script nested deeper than MAX_STRUCTURED_DEPTH: it counts as nothing."""


def structured_data(text: str, url: str) -> str:
    """The JSON-LD of the page ``text`` at ``url`` as marks (see above), "" if it has none."""
    marks: list[str] = []
    for found in _SCRIPT.finditer(text):
        body = found["body"]
        if body is None or not _is_json_ld(found["type"]):
            continue
        leaves = _leaves(body.strip(), url)
        marks.extend(f"{MARK_EDGE}{KIND}{leaf}{MARK_EDGE}" for leaf in leaves)
    return "".join(marks)


def _is_json_ld(value: str | None) -> bool:
    """Whether a script's ``type`` attribute (as written, quoted or not) is JSON-LD's: every
    generator writes "ld+json" in lower case, which a page is searched for first."""
    if value is None or "ld+json" not in value:
        return False
    bare = value.strip("\"'").partition(";")[0]
    return bare.strip("\t\n\f\r ").lower() == MEDIA_TYPE


def _leaves(body: str, url: str) -> list[str]:
    """The leaves of a script's JSON (see above), none where it is not JSON or too big."""
    if not body or len(body) > MAX_SCRIPT_CHARS:
        return []
    try:  # (numbers as written: no conversion of a hostile number of digits)
        data = json.loads(body, parse_int=str, parse_float=str, parse_constant=str)
        return list(_walk(data, "", "", url, 0))
    except (ValueError, RecursionError, _TooDeep):
        return []


def _walk(node: object, path: str, key: str, url: str, depth: int) -> Iterator[str]:
    """The leaves under ``node`` at ``path`` (``key``: its own key), in order."""
    if depth > MAX_STRUCTURED_DEPTH:
        raise _TooDeep
    if isinstance(node, dict):
        for name in sorted(node):
            if name == "@context":
                continue
            clean = " ".join(name.replace(MARK_EDGE, " ").split())
            inner = f"{path}.{clean}" if path else clean
            yield from _walk(node[name], inner, name, url, depth + 1)
    elif isinstance(node, list):
        for item in node:
            yield from _walk(item, path, key, url, depth + 1)
    else:
        value = _value(node, key, url)
        if value:
            yield f"{path}={value}"


def _value(node: object, key: str, url: str) -> str | None:
    """What a leaf counts as: its value, a target spelled, or None (see above)."""
    if node is None:
        return None
    if node is True or node is False:
        return "true" if node else "false"
    value = " ".join(str(node).replace(MARK_EDGE, " ").split())
    if _DATE.fullmatch(value) or ("date" in key.lower() and _DIGIT.search(value)):
        return None
    if key == "@id" and value.startswith("_:"):
        return None
    if key == "@id" or _URL.match(value):
        return follow(without_cache_buster(value), url)
    return value
