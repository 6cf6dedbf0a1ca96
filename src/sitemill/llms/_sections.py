"""An llms.txt's "## " sections: the named groups, else the top folders, in the sitemap's order."""

# Sections hold the top folders below the file's folder that hold more than one page (a folder of
# one page is that page, at the top); the top's pages come first, a folder's own page before those
# in it. Pages in no folder get a section named for where they are ("/", "/fr/"): a link before
# the first "## " is read as the info text. Names are unique in a file; a folder named "Optional"
# is written "Optional/" (llmstxt.org's meaning; a group so named keeps it) (docs/llms.md).

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final
from urllib.parse import unquote

from sitemill.llms._paths import path_below, top_folders
from sitemill.llms._text import one_line
from sitemill.llms.page import LlmsPage

OPTIONAL: Final = "optional"  # llmstxt.org's section of links that may be skipped (casefolded)


@dataclass(frozen=True, slots=True)
class LlmsSection:
    """One "## " section: its name (plain text, unique in its file) and its pages, in order."""

    name: str
    pages: tuple[LlmsPage, ...]


@dataclass(frozen=True, slots=True)
class _Key:
    """What puts a page in a section: its language (when the file has a section per language),
    then its group, else its folder ("" for none)."""

    language: str
    group: str
    folder: str


def plan_sections(
    pages: Sequence[LlmsPage],
    *,
    base_url: str,
    folder: str = "",
    group_order: Sequence[str] = (),
    languages: Sequence[str] = (),
) -> list[LlmsSection]:
    """The sections of one file whose pages live in ``folder`` ("" or "fr/") below ``base_url``:
    with ``languages`` (the file holds several) a run of sections per language, in that order,
    then the pages of none; in each run the groups in ``group_order`` (then any other group),
    then the folders, each in the order its first page comes."""
    belows = [path_below(page.url, base_url).removeprefix(folder) for page in pages]
    language_of = {language.casefold(): language for language in languages}
    keyed: dict[_Key, list[LlmsPage]] = {}
    tops = top_folders(belows)
    held = Counter(tops)  # (a folder of one listed page is that page, a page of the top)
    for page, top in zip(pages, (top if held[top] > 1 else "" for top in tops), strict=True):
        language = language_of.get(page.hreflang.casefold(), "")
        group = one_line(page.group)
        keyed.setdefault(_Key(language, group, "" if group else top), []).append(page)
    rank = {name: number for number, name in enumerate(group_order)}
    language_rank = {language: number for number, language in enumerate(languages)}
    order = sorted(
        enumerate(keyed),
        key=lambda item: (
            language_rank.get(item[1].language, len(languages)),
            not item[1].group,
            rank.get(item[1].group, len(rank)),
            bool(item[1].folder),  # (the pages at the top first: the home page's section)
            item[0],
        ),
    )
    names = _Names()
    below = {page.url: tuple(path.split("/")) for page, path in zip(pages, belows, strict=True)}
    return [
        LlmsSection(names.take(key, folder), tuple(sorted(keyed[key], key=lambda p: below[p.url])))
        for _, key in order
    ]


class _Names:
    """Section names given so far in one file, each once."""

    def __init__(self) -> None:
        self.taken: set[str] = set()

    def take(self, key: _Key, folder: str) -> str:
        suffix = f" ({key.language})" if key.language else ""
        if key.group:
            wishes = [key.group + suffix]
        elif key.folder:
            name = one_line(unquote(key.folder)) or key.folder
            wishes = [name + suffix, f"{name}/{suffix}"]
            if name.casefold() == OPTIONAL:
                wishes.pop(0)
        else:
            wishes = [f"/{one_line(unquote(folder))}{suffix}"]
        wish = next((wish for wish in wishes if wish not in self.taken), None)
        number = 2
        while wish is None:  # (only a group named as a folder with a slash comes here)
            wish = f"{wishes[-1]} ({number})"
            wish = None if wish in self.taken else wish
            number += 1
        self.taken.add(wish)
        return wish
