"""What the site repeats in one version: its repeated blocks and its template target edits.

Version 6 of the oracle (the dates issue, decision 3):

- a block (blocks.py) that stands on most pages of a version of the site (more than half of
  its pages, at least 4) is left out of every page's article for that version;
- a link or image target added or removed identically on most of the pages one commit changes
  (more than half of them, at least 4) is a template edit: it does not make "later";
- so is a title edit (the words it took out and put in) made alike on most of those pages (a
  release number in every title: "Spyder 5" made "Spyder 6").

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
import oracle

MOST = 0.5  # more than this share of the pages
AT_LEAST = 4  # and at least this many
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
        self.edits_at: dict[str, frozenset[tuple[str, str]]] = {}
        self.titles_at: dict[str, frozenset[TitleEdit]] = {}
        # Per commit, the pages it changed: (path, blob before, blob after).
        self.changes: dict[str, list[tuple[str, str, str]]] = {}
        for path, versions in histories.items():
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

    def template_edits(self, commit: str) -> frozenset[tuple[str, str]]:
        """The targets added ("+") or removed ("-") alike on most pages ``commit`` changed."""
        if commit not in self.edits_at:
            counts: Counter[tuple[str, str]] = Counter()
            changed = self.changes.get(commit, [])
            for path, before, after in changed:
                old, new = self.reading(before, path), self.reading(after, path)
                if old is None or new is None:
                    continue
                counts.update(edits(all_targets(old), all_targets(new)))
            least = max(AT_LEAST, int(len(changed) * MOST) + 1)
            self.edits_at[commit] = frozenset(e for e, n in counts.items() if n >= least)
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
        if blocks.content(before, NONE) == blocks.content(after, NONE):
            return False  # (the article alike, block for block: no version of the site needed)
        if before.title != after.title and title_edit(
            before.title, after.title
        ) in self.title_edits(newer.commit):
            after = dataclasses.replace(after, title=before.title)  # (the template's edit)
        left_out = self.repeated(newer.commit) | self.repeated(older.commit)
        old_text, old_targets = blocks.content(before, left_out)
        new_text, new_targets_ = blocks.content(after, left_out)
        if old_text != new_text:
            return True
        if old_targets == new_targets_:
            return False
        return not edits(old_targets, new_targets_) <= self.template_edits(newer.commit)


def title_edit(old: str, new: str) -> TitleEdit:
    """A title edit named by the words it took out and put in (letter case and punctuation
    aside), whatever page's title it was made in."""
    before, after = Counter(_words(old)), Counter(_words(new))
    return tuple(sorted((before - after).elements())), tuple(sorted((after - before).elements()))


def _words(title: str) -> list[str]:
    return oracle.NOT_ALNUM.sub(" ", title.casefold()).split()


def all_targets(reading: blocks.Reading) -> tuple[str, ...]:
    """The article's targets, every block kept."""
    return blocks.article(reading, frozenset())[1]


def edits(old: tuple[str, ...], new: tuple[str, ...]) -> set[tuple[str, str]]:
    """How one version's targets differ from the other's, each edit told by the way it was
    made, so that pages whose own targets were edited the same way share it: a target
    replaced (the removed and the added ones paired in order) is its changed middle, what
    stands between the part both share at the start and at the end (``blob/v2.1.2/x.md`` to
    ``blob/main/x.md`` on every page is ``v2.1.2`` to ``main``), each read with its path's
    closing slash (a link from ``/base/`` to the root ``/`` moves as ``/base/x`` to ``/x``
    does: ``base/`` to nothing); a target added or removed unpaired is itself."""
    before, after = Counter(old), Counter(new)
    removed = [t for t in dict.fromkeys(old) for _ in range((before - after)[t])]
    added = [t for t in dict.fromkeys(new) for _ in range((after - before)[t])]
    found = {("~", _middle(_closed(a), _closed(b))) for a, b in zip(removed, added, strict=False)}
    pairs = min(len(removed), len(added))
    return found | {("-", t) for t in removed[pairs:]} | {("+", t) for t in added[pairs:]}


def _closed(target: str) -> str:
    """The target with one slash at its end (blocks.spell keeps the root's and drops others')."""
    return target.rstrip("/") + "/"


def _middle(old: str, new: str) -> str:
    start = _shared(old, new)
    end = _shared(old[start:][::-1], new[start:][::-1])
    return f"{old[start : len(old) - end]}\0{new[start : len(new) - end]}"


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


def _shared(one: str, other: str) -> int:
    """How many characters the two strings share at their start."""
    count = 0
    for a, b in zip(one, other, strict=False):
        if a != b:
            break
        count += 1
    return count
