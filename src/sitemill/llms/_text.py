"""Page text as every Markdown file sitemill writes holds it: escaped one way, read as text."""

# One rule for llms.txt, llms-full.txt and the twins (docs/llms-full.md, "Page text is text"): page
# text is written so that no reader takes it for structure: invisible controls removed (CONTROLS);
# "<", "[", "]", an escaping "\" and a reference's "&" escaped (as character references in a line
# of llms.txt and in headings, as backslash escapes in body text: escape_body); a link keeps its
# target only with a scheme a reader may follow (SAFE_SCHEMES), as a destination (link_url).

# The reference parser reads each line raw with three regexes; a CommonMark reader renders it. So
# what either takes for structure is written as a character reference (CommonMark decodes it, a
# raw reader shows a readable code): "[" "]", "`", "<", "~~", an "&" that starts a reference, a
# "\" before punctuation or at the end. "*" and "_" stay: escaping them would fill API titles
# such as "__init__" with codes.
# (https://spec.commonmark.org/0.31.2/#entity-and-numeric-character-references)

from __future__ import annotations

import re
from typing import Final
from urllib.parse import quote

from sitemill.html.title import ELLIPSIS

_WHITE: Final = re.compile(r"\s+")
# Characters no reader sees, removed from page text: C0 controls but white space, DEL, C1
# controls, the Arabic letter mark, LRM/RLM, the bidi embeddings and overrides (U+202A-U+202E)
# and isolates (U+2066-U+2069), the byte-order mark / zero-width no-break space; the line and
# paragraph separators are a space (a reader that splits lines on them would see a new line).
CONTROLS: Final = re.compile(
    "[\x00-\x08\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]"
)
_SEPARATORS: Final = re.compile("[\u2028\u2029]")
# Links and images keep their target only with one of these schemes (or none: relative).
SAFE_SCHEMES: Final = frozenset({"http", "https", "mailto"})
# In body text: what would open raw HTML, an autolink, a link, an image or a reference; a "\"
# before punctuation (it would escape the next character, or an escape of ours); an "&" that
# starts a character reference.
_REFERENCE_START: Final = r"&(?=#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]*;)"
_ESCAPING_BACKSLASH: Final = r"\\(?=[!-/:-@\[-`{-~]|$)"
_BODY_SPECIAL: Final = re.compile(rf"[<\[\]]|{_ESCAPING_BACKSLASH}|{_REFERENCE_START}")
_ENTITY_START: Final = re.compile(_REFERENCE_START)
_BACKSLASH_ESCAPE: Final = re.compile(_ESCAPING_BACKSLASH)
_INLINE: Final = {"[": "&#91;", "]": "&#93;", "`": "&#96;", "<": "&lt;", "~": "&#126;"}
_INLINE_CHARS: Final = re.compile(r"[\[\]`<]|~(?=~)|(?<=~)~")
_TICKS: Final = re.compile("`+")
# A line that starts with one of these opens a block (a heading, a quote, a list, a fence, a
# thematic break, an HTML block) where the text must be a paragraph's: "> # x" is a heading. An
# ordered list's marker is a number and "." or ")" before a space; mistletoe takes one with no
# number too ("> ) x").
_BLOCK_START: Final = re.compile(r"[#>\-*+_~]|[0-9]{0,9}[.)](?=\s|$)")
# An ATX heading's closing sequence: "# Foo #" reads "Foo" in CommonMark.
_CLOSING_HASHES: Final = re.compile(r"(?:^|\s)#+$")
# Characters a link destination may hold as they are (RFC 3986's, and "%" of an existing escape);
# "(" and ")" are not among them (the reference parser ends a URL at the first ")").
_URL_SAFE: Final = "!#$%&'*+,/:;=?@[]~"
# An llms.txt item's description is kept to this many characters, cut where a sentence ends
# (short_description): search engines show about 160 of a meta description.
DESCRIPTION_CHARS: Final = 200
_SENTENCE_END: Final = re.compile(r"[.!?\u2026](?=\s)|[\u3002\uff01\uff1f]")
_SHORTEST_CUT: Final = 40  # (a cut shorter than this says too little: the words that fit)
NO_DESCRIPTION: Final = "None"  # what MkDocs writes in a page's description when it has none


def without_controls(text: str) -> str:
    """``text`` without the characters no reader sees (CONTROLS), its line and paragraph
    separators as spaces."""
    return _SEPARATORS.sub(" ", CONTROLS.sub("", text))


def one_line(text: str | None) -> str:
    """``text`` on one line, without controls (CONTROLS): runs of white space (newlines
    included) as one space, trimmed."""
    return _WHITE.sub(" ", without_controls(text)).strip() if text else ""


def escape_body(text: str) -> str:
    """Text of a page's body (a text node, an image's alt text) as Markdown text: controls
    removed, then what would open raw HTML, an autolink, a link or an image ("<", "[", "]")
    escaped with a backslash, as are a backslash before punctuation and an "&" that starts a
    character reference. Backticks, ``*`` and ``_`` are left to the
    converter (a code span shows, it injects nothing)."""
    return _BODY_SPECIAL.sub(lambda match: "\\" + match.group(), without_controls(text))


def safe_target(url: str) -> str | None:
    """``url`` (absolute) as a link's or image's destination (link_url), or None when its
    scheme is not one a reader may follow (SAFE_SCHEMES: ``javascript:``, ``data:``,
    ``vbscript:``, ``file:`` are none)."""
    url = without_controls(url).strip()
    scheme, colon, _ = url.partition(":")
    if not colon or scheme.lower() not in SAFE_SCHEMES:
        return None
    return link_url(url)


def real_description(text: str | None) -> str:
    """A description worth writing, on one line; "" for none, an empty one or MkDocs' "None"."""
    line = one_line(text)
    return "" if line == NO_DESCRIPTION else line


def short_description(text: str | None, limit: int = DESCRIPTION_CHARS) -> str:
    """A page's description as an llms.txt item says it (real_description): whole within
    ``limit`` characters, else its sentences that fit (a Hugo summary is the post's first
    paragraphs, code and all), else its words that fit and an ellipsis."""
    line = real_description(text)
    if len(line) <= limit:
        return line
    ends = [end.end() for end in _SENTENCE_END.finditer(line, 0, limit + 1)]
    if ends and ends[-1] >= _SHORTEST_CUT:
        return line[: ends[-1]].rstrip()
    cut = line[: limit - 1]
    if " " in cut[_SHORTEST_CUT:]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:-") + ELLIPSIS


def inline_text(text: str) -> str:
    """A one-line text for the middle of a line (a link's title, a description): what either
    reading would take for structure written as a character reference (controls removed), but
    a code span that closes within the text and holds nothing else to escape, which is written
    as it is (`` `ScrapeConfig` ``: both readings show it so, see _code_spans)."""
    text = without_controls(text)
    pieces: list[str] = []
    done = 0
    for start, end in _code_spans(text):
        pieces += [_referenced(text[done:start]), text[start:end]]
        done = end
    return "".join([*pieces, _referenced(text[done:])])


def _referenced(text: str) -> str:
    text = _ENTITY_START.sub("&amp;", text)
    text = _BACKSLASH_ESCAPE.sub("&#92;", text)
    return _INLINE_CHARS.sub(lambda match: _INLINE[match.group()], text)


def _code_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text``'s code spans are, as CommonMark pairs backtick runs (a run closes at the
    next run of as many backticks), those whose content needs no reference (_referenced leaves
    it as it is: no "[", "]", "<", "&" reference or escaping "\\"), so that CommonMark shows
    it as the reference parser reads it. A run with no closing run in the text is written as
    references: it could close with one of another text on the line (a title's with a
    description's, hiding the link)."""
    runs = list(_TICKS.finditer(text))
    spans: list[tuple[int, int]] = []
    index = 0
    while index < len(runs):
        opening = runs[index]
        width = len(opening.group())
        closing = next(
            (at for at in range(index + 1, len(runs)) if len(runs[at].group()) == width), None
        )
        if closing is None:
            index += 1
            continue
        content = text[opening.end() : runs[closing].start()]
        if content.strip() and _referenced(content.replace("`", "")) == content.replace("`", ""):
            spans.append((opening.start(), runs[closing].end()))
        index = closing + 1
    return spans


def block_text(text: str) -> str:
    """A one-line text that starts a paragraph (the summary, after "> "): as ``inline_text``,
    with a first character that would open another block written as a reference."""
    text = inline_text(text)
    match = _BLOCK_START.match(text)
    if match is None:
        return text
    last = match.end() - 1  # "#" → "&#35;"; "1." → "1&#46;"
    return f"{text[:last]}&#{ord(text[last])};{text[last + 1 :]}"


def heading_text(text: str) -> str:
    """A one-line text for a heading (the H1's name, a section's): as ``inline_text``, with a
    last "#" that CommonMark would take for a closing sequence written as a reference."""
    text = inline_text(text)
    if _CLOSING_HASHES.search(text):
        text = f"{text[:-1]}&#35;"
    return text


def link_url(url: str) -> str:
    """``url`` as a link's destination: "(" and ")" as "%28" and "%29", white space, controls,
    "<", ">", "\\", quotes and non-ASCII percent-encoded (a sitemap's <loc> holds none of them
    but the parentheses). An "&" stays as the sitemap lists it, even where CommonMark would
    read "&name;" as a character reference: "%26" would be another URL."""
    return quote(url, safe=_URL_SAFE)
