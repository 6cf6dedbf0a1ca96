"""Publish staged sitemap files so that the live index always names one complete build."""
# A sink replaces one file at a time, so a crawler may read the index between any two writes. The
# order below keeps every such moment consistent:
#
# 1. Children that no live index names (new names) are written in place: nobody reads them yet.
# 2. If at most one child that the live index names changes and the build has no new name, it is
#    written in place last: one atomic replacement moves the live set from the old build to the new
#    one. (With new names, the old index would not name the URLs that moved to them.)
# 3. If several live children change, or one does beside new names (children split by count when
#    pages are appended, a shard split in two), each is first written under a staging name of this
#    run's own (``sitemap-N-next-<run>.xml``: two writers never share one), an interim index naming
#    those copies goes live, the children are replaced in place, then the index. A failure at any
#    step leaves a live index whose children all exist and belong to one build; the next run repairs
#    the rest.
# 4. Right before anything is deleted, the live index is read again: if another writer replaced it,
#    this run stops with a ConflictError (the caller lists again and redoes its work). Each deletion
#    is conditional on the version listed (S3's ETag), and a child that is there but that the index
#    read did not name is written again under a new version (sinks.port.Renewing).
#
# Only sitemill's own files are deleted: those its earlier index named, this run's staging copies,
# another run's once old enough to be a crashed run's leftovers, and those the state remembers it
# wrote when their bytes prove it (writing.ownbytes: the MD5 its record holds; a state is a claim
# from outside). A child of a group only the state remembers is proven so even when the live index
# names it: that index was taken for sitemill's on the state's word that the group is its own. A
# deletion that fails is a warning; the state remembers the name and its MD5.

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from sitemill.errors import ConflictError, SinkError
from sitemill.filenames.groupnames import is_group_child
from sitemill.filenames.outputs import (
    ENTRY_XML,
    MORE_INDEX_NAME,
    is_child_name,
    stored_digest,
)
from sitemill.filenames.staging import Staging
from sitemill.sinks import Sink
from sitemill.sinks.port import Renewing
from sitemill.writing._liveindex import read_live

if TYPE_CHECKING:
    from sitemill.writing.ownbytes import OwnFiles

log = logging.getLogger(__name__)

RenderIndexes = Callable[[list[str]], list[tuple[str, bytes]]]
ContentType = Callable[[str], str]


@dataclass(frozen=True, slots=True)
class StagedChild:
    name: str
    path: Path


@dataclass(frozen=True)
class StateClaims:
    """What a state says of the files earlier runs wrote: their names, and the MD5 of each it
    recorded (a claim from outside: writing.ownbytes decides what it proves, asking the
    ``owners``, the output features the run lists, with the site's ``base_url``)."""

    names: Collection[str] = ()
    recorded: Mapping[str, str] = field(default_factory=dict)
    owners: Sequence[OwnFiles] = ()
    base_url: str = ""


class Publisher:
    """Writes one build through a sink in the order the module docstring tells.
    ``claims``: own files the state says earlier runs left (deleted when this build does
    not name them, when their bytes are the ones it records: name -> MD5, the state's
    digests); ``staging`` names this run's staging copies; ``named``, the user's;
    ``groups``: the named groups whose children are sitemill's, ``configured`` those of them
    the configuration names (a child of another is deleted only on its recorded bytes)."""

    def __init__(
        self,
        sink: Sink,
        content_type: ContentType,
        record: Callable[[str, bool], None],
        claims: StateClaims | None = None,
        staging: Staging | None = None,
        named: Callable[[], Collection[str]] = tuple,
        groups: Collection[str] = (),
        configured: Collection[str] = (),
    ) -> None:
        self.sink = sink
        # The groups that only the state remembers (``groups`` but not ``configured``): their
        # children are proven by their bytes, even when a live index names them.
        self.hearsay = frozenset(groups) - frozenset(configured)
        claims = claims or StateClaims()
        self.claims, self.recorded = claims, claims.recorded
        self.content_type = content_type
        self.record = record  # (name, written) for the run's report
        self.named = frozenset(named())  # the user's sitemaps the index names too (locs)
        self.groups = groups  # the named groups whose children are sitemill's
        self.live = read_live(sink, self.named, groups)
        # Children, further indexes and staging copies; never an entry file (sitemap.xml,
        # sitemap.txt) on the state's word alone: a hand-written one may sit there.
        own = (partial(is_child_name, groups=groups), MORE_INDEX_NAME.fullmatch)
        remembered = set(claims.names) & self.live.names
        self.remembered = {n for n in remembered if any(f(n) for f in own)}
        self.staging = staging or Staging.new()
        self.entry_bytes: bytes | None = None
        self.staged: set[str] = set()

    def publish_split(
        self, children: list[StagedChild], indexes: list[tuple[str, bytes]], render: RenderIndexes
    ) -> None:
        """Children, then ``indexes``; ``render`` makes the indexes for other child names (the
        interim index that names staging copies)."""
        sink = self.sink
        changed = [child for child in children if not sink.holds(child.name, child.path)]
        risky = [child for child in changed if child.name in self.live.children]
        for child in (child for child in children if child not in changed):
            if child.name not in self.live.children and isinstance(sink, Renewing):
                data = child.path.read_bytes()  # (unnamed: another run may be deleting it)
                sink.renew(child.name, data, content_type=self.content_type(child.name))
            self.record(child.name, False)
        if len(risky) > 1 or (risky and len(changed) > len(risky)):
            copies = {child.name: self.staging.name(child.name) for child in risky}
            for child in changed:
                if child not in risky:
                    self._put_child(child)
            for child in risky:
                copy = copies[child.name]
                self.staged.add(copy)  # before the write: a failed write may leave it
                sink.put(copy, child.path.read_bytes(), content_type=self.content_type(copy))
            interim = render([copies.get(child.name, child.name) for child in children])
            self._put_indexes(interim, final=False)
            for child in risky:
                self._put_child(child)
        else:  # new names first, then the one live child that changes, if any
            for child in sorted(changed, key=lambda child: child in risky):
                self._put_child(child)
        self._put_indexes(indexes)

    def _put_child(self, child: StagedChild) -> None:
        content_type = self.content_type(child.name)
        self.record(
            child.name, self.sink.put_file(child.name, child.path, content_type=content_type)
        )

    def _put_indexes(self, indexes: list[tuple[str, bytes]], *, final: bool = True) -> None:
        # Further indexes first: sitemap.xml, the one crawlers are told about, goes live last.
        for name, data in sorted(indexes, key=lambda item: item[0] == ENTRY_XML):
            if final:
                self.put(name, data)
            else:  # an interim index is not this run's result: not recorded
                self.sink.put(name, data, content_type=self.content_type(name))

    def put(self, name: str, data: bytes) -> None:
        """One file in one atomic write (everything in sitemap.xml, robots.txt), recorded."""
        written = self.sink.put(name, data, content_type=self.content_type(name))
        self.record(name, written)
        if name == ENTRY_XML:
            self.entry_bytes = data

    def abandon(self) -> None:
        """After a failure: delete this run's staging copies that the live index does not
        name (those it names go when a later build is live). Best effort: the failure that
        brought this here is the one to report."""
        if not self.staged:
            return
        try:
            now = read_live(self.sink, self.named, self.groups)
            for name in sorted(self.staged - now.children - now.indexes):
                self.sink.delete(name)
        except SinkError as exc:
            log.debug("leaving staging copies for a later run: %s", exc)

    def delete_stale(self, keep: Iterable[str]) -> Deletion:
        """Delete what the earlier builds left and this one does not name (see the module
        docstring); never a file the live index names now. A deletion that fails is left
        for the next run (``Deletion.failed``)."""
        keep = set(keep)
        leftovers = {name for name in self.live.staging if self.staging.is_leftover(name)}
        candidates = (
            self.live.indexes | self.live.children | leftovers | self.staged | self.remembered
        )
        stale = sorted(candidates - keep)
        done = Deletion()
        if not stale:
            return done
        now = read_live(self.sink, self.named, self.groups)
        if self.entry_bytes is not None and now.entry != self.entry_bytes:
            raise ConflictError(f"{ENTRY_XML} was replaced by another writer during this run")
        on_word = self.remembered - self.live.indexes - self.live.children - self.staged - leftovers
        on_word |= {n for n in stale if is_group_child(n, self.hearsay)} - self.staged
        for name in stale:
            if name in now.children or name in now.indexes:
                continue
            if name in on_word and not self.proven(name, self._read(name)):
                continue  # (named by a state alone: its bytes are not the ones recorded)
            try:
                self.sink.delete(name)
            except ConflictError:
                raise  # (another writer's version: its index may name it now)
            except SinkError as exc:
                done.failed.append(name)
                if (digest := self._digest(name)) is not None:
                    done.digests[name] = digest  # (what proves it to the next run)
                done.first_error = done.first_error or str(exc)
                continue
            # This run's own staging copies come and go within it: nothing to report.
            if name not in self.staged:
                done.deleted.append(name)
        return done

    def proven(self, name: str, data: bytes | None) -> bool:
        """Whether ``data``, the bytes at ``name`` now, prove it sitemill's on the state's
        record (writing.ownbytes, the run's output features asked too)."""
        from sitemill.writing.ownbytes import may_delete  # (a page's event deletes nothing)

        claims = self.claims
        recorded = self.recorded.get(name)
        return may_delete(name, data, recorded, base_url=claims.base_url, outputs=claims.owners)

    def _read(self, name: str) -> bytes | None:
        try:
            return self.sink.read(name)
        except SinkError:
            return None  # (not readable: nothing proves it)

    def _digest(self, name: str) -> str | None:
        """The MD5 that proves ``name`` sitemill's to the next run: the one recorded, else
        that of its bytes now (sitemill's live index named it)."""
        if name in self.recorded:
            return self.recorded[name]
        data = self._read(name)
        return None if data is None else stored_digest(data)


@dataclass
class Deletion:
    """What ``delete_stale`` did: the names deleted that existed before this run, and those
    it could not delete (with why), which the next run tries again."""

    deleted: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    digests: dict[str, str] = field(default_factory=dict)  # each failed one's MD5, to prove it
    first_error: str = ""

    def warning(self) -> str | None:
        """One line for the report when a deletion failed."""
        if not self.failed:
            return None
        return (
            f"could not delete {len(self.failed):,} stale file(s) ({self.first_error}): the new "
            "sitemaps are live and do not name them; the next run deletes them"
        )
