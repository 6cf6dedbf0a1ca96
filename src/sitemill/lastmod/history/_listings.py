"""A list page's content is which pages it lists: the pages a commit created, deleted, moved or
retitled (history.templateedits)."""
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
# other pages (issue 79: lawrencesivan-sakura, lanrendev). A page retitled in place is listed
# anew alike: a list page whose edit swapped exactly the title words of a page its commit
# retitled (read from that page's two versions), no other word, is that list's own edit (a
# Hexo blog's post retitled twelve minutes after it went out, in its teaser on 39 list pages of
# 91: jaeyeophan-aircloud, dating rules 21).

from __future__ import annotations

import os
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Final

from sitemill.git.run import Git, GitBatch
from sitemill.lastmod.fingerprint.digest import HTML_SUFFIXES
from sitemill.lastmod.history._editparts import (
    census_tokens,
    listed_pages,
    listed_token,
    retitles,
    title_tokens,
    words_alone,
)
from sitemill.lastmod.history._probes import commit_of
from sitemill.lastmod.history._stopedits import (
    PARTS_AT,
    STAMP_EDIT,
    TOKENS_AT,
    Reduce,
    StopEdits,
    own_path,
)
from sitemill.lastmod.history.blobs import read_blobs
from sitemill.lastmod.history.edits import moves_of
from sitemill.lastmod.history.walk import Run

_CREATED_DELETED: Final = (b"A", b"D")  # (a move without rename detection is both)


class Listings:
    """The pages of the site's own (each its editparts.listed_token) that the commits at a
    time created or deleted, a move being both (``git diff-tree --no-renames``: no blob read),
    read from git once for each commit, on first use. ``commits``: the commits at a time
    (stamps.CommitStamps.commits); ``site``: the base URL links are resolved from, the site's
    folder in the work tree (POSIX, "" for its top) and the time each of its pages git has was
    first committed, oldest first (the pages the site had at a commit: ``pages_at``)."""

    def __init__(
        self, git: Git, commits: Callable[[int], list[str]], site: tuple[str, str, list[int]]
    ) -> None:
        self._git = git
        self._commits = commits
        self._base, relative, self._births = site
        self._prefix = os.fsencode(relative + "/") if relative else b""
        self._found: dict[int, frozenset[str]] = {}
        self._modified: dict[int, dict[str, tuple[bytes, bytes]]] = {}

    def token_of(self, path: str) -> str:
        """The listed_token of the page at site path ``path``."""
        spelled = own_path(self._base, path)
        return listed_token(spelled) if spelled else ""

    def own_of(self, path: str) -> str:
        """The page at site path ``path`` as its reduction spells a link to it (own_path)."""
        return own_path(self._base, path)

    def modified(self, time: int) -> dict[str, tuple[bytes, bytes]]:
        """The pages the commits at ``time`` changed in place, by site path: their blobs before
        and after (read with ``at``)."""
        self.at(time)
        return self._modified.get(time, {})

    def pages_at(self, time: int) -> int:
        """How many of the pages git has the site had at ``time`` (first committed by then)."""
        return bisect_right(self._births, time)

    def at(self, time: int) -> frozenset[str]:
        """The listed_token of each page the commits at ``time`` created, deleted or moved."""
        if time not in self._found:
            pages: set[str] = set()
            modified: dict[str, tuple[bytes, bytes]] = {}
            for sha in self._commits(time):
                pages |= self._changed(sha, modified)
            self._found[time] = frozenset(pages)
            self._modified[time] = modified
        return self._found[time]

    def _changed(self, sha: str, modified: dict[str, tuple[bytes, bytes]]) -> set[str]:
        """The pages one commit created or deleted against its first parent (and, into
        ``modified``, those it changed in place with their two blobs)."""
        command = ("diff-tree", "-r", "-z", "--no-renames", "--raw", "--no-commit-id")
        out = self._git.output(*command, "-m", "--first-parent", "--root", sha)
        fields = out.split(b"\0")
        found = set()
        for raw, name in zip(fields[::2], fields[1::2], strict=False):
            parts = raw.split()  # (":mode mode blob blob status")
            if len(parts) < 5 or not name.startswith(self._prefix):
                continue
            path = os.fsdecode(name[len(self._prefix) :])
            if not path.lower().endswith(HTML_SUFFIXES):
                continue
            status = parts[4][:1]
            if status == b"M":
                modified[path] = (parts[2], parts[3])
            elif status in _CREATED_DELETED and (token := self.token_of(path)):
                found.add(token)
        return found


class OwnEdits:
    """Which stops' edits are their pages' own as lists (see above): an edit that put in, took
    out or re-pointed a link to a page its commit created, deleted or moved (a list page's), or
    the edit of such a page itself (a post moved and retitled, a module renamed). A link to it
    that the commit changed on more than half of the pages the site had then is the site's
    navigation (a sidebar's recent posts: a blog of 24 pages whose 22 a deploy changed), not
    a list (a module renamed in the package index on every API page: what most pages carry is
    the template's); nothing is where a commit created, deleted or moved as many pages as it
    changed (a site that moved every page); none without ``listings`` (no base URL, no git).
    ``naming``: the pages, the tables of the stops' edits and stopedits.read_tokens bound to
    them (a stop whose names were recalled without tokens has them read once more); ``changed``:
    the pages each commit changed."""

    def __init__(
        self,
        listings: Listings | None,
        naming: tuple[Mapping[str, Run], StopEdits, Callable[[list[tuple[str, int]]], int]],
        changed: Mapping[int, int],
        reading: tuple[GitBatch, Reduce] | None = None,
    ) -> None:
        self._listings = listings
        self._pages, self._tables, self._tokens = naming
        self._changed = changed
        self._reading = reading
        self._retitles: dict[int, dict[str, frozenset[str]]] = {}
        self.read = 0  # (blobs read to name the tokens of stops recalled without them)

    def kept(self, stops: list[tuple[str, int]]) -> list[tuple[str, int]]:
        """The stops of ``stops`` (judged template) whose edit is no page's own as a list (the
        blobs read to tell are counted in ``read``)."""
        if self._listings is None:
            return stops
        self._find_retitles(stops)
        listed = {stop: self._listed(stop) for stop in stops}
        self.read += self._tokens([stop for stop in stops if listed[stop]])
        spread = self._spread({commit_of(stop, self._pages) for stop in stops if listed[stop]})
        lists = {stop: self._lists(stop, found, spread) for stop, found in listed.items()}
        return [stop for stop in stops if not self._own(stop, (listed[stop], lists[stop]))]

    def _lists(
        self, stop: tuple[str, int], found: frozenset[str], spread: Counter[tuple[int, str]]
    ) -> frozenset[str]:
        """The pages of ``found`` that lists link, not the site's navigation: those the commit
        of ``stop`` changed a link to on at most half of the pages the site had then."""
        when = commit_of(stop, self._pages)
        had = self._listings.pages_at(when) if self._listings is not None else 0
        return frozenset(page for page in found if 2 * spread[when, page] <= had)

    def _listed(self, stop: tuple[str, int]) -> frozenset[str]:
        """The pages the commit of ``stop`` created, deleted or moved, where it counts them."""
        when = commit_of(stop, self._pages)
        found = self._listings.at(when) if self._listings is not None else frozenset()
        found = found | frozenset(self._retitles.get(when, {}))
        return found if len(found) < self._changed.get(when, 0) else frozenset()

    def _spread(self, commits: set[int]) -> Counter[tuple[int, str]]:
        """On how many pages each commit of ``commits`` changed a link to each page (of those
        whose edits are named this run)."""
        spread: Counter[tuple[int, str]] = Counter()
        if not commits:
            return spread
        for stop, name in self._tables[TOKENS_AT].items():
            if name and name != STAMP_EDIT and (when := commit_of(stop, self._pages)) in commits:
                spread.update((when, page) for page in self._names(name, when))
        return spread

    def _own(self, stop: tuple[str, int], listed: tuple[frozenset[str], frozenset[str]]) -> bool:
        """Whether ``stop``'s page is one its commit moved (or put back), among all it made
        (``listed[0]``), or its edit changed a link to one a list links (``listed[1]``)."""
        made, lists = listed
        if made and self._listings is not None and self._listings.token_of(stop[0]) in made:
            return True  # (the listed page itself: its headline its own, however linked)
        name = self._tables[TOKENS_AT].get(stop)
        if not name or name == STAMP_EDIT:
            return False
        return not self._names(name, commit_of(stop, self._pages)).isdisjoint(lists)

    def _names(self, name: str, when: int) -> frozenset[str]:
        """The pages the edit named ``name`` (editparts.edit_tokens) at ``when`` names as a list
        does: those a link to which it put in or took out, and those its commit retitled whose
        title's words it swapped, no other words (a teaser's heading retitled with its post)."""
        pages = listed_pages(name)
        retitles = self._retitles.get(when)
        if not retitles:
            return pages
        many, tokens = census_tokens(name)
        if many or not tokens:
            return pages
        swapped = frozenset(tokens)
        return pages | {page for page, title in retitles.items() if swapped == title}

    def _find_retitles(self, stops: list[tuple[str, int]]) -> None:
        """Read the pages retitled by each commit of ``stops`` that holds a stop whose edit
        changed words alone (its parts: no description, no target; the only commits read), of
        the pages it changed in place but those stops whose edit changed no title's word (none
        where they are more than half the pages the site had): a page retitled is one whose
        title lost words and gained others (editparts.title_tokens); the tokens of the stops of
        such a commit are read to tell which lists retitled it."""
        if self._listings is None or self._reading is None:
            return
        by_commit: dict[int, set[str]] = {}
        wordy: set[int] = set()
        for stop in stops:
            when = commit_of(stop, self._pages)
            parts = self._tables[PARTS_AT].get(stop)
            if not parts or parts == STAMP_EDIT or not retitles(parts):
                by_commit.setdefault(when, set()).add(stop[0])  # (no title changed: no read)
            if parts and parts != STAMP_EDIT and words_alone(parts):
                wordy.add(when)
        for when in sorted(wordy - set(self._retitles)):
            self._retitles[when] = self._retitled(when, by_commit.get(when, set()))
        retitling = {when for when in wordy if self._retitles.get(when)}
        self.read += self._tokens(
            [stop for stop in stops if commit_of(stop, self._pages) in retitling]
        )

    def _retitled(self, when: int, judged: set[str]) -> dict[str, frozenset[str]]:
        """The title tokens (editparts.title_tokens) of each page the commits at ``when``
        retitled, of those they changed in place that are not in ``judged`` (stops that changed
        no title's word)."""
        assert self._listings is not None and self._reading is not None
        batch, reduce = self._reading
        wanted = {
            path: blobs
            for path, blobs in self._listings.modified(when).items()
            if path not in judged
        }
        if not wanted or 2 * len(wanted) > self._listings.pages_at(when):
            return {}  # (titles changed on most pages are the template's: none is read)
        data = dict(read_blobs(batch, sorted({blob for pair in wanted.values() for blob in pair})))
        self.read += len(data)
        found: dict[str, frozenset[str]] = {}
        for path, (old, new) in sorted(wanted.items()):
            older, newer = data.get(old), data.get(new)
            if older is None or newer is None:
                continue
            moves = moves_of(reduce(path, newer), reduce(path, older), self._listings.own_of(path))
            title = title_tokens(moves)
            if title and (token := self._listings.token_of(path)):
                found[token] = title
        return found
