"""A content region as Markdown: markdownify, with absolute links and what it would lose kept."""
# One converter everywhere (the same bytes from every front end): markdownify on the region's bs4
# tree, mended for llms-full.txt: links, images and videos resolved against the page's URL; a link
# inside inline <code> kept as [`Name`](URL); a code block's language from a language-X / lang-X /
# highlight-X class on it or around it; a data: image is its alt text; ATX headings, "-" bullets,
# blank runs collapsed, no trailing spaces.

from __future__ import annotations

import re
from typing import Any, Final

from bs4 import Tag
from bs4.element import NavigableString
from markdownify import ATX, MarkdownConverter

from sitemill.llms._region import Region
from sitemill.llms._text import escape_body, one_line, safe_target, without_controls
from sitemill.urls import join_url

_LANGUAGE: Final = re.compile(r"^(?:language|lang|highlight)-([A-Za-z0-9_+#.-]+)$")
_NO_LANGUAGE: Final = frozenset({"default", "none", "text", "plaintext", "plain", "nohighlight"})
_BLANK_LINES: Final = re.compile(r"\n{3,}")
_TRAILING: Final = re.compile(r"[ \t]+$", re.MULTILINE)
_HEADING: Final = re.compile(r"#{1,6} ")
_FENCE: Final = "```"
_BACKTICKS: Final = re.compile("`+")
# markdownify converts by recursion, three frames an element: a region nested deeper than this
# is converted to this depth, the elements below each element at it read as their text alone
# (a page of 500 nested <div>s would raise RecursionError; real pages nest 20 to 40 deep).
MAX_MARKDOWN_DEPTH: Final = 120


def code_language(pre: Tag) -> str | None:
    """The language of the code block ``pre``: a language class on its <code>, itself or the
    two elements around it (see above)."""
    code = pre.find("code")
    candidates: list[Tag | None] = [code] if isinstance(code, Tag) else []
    candidates += [pre, pre.parent, pre.parent.parent if pre.parent else None]
    for element in candidates:
        if not isinstance(element, Tag):
            continue
        for name in element.get_attribute_list("class"):
            found = _LANGUAGE.match(str(name or ""))
            if found and found[1].lower() not in _NO_LANGUAGE:
                return found[1]
    return None


# (markdownify's stub names no convert_* method: they are reached through _BASE)
_BASE: Any = MarkdownConverter


class RegionConverter(MarkdownConverter):
    """markdownify's converter with the mends above, for a page whose links resolve against
    ``base``."""

    def __init__(self, base: str) -> None:
        self.base = base
        super().__init__(heading_style=ATX, bullets="-", code_language_callback=code_language)

    def _target(self, reference: Any) -> str | None:
        """``reference`` made absolute, as a destination; None for a scheme no reader may
        follow (llms.text.safe_target: javascript:, data:, vbscript:, file:) or none at all
        (a host urllib.parse refuses, urls.join_url)."""
        target = join_url(self.base, without_controls(str(reference or "")).strip())
        return None if target is None else safe_target(target)

    def escape(self, text: str, parent_tags: set[str]) -> str:
        return str(_BASE.escape(self, escape_body(text), parent_tags))

    def convert_a(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        href = el.get("href")
        target = self._target(href) if href is not None else None
        if target is None:
            el.attrs.pop("href", None)
        else:
            el["href"] = target
        _escape_title(el)
        return str(_BASE.convert_a(self, el, text, parent_tags))

    def convert_img(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        alt = escape_body(" ".join(str(el.get("alt") or "").split()))
        source = str(el.get("src") or "").strip()
        target = self._target(source) if source else None
        if target is None:  # (none, data:, another unsafe scheme: its alt text)
            return alt
        el["src"], el["alt"] = target, alt
        _escape_title(el)
        return str(_BASE.convert_img(self, el, text, parent_tags))

    def convert_video(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        for element in (el, *el.find_all("source")):
            for name in ("src", "poster"):
                if element.get(name):
                    target = self._target(element[name])
                    if target is None:
                        del element[name]
                    else:
                        element[name] = target
        return str(_BASE.convert_video(self, el, text, parent_tags))

    def convert_pre(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        """As markdownify's, fenced with more backticks than any run in the code: a line of
        ``` in it cannot end the block."""
        fenced = str(_BASE.convert_pre(self, el, text, parent_tags))
        longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
        if longest < len(_FENCE):
            return fenced
        fence = "`" * (longest + 1)
        head, _, rest = fenced.partition(_FENCE)
        body, _, tail = rest.rpartition(_FENCE)
        return f"{head}{fence}{body}{fence}{tail}"

    def convert_code(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        if "pre" in parent_tags or el.find("a", href=True) is None:
            return str(_BASE.convert_code(self, el, text, parent_tags))
        return "".join(self._code_pieces(el))

    def _code_pieces(self, el: Tag) -> list[str]:
        """Inline code holding links: each link a link to its code, the text between code."""
        pieces = []
        for child in el.children:
            link = child if isinstance(child, Tag) and child.name == "a" else None
            if link is None and isinstance(child, Tag):
                link = child.find("a", href=True)
            words = child.get_text() if isinstance(child, Tag) else str(child)
            target = self._target(link["href"]) if link is not None and link.get("href") else None
            if isinstance(child, NavigableString) or target is None:
                pieces.append(_code_span(words))
            else:
                pieces.append(f"[{_code_span(words)}]({target})")
        return pieces


def _escape_title(el: Tag) -> None:
    """A link's or image's title, on one line, its backslashes escaped (markdownify escapes
    its quotes: a title ending in a backslash would escape the closing quote)."""
    title = one_line(str(el.get("title") or ""))
    if title:
        el["title"] = title.replace("\\", "\\\\")
    else:
        el.attrs.pop("title", None)


def _code_span(words: str) -> str:
    words = re.sub(r"\s+", " ", words)
    if not words.strip():
        return words
    fence = "`" * (max((len(run) for run in re.findall("`+", words)), default=0) + 1)
    padded = f" {words} " if fence != "`" else words
    return f"{fence}{padded}{fence}"


def region_markdown(region: Region) -> str:
    """The Markdown of ``region``: its parts in order, blank-line runs collapsed, no trailing
    spaces; "" for a region with no text, else ending with one newline."""
    converter = RegionConverter(region.base)
    for part in region.parts:
        _without_controls(part)
        _flatten_below(part, MAX_MARKDOWN_DEPTH)
    text = "\n\n".join(str(converter.convert_soup(part)).strip("\n") for part in region.parts)
    text = _BLANK_LINES.sub("\n\n", _TRAILING.sub("", text)).strip("\n")
    return text + "\n" if text.strip() else ""


def _without_controls(part: Tag) -> None:
    """Each text of ``part`` without the characters no reader sees (llms.text.CONTROLS),
    code's too, before any is escaped (one walk)."""
    texts = [node for node in part.descendants if isinstance(node, NavigableString)]
    for node in texts:
        if (cleaned := without_controls(node)) != node:
            node.replace_with(type(node)(cleaned))


def _flatten_below(part: Tag, depth: int) -> None:
    """Each element ``depth`` levels below ``part`` that holds elements holds their text
    instead (one walk; the same for every caller, whatever its own stack)."""
    depths = {id(part): 0}
    deepest = []
    for node in part.descendants:
        if isinstance(node, Tag) and node.parent is not None:
            level = depths[id(node.parent)] + 1 if id(node.parent) in depths else depth + 1
            if level <= depth:
                depths[id(node)] = level
            if level == depth and node.find(True) is not None:
                deepest.append(node)
    for node in deepest:
        node.string = " ".join(node.get_text(" ").split())


def headings_down(markdown: str) -> str:
    """``markdown`` with each ATX heading outside code fences one level deeper (an H6 stays):
    under a page's own title, its headings become its sections. A fence ends at a line of as
    many backticks or more (convert_pre writes a longer one around code holding ```)."""
    lines = markdown.split("\n")
    fence = ""
    for index, line in enumerate(lines):
        if line.startswith(_FENCE):
            run = _BACKTICKS.match(line)
            ticks = run.group() if run is not None else _FENCE
            if not fence:
                fence = ticks
            elif ticks.startswith(fence) and not line[len(ticks) :].strip():
                fence = ""
        elif not fence and _HEADING.match(line) and not line.startswith("###### "):
            lines[index] = "#" + line
    return "\n".join(lines)
