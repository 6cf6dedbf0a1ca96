"""Content fingerprints: a hash of what a reader sees, so that lastmod moves only with it."""
# An HTML page is reduced to what a reader sees (fingerprint.reduction: its title and text, its meta
# description, the targets of its links and images; with content_scope = "main", of its main region)
# and that reduction is hashed. Other files hash their bytes.

from __future__ import annotations

import hashlib
import re
from typing import Final, TypedDict, Unpack

from sitemill.lastmod.fingerprint import reduction
from sitemill.lastmod.fingerprint._restated import Said
from sitemill.lastmod.fingerprint._structureddata import structured_data
from sitemill.lastmod.fingerprint._titleparts import split_title
from sitemill.lastmod.fingerprint._whitespace import UNSPACED
from sitemill.lastmod.fingerprint.targetmarks import ASSET_EXTENSIONS, escape_kept_values
from sitemill.lastmod.fingerprint.versions import (
    EARLIER_VERSIONS,
    FINGERPRINT_VERSION,
    HTML_SUFFIXES,
    MAX_FINGERPRINT_BYTES,
)

__all__ = [
    "ASSET_EXTENSIONS",
    "DIGEST_SIZE",
    "EARLIER_VERSIONS",
    "FINGERPRINT_VERSION",
    "HTML_SUFFIXES",
    "MAX_FINGERPRINT_BYTES",
    "PageMemo",
    "file_url",
    "fingerprint_bytes",
    "fingerprint_file",
    "fingerprint_html",
    "fingerprint_html_reduced",
    "fingerprint_key",
    "fingerprint_reduced",
    "reduce_file",
    "reduce_html",
    "reduction_fingerprint",
    "spaced",
    "split_title",  # (a reduction's title read back into its parts: history.respacing)
]


# White space that stands beside anything but a letter or a digit (punctuation, a symbol, a
# mark's edge): a renderer's spacing, not a word's end. "f( x :" and "f(x:" read alike
# (Sphinx and code highlighters respace signatures between releases); "Install it" and
# "Installit" do not (version 5 hashes the reduction without it). Written first as
# ``(?<![^\W_])\s+|\s+(?![^\W_])``, which leaves out every run of two or more white-space
# characters and a single one unless a letter or digit stands on each side of it; this spelling of
# the same starts with ``\s``, so the search skips to the next white space in C instead of trying
# both alternatives at every character (2.5x faster on prose; tests/lastmod/fingerprint/
# test_spacing.py compares the two on random and real text).
_SPACING: Final = re.compile(r"\s(?:\s+|(?<![^\W_]\s)|(?![^\W_]))")
# Version 6 also leaves out white space beside a character of a script written without spaces
# between words (Han ideographs, hiragana, katakana): "分类 Category" and "分类Category" read
# alike (a theme that writes a Chinese list title and its label on one line or on two); Hangul,
# written with spaces between words, keeps them.
_UNSPACED: Final = UNSPACED
_UNSPACED_CHARACTER: Final = re.compile(f"[{_UNSPACED}]")  # (a page without one: one search)
# Written first as ``(?<=[U])\s+|\s+(?=[U])``: a run of white space with such a character on either
# side; spelt to start with ``\s``, as _SPACING (1.5x faster on Chinese prose; test_spacing).
_BESIDE_UNSPACED: Final = re.compile(rf"\s(?:(?<=[{_UNSPACED}]\s)\s*|\s*(?=[{_UNSPACED}]))")

_UTF8_BOM: Final = b"\xef\xbb\xbf"
_PLUS_SIGNS: Final = 16  # looked at one by one before a page is searched for "ld+json"
DIGEST_SIZE: Final = 16  # bytes of BLAKE2b: 32 hex digits
_COMPUTABLE: Final = frozenset({FINGERPRINT_VERSION, *EARLIER_VERSIONS})  # (12 and 13)
# Characters of whole pages' reductions a process's PageMemo holds (the newest): a first run's
# work tree and the versions of its walk around the tip (doxygen's 536 pages: 9 Mi).
PAGE_CHARS: Final = 16 * 1024 * 1024


class PageMemo:
    """Whole pages' reductions by their bytes' digest and what else the reduction depends on,
    the newest kept while they hold at most ``limit`` characters (issue 79): a page version
    read twice in one run (the work tree's page, fingerprinted, then its blob at the tip where
    a commit's census names the edit there, history.templateedits) is reduced once. One for
    a run, shared by the readings of its process (jobs.treehistory); pickled empty."""

    __slots__ = ("_held", "_limit", "_size")

    def __init__(self, limit: int = PAGE_CHARS) -> None:
        self._held: dict[tuple[object, ...], str] = {}
        self._size, self._limit = 0, limit

    def __getstate__(self) -> dict[str, object]:
        return {}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__init__()  # type: ignore[misc]

    def get(self, key: tuple[object, ...]) -> str | None:
        return self._held.get(key)

    def add(self, key: tuple[object, ...], reduction: str) -> None:
        if key in self._held or len(reduction) > self._limit:
            return
        self._held[key] = reduction
        self._size += len(reduction)
        while self._size > self._limit:  # (the oldest first)
            self._size -= len(self._held.pop(next(iter(self._held))))


def page_digest_key(data: bytes, *reading: object) -> tuple[object, ...]:
    """A page's key in a PageMemo: its bytes' digest (16 bytes of BLAKE2b) and ``reading``."""
    return (hashlib.blake2b(data, digest_size=16).digest(), *reading)


def fingerprint_bytes(data: bytes) -> str:
    """The fingerprint of a file that is not HTML: a hash of its bytes."""
    return hashlib.blake2b(data, digest_size=DIGEST_SIZE).hexdigest()


class ReadingScope(TypedDict, total=False):
    """How a page is read besides its bytes, ``ignore`` patterns and ``version``: ``main``
    (content_scope = "main"; True unless said) and ``memo`` (pages reduced before in this run:
    a page read again is not reduced again; the same reduction)."""

    main: bool
    memo: PageMemo | None


class HtmlReading(ReadingScope, total=False):
    """A ReadingScope and ``url``, the page's URL, its links resolved from (fingerprint.targets)."""

    url: str


def fingerprint_html(
    data: bytes,
    ignore: tuple[re.Pattern[str], ...] = (),
    version: int = FINGERPRINT_VERSION,
    **reading: Unpack[HtmlReading],
) -> str:
    """The fingerprint of an HTML page: a hash of what a reader sees (reduce_html).

    That is the title and body text (character references decoded, white space collapsed and
    left out beside anything but a letter or digit: _SPACING; from version 6 beside Han and kana
    too: _BESIDE_UNSPACED), the meta description and, in document order, the targets of links
    and images. Left out: the matches of the ``ignore`` regexes (removed first, from the page's
    text as it is), comments, scripts, styles, <noscript> and <template> content, <link> and
    other <meta> tags, every other attribute, the query strings of asset URLs and white space
    between tags. The tags of inline elements (``<span>``, ``<code>``, ``<em>`` ...) separate no
    words; every other tag does. With ``main`` (``content_scope = "main"``), a page with a main
    region (``<main>``, ``[role=main]``, its only ``<article>``) counts only that region besides
    its title and description, and a page without one its body; furniture (navigation, headers,
    footers and sidebars) is left out wherever it stands (fingerprint.regionselect); self-dates
    and empty descriptions are left out, and link and image targets are spelled as a reader
    follows them from the page's URL (fingerprint.targets). ``version``: FINGERPRINT_VERSION, or
    EARLIER_VERSIONS' one (12), to compare with what a state of an earlier sitemill
    remembers.
    """
    return fingerprint_html_reduced(data, ignore, version, **reading)[0]


def fingerprint_html_reduced(
    data: bytes,
    ignore: tuple[re.Pattern[str], ...] = (),
    version: int = FINGERPRINT_VERSION,
    **reading: Unpack[HtmlReading],
) -> tuple[str, str]:
    """fingerprint_html, and what it hashed: the page's reduction (reduce_html), from one
    pass (a page's resemblance sketch is made from it: fingerprint.resemblance)."""
    reduction = reduce_html(data, ignore, version, **reading)
    return reduction_fingerprint(reduction, version), reduction


def reduction_fingerprint(reduction: str, version: int = FINGERPRINT_VERSION) -> str:
    """The fingerprint of an HTML page whose reduction (reduce_html) is ``reduction``."""
    return _hashed(_spaced(reduction, version))


def spaced(text: str) -> str:
    """``text`` less the white space a fingerprint reads as no word's end (_spaced): what an
    edit is named by where it moved white space alone (history.respacing.respaced_runs)."""
    return _spaced(text, FINGERPRINT_VERSION)


def _spaced(reduction: str, version: int) -> str:
    """``reduction`` less the white space that is no word's end (_SPACING, and beside Han and
    kana: _BESIDE_UNSPACED; every computable version)."""
    reduction = _SPACING.sub("", reduction)
    if _UNSPACED_CHARACTER.search(reduction):
        reduction = _BESIDE_UNSPACED.sub("", reduction)
    return reduction


def _hashed(reduction: str) -> str:
    return fingerprint_bytes(reduction.encode("utf-8"))


def fingerprint_file(
    path: str,
    data: bytes,
    ignore: tuple[re.Pattern[str], ...] = (),
    version: int = FINGERPRINT_VERSION,
    *,
    base: str = "",
    **scope: Unpack[ReadingScope],
) -> str:
    """The fingerprint of a file by its name: an HTML page's or its bytes'. ``base``: the
    site's base URL, which with ``path`` (the file's path in the site) makes the page's URL."""
    return fingerprint_reduced(path, data, ignore, version, base=base, **scope)[0]


def fingerprint_reduced(
    path: str,
    data: bytes,
    ignore: tuple[re.Pattern[str], ...] = (),
    version: int = FINGERPRINT_VERSION,
    *,
    base: str = "",
    **scope: Unpack[ReadingScope],
) -> tuple[str, str | None]:
    """fingerprint_file, and what it hashed of an HTML page: its reduction (reduce_file; None
    for another file), from one pass: the walk through git names the edits at its stops from
    the reductions it made (history.stopnames), not from a second one."""
    if not path.lower().endswith(HTML_SUFFIXES):
        return fingerprint_bytes(data), None
    url = file_url(base, path)
    return fingerprint_html_reduced(data, ignore, version, url=url, **scope)


def reduce_file(
    path: str,
    data: bytes,
    ignore: tuple[re.Pattern[str], ...] = (),
    version: int = FINGERPRINT_VERSION,
    *,
    base: str = "",
    **scope: Unpack[ReadingScope],
) -> str:
    """What fingerprint_file hashes for an HTML page: its reduction (reduce_html), its links
    resolved from its URL (``base`` and ``path``)."""
    return reduce_html(data, ignore, version, url=file_url(base, path), **scope)


def file_url(base: str, path: str) -> str:
    """The URL a page's links are resolved from: the site's ``base`` URL and the page's
    ``path`` in the site (a file's path, as a browser that opened it resolves them; not
    urls.page_url, a <loc>'s, which depends on url_style and is percent-encoded)."""
    if not base:
        return ""
    return base.rstrip("/") + "/" + path.lstrip("/")


def fingerprint_key(
    version: int, main: bool, ignore: tuple[re.Pattern[str], ...], base: str = ""
) -> str:
    """What a fingerprint depends on besides the bytes (the version, the scope, the ignore
    patterns, the site's ``base`` URL, which links to the site are resolved with), as 32 hex
    digits: fingerprints remembered under another key do not compare."""
    parts = (str(version), "main" if main else "body", *(p.pattern for p in ignore), base)
    text = "\0".join(parts)
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def reduce_html(
    data: bytes,
    ignore: tuple[re.Pattern[str], ...] = (),
    version: int = FINGERPRINT_VERSION,
    **reading: Unpack[HtmlReading],
) -> str:
    """What fingerprint_html hashes (less the white space _SPACING leaves out): the page's text
    with its marked link and image targets; with ``main``, only the title, the meta description
    and the main region (fingerprint.reduction); then its JSON-LD, wherever it stands
    (fingerprint.structureddata). ``version``: 12 or 13 (a ValueError else)."""
    if version not in _COMPUTABLE:
        raise ValueError(f"fingerprint version {version} is not computable: {sorted(_COMPUTABLE)}")
    url = reading.get("url", "")
    main, memo = reading.get("main", True), reading.get("memo")
    key = None if memo is None else page_digest_key(data, ignore, version, main, url)
    if memo is not None and key is not None and (found := memo.get(key)) is not None:
        return found  # (a page reduced before in this process: PageMemo)
    page, data = data, escape_kept_values(data)  # (a raw "<" in a link's, image's or meta value)
    reduced = reduction.reduce_markup(data, ignore, version, main=main, url=url)
    structured = _structured_data(page, ignore, url, reduced, version)
    reduced = reduced + structured if structured else reduced
    if memo is not None and key is not None:
        memo.add(key, reduced)
    return reduced


def _structured_data(
    data: bytes, ignore: tuple[re.Pattern[str], ...], url: str, reduced: str, version: int
) -> str:
    """The page's JSON-LD as marks (version 6: fingerprint.structureddata), wherever it
    stands, after the ``ignore`` patterns; from version 7 less what restates the page's
    ``reduced`` text; "" after one search for a page with none."""
    if not _has_json_ld(data):
        return ""
    text = data.removeprefix(_UTF8_BOM).decode("utf-8", "replace")
    for pattern in ignore:
        text = pattern.sub("", text)
    return structured_data(text, url, Said(reduced), version)


def _has_json_ld(data: bytes) -> bool:
    """Whether ``data`` holds "ld+json" (structureddata.MEDIA_TYPE's end, in lower case as
    generators write it): its first "+" signs are found at memchr's speed (a page holds few or
    none: 1 us for 100 KB), then one search from there (50 us)."""
    at = data.find(b"+")
    for _ in range(_PLUS_SIGNS):
        if at < 0:
            return False
        if at >= 2 and data.startswith(b"ld+json", at - 2):
            return True
        at = data.find(b"+", at + 1)
    return at >= 0 and data.find(b"ld+json", at - 2) >= 0
