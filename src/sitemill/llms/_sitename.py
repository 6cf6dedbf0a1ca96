"""The name an llms.txt is headed with: the site's own, else the part its pages' titles share."""

# A <title> is mostly "<the page's own> <separator> <the site's>" (or the other way round): the
# site's part is the end most titles share. Where the home page's title is its own name then that
# shared part, and the shared part begins with the home's own, the home's is the site's name. No
# generator's or theme's words are known here.

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Final
from urllib.parse import urlsplit

from sitemill.llms._paths import is_home
from sitemill.llms._text import one_line
from sitemill.llms.page import LlmsPage, LlmsSite

# A separator between a title's parts: a dash, bar, bullet, colon or slash with space each side.
_SEPARATOR: Final = re.compile(r"\s+[-|:/~\u00b7\u2022\u00bb\u2013\u2014]\s+")
_SEPARATOR_END: Final = re.compile(_SEPARATOR.pattern + "$")
_SEPARATOR_START: Final = re.compile(_SEPARATOR.pattern)


def site_name(pages: Sequence[LlmsPage], site: LlmsSite) -> str:
    """``site.name`` (og:site_name) when the home page gives one, else the part most of the
    pages' titles share (``shared_title_part``), else the site's host."""
    if name := one_line(site.name):
        return name
    titles = [title for page in pages if (title := one_line(page.title))]
    home = next((page for page in pages if is_home(page.url, site.base_url)), None)
    shared = shared_title_part(titles, one_line(home.title) if home is not None else "")
    return shared or urlsplit(site.base_url).netloc


def common_title_part(titles: Sequence[str]) -> str:
    """The end part (first or last, between separators) or whole title that more than half of
    ``titles`` hold, at least two of them ("" when none is shared so widely): the template's
    part of a title, the site's name and its separator."""
    counts: Counter[str] = Counter()
    for title in titles:
        parts = _SEPARATOR.split(title)
        counts.update(list(dict.fromkeys((parts[0], parts[-1]))))  # once a title, in order
    if not counts:
        return ""
    shared, held = counts.most_common(1)[0]  # ties: the first counted, in the pages' order
    return shared if held >= 2 and held * 2 > len(titles) else ""


def own_title(title: str, shared: str) -> str:
    """``title`` without the part most titles share (common_title_part) at either end: what
    the page says of itself ("Installation — Python-Markdown 3.10.3 documentation" ->
    "Installation"); the whole title when it is nothing but that part."""
    if not shared or title == shared:
        return title
    if title.endswith(shared) and (end := _SEPARATOR_END.search(title[: -len(shared)])):
        return title[: end.start()]  # (a separator right before: "« gtk » | Archcraft" too)
    if title.startswith(shared) and (start := _SEPARATOR_START.match(title[len(shared) :])):
        return title[len(shared) + start.end() :]
    return title


def shared_title_part(titles: Sequence[str], home_title: str = "") -> str:
    """The end part (first or last, between separators) or whole title that more than half of
    ``titles`` hold, at least two of them; the home page's own part where the shared one begins
    with it. "" when no part is shared so widely."""
    shared = common_title_part(titles)
    if not shared:
        return ""
    home_parts = _SEPARATOR.split(home_title) if home_title else []
    if len(home_parts) == 2 and shared in home_parts:
        own = home_parts[0] if home_parts[1] == shared else home_parts[1]
        if own and shared.startswith(own + " "):
            return own
    return shared
