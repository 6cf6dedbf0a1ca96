"""llms.txt and its kin in a run, behind the output port: the listed pages taken on the way."""
# Each entry the sitemaps list is taken on the way (URL, title, description, hreflang, group), and
# once the sitemaps are published the files are made from them and written where their bytes
# changed. A file at one of these names that sitemill did not write (neither the state's recorded
# bytes nor its mark) is the user's: left and said, unless llms_txt = "replace". Files an earlier
# run wrote and this one does not are deleted while still sitemill's. A sharded bucket's are made
# after the commit from its shards' states (llms._shards).

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from sitemill.config.llms import writes_llms
from sitemill.config.model import Config, LlmsMode, OutputFormat
from sitemill.entries import Entry, own_hreflang
from sitemill.errors import ConfigError, SinkError
from sitemill.filenames.outputs import (
    ENTRY_TXT,
    ENTRY_XML,
    LLMS_FULL,
    LLMS_TXT,
    MARKDOWN_SUFFIX,
    content_type,
)
from sitemill.outputs import RecordedAsWritten
from sitemill.report import WriteResult
from sitemill.sinks import Sink

if TYPE_CHECKING:
    from sitemill.check.problems import CheckReport
    from sitemill.check.published import Published
    from sitemill.llms.page import LlmsPage, LlmsSite
    from sitemill.outputs import OutputRun, PageReading
    from sitemill.report import Report
    from sitemill.state.model import State
    from sitemill.validate.violation import Violation
    from sitemill.web.livesite import LiveSite

log = logging.getLogger(__name__)


PageBytesByKey = Callable[[str], "bytes | None"]  # a page's key -> its bytes (None: gone)


class LlmsFeature(RecordedAsWritten):
    """llms.txt, llms-full.txt and the Markdown twins, as a front end lists them
    (sitemill.outputs.OutputFeature)."""

    def start(self, run: OutputRun) -> LlmsOutputs:
        return LlmsOutputs(run.config, run.sink, _setup(run), run.keep, run.group)

    def shard_config(self, config: Config) -> Config:
        return shard_config(config)

    def merge(self, config: Config, sink: Sink, states: Iterable[State], report: Report) -> None:
        """llms.txt from the shards' states (those the committed manifest names, in its
        order), written where it changed (llms.shards)."""
        from sitemill.llms._shards import NOT_SHARDED, state_entries

        if config.llms_full or config.llms_pages:
            log.warning("%s", NOT_SHARDED)
            report.warnings.append(NOT_SHARDED)
        if config.llms_txt is LlmsMode.OFF:
            return
        outputs = LlmsOutputs(shard_config(config), sink, LlmsSetup())
        entries = (entry for state in states for entry in state_entries(config, state))
        for _ in outputs.watch(entries):
            pass
        warned = len(report.result.warnings)
        outputs.finish(report.result)
        report.warnings.extend(report.result.warnings[warned:])

    def whole_site(self, config: Config) -> str | None:
        return None  # (made after the commit from every shard's state: merge)

    def check_live_copies(
        self, site: LiveSite, published: Published, report: CheckReport, urls: list[str]
    ) -> None:
        """The llms files the build published, live; the twins of the pages in ``urls``
        (llms.livecheck)."""
        from sitemill.llms._livecheck import check_llms

        check_llms(site, published, report, urls)

    def validate(self, path: Path) -> list[Violation] | None:
        """A folder's llms.txt and those one folder down, or a file named llms.txt, against
        llmstxt.org's format (llms.validation)."""
        if not path.is_dir() and path.name != LLMS_TXT:
            return None
        from sitemill.llms._validation import check_llms_txt_file, llms_txt_files

        files = llms_txt_files(path) if path.is_dir() else [path]
        return [found for file in files for found in check_llms_txt_file(file, str(file))]

    def own_file(self, name: str, data: bytes, base_url: str) -> bool | None:
        """An llms name's bytes in the form sitemill writes there (llms.ownership)."""
        at_name = PurePosixPath(name).name == LLMS_TXT or name == LLMS_FULL
        if not at_name and not name.endswith(MARKDOWN_SUFFIX):
            return None
        from sitemill.llms._ownership import proves_llms_file  # (a deletion is weighed)

        return proves_llms_file(name, data, base_url)


LLMS_FILES = LlmsFeature()


def shard_config(config: Config) -> Config:
    """The configuration a shard renders with: titles read and kept (llms_txt), no page read
    again for Markdown (llms.txt is made after the commit: llms.shards)."""
    return replace(config, llms_full=False, llms_pages=False)


@dataclass
class LlmsSetup:
    """What a run gives llms.txt's kin: how to read a listed page's bytes by its key (for
    llms-full.txt and the twins; None: the job cannot), and the files the state records."""

    page_bytes: PageBytesByKey | None = None
    known: Mapping[str, str] = field(default_factory=dict)  # name -> MD5 (state.llmsfiles)
    # A listed page's content fingerprint after the run, by its key (None: no state vouches),
    # and what the last run's Markdown was made from (State.llms_source): see
    # llms.markdownfiles.markdown_source_digest.
    fingerprint: Callable[[str], str | None] | None = None
    source: str = ""
    parallel: bool = False  # ``page_bytes`` pickles: pages are converted in worker processes


def _setup(run: OutputRun) -> LlmsSetup:
    """A page read as the job reads it; with the state the run keeps, its fingerprint there."""
    pages, known = run.pages, run.known
    read = None if pages is None else pages.read
    parallel = pages is not None and pages.parallel
    if known is None:
        if run.config.llms_pages:  # (no record of the twins: one of a page gone hidden would stay)
            raise ConfigError(
                "llms_pages",
                "needs the state a build keeps to know which twins it wrote (their pages may "
                'go): turn content dates on (content_dates = true, a lastmod other than "none")',
            )
        return LlmsSetup(read, parallel=parallel)
    printed = None
    if pages is not None and run.keep is not None:
        printed = _Printed(pages, run.keep)
    return LlmsSetup(read, known.llms, printed, known.llms_source, parallel=parallel)


@dataclass(frozen=True, slots=True)
class _Printed:
    """What a page's Markdown is made from, as markdown_source_digest takes it: the version of
    its bytes (a bucket's ETag; a tree's MD5: a file is read again, as cheap as a state's blob is
    not at hand) and its content fingerprint, which no markup counts (a heading made a list item
    moves none)."""

    pages: PageReading
    state: State

    def __call__(self, key: str) -> str | None:
        record = self.state.pages.get(key)
        if record is None or record.fingerprint is None:
            return None
        version = self.pages.version(key)
        return None if version is None else f"{version} {record.fingerprint}"


class LlmsOutputs:
    """What a run does with llms.txt and its kin (see the module's comment)."""

    def __init__(
        self,
        config: Config,
        sink: Sink,
        setup: LlmsSetup,
        keep: State | None = None,
        group: Callable[[Entry], str | None] | None = None,
    ) -> None:
        self.config, self.sink, self.setup, self.keep = config, sink, setup, keep
        self.on = writes_llms(config)
        self.pages: list[LlmsPage] = []
        self.keys: list[str | None] = []
        self.home: Entry | None = None
        self._home_rank: tuple[int, int] | None = None
        self._group = group if self.on else None
        self._kept: dict[str, str] = {}  # Markdown files left as the last run wrote them
        self._folders: dict[str, Sink] = {}  # (one sink a folder: an S3 prefix listed once)

    def watch(self, entries: Iterator[Entry]) -> Iterator[Entry]:
        """The entries, each one taken on its way to the sitemaps (when on)."""
        return self._take(entries) if self.on else entries

    def _take(self, entries: Iterator[Entry]) -> Iterator[Entry]:
        from sitemill.llms.page import LlmsPage, home_rank  # (only when on)

        base = self.config.base_url
        for entry in entries:
            group = None if self._group is None else self._group(entry)
            page = LlmsPage(entry.loc, entry.title, entry.description, own_hreflang(entry), group)
            self.pages.append(page)
            self.keys.append(entry.key)
            rank = home_rank(entry.loc, base)
            if self._home_rank is None or rank < self._home_rank:
                self.home, self._home_rank = entry, rank
            yield entry

    def finish(self, result: WriteResult) -> None:
        """After the sitemaps: the files made and written where they changed; the record of
        what is sitemill's in ``result.llms``, and in the state the run keeps."""
        files = self._files(result) if self.on and self.pages else {}
        if not self.on or self.pages:
            self._write(files, result)
        if self.keep is not None:
            self.keep.llms, self.keep.llms_source = result.llms.files, result.llms.source

    def _files(self, result: WriteResult) -> dict[str, bytes]:
        from sitemill.llms._files import llms_files
        from sitemill.llms.page import without_shared_descriptions

        site = self._site()
        pages = without_shared_descriptions(self.pages)
        files: dict[str, bytes] = {}
        if self.config.llms_txt is not LlmsMode.OFF:
            linked, listings = pages, 0
            if not self.config.llms_listings:
                from sitemill.llms._listings import without_listings

                linked, listings = without_listings(pages, site.base_url)
            made = llms_files(linked, site, group_order=[g.name for g in self.config.groups])
            files |= made.files
            decision = made.decision + _listings_said(listings)
            log.info("%s", decision)
            result.llms.decision = decision
        if self.config.llms_full or self.config.llms_pages:
            from sitemill.llms._markdownfiles import markdown_source_digest

            result.llms.source = markdown_source_digest(
                self.config, pages, self.keys, site, self.setup.fingerprint
            )
            self._kept = self._unchanged(result.llms.source)
            if not self._kept:
                files |= self._markdown_files(pages, site)
        return files

    def _unchanged(self, source: str) -> dict[str, str]:
        """The Markdown files the last run wrote (name -> MD5), when they were made from what
        this run would make them from and llms-full.txt is still there: none is read again,
        converted or written. Empty: convert (the first run, a page changed)."""
        if not source or source != self.setup.source:
            return {}
        kept = {n: d for n, d in self.setup.known.items() if n == LLMS_FULL or n.endswith(".md")}
        if self.config.llms_full and LLMS_FULL not in kept:
            return {}
        return kept if self._all_there(kept) else {}

    def _all_there(self, names: Iterable[str]) -> bool:
        """Whether every file of ``names`` is there (one listing a folder): one deleted since
        is made again."""
        by_folder: dict[str, set[str]] = {}
        for name in names:
            folder, base = _split_name(name)
            by_folder.setdefault(folder, set()).add(base)
        try:
            return all(bases <= set(self._folder(f).names()) for f, bases in by_folder.items())
        except SinkError:
            return False

    def _site(self) -> LlmsSite:
        from sitemill.llms.page import LlmsSite

        base = self.config.base_url
        entry = ENTRY_TXT if self.config.format is OutputFormat.TXT else ENTRY_XML
        home = self.home
        name = None if home is None else home.site_name
        summary = None if home is None else home.description
        return LlmsSite(base, base + entry, name, summary)

    def _markdown_files(self, pages: list[LlmsPage], site: LlmsSite) -> dict[str, bytes]:
        from sitemill.llms._markdownfiles import markdown_files

        reader = self.setup.page_bytes
        return markdown_files(self.config, pages, self.keys, site, reader, self.setup.parallel)

    def _write(self, files: dict[str, bytes], result: WriteResult) -> None:
        known = self.setup.known
        users: list[str] = []
        for name in sorted(files):
            data = files[name]
            try:
                written = self._put(name, data, users)
            except SinkError as exc:  # (a folder that is a link out of the site, say)
                message = f"{name} is not written: {exc}"
                log.warning("%s", message)
                result.warnings.append(message)
                result.llms.source = ""  # (the next run makes them again, the missed one too)
                continue
            if written is None:
                continue
            result.llms.files[name] = _md5(data)
            (result.written if written else result.unchanged).append(name)
        result.llms.files |= self._kept
        for name in sorted(set(known) - set(files) - set(self._kept)):
            self._delete_own(name, known[name], result)
        if users:
            message = _users_message(users)
            log.warning("%s", message)
            result.warnings.append(message)

    def _put(self, name: str, data: bytes, users: list[str]) -> bool | None:
        """Whether the file was written (False: it held these bytes); None: the user's."""
        folder, base = _split_name(name)
        sink = self._folder(folder)
        found = sink.read(base)
        if found is not None and found != data and not self._ours(name, found):
            if self.config.llms_txt is not LlmsMode.REPLACE or name.endswith(".md"):
                users.append(name)
                return None
            log.warning("%s", f'{name} was not sitemill\'s: replaced (llms_txt = "replace")')
        return sink.put(base, data, content_type=content_type(name))

    def _folder(self, folder: str) -> Sink:
        if folder not in self._folders:
            from sitemill.sinks.folders import folder_sink

            self._folders[folder] = folder_sink(self.sink, folder)
        return self._folders[folder]

    def _ours(self, name: str, data: bytes) -> bool:
        """Whether the file at ``name`` is sitemill's to write over or delete: its own text says
        so (a state is input from outside: its record alone makes no file of the user's ours)
        and, where the state records its bytes, they are those (one the user edited since,
        mark and all, is theirs)."""
        from sitemill.llms._ownership import written_by_sitemill  # (one is there to weigh)

        recorded = self.setup.known.get(name)
        return written_by_sitemill(name, data) and recorded in (None, _md5(data))

    def _delete_own(self, name: str, digest: str, result: WriteResult) -> None:
        from sitemill.llms._ownership import proves_llms_file  # (a deletion is weighed)

        folder, base = _split_name(name)
        try:
            sink = self._folder(folder)
            found = sink.read(base)
            if found is None:
                return
            if _md5(found) != digest or not proves_llms_file(name, found, self.config.base_url):
                return  # not the bytes sitemill wrote, whatever a state says (llms.ownership)
            sink.delete(base)
        except SinkError as exc:
            message = f"could not delete sitemill's old {name} ({exc}); the next run tries again"
            log.warning("%s", message)
            result.warnings.append(message)
            result.llms.files[name] = digest
            return
        result.deleted.append(name)


def _split_name(name: str) -> tuple[str, str]:
    from sitemill.sinks.folders import split_name  # (only where a file is written or weighed)

    return split_name(name)


def _users_message(users: list[str]) -> str:
    first = users[0]
    more = f" and {len(users) - 1:,} more" if len(users) > 1 else ""
    return (
        f"{first}{more} is there already and sitemill did not write it: left as it is "
        '(llms_txt = "replace" lets sitemill write llms.txt and llms-full.txt over yours)'
    )


def _listings_said(count: int) -> str:
    """What the run's llms.txt line adds of the listing pages left out (llms.listings)."""
    if not count:
        return ""
    pages = "page" if count == 1 else "pages"
    return (
        f"; {count:,} listing {pages} (tags, categories, pagination, archives, search) not "
        "linked (llms_listings = true links them)"
    )


def _md5(data: bytes) -> str:
    return hashlib.md5(data, usedforsecurity=False).hexdigest()
