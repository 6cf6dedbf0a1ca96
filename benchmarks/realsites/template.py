"""What the site repeats in one version: its repeated blocks and its commits' template edits.

Version 6 of the oracle (the dates issue, decision 3):

- a block (blocks.py) that stands on most pages of a version of the site (more than half of
  its pages, at least 4) is left out of every page's article for that version;
- an edit made alike on most of the pages one commit changes (more than half of them, at least
  4) is a template edit and does not make "later": a link or image target added, removed or
  re-pointed the same way (each read with its path's closing slash), a block added or removed
  (unless it links to a page of the site: a list's entry), a word replaced by another anywhere in
  the page (commitedits.py), a title edit (the words it took out and put in: a release number
  in every title, "Spyder 5" made "Spyder 6").

Both are computed lazily, only for the commits where a page's version is compared, from the
blobs at that commit (``git ls-tree``), and memoised per commit; a page's reading is memoised
per blob and path (its targets resolve against its address, and its share links name it).
``date_pages`` is version 6 of oracle.date_pages: each version of a page against the one
before it. lxml and git only, no sitemill code.
"""

from __future__ import annotations

import dataclasses
import itertools
import subprocess
from collections import Counter, OrderedDict
from pathlib import Path

import blocks
import commitedits
import oracle
import stamps
import teasers
from commitedits import AT_LEAST, MOST

READINGS_KEPT = 4096  # readings (whole article trees) kept in memory
KEYS_KEPT = 50000  # pages' block-key sets kept in memory
NONE: frozenset[int] = frozenset()
TitleEdit = tuple[tuple[str, ...], tuple[str, ...]]  # (the words taken out, those put in)


class Memo(OrderedDict[tuple[str, str], "blocks.Reading | None"]):
    """A bounded memo, oldest use dropped first."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def keep(self, key: tuple[str, str], value: blocks.Reading | None) -> None:
        self[key] = value
        if len(self) > self.size:
            self.popitem(last=False)


class SiteVersions:
    """The repeated blocks and template target edits of each version of one checkout's site."""

    def __init__(
        self,
        checkout: Path,
        reader: oracle.BlobReader,
        article_xpath: str | None,
        histories: dict[str, list[oracle.Version]],
        site_url: str | None = None,
    ) -> None:
        self.checkout = checkout
        self.reader = reader
        self.article_xpath = article_xpath
        self.site_url = site_url
        self.readings = Memo(READINGS_KEPT)
        self.keys: OrderedDict[tuple[str, str], frozenset[int] | None] = OrderedDict()
        self.repeated_at: dict[str, frozenset[int]] = {}
        self.edits_at: dict[str, commitedits.Template] = {}
        self.titles_at: dict[str, frozenset[TitleEdit]] = {}
        self.teasers = teasers.Versions(reader, article_xpath, self._tree, site_url)
        # Per commit, the pages it changed: (path, blob before, blob after).
        self.changes: dict[str, list[tuple[str, str, str]]] = {}
        # Per commit, the pages it moved: their old address -> their new one.
        self.moves: dict[str, dict[str, str]] = {}
        for path, versions in histories.items():
            for version in versions:
                if version.renamed_from is not None:
                    old, new = teasers.address(version.renamed_from), teasers.address(path)
                    self.moves.setdefault(version.commit, {})[old] = new
            own = {id(version) for version in versions}
            chain = oracle.chained(histories, path)  # (a moved page's version before the move)
            for newer, older in itertools.pairwise(chain):
                if id(newer) in own and newer.blob and older.blob:
                    self.changes.setdefault(newer.commit, []).append((path, older.blob, newer.blob))

    def reading(self, blob: str, path: str) -> blocks.Reading | None:
        key = (blob, path)
        if key in self.readings:
            self.readings.move_to_end(key)
            return self.readings[key]
        data = self.reader.read(blob)
        found = None if data is None else blocks.read(data, path, self.article_xpath, self.site_url)
        self.readings.keep(key, found)
        return found

    def _page_keys(self, blob: str, path: str) -> frozenset[int] | None:
        key = (blob, path)
        if key in self.keys:
            self.keys.move_to_end(key)
            return self.keys[key]
        found = self.reading(blob, path)
        keys = found.keys if found is not None and found.page else None
        self.keys[key] = keys
        if len(self.keys) > KEYS_KEPT:
            self.keys.popitem(last=False)
        return keys

    def repeated(self, commit: str) -> frozenset[int]:
        """The blocks that stand on most pages of the site at ``commit``."""
        if commit not in self.repeated_at:
            counts: Counter[int] = Counter()
            pages = 0
            for path, blob in self._tree(commit):
                keys = self._page_keys(blob, path)
                if keys is not None:
                    pages += 1
                    counts.update(keys)
            least = max(AT_LEAST, int(pages * MOST) + 1)
            self.repeated_at[commit] = frozenset(k for k, n in counts.items() if n >= least)
        return self.repeated_at[commit]

    def template(self, commit: str) -> commitedits.Template:
        """What ``commit`` edited alike on most of the pages it changed (commitedits.py)."""
        if commit not in self.edits_at:
            changed = self.changes.get(commit, [])
            pairs = []
            for path, before, after in changed:
                old, new = self.reading(before, path), self.reading(after, path)
                if old is not None and new is not None:
                    pairs.append((old, new))
            self.edits_at[commit] = commitedits.template_of(pairs, len(changed))
        return self.edits_at[commit]

    def title_edits(self, commit: str) -> frozenset[TitleEdit]:
        """The title edits made alike on most pages ``commit`` changed."""
        if commit not in self.titles_at:
            counts: Counter[TitleEdit] = Counter()
            changed = self.changes.get(commit, [])
            for path, before, after in changed:
                old, new = self.reading(before, path), self.reading(after, path)
                if old is not None and new is not None and old.title != new.title:
                    counts[title_edit(old.title, new.title)] += 1
            least = max(AT_LEAST, int(len(changed) * MOST) + 1)
            self.titles_at[commit] = frozenset(e for e, n in counts.items() if n >= least)
        return self.titles_at[commit]

    def _tree(self, commit: str) -> list[tuple[str, str]]:
        out = subprocess.run(
            ["git", "-C", str(self.checkout), "ls-tree", "-r", "-z", commit],
            check=True,
            capture_output=True,
        ).stdout
        found = []
        for entry in out.split(b"\0"):
            if not entry:
                continue
            meta, _, path = entry.partition(b"\t")
            fields = meta.split()
            if fields[1] == b"blob" and path.lower().endswith((b".html", b".htm")):
                found.append((path.decode("utf-8", "surrogateescape"), fields[2].decode()))
        return found

    def changed(
        self, older: oracle.Version, older_path: str, newer: oracle.Version, newer_path: str
    ) -> bool:
        """Whether the page's version ``newer`` says anything new since ``older`` (each with
        the path it had): its text without the blocks either version of the site repeats, or
        a target edit that is not the newer commit's template edit."""
        if older.blob is None or newer.blob is None:
            return True
        # Both read at the newer path: a moved page's relative targets, spelled alike, are alike
        # (the article did not change when its address did).
        before, after = self.reading(older.blob, newer_path), self.reading(newer.blob, newer_path)
        if before is None or after is None:
            return True
        if before.description != after.description and not commitedits.descriptions_template(
            before.description, after.description, self.template(newer.commit)
        ):
            return True  # (what the page says of itself: the "its description")
        if blocks.content(before, NONE) == blocks.content(after, NONE):
            return False  # (the article alike, block for block: no version of the site needed)
        retitled = before.title != after.title and title_edit(
            before.title, after.title
        ) in self.title_edits(newer.commit)
        left_out = self.repeated(newer.commit) | self.repeated(older.commit)
        # Teasers read as (target, link text), or left out beside a post (teasers.py).
        before = self.teasers.reading(older.blob, newer_path, older.commit, left_out) or before
        after = self.teasers.reading(newer.blob, newer_path, newer.commit, left_out) or after
        if retitled:
            after = dataclasses.replace(after, title=before.title)  # (the template's edit)
        # (a link that follows its page, moved by the same commit, leads where it did)
        moved = self.moves.get(newer.commit, {})
        old_text, old_targets = _followed(blocks.content(before, left_out), moved)
        new_text, new_targets = blocks.content(after, left_out)
        if (old_text, old_targets) == (new_text, new_targets):
            return False
        template = self.template(newer.commit)  # (what the commit edited on most pages)
        # (both ways on both versions: a block the template added to most pages that this one
        # had before is no edit of it, nor one it took out that this one keeps)
        edited = left_out | template.removed | template.added
        old_text, old_targets = _followed(blocks.content(before, edited), moved)
        new_text, new_targets = blocks.content(after, edited)
        swaps = commitedits.not_linked(template.swaps, before, after)
        if (
            old_text != new_text
            and commitedits.swapped(old_text, swaps) != new_text
            and commitedits.page_edit(before, after) not in template.edits
            and stamps.unstamped(old_text, older.time) != stamps.unstamped(new_text, newer.time)
            # (the stamps and the template's swaps at once: YARD's footer, "Generated on <the
            # deploy's time> by yard 0.9.9 (ruby-2.4.1)" made "... 0.9.16 (ruby-2.5.1)" on
            # every page, each page's time its own second)
            and commitedits.swapped(
                stamps.unstamped(old_text, older.time),
                stamps.beside(swaps, (old_text, older.time), (new_text, newer.time)),
            )
            != stamps.unstamped(new_text, newer.time)
        ):
            return True
        return not commitedits.targets_template(old_targets, new_targets, template)


def _followed(
    content: tuple[str, tuple[str, ...]], moved: dict[str, str]
) -> tuple[str, tuple[str, ...]]:
    """A version's text and targets, each target to a page the newer commit moved read as
    that page's new address."""
    text, targets = content
    return text, tuple(moved.get(target, target) for target in targets)


def title_edit(old: str, new: str) -> TitleEdit:
    """A title edit named by the words it took out and put in (letter case and punctuation
    aside), whatever page's title it was made in."""
    before, after = Counter(_words(old)), Counter(_words(new))
    return tuple(sorted((before - after).elements())), tuple(sorted((after - before).elements()))


def _words(title: str) -> list[str]:
    return oracle.NOT_ALNUM.sub(" ", title.casefold()).split()


def paths_of(path: str, versions: list[oracle.Version]) -> list[str]:
    """The path each version of a chained history had (a rename's older versions: its old path)."""
    paths = []
    for version in versions:
        paths.append(path)
        if version.renamed_from is not None:
            path = version.renamed_from
    return paths


def date_pages(
    checkout: Path, article_xpath: str | None, site_url: str | None = None
) -> dict[str, oracle.OracleDate]:
    """Version 6 of oracle.date_pages: each version of a page against the one before it (of
    the site at ``site_url``, when known)."""
    histories = oracle.file_histories(checkout)
    reader = oracle.BlobReader(checkout)
    site = SiteVersions(checkout, reader, article_xpath, histories, site_url)
    results: dict[str, oracle.OracleDate] = {}
    try:
        for path in oracle.tracked_pages(checkout):
            versions = oracle.chained(histories, path)
            current = (checkout / path).read_bytes()
            verdict = oracle.OracleDate(path, oracle.page_facts(path, current), versions=versions)
            results[path] = verdict
            if verdict.facts.skip or not versions or versions[0].blob is None:
                if not verdict.facts.skip:
                    verdict.facts.skip = "no history"
                continue
            paths = paths_of(path, versions)
            for at, version in enumerate(versions):
                verdict.time, verdict.commit = version.time, version.commit
                if version.status in ("A", "C") or at + 1 == len(versions):
                    break
                if site.changed(versions[at + 1], paths[at + 1], version, paths[at]):
                    break
    finally:
        reader.close()
    return results
