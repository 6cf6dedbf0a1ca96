"""The words of a source file and of a built page, for the content match."""
# A source file with its markup crudely taken off (front matter, Markdown and reStructuredText
# syntax, template tags, comments) and a built page's visible text (its main or article region, as
# the content fingerprint reads it).
#
# The words of texts, for the content match: a source file with its markup crudely taken off (front
# matter, Markdown and reStructuredText syntax, template tags, comments) and a built page's visible
# text (its main or article region, as the content fingerprint reads it).

from __future__ import annotations

import re
from typing import Final

from sitemill.lastmod.fingerprint.digest import reduce_html
from sitemill.lastmod.fingerprint.targetmarks import MARK_EDGE
from sitemill.lastmod.sourcefiles.frontmatter import split_front_matter
from sitemill.lastmod.sourcefiles.spans import without_spans

_WORD: Final = re.compile(r"\w+")
# HTML comments and template tags (Liquid, Jinja, Nunjucks, Hugo), taken out first (spans).
_OPENERS: Final = re.compile(r"<!--|\{%|\{\{|\{\#")
_CLOSERS: Final = {"<!--": "-->", "{%": "%}", "{{": "}}", "{#": "#}"}
# Then the rest. No run may scan past where the next opening token of its kind begins (a
# target stops at "(", a tag at "<", a role's target at "`", a role's name is short): each
# character is read a bounded number of times, whatever the text.
_TAKEN_OFF: Final = re.compile(
    r"""\]\([^()\s]*+(?:\s++(?:"[^"]*+"|'[^']*+'))?\)  # a Markdown link's or image's target
    | ^[ \t]*+\[[^\]\n]++\]:[ \t]*+\S[^\n]*+         # a Markdown reference definition
    | ^\.\.[ \t]+[\w:-]+::[^\n]*                     # an rST directive line (its content stays)
    | :[\w:-]{1,64}:`[^`<]*+<[^>`]*+>`               # an rST role with a target: its target
    | <[^<>\n]++>                                     # inline HTML tags and autolinks
    | https?://\S++                                   # bare URLs
    """,
    re.M | re.X,
)


def source_words(text: str) -> list[str]:
    """The words of a source file as a reader of its built page sees them, lower-cased."""
    body = split_front_matter(text)[1]
    body = without_spans(body, _OPENERS, _CLOSERS)
    return _WORD.findall(_TAKEN_OFF.sub(" ", body).lower())


def page_words(data: bytes) -> list[str]:
    """The words of a built page's title and main region (or article), lower-cased: the
    content fingerprint's reduction with its link and image marks left out."""
    reduction = reduce_html(data, main=True)
    pieces = reduction.split(MARK_EDGE)
    return _WORD.findall(" ".join(pieces[::2]).lower())
