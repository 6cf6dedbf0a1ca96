"""The llms.txt files of a site (llmstxt.org), as bytes, from the pages its sitemap lists."""

# The grammar written is the strict part of llmstxt.org's format that the reference parser
# (llms-txt's miniparse) and a CommonMark reader read alike (docs/llms.md). The paragraph after the
# head is always written (without it the reference parser reads a summary as the info text) and
# ends with INFO_MARK, by which a run tells its own llms.txt (has_llms_txt_mark). UTF-8, LF, no
# byte-order mark, no trailing space, one LF at the end: the same pages give the same bytes.

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final
from urllib.parse import unquote

from sitemill.llms._languages import FilePlan, plan_languages
from sitemill.llms._paths import is_home, path_below
from sitemill.llms._sections import plan_sections
from sitemill.llms._sitename import common_title_part, own_title, site_name
from sitemill.llms._text import (
    block_text,
    heading_text,
    inline_text,
    link_url,
    one_line,
    real_description,
    short_description,
)
from sitemill.llms.page import LlmsPage, LlmsSite

INFO_MARK: Final = "; written by sitemill."
_INDEX: Final = re.compile(r"index\.html?")
_EXTENSION: Final = re.compile(r"\.[A-Za-z0-9]{1,5}$")
_WORD_BREAKS: Final = re.compile(r"[-_]+")
# Titles a section needs for the part most of them share to be the template's (below, two titles
# sharing a first part may be one series: "Foo: Part 1", "Foo: Part 2"); the file's part else.
_SECTION_PAGES: Final = 4
# Bytes of a file looked at for the mark: its head (a name and a summary are one line each,
# a page's title and description are bounded where they are read).
MARK_WINDOW: Final = 1 << 20


@dataclass(frozen=True, slots=True)
class LlmsFiles:
    """The files to write, by name below the site's root ("llms.txt", "fr/llms.txt"), and one
    line for the run's report saying how the site's languages were handled and why."""

    files: dict[str, bytes]
    decision: str


def llms_files(
    pages: Sequence[LlmsPage], site: LlmsSite, *, group_order: Sequence[str] = ()
) -> LlmsFiles:
    """Every llms.txt of the site: ``pages`` are those the sitemap lists, in its order; each is
    linked once, in the file of its language (sitemill.llms._languages), in a section of its
    group (``group_order``: the named groups' order) or of its top folder."""
    plan = plan_languages(pages, site.base_url)
    name = site_name(pages, site)
    files = {
        file.name: _render(file, plan.files, name, site, group_order).encode("utf-8")
        for file in plan.files
    }
    return LlmsFiles(files, plan.decision)


def has_llms_txt_mark(data: bytes) -> bool:
    """Whether ``data`` is an llms.txt sitemill wrote: its first paragraph after the name (and
    the summary) ends with INFO_MARK. A file a person wrote is theirs, never replaced."""
    try:
        text = data[:MARK_WINDOW].decode("utf-8")
    except UnicodeDecodeError:
        text = data[:MARK_WINDOW].decode("utf-8", "ignore")  # (a cut in the last character)
    lines = text.split("\n", 6)
    if len(lines) < 4 or not lines[0].startswith("# ") or lines[1]:
        return False
    info = 4 if len(lines) > 5 and lines[2].startswith("> ") and not lines[3] else 2
    return len(lines) > info + 1 and lines[info].endswith(INFO_MARK) and not lines[info + 1]


def _render(
    file: FilePlan,
    every: Sequence[FilePlan],
    name: str,
    site: LlmsSite,
    group_order: Sequence[str],
) -> str:
    lines = [f"# {heading_text(name)}", ""]
    if summary := _summary(file, site):
        lines += [f"> {block_text(summary)}", ""]
    lines += [_info(file, every, site), ""]
    sections = plan_sections(
        file.pages,
        base_url=site.base_url,
        folder=file.folder,
        group_order=group_order,
        languages=file.languages,
    )
    shared = _shared_part(file.pages)
    for section in sections:
        lines += [f"## {heading_text(section.name)}", ""]
        here = _shared_part(section.pages) if len(section.pages) >= _SECTION_PAGES else ""
        lines += [_item(page, here or shared, (name, site.base_url)) for page in section.pages]
        lines.append("")
    return "\n".join(lines[:-1]) + "\n"


def _summary(file: FilePlan, site: LlmsSite) -> str:
    """The home page's description; in a language's folder, that of the folder's own page."""
    if not file.folder:
        return real_description(site.summary)
    home = {file.folder, file.folder.rstrip("/")}
    page = next((page for page in file.pages if path_below(page.url, site.base_url) in home), None)
    return real_description(page.description) if page is not None else ""


def _info(file: FilePlan, every: Sequence[FilePlan], site: LlmsSite) -> str:
    """The paragraph after the head: a true sentence of what the file lists, naming the sitemap."""
    sitemap = f"<{link_url(site.sitemap_url)}>"
    if file.folder:
        below = f"<{link_url(site.base_url + file.folder)}>"
        return f"The pages below {below} that the sitemap {sitemap} lists{INFO_MARK}"
    others = [other for other in every if other.folder]
    if not others:
        return f"The pages that the sitemap {sitemap} lists{INFO_MARK}"
    elsewhere = ", ".join(inline_text(one_line(unquote(other.folder))) for other in others)
    files = ", ".join(inline_text(one_line(other.name)) for other in others)
    return (
        f"The pages that the sitemap {sitemap} lists but those below {elsewhere}, "
        f"which {files} list{'s' if len(others) == 1 else ''}{INFO_MARK}"
    )


def _shared_part(pages: Sequence[LlmsPage]) -> str:
    """The part most of the pages' titles share: the site's name and its separator, where a
    section of a versioned site has its own ("Editor — Spyder 3 documentation")."""
    return common_title_part([title for page in pages if (title := one_line(page.title))])


def _item(page: LlmsPage, shared: str, site: tuple[str, str]) -> str:
    """``- [Title](URL): description``, the title less the part most titles of its file share;
    a page without a title is named by its URL's path, and so is one titled with the site's
    name alone (``site``: the name and the base URL; a tag or pager page: all alike to a
    reader), but the home page."""
    title = own_title(one_line(page.title), shared)
    if title == site[0] and not is_home(page.url, site[1]):
        title = ""
    title = title or path_name(page.url, site[1]) or site[0]
    link = f"- [{inline_text(title)}]({link_url(page.url)})"
    description = short_description(page.description)
    return f"{link}: {inline_text(description)}" if description else link


def path_name(url: str, base_url: str) -> str:
    """The name a page without a title of its own goes by: its URL's last folder or file name,
    words apart and the first capitalised (``/tags/rust-lang/`` -> "Rust lang",
    ``/guide/setup.html`` -> "Setup", ``/page/2/`` -> "Page 2"), never a path; "" for the
    home page."""
    names = [one_line(unquote(name)) for name in path_below(url, base_url).split("/")]
    names = [name for name in names if name and not _INDEX.fullmatch(name)]
    last = _EXTENSION.sub("", names[-1]) if names else ""
    if last.isdigit() and len(names) > 1:  # ("page/2/": "Page 2")
        last = f"{names[-2]} {last}"
    words = " ".join(_WORD_BREAKS.sub(" ", last).split())
    return words[:1].upper() + words[1:]
