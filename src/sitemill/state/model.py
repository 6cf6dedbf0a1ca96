"""The state: what the last run saw, so that the next one need not read it again."""
# A small deterministic file, ``sitemill-state.json.gz``, beside the sitemaps (docs/state.md, What
# it remembers): per listed page, the version of its bytes (an S3 ETag), its head facts, content
# fingerprint and lastmod; per object the sitemaps leave out, by its ETag alone (the file is
# public), its verdict or facts, so that an unchanged object is never read twice; and sitemill's
# own files. Pure: bytes in, bytes out. A missing, unreadable, foreign or newer state is a warning
# and a first run, never a failure.

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final

from sitemill.entries import SkipReason
from sitemill.filenames.outputs import is_users_file_name
from sitemill.html.facts import FACTS_VERSION, PageFacts
from sitemill.lastmod.fingerprint.versions import EARLIER_VERSIONS, FINGERPRINT_VERSION
from sitemill.lastmod.history.seenrecord import SeenHistory, seen_to_json
from sitemill.lastmod.proof import Proof, proof_commits, proof_to_json
from sitemill.protocol import MAX_URL_LENGTH
from sitemill.shards.evolve import plan_to_json
from sitemill.shards.plan import Plan
from sitemill.state._facts import (
    VERDICTS,
    Unlisted,
    facts_to_json,
    unlisted_to_json,
    without_titles,
)
from sitemill.state.llmsfiles import llms_to_json
from sitemill.state.removedurls import RemovedUrl, removed_to_json
from sitemill.urlstyle import StyleDecision, keep_decision

STATE_FORMAT: Final = "sitemill-state"
STATE_VERSION: Final = 1
_GZIP_LEVEL: Final = 6
# More own files than sitemill ever writes beside one set of sitemaps (50,000 children per
# index, plus indexes and staging copies): a list longer than this is not one it wrote.
MAX_BLOBS: Final = 500_000  # blob fingerprints a state holds at most (about 40 MB)
MAX_OUTPUTS: Final = 200_000


@dataclass(frozen=True, slots=True)
class PageRecord:
    """What one run learnt about one page: the version of its bytes (an S3 ETag), its head
    facts (None: not remembered), its content fingerprint, the lastmod it was given and that
    date's root evidence (``proof``; None: no date, or a state that recorded none); with
    content dates, what names its next edit in a bucket (``parts``: lastmod.deploys), and
    how nearly another page holds its text (``sketch``: lastmod.fingerprint.resemblance)."""

    version: str | None
    facts: PageFacts | None = None
    fingerprint: str | None = None
    lastmod: str | None = None
    proof: Proof | None = None
    parts: str | None = None
    sketch: str | None = None


def record_values(record: PageRecord, numbers: Mapping[str, int]) -> dict[str, Any]:
    """A page's record as the state writes it (``numbers``: each commit's place in the
    state's list of commits, which an evidence names)."""
    values: dict[str, Any] = {}
    if record.version is not None:
        values["etag"] = record.version
    if record.facts is not None:
        values["facts"] = facts_to_json(record.facts)
    if record.fingerprint is not None:
        values["fingerprint"] = record.fingerprint
    if record.parts is not None:
        values["parts"] = record.parts
    if record.sketch is not None:
        values["sketch"] = record.sketch
    if record.lastmod is not None:
        values["lastmod"] = record.lastmod
        if record.proof is not None:  # (a proof of no date says nothing)
            values["evidence"] = proof_to_json(record.proof, numbers)
    return values


def kept_sketch(record: PageRecord | None, fingerprint: str | None) -> str | None:
    """The sketch ``record`` keeps when its fingerprint is ``fingerprint``: the same content,
    not read again (a record of an earlier sitemill keeps none: the page gets one when read)."""
    if record is None or fingerprint is None or record.fingerprint != fingerprint:
        return None
    return record.sketch


@dataclass
class State:
    pages: dict[str, PageRecord] = field(default_factory=dict)
    # sitemill's own files beside the sitemaps after the run (a child whose deletion failed
    # among them: no index names it, so only this tells a later run to delete it).
    outputs: frozenset[str] = frozenset()
    # The MD5 of each sitemap file and index among them as the run published it (a bucket's
    # ETag of its bytes): what says, in a bucket, that an object under one of sitemill's
    # names is the one it wrote (sitemill.aws._overwritten), whatever its shape.
    digests: dict[str, str] = field(default_factory=dict)
    written: dict[str, str] | None = None  # each index child's date (writing.childdates)
    # What is remembered of objects the sitemaps leave out, by ETag: never by name, since a
    # state beside the sitemaps is public (docs/state.md, "Public, and trusted by no one").
    unlisted: dict[str, Unlisted] = field(default_factory=dict)
    # Read, not written: remembered values a parse refused (a lastmod in the future, not a
    # W3C datetime, ...), how many and the first one, for one warning.
    refused: int = 0
    refused_example: str = ""
    # Read, not written: page names of the state that name no page of this site (a way out of
    # it, an absolute path, another host's URL, a control character), dropped: how many and
    # the first one, for one warning (sitemill.filenames.pagenames.is_page_name).
    strangers: int = 0
    stranger_example: str = ""
    # Read, not written: the fingerprint version of the remembered fingerprints (a state of
    # an earlier sitemill: fingerprint.versions.EARLIER_VERSIONS; 0: none a sitemill wrote);
    # written as the current one. See ``outdated``.
    fingerprint_version: int = FINGERPRINT_VERSION
    # Whether the fingerprints cover the main region (content_scope = "main") or the body;
    # read, and written as the run that keeps the state sets it.
    fingerprint_main: bool = True
    # Git blobs already fingerprinted ("h" or "b" for an HTML page or another file, then the
    # blob id) under ``blob_key`` (fingerprint.digest.fingerprint_key): a later run reads only
    # new blobs. A blob id names bytes, never a page.
    blobs: dict[str, str] = field(default_factory=dict)
    blob_key: str = ""
    # The commit the content dates were found at, and those dates (lastmod.history.seen): a
    # later run at that commit with the same inputs reads no git history.
    history: SeenHistory | None = None
    # The shard plan of a sharded tree (sitemill.shards): the boundaries its children keep.
    plan: Plan | None = None
    # IndexNow announcements not sent yet (sitemill.indexnow): URL -> added, changed or
    # removed. Only listed URLs, or removed ones where the state is private.
    pending: dict[str, str] = field(default_factory=dict)
    # The listed pages (path -> added or changed) the last run that changed any added or
    # changed, for `sitemill check` after the deploy (sitemill.state.pending).
    changes: dict[str, str] = field(default_factory=dict)
    # The URLs the last run that removed any removed, whose file is gone (a public state names
    # no page left out but still served), for `sitemill check` (sitemill.state.removedurls).
    removed: dict[str, RemovedUrl] = field(default_factory=dict)
    # What url_style = "auto" decided from the pages' own canonicals (decided by enough of
    # them): kept, so that a small change to the site never moves every URL.
    url_style: StyleDecision | None = None
    # The base URL the run that wrote the state served the pages at: a run at another one
    # says once that every URL moved (state.start.base_move_warning), and announces nothing for it.
    base_url: str | None = None
    # The user's sitemaps a replaced index named, named while there (writing.usersitemaps).
    found_sitemaps: frozenset[str] = frozenset()
    # The robots.txt Sitemap lines sitemill wrote for them (a later run removes those it drops).
    robots_sitemaps: frozenset[str] = frozenset()
    # The llms files it wrote (llms.txt, llms-full.txt, Markdown twins): name -> MD5.
    llms: dict[str, str] = field(default_factory=dict)
    llms_source: str = ""  # what their Markdown was made from (llms.run)
    # Not written: the redirect stubs this run read (path -> ETag, facts, why left out),
    # until ``settle_stubs`` knows where each leads.
    stubs: dict[str, tuple[str, PageFacts, SkipReason]] = field(default_factory=dict)
    # Not written: where each stub of the run leads, once settled (sitemill.listing.stubs).
    stub_ends: dict[str, bool | None] = field(default_factory=dict)

    def forget(self, path: str, reason: SkipReason) -> None:
        """The page at ``path`` is left out: its record goes; a verdict of its own bytes, or
        its facts when they name no other page, stay by its ETag (an unchanged object is not
        read again). A hidden copy's alternates or images may name hidden pages: it is read
        again instead. Its title is not kept either: the state tells no title of a page the
        sitemaps leave out (should the page be listed one day, the next run reads it again).
        A redirect stub waits for ``settle_stubs``."""
        record = self.pages.pop(path, None)
        if record is None or record.version is None or record.facts is None:
            return
        if reason is SkipReason.REDIRECT or (reason is SkipReason.NOINDEX and record.facts.refresh):
            # A website redirect is metadata, not bytes: another object of this ETag may have
            # none, and a new one leaves the ETag as it was. It is read again each time.
            if not record.facts.website_redirect:
                self.stubs[path] = (record.version, record.facts, reason)
        elif reason in VERDICTS:
            self.unlisted[record.version] = reason
        elif not record.facts.alternates and not record.facts.images:
            self.unlisted[record.version] = without_titles(record.facts)

    def settle_stubs(self, ends: Mapping[str, bool | None], *, private: bool = False) -> None:
        """Remember each stub of the run by its ETag as ``ends`` allows (listing.stubs): its
        refresh (to follow it again) when it leads to a listed page, its verdict when it leads
        off the site, nothing else (the sitemaps name its target: nothing hidden is told).
        Two stubs of one ETag that lead to different ends are not remembered. A ``private``
        state (a shard's) remembers every stub's refresh: another shard may list its target."""
        settled: dict[str, Unlisted | None] = {}
        for path, (version, facts, reason) in self.stubs.items():
            end = True if private and path in ends else ends.get(path)
            found: Unlisted | None = reason  # (a noindex page that is no stub: its verdict)
            if path in ends and end is None:
                found = None
            elif end:
                found = PageFacts(facts.noindex, facts.refresh, base=facts.base)
            settled[version] = found if settled.get(version, found) == found else None
        self.stubs, self.stub_ends = {}, dict(ends)
        for version, found in settled.items():
            if found is not None:
                self.unlisted[version] = found

    def facts(self, path: str, version: str | None) -> PageFacts | None:
        """The remembered facts of the page at ``path`` if its bytes are still ``version``."""
        record = self.pages.get(path)
        if record is None or version is None or record.version != version:
            return None
        return record.facts

    def record(self, path: str) -> PageRecord | None:
        return self.pages.get(path)

    @property
    def outdated(self) -> bool:
        """Whether the remembered fingerprints are of a version this sitemill cannot compute
        (older than the previous one, a newer sitemill's, or no version at all): a page whose
        bytes (ETag, blob) are unchanged keeps its date; another takes the evidence ladder,
        as on a first run (docs/lastmod.md, "Upgrading from an older sitemill")."""
        version = self.fingerprint_version
        return version != FINGERPRINT_VERSION and version not in EARLIER_VERSIONS

    def with_style_kept(self) -> State:
        """This state for a run over a part of the site (shards): the style it keeps for
        ``auto`` stands (sitemill.urlstyle.keep_decision)."""
        return replace(self, url_style=keep_decision(self.url_style))

    def undated(self) -> frozenset[str]:
        """The pages remembered by their content but with no date (no evidence yet)."""
        return frozenset(p for p, r in self.pages.items() if r.lastmod is None and r.fingerprint)


def dump_state(state: State) -> bytes:
    """Deterministic bytes: sorted keys, defaults left out, gzip with mtime 0."""
    return dump_document(state_document(state))


def dump_document(document: dict[str, Any]) -> bytes:
    """A state's JSON document as deterministic bytes (sorted keys, gzip with mtime 0)."""
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return gzip.compress(text.encode("ascii"), compresslevel=_GZIP_LEVEL, mtime=0)


def state_document(state: State) -> dict[str, Any]:
    """The state as its JSON document (defaults left out)."""
    dated = (r.proof for r in state.pages.values() if r.lastmod is not None and r.proof)
    commits = proof_commits(dated)
    numbers = {sha: number for number, sha in enumerate(commits)}
    pages = {path: record_values(record, numbers) for path, record in state.pages.items()}
    document: dict[str, Any] = {
        "format": STATE_FORMAT,
        "version": STATE_VERSION,
        "facts_version": FACTS_VERSION,
        "fingerprint_version": FINGERPRINT_VERSION,
        "fingerprint_scope": "main" if state.fingerprint_main else "body",
        "pages": pages,
    }
    if commits:  # (the commits the pages' evidence names, by number)
        document["commits"] = commits
    if state.outputs:
        document["outputs"] = sorted(state.outputs)
    if state.digests:
        document["digests"] = dict(sorted(state.digests.items()))
    if state.written:
        document["written"] = dict(sorted(state.written.items()))
    user_sitemaps_to_json(document, state.found_sitemaps, state.robots_sitemaps)
    llms_to_json(document, state.llms, state.llms_source)
    if state.blobs:
        document["blobs"] = {"key": state.blob_key, "fingerprints": state.blobs}
    if state.history is not None:
        document["history"] = seen_to_json(state.history)
    if state.plan is not None:
        document["shards"] = plan_to_json(state.plan)
    if state.pending:
        document["indexnow"] = {"pending": state.pending}
    if state.changes:
        document["changes"] = dict(sorted(state.changes.items()))
    if state.removed:
        document["removed"] = removed_to_json(state.removed)
    if state.url_style is not None:
        document["url_style"] = state.url_style.to_json()
    if state.base_url is not None:
        document["base_url"] = state.base_url
    if state.unlisted:
        document["unlisted"] = {
            etag: unlisted_to_json(item) for etag, item in state.unlisted.items()
        }
    return document


# What a state remembers of the user's sitemaps: those found by name, robots.txt lines written.
# Both are input from outside when read back (a state beside the sitemaps is public, and so are
# these: the index and robots.txt name them anyway). A found name is only read, and named only
# while that file is a sitemap (sitemill.writing.usersitemaps); a robots.txt line sitemill wrote is
# one a later run may remove (sitemill.robots.lines): only an http(s) URL of printable characters.
MAX_NAMES: Final = 200_000  # (state.model.MAX_OUTPUTS)


def user_sitemaps_to_json(
    document: dict[str, Any], found: frozenset[str], robots: frozenset[str]
) -> None:
    """Put the found names and the robots.txt lines written in a state's ``document``."""
    if found:
        document["user_sitemaps"] = sorted(found)
    if robots:
        document["robots_sitemaps"] = sorted(robots)


def user_sitemaps_from_json(document: dict[str, Any]) -> tuple[frozenset[str], frozenset[str]]:
    """The found names and the robots.txt lines written; each list dropped whole when any
    of it is not what sitemill writes."""
    found = _valid_names(document.get("user_sitemaps"), _user_sitemap_name)
    return found, _valid_names(document.get("robots_sitemaps"), _robots_url)


def _valid_names(value: object, good: Callable[[str], bool]) -> frozenset[str]:
    """The strings of the list ``value``; none when it is no list, too long, or any item is
    not ``good``."""
    if not isinstance(value, list) or len(value) > MAX_NAMES:
        return frozenset()
    names = [name for name in value if isinstance(name, str)]
    if len(names) != len(value) or not all(map(good, names)):
        return frozenset()
    return frozenset(names)


def _user_sitemap_name(name: str) -> bool:
    no_surrogate = name.encode("utf-8", "ignore").decode("utf-8") == name
    return is_users_file_name(name) and no_surrogate


def _robots_url(url: str) -> bool:
    return (
        url.startswith(("http://", "https://"))
        and len(url) <= MAX_URL_LENGTH
        and url.isprintable()
        and " " not in url
        and "#" not in url
    )
