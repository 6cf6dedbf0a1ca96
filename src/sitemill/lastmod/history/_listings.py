"""A list page's content is which pages it lists: the pages a commit created, deleted or moved
(history.templateedits)."""
# A commit that adds a post puts its link (and its title's words) into every archive, tag and
# list page that lists it; a blog whose archive pages each list every post (Hexo Sakura: 28 of
# a deploy's 34 pages) made that one edit on most of the commit's pages, and a census of edits,
# parts or tokens took it for the template's. And a post retitled and moved in one deploy made
# its own edit (its <title> and <h1> swapped), which the pages that list it made alike (the
# link re-pointed, the title's words swapped): the census took the post's own edit for the
# template's too. So an edit that put in, took out or re-pointed a link to a page of the
# site's own that its commit created, deleted or moved is its page's own, however many pages
# made it, and so is the edit of such a page itself: no census carries either past its commit.
# What else they made (a footer's year beside the new entry) is counted as before, for the
# other pages (issue 79: lawrencesivan-sakura, lanrendev).

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Final

from sitemill.git.run import Git
from sitemill.lastmod.fingerprint.digest import HTML_SUFFIXES
from sitemill.lastmod.history._editparts import listed_pages, listed_token
from sitemill.lastmod.history._stopedits import STAMP_EDIT, StopEdits, own_path
from sitemill.lastmod.history.walk import Run

_CREATED_DELETED: Final = (b"A", b"D")  # (a move without rename detection is both)


class Listings:
    """The pages of the site's own (each its editparts.listed_token) that the commits at a
    time created or deleted, a move being both (``git diff-tree --no-renames``: no blob read),
    read from git once for each commit, on first use. ``commits``: the commits at a time
    (stamps.CommitStamps.commits); ``site``: the base URL links are resolved from and the site's
    folder in the work tree (POSIX, "" for its top)."""

    def __init__(
        self, git: Git, commits: Callable[[int], list[str]], site: tuple[str, str]
    ) -> None:
        self._git = git
        self._commits = commits
        self._base, relative = site
        self._prefix = os.fsencode(relative + "/") if relative else b""
        self._found: dict[int, frozenset[str]] = {}

    def token_of(self, path: str) -> str:
        """The listed_token of the page at site path ``path``."""
        spelled = own_path(self._base, path)
        return listed_token(spelled) if spelled else ""

    def at(self, time: int) -> frozenset[str]:
        """The listed_token of each page the commits at ``time`` created, deleted or moved."""
        if time not in self._found:
            pages: set[str] = set()
            for sha in self._commits(time):
                pages |= self._changed(sha)
            self._found[time] = frozenset(pages)
        return self._found[time]

    def _changed(self, sha: str) -> set[str]:
        """The pages one commit created or deleted against its first parent."""
        command = ("diff-tree", "-r", "-z", "--no-renames", "--name-status", "--no-commit-id")
        out = self._git.output(*command, "-m", "--first-parent", "--root", sha)
        fields = out.split(b"\0")
        found = set()
        for status, name in zip(fields[::2], fields[1::2], strict=False):
            if status[:1] not in _CREATED_DELETED or not name.startswith(self._prefix):
                continue
            path = os.fsdecode(name[len(self._prefix) :])
            if path.lower().endswith(HTML_SUFFIXES) and (token := self.token_of(path)):
                found.add(token)
        return found


class OwnEdits:
    """Which stops' edits are their pages' own as lists (see above): an edit that put in, took
    out or re-pointed a link to a page its commit created, deleted or moved (a list page's), or
    the edit of such a page itself (a post moved and retitled), where that commit created,
    deleted or moved fewer pages than it changed (a site that moved every page re-pointed every
    link: its edit is the template's, judged as any); none without ``listings`` (no base URL,
    no git). ``naming``: the pages, the tables of the
    stops' edits and stopedits.read_tokens bound to them (a stop whose names were recalled
    without tokens has them read once more); ``changed``: the pages each commit changed."""

    def __init__(
        self,
        listings: Listings | None,
        naming: tuple[Mapping[str, Run], StopEdits, Callable[[list[tuple[str, int]]], int]],
        changed: Mapping[int, int],
    ) -> None:
        self._listings = listings
        self._pages, self._tables, self._tokens = naming
        self._changed = changed
        self.read = 0  # (blobs read to name the tokens of stops recalled without them)

    def kept(self, stops: list[tuple[str, int]]) -> list[tuple[str, int]]:
        """The stops of ``stops`` (judged template) whose edit is no page's own as a list (the
        blobs read to tell are counted in ``read``)."""
        if self._listings is None:
            return stops
        listed = {stop: self._listed(stop) for stop in stops}
        wanted = [stop for stop in stops if listed[stop] and stop not in self._tables[4]]
        self.read += self._tokens(wanted) if wanted else 0
        return [stop for stop in stops if not self._own(stop, listed[stop])]

    def _listed(self, stop: tuple[str, int]) -> frozenset[str]:
        """The pages the commit of ``stop`` created, deleted or moved, where it counts them."""
        when = self._pages[stop[0]].chain[stop[1] - 1].time
        found = self._listings.at(when) if self._listings is not None else frozenset()
        return found if len(found) < self._changed.get(when, 0) else frozenset()

    def _own(self, stop: tuple[str, int], listed: frozenset[str]) -> bool:
        if not listed:
            return False
        name = self._tables[4].get(stop)
        if self._listings is not None and self._listings.token_of(stop[0]) in listed:
            return True  # (the listed page itself: moved, or put back, at its commit)
        return bool(name) and name != STAMP_EDIT and not listed_pages(name or "").isdisjoint(listed)
