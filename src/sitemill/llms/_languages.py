"""How llms.txt handles a site's languages: decided from its hreflang clusters, said in a line."""

# Languages are known only from the pages' own reciprocal hreflang alternates, never from a
# folder's name. With two or more, a language whose pages all live in one top folder holding no
# other language's page gets its llms.txt there (llmstxt.org allows a subpath); the home page's
# language stays at the root with the pages of none. When another language has no folder of its
# own, one file holds every page, a run of sections per language (docs/llms.md).

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import unquote

from sitemill.filenames.outputs import LLMS_TXT
from sitemill.llms._paths import is_home, path_below, top_folders
from sitemill.llms.page import LlmsPage

ROOT_FILE = LLMS_TXT  # (llmstxt.org: /llms.txt; a language's in its folder, /fr/llms.txt)


@dataclass(frozen=True, slots=True)
class FilePlan:
    """One llms.txt to write: its name below the site's root, the folder its pages' paths start
    with ("" or "fr/"), its pages in the sitemap's order, and the languages that get a run of
    sections each (several only when one file holds every language)."""

    name: str
    folder: str
    pages: tuple[LlmsPage, ...]
    languages: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class LanguagePlan:
    files: tuple[FilePlan, ...]
    decision: str  # one line for the run's report: how languages were handled, and why


def plan_languages(pages: Sequence[LlmsPage], base_url: str) -> LanguagePlan:
    """The files the pages go in, one per language or one for all (see the module's comment)."""
    spelt: dict[str, str] = {}  # casefolded hreflang → its first spelling, in the pages' order
    for page in pages:
        if page.hreflang:
            spelt.setdefault(page.hreflang.casefold(), page.hreflang)
    whole = FilePlan(ROOT_FILE, "", tuple(pages))
    if not spelt:
        why = "no hreflang clusters (languages by folder are not guessed)"
        return LanguagePlan((whole,), f"one llms.txt; {why}")
    if len(spelt) == 1:
        why = f"the hreflang clusters name one language ({next(iter(spelt.values()))})"
        return LanguagePlan((whole,), f"one llms.txt; {why}")
    clustered = sum(1 for page in pages if page.hreflang)
    said = f"{clustered} of {len(pages)} pages are in hreflang clusters of {len(spelt)} languages"
    tops = top_folders([path_below(page.url, base_url) for page in pages])
    folders = _folders_of(pages, tops)
    root = _root_language(pages, base_url, folders)
    homeless = [language for language in spelt if language != root and not folders[language]]
    if homeless:
        names = ", ".join(spelt.values())
        why = f"{spelt[homeless[0]]}'s pages do not share a top folder of their own"
        return LanguagePlan(
            (FilePlan(ROOT_FILE, "", tuple(pages), tuple(spelt.values())),),
            f"one llms.txt with a section per language ({names}): {said}, but {why}",
        )
    home_of = {folders[language]: language for language in spelt if language != root}
    by_file: dict[str, list[LlmsPage]] = {"": [], **{folder: [] for folder in home_of}}
    for page, top in zip(pages, tops, strict=True):
        # A page of no language goes with the folder it is in; no other language is in one.
        in_folder = top in home_of and page.hreflang.casefold() in {home_of[top], ""}
        by_file[top if in_folder else ""].append(page)
    files = [FilePlan(ROOT_FILE, "", tuple(by_file[""]))]
    places = [f"{spelt[root]} at the root"]
    for folder, language in home_of.items():
        name = f"{unquote(folder)}/{ROOT_FILE}"
        files.append(FilePlan(name, f"{folder}/", tuple(by_file[folder])))
        places.append(f"{spelt[language]} in {unquote(folder)}/")
    return LanguagePlan(tuple(files), f"one llms.txt per language ({', '.join(places)}): {said}")


def _folders_of(pages: Sequence[LlmsPage], tops: Sequence[str]) -> dict[str, str]:
    """Each language's own top folder: the one all its pages are in and no other language's
    page is, and that can name a folder ("" when it has none)."""
    seen: dict[str, set[str]] = {}
    for page, top in zip(pages, tops, strict=True):
        if page.hreflang:
            seen.setdefault(page.hreflang.casefold(), set()).add(top)
    owners: dict[str, int] = {}
    for language_tops in seen.values():
        for top in language_tops:
            owners[top] = owners.get(top, 0) + 1
    own: dict[str, str] = {}
    for language, language_tops in seen.items():
        only = next(iter(language_tops)) if len(language_tops) == 1 else ""
        own[language] = only if _is_folder_name(only) and owners[only] == 1 else ""
    return own


def _is_folder_name(top: str) -> bool:
    """Whether a top folder, decoded, can hold a file of that name: never "..", "." or a name
    holding a slash ("%2E%2E", "a%2Fb"), whose llms.txt would be written elsewhere, nor a
    control character."""
    name = unquote(top)
    unfit = any(char in "/\\" or not char.isprintable() for char in name)
    return name not in {"", ".", ".."} and not unfit


def _root_language(pages: Sequence[LlmsPage], base_url: str, folders: dict[str, str]) -> str:
    """The language whose file stays at the root: the home page's, else the first with no
    folder of its own, else the first."""
    for page in pages:
        if page.hreflang and is_home(page.url, base_url):
            return page.hreflang.casefold()
    languages = [page.hreflang.casefold() for page in pages if page.hreflang]
    return next((language for language in languages if not folders[language]), languages[0])
