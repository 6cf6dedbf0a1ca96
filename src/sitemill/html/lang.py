"""A page's language as its ``<html lang>`` gives it."""
# The last way sitemill knows a page's language (after its hreflang cluster and its language
# folder), for the site chrome among images, which is counted per language (sitemill.images.chrome).

from __future__ import annotations

from typing import Final

from sitemill.html.head import HTML_SPACE, head_start_tags
from sitemill.html.hreflang import X_DEFAULT, normalize_hreflang

_HTML: Final = frozenset({"html"})


def read_html_lang(data: bytes) -> str:
    """The ``lang`` of the page's first ``<html>`` tag as written (stripped), "" for none.
    The scan ends with the head, as a parser's <html> ends before the body."""
    for tag in head_start_tags(data, _HTML):
        for name, value in tag.attributes():
            if name == "lang":
                return value.strip(HTML_SPACE)
        return ""
    return ""


def language_tag(value: str) -> str:
    """A language as sitemill compares it: the hreflang's canonical case (``en-US``; ``en_US``
    as ``en-US``), "" when ``value`` is no language Google accepts in hreflang, or x-default."""
    normalized = normalize_hreflang(value.replace("_", "-")) if value else None
    return "" if normalized is None or normalized == X_DEFAULT else normalized
