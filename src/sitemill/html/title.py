"""A page's title as a reader sees it: the text of its <title>, bounded and tidied."""
# <title> holds RCDATA: the tokenizer decodes character references in it and reads no tags (a NUL
# becomes U+FFFD); ``document.title`` then strips and collapses ASCII white space.
# https://html.spec.whatwg.org/multipage/parsing.html#rcdata-state
# https://html.spec.whatwg.org/multipage/dom.html#document.title
# Control characters, which no reader sees, are removed. A title is kept to MAX_TITLE_CHARS
# characters (search engines show about 60; a title longer than this is no title a person reads):
# the HTML sitemap and the state hold at most that much per page. A meta description and
# og:site_name are read with it (llms.txt), tidied alike.

from __future__ import annotations

import html
import re
from typing import Final

from sitemill.html.head import HTML_SPACE

# Raw bytes of a title looked at: enough for MAX_TITLE_CHARS characters of any script with
# character references and white space between them, and a bound on what decoding costs.
MAX_TITLE_SOURCE_BYTES: Final = 8 * 1024
MAX_TITLE_CHARS: Final = 200
# A meta description (or a site's name) is kept to this many: search engines show about 160.
MAX_LABEL_CHARS: Final = 500
ELLIPSIS: Final = "\u2026"
_SPACES: Final = re.compile(r"[\t\n\f\r ]+")
# C0 controls but the white space above, DEL and the C1 controls.
_CONTROLS: Final = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]+")


def read_title(raw: bytes) -> str:
    """The title a <title> element's raw content gives ('' when it holds only white space)."""
    text = raw[:MAX_TITLE_SOURCE_BYTES].decode("utf-8", "replace").replace("\0", "\ufffd")
    return clean_title(html.unescape(text))


def clean_title(text: str, *, limit: int = MAX_TITLE_CHARS) -> str:
    """``text`` with control characters removed, ASCII white space collapsed and stripped,
    and cut to ``limit`` characters (the last one an ellipsis when it was longer)."""
    text = _SPACES.sub(" ", _CONTROLS.sub("", text)).strip(" ")
    if len(text) > limit:
        text = text[: limit - 1].rstrip(" ") + ELLIPSIS
    return text


def clean_label(text: str) -> str:
    """A meta tag's content (a description, a site's name) tidied as a title is, kept to
    MAX_LABEL_CHARS characters. Attribute values are decoded already (sitemill.html.head)."""
    return clean_title(text, limit=MAX_LABEL_CHARS)


def read_label(values: dict[str, str], labels: dict[str, str]) -> None:
    """The first meta description and og:site_name (property, or name as some themes write
    it), tidied as a title is."""
    name = values.get("name", "").strip(HTML_SPACE).lower()
    prop = values.get("property", "").strip(HTML_SPACE).lower()
    label = "description" if name == "description" else None
    if prop == "og:site_name" or name == "og:site_name":
        label = "og:site_name"
    if label is not None and label not in labels:
        labels[label] = clean_label(values.get("content", ""))
