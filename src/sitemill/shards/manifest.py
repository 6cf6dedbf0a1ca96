"""The manifest of a sharded bucket (``index-state.json``), whose write commits a run."""
# The one object whose conditional write commits a run (docs/distributed.md, "How a run commits").
# Pure; read back as untrusted. What a run writes besides is immutable and named by its content
# (``versioned``): a retry writes the same names, two runs never put different bytes under one, and
# nothing is trusted until a committed manifest names it. A name the manifest stops naming is
# *unnamed* for DELETE_AFTER, then *retired* by a commit and deleted after it; a retired name is
# given to no content until DELETE_AFTER has passed again, so that a deletion still on its way
# never removes an object a later manifest names.

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Container, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Final

from sitemill.filenames.groupnames import SHARD_STEM
from sitemill.filenames.outputs import is_recorded_child, stored_digest
from sitemill.shards.partition import Part, StateRef
from sitemill.shards.plan import Plan

INDEX_STATE_FORMAT: Final = "sitemill-index-state"
MANIFEST_VERSION: Final = 2
# An unnamed object is retired (and deleted) once it has been unnamed this long: longer than
# a rebuild can take (the function's 15-minute timeout) and than a crawler takes between
# reading the index and its children. A retired name stays retired as long again.
DELETE_AFTER: Final = timedelta(minutes=30)
# The objects of the state location a manifest may name (and so retire): shard states.
STATE_OBJECT: Final = re.compile(r"shards/r[a-z2-7]{8}(?:-[a-z2-7]{8})?\.json\.gz")
STATE_SUFFIX: Final = ".json.gz"
# A name its content gives: a shard's file (sitemap-[<group>-]r<id>-<version>.xml, .xml.gz, .txt,
# .txt.gz) or a shard's state (shards/r<id>-<version>.json.gz).
VERSIONED_NAME: Final = re.compile(
    r"(?P<stem>sitemap-(?:[a-z0-9-]+?-)?r[a-z2-7]{8}|shards/r[a-z2-7]{8})-[a-z2-7]{8}"
    r"(?P<suffix>\.(?:xml|txt)(?:\.gz)?|\.json\.gz)"
)
_SALTS: Final = 64  # a name is retired at most once per DELETE_AFTER: a few salts suffice


@dataclass
class IndexState:
    """What the last committed run published: the children (by boundary), each shard's
    state, the entry file's name and digest, the plan and the inputs' fingerprint; and the
    names on their way out (unnamed, retired) with since when. ``legacy``: read from a
    version-1 index-state, whose shard states sat under fixed names (``shards/<id>.json.gz``)."""

    children: list[Part] = field(default_factory=list)
    entry: str = ""  # sitemap.xml (sitemap.txt): the index, or the single file
    digest: str = ""  # of the entry file's bytes
    unnamed: dict[str, str] = field(default_factory=dict)  # name -> since (UTC)
    plan: Plan | None = None
    inputs: str = ""
    states: dict[str, StateRef] = field(default_factory=dict)  # shard id -> its state
    retired: dict[str, str] = field(default_factory=dict)  # name -> since (UTC)
    legacy: bool = False
    base_url: str | None = None  # the run's that committed it (state.start.base_move_warning)
    # The user's sitemaps the index names after sitemill's own (absolute locs, sorted), and
    # those of them a replaced index named, remembered by name (sitemill.writing.usersitemaps).
    users: tuple[str, ...] = ()
    found: tuple[str, ...] = ()
    robots: tuple[str, ...] = ()  # robots.txt's Sitemap lines sitemill wrote for the user's

    def files(self) -> dict[str, list[Part]]:
        """Each shard's files, by shard id (most shards have one)."""
        files: dict[str, list[Part]] = {}
        for part in self.children:
            files.setdefault(part.id, []).append(part)
        return files

    def published_digests(self) -> dict[str, str]:
        """The digest of each file this manifest says its run published, by name: the
        children's and the entry file's (what proves a file's bytes sitemill's:
        writing.ownbytes; the caller judges whether the manifest is trusted)."""
        return {part.name: part.digest for part in self.children} | {self.entry: self.digest}

    def named(self) -> set[str]:
        """The children and state objects this manifest names (a legacy one: its shards'
        fixed state names too, which the first commit after it retires; its plan.json stays,
        read by no version 2)."""
        names = {part.name for part in self.children if is_recorded_child(part.name)}
        names.update(ref.name for ref in self.states.values())
        if self.legacy and self.plan is not None:
            names.update(f"shards/{shard}{STATE_SUFFIX}" for shard in self.plan.ids)
        return names


def versioned_name(stem: str, digest: str, suffix: str, retired: Container[str]) -> str:
    """``<stem>-<8 base32>`` + ``suffix``: a name given by the content's ``digest``, salted
    past the names that are ``retired`` (being deleted)."""
    for name in _salted_names(stem, digest, suffix):
        if name not in retired:
            return name
    raise ValueError(f"{stem}: every salted name is retired")  # (a manifest bounds them)


def _salted_names(stem: str, digest: str, suffix: str) -> Iterator[str]:
    for salt in range(_SALTS):
        token = hashlib.blake2b(f"{digest}/{salt}".encode("ascii"), digest_size=5).digest()
        yield f"{stem}-{base64.b32encode(token).decode('ascii').lower()}{suffix}"


def versioned_parts(name: str) -> tuple[str, str] | None:
    """``name``'s stem and suffix when it is a name its content gives (a shard's file or
    state in a bucket with a partitioned state: ``child_version``, ``state_version``)."""
    found = VERSIONED_NAME.fullmatch(name)
    return None if found is None else (found["stem"], found["suffix"])


def names_its_content(name: str, data: bytes) -> bool:
    """Whether ``name`` is the name ``data``, the bytes it holds, give (under any salt): the
    proof that sitemill wrote them there (sitemill.writing.ownbytes)."""
    parts = versioned_parts(name)
    if parts is None:
        return False
    stem, suffix = parts
    return name in _salted_names(stem, stored_digest(data), suffix)


def child_version(name: str, digest: str, retired: Container[str]) -> str:
    """The name a shard's file (``sitemap-r<id>.xml``, ``-2.xml``, ``.xml.gz``, ``.txt``)
    goes up under in a bucket with a partitioned state: ``sitemap-r<id>-<version>.xml``."""
    stem, dot, suffix = name.partition(".")
    found = SHARD_STEM.match(stem)
    if found is None:
        raise ValueError(f"{name} is no shard's file")
    return versioned_name(found.group(), digest, dot + suffix, retired)


def state_version(shard: str, digest: str, retired: Container[str]) -> str:
    """The name of a shard's state object under the state prefix."""
    return versioned_name(f"shards/{shard}", digest, STATE_SUFFIX, retired)


def is_state_object(name: str) -> bool:
    """Whether a name the manifest keeps is an object of the state location (else the site's)."""
    return STATE_OBJECT.fullmatch(name) is not None


@dataclass(frozen=True, slots=True)
class Publication:
    """What a run publishes: the plan, the inputs' fingerprint, every shard's file and state,
    and the entry file's name and digest."""

    plan: Plan
    inputs: str
    children: list[Part]
    states: dict[str, StateRef]
    entry: str
    digest: str
    users: tuple[str, ...] = ()  # the user's sitemaps the index names (IndexState.users)
    found: tuple[str, ...] = ()
    robots: tuple[str, ...] = ()


def next_manifest(
    base: IndexState, published: Publication, now: datetime, strays: Iterable[str] = ()
) -> tuple[IndexState, list[str]]:
    """The manifest once ``published`` is committed over ``base``; and the names that commit
    retires, to delete once it is committed (never before: a racing run's commit may name
    them, and then this one's fails). ``strays``: objects of sitemill's that no manifest
    names (a failed run's), unnamed from now on."""
    named = {part.name for part in published.children if is_recorded_child(part.name)}
    named.update(ref.name for ref in published.states.values())
    clash = named & set(base.retired)
    if clash:
        raise ValueError(f"{sorted(clash)[0]} is being deleted; it names nothing new")
    stamp = manifest_time(now)
    unnamed = {name: since for name, since in base.unnamed.items() if name not in named}
    for name in sorted((base.named() | set(strays)) - named - set(base.retired)):
        unnamed.setdefault(name, stamp)
    retired = {
        name: since for name, since in base.retired.items() if now - since_of(since) < DELETE_AFTER
    }
    # A state object is read by runs alone, which commit only over the manifest they read:
    # it goes at once (a shard state names pages, hidden ones too). A child waits: a crawler
    # may have read the index that names it a moment ago.
    due = sorted(
        name
        for name, since in unnamed.items()
        if is_state_object(name) or now - since_of(since) >= DELETE_AFTER
    )
    for name in due:
        del unnamed[name]
        retired[name] = stamp
    manifest = IndexState(
        list(published.children),
        published.entry,
        published.digest,
        unnamed,
        published.plan,
        published.inputs,
        dict(published.states),
        retired,
        users=published.users,
        found=published.found,
        robots=published.robots,
    )
    return manifest, due


def manifest_time(now: datetime) -> str:
    """A UTC time as the manifest keeps it (seconds, ``+00:00``)."""
    return now.astimezone(UTC).replace(microsecond=0).isoformat()


def since_of(text: str) -> datetime:
    """A time the manifest keeps (checked when it was read)."""
    return datetime.fromisoformat(text)
