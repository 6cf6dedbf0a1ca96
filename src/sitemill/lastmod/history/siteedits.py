"""What the site's pages tell of an edit at a commit: a list's new entry, a layout's label."""
# What a list page lists is its content (issue 63, decision 2): an edit that put in a link to a
# page of the site (edits.lists_pages: a new plugin's entry on the four lists that name it) is
# template only on more than half of the pages standing then in the deepest folder that holds
# every page that made it (at least MIN_SECTION: a docs tree's entry for a new page, on the 102
# pages of its branch) or at a commit that made most of the site's pages (a menu's new item on
# every page), never for being most of the few pages its commit changed.
#
# A commit that made most of the site's pages (a theme's upgrade re-renders them all) changed each
# layout alike on the pages of its sections: an edit that took words out and put others in
# (edits.replaces_words: every post footer's "Posted:" made "Updated:") made on more than half of
# a section's pages standing then (at least MIN_SECTION) is the template's there, though those
# pages are fewer than half of the pages the commit changed (the lists, the about page, each
# changed its own way). An edit that only put words in (a note given to the four guides) is not.

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from sitemill.lastmod.history.edits import lists_pages, reorders, replaces_words
from sitemill.lastmod.history.probes import MIN_SECTION, section_of
from sitemill.lastmod.history.sectioncensus import stood
from sitemill.lastmod.history.walk import Run

# Where a stop's edit is counted (history.templateedits._place): section, commit's time, edit.
Place = tuple[str, int, str | None]


class SiteEdits:
    """The site's pages (``site``: every page's run) and the pages of each commit's edit, from
    the named stops' (path, place): what they tell of an edit (judged)."""

    def __init__(self, site: Mapping[str, Run], named: list[tuple[str, Place]]) -> None:
        self._site = site
        self._made: dict[tuple[int, str | None], list[str]] = {}
        for path, place in named:
            self._made.setdefault(place[1:], []).append(path)
        self._wide: dict[int, tuple[bool, Counter[str]]] = {}
        self._folders: dict[tuple[int, str | None], bool] = {}  # (most_of_folder's, once)

    def judged(self, place: Place, count: int) -> bool | None:
        """Whether the edit at ``place``, made there on ``count`` named pages, is template by
        what the site tells (see above); None: the site tells nothing of it."""
        edit = place[2] or ""
        if not lists_pages(edit) and (count < MIN_SECTION or not replaces_words(edit)):
            return None
        if place[1] not in self._wide:
            self._wide[place[1]] = site_census(self._site, place[1])
        rerendered, standing = self._wide[place[1]]
        if lists_pages(edit) and not rerendered:
            if place[1:] not in self._folders:
                made = self._made[place[1:]]
                self._folders[place[1:]] = most_of_folder(self._site, made, place[1])
            return self._folders[place[1:]]
        whole = standing[place[0]]  # (its section's pages then, undated by content too)
        layout = whole >= MIN_SECTION and 2 * count > whole and not reorders(edit)
        return True if rerendered and layout and replaces_words(edit) else None


def site_census(
    site: Mapping[str, Run],
    when: int,
) -> tuple[bool, Counter[str]]:
    """Whether the commit of time ``when`` made more than half of the pages of ``site`` that
    stood at it (a theme's upgrade re-renders them; a new page's entry on a few lists, not),
    and how many pages of each section stood at it."""
    made, standing = 0, Counter[str]()
    for path, run in site.items():
        then = next((version for version in run.chain if version.time <= when), None)
        if then is not None and then.blob is not None:
            standing[section_of(path)] += 1
            made += then.time == when
    return 2 * made > standing.total(), standing


def most_of_folder(site: Mapping[str, Run], paths: list[str], when: int) -> bool:
    """Whether ``paths`` (pages that made one edit at the commit of time ``when``) are at
    least MIN_SECTION and more than half of the pages of ``site`` that stood at it in the
    deepest folder holding them all (a docs tree's new entry on the pages of its branch;
    not a new entry on four of a directory's lists)."""
    folders = [path.split("/")[:-1] for path in paths]
    pairs = enumerate(zip(*folders, strict=False))
    shared = next((at for at, parts in pairs if len(set(parts)) > 1), None)
    depth = min(map(len, folders), default=0) if shared is None else shared
    prefix = "".join(part + "/" for part in folders[0][:depth]) if paths else ""
    inside = stood(site, [path for path in site if path.startswith(prefix)], when)
    return len(paths) >= MIN_SECTION and 2 * len(paths) > inside
