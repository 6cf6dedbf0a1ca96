"""Self-dates whose label stands apart from the date, or is an icon (the oracle's version 6).

A self-date says when the page changed, not what it says (docs/lastmod.md, self-dates). The
oracle's first reading (oracle.strip_self_dates) leaves out an element whose whole text begins
"Last updated"; a careful reader also knows these, which that reading kept as article text:

- a label alone in its element, the date alone in the next one (``<dt>Last updated</dt>
  <dd>2024-05-01</dd>``, ``<span>Updated:</span> <time>...</time>``), or in the label's tail;
- an icon for a label: an empty ``<i>``/``<span>`` whose class names a calendar, a clock, a
  history or an edit (``fa-calendar``, ``octicon-history``), an ``<svg>``, or an element that
  holds only such an icon (Material's ``md-icon`` span), followed by a date alone in its
  element or in the icon's tail;
- an emoji label (a calendar, a clock) and a date, alone in their element.

lxml only, no sitemill code.
"""

from __future__ import annotations

import re

import lxml.html
import oracle

MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
WEEKDAY = r"(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?"
CLOCK = (
    r"(?:(?:\s+|T|\s+at\s+)\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?\s*(?:[ap]\.?m\.?)?"
    r"\s*(?:Z|[+-]\d{2}:?\d{2}|UTC|GMT|[A-Z]{2,5})?)?"
)
DATE = (
    rf"{WEEKDAY}(?:\d{{4}}[-/.]\d{{1,2}}[-/.]\d{{1,2}}"
    rf"|\d{{1,2}}[-/.]\d{{1,2}}[-/.]\d{{4}}"
    rf"|\d{{4}}\s*年\s*\d{{1,2}}\s*月\s*\d{{1,2}}\s*日"
    rf"|{MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\.?\s+{MONTH}\.?,?\s+\d{{4}}){CLOCK}"
)
EDGE = r"[\s:：,;.·•|()\[\]\-–—]*"  # punctuation that may stand around a date or a label
# A date alone (what an element holds besides its label): nothing but a date and punctuation.
DATE_ALONE = re.compile(rf"^{EDGE}(?:on\s+)?{DATE}{EDGE}$", re.IGNORECASE)
# A label alone: what says "this is when the page changed", with no date of its own.
LABEL_ALONE = re.compile(
    rf"^{EDGE}(?:(?:page\s+)?last\s+(?:updated|modified|update|edited|changed)(?:\s+on)?"
    r"|(?:updated|modified|edited)(?:\s+on|\s+at)?|最后更新(?:于|时间)?|更新(?:于|时间|日期)"
    rf"|最終更新(?:日)?|更新日){EDGE}$",
    re.IGNORECASE,
)
ICON_CLASS = re.compile(r"calendar|clock|history|\btime\b|update|refresh|sync|edit|pencil", re.I)
ICON_TAGS = ("i", "span", "em", "svg")
EMOJI = "\U0001f4c5\U0001f5d3\U0001f4c6\u23f0\u231a\u23f1\U0001f504\u270f\u270d" + "".join(
    chr(c) for c in range(0x1F550, 0x1F568)
)
EMOJI_DATE = re.compile(rf"^{EDGE}[{EMOJI}]\ufe0f?{EDGE}{DATE}{EDGE}$", re.IGNORECASE)
SPACE = re.compile(r"\s+")
# What a label or a date holds, one of them at least (a quick look before the regular
# expressions: the spans of a highlighted code block hold none).
QUICK = re.compile(rf"updat|modif|edit|chang|更新|\d{{4}}|[{EMOJI}]", re.IGNORECASE)
SHORT = 300  # characters: a label, an icon or a date is short (so is their parent)


def _text(node: lxml.html.HtmlElement) -> str:
    """The element's text without what its ``<svg>`` holds (an icon's title is no text)."""
    parts: list[str] = []

    def walk(element: lxml.html.HtmlElement) -> None:
        if not _is_svg(element):
            parts.append(element.text or "")
            for child in element:
                if isinstance(child.tag, str):
                    walk(child)
                parts.append(child.tail or "")

    walk(node)
    text = oracle.unseen_out("".join(parts))
    return SPACE.sub(" ", text).strip()


def _is_svg(node: lxml.html.HtmlElement) -> bool:
    return isinstance(node.tag, str) and node.tag.rsplit("}", 1)[-1].lower() == "svg"


def is_icon(node: lxml.html.HtmlElement) -> bool:
    """An icon used as a label: an svg, an empty <i>/<span> whose class names a calendar or a
    clock, or an element holding nothing but such an icon."""
    if not isinstance(node.tag, str):
        return False
    if _is_svg(node):
        return True
    if node.tag.lower() not in ICON_TAGS or _text(node):
        return False
    if ICON_CLASS.search(node.get("class") or ""):
        return True
    children = [child for child in node if isinstance(child.tag, str)]
    return len(children) == 1 and is_icon(children[0])


def _blank(text: str | None) -> bool:
    return not (text or "").strip(" \t\r\n:：·•|-–—")


def _next_element(node: lxml.html.HtmlElement) -> lxml.html.HtmlElement | None:
    following = node.getnext()
    while following is not None and not isinstance(following.tag, str):
        following = following.getnext()
    return following


def _drop_with_date(label: lxml.html.HtmlElement, said: str, found: list[str]) -> bool:
    """Leave out ``label`` and the date after it (its tail, or its next element), if any."""
    tail = SPACE.sub(" ", label.tail or "").strip()
    if DATE_ALONE.match(tail):
        found.append(f"{said} {tail}")
        label.tail = ""
        label.drop_tree()
        return True
    following = _next_element(label)
    if following is not None and _blank(label.tail):
        date = _text(following)
        if DATE_ALONE.match(date):
            found.append(f"{said} {date}")
            following.drop_tree()
            label.drop_tree()
            return True
    return False


def strip_apart(article: lxml.html.HtmlElement) -> list[str]:
    """Leave out the self-dates of the module's docstring (before furniture is stripped: an
    ``<svg>`` icon is furniture, but it tells the date after it is a self-date), and those of
    version 5 (oracle.SELF_DATE: "Last updated ..." whole in one element) in the same pass;
    return the text of each, label and date (to say what a site's pages hold)."""
    found: list[str] = []
    for node in list(article.iter()):
        if node is article or not isinstance(node.tag, str):
            continue
        quick = node.text_content()  # (a quick look first: lxml's, in C)
        if len(quick) > SHORT:
            continue  # (only a short element may be a label, an icon or a date)
        tag = node.tag.rsplit("}", 1)[-1].lower()
        maybe_icon = tag in ICON_TAGS and (tag == "svg" or not quick.strip())
        if not maybe_icon and not QUICK.search(quick):
            continue
        if node.getparent() is None or not any(a is article for a in node.iterancestors()):
            continue  # (left out already, with an element that held it)
        if maybe_icon and is_icon(node):
            parent = node.getparent()
            if parent is not None and parent is not article and DATE_ALONE.match(_text(parent)):
                found.append("[icon] " + _text(parent))
                parent.drop_tree()  # the icon and the date alone in their element
            else:
                _drop_with_date(node, "[icon]", found)
            continue
        text = _text(node)
        if LABEL_ALONE.match(text) and _drop_with_date(node, text, found):
            continue
        if oracle.SELF_DATE.match(SPACE.sub(" ", oracle.visible_text(node))):
            found.append("(v5) " + text)  # (version 5's self-date, read in the same pass)
            node.drop_tree()
        elif EMOJI_DATE.match(text):
            found.append(text)
            node.drop_tree()
    return found
