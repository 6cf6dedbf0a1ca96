"""Taking over a sitemap sitemill did not write: a generator's, an empty or a hand-written one."""
# A site generator's (writing._generators), an empty one, a hand-written one. It is someone else's
# when no state names it and its bytes are not ours. sitemill says so once (with the generator's
# setting that turns it off) and, once its own sitemap.xml is live, deletes what would contradict
# it: the stale ``.gz`` twin, the generator's own children its index names, Astro's index; each
# only when it is itself a sitemap inside the folder or prefix, never a name this run wrote, and
# only when this run wrote the replacement (with text output they all stay, and that is said).
# Which sitemaps an index names are the generator's own: writing._namedsitemaps; the user's stay
# byte for byte (``users``).

from __future__ import annotations

import logging
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Final, Protocol

from sitemill.errors import RefusedError, SinkError
from sitemill.filenames.outputs import ENTRY_TXT, ENTRY_XML, ROBOTS_TXT
from sitemill.messages import printable
from sitemill.protocol import MAX_BYTES_LIMIT
from sitemill.report import Report
from sitemill.robots.rules import MAX_ROBOTS_TXT_BYTES
from sitemill.writing._generators import (
    ASTRO,
    ASTRO_INDEX,
    Generator,
    is_astro_index,
    looks_like_sitemills,
    written_by,
)
from sitemill.writing._namedsitemaps import (
    KeptBecause,
    KeptSitemap,
    NamedSitemaps,
    names_its_own,
    sort_named,
)
from sitemill.writing.sitemapfile import (
    HEAD_BYTES,
    SITEMAPINDEX,
    is_cut,
    read_size,
    sitemap_root,
)

log = logging.getLogger(__name__)

GZ_TWIN: Final = ENTRY_XML + ".gz"


class Files(Protocol):
    """Where the replaced files are: a local folder (sitemill.writing.takeoverfiles) or a
    bucket's prefix (sitemill.jobs._buckettakeover); names below it hold "/"."""

    def read(self, name: str, limit: int) -> bytes | None:
        """The first ``limit`` bytes of ``name``; None when it is not there or not readable."""
        ...

    def delete(self, name: str) -> None: ...


@dataclass
class Takeover:
    """A sitemap sitemill did not write, and what goes with it once sitemill's is live."""

    generator: Generator | None  # None: whose it is cannot be told
    replaced: str  # sitemap.xml, or Astro's sitemap-index.xml
    data: bytes  # its bytes as found (an index names its children)
    kept: bool = False  # sitemill writes sitemap.txt: this one stays, with all it names
    twins: list[str] = field(default_factory=list)  # folder-relative paths to delete
    users: list[KeptSitemap] = field(default_factory=list)  # named sitemaps that stay
    named: NamedSitemaps | None = None  # what its index names, sorted once (sorted_once)
    config: str | None = None  # the generator's config file, where its project was found

    def message(self) -> str:
        """One line: whose sitemap is replaced (or stays), what goes with it, how to turn
        it off."""
        owner = "a" if self.generator is None else self.generator.owner
        named = f"{owner} {self.replaced}"
        if self.generator is None:
            named += " sitemill did not write (no state names it)"
            setting = "if a tool writes it on every build, turn that off or run sitemill after it"
        else:
            setting = self.generator.setting_in(self.config)
        if self.kept:
            if self.generator is not None and self.generator.setting_beside_text:
                setting = self.generator.setting_beside_text
            return (
                f"{named} stays beside sitemill's {ENTRY_TXT} (text output replaces neither it "
                f"nor the files it names), and crawlers may read both: {setting}"
            )
        if self.replaced == ENTRY_XML:
            what = f"replacing {named} with sitemill's"
        else:
            what = f"sitemill's {ENTRY_XML} takes over from {named}"
        gone = [printable(name) for name in self.twins if name != self.replaced]
        parts = [f"deleting {_listed(gone)} with it"] if gone else []
        if self.replaced in self.twins:  # Astro's index goes too
            parts = [f"deleting it{' and ' + _listed(gone) if gone else ''}"]
        parts += self._keeping(owner)
        if sitemap_root(self.data[:HEAD_BYTES]) == SITEMAPINDEX and is_cut(self.data):
            # (what it names past the protocol's bound is not read: nothing shows it is a sitemap)
            parts.append(
                f"it is larger than an index may be ({MAX_BYTES_LIMIT:,} bytes): the files it "
                "names past that stay, delete them yourself"
            )
        also = f" ({'; '.join(parts)})" if parts else ""
        return f"{what}{also}: {setting}"

    def _keeping(self, owner: str) -> list[str]:
        """``keeping and naming blog-sitemap.xml, not Astro's own``: the user's sitemaps that
        stay, by why (those in the folder named in sitemill's index)."""
        said = []
        for why in KeptBecause:
            names = [kept.shown for kept in self.users if kept.why is why]
            verb = "keeping" if why is KeptBecause.ELSEWHERE else "keeping and naming"
            if names:
                said.append(f"{verb} {_listed(names)}, {why.value.format(owner=owner)}")
        return said


def find_takeover(files: Files, *, text: bool, remembered: Collection[str] = ()) -> Takeover | None:
    """The sitemap there that sitemill did not write, if any (a folder's read before the run
    writes; a bucket's, the bytes the run replaced). ``text``: this run writes sitemap.txt;
    ``remembered``: the files the state says sitemill wrote (a name it holds is ours)."""
    head = files.read(ENTRY_XML, HEAD_BYTES)
    if head is not None and not looks_like_sitemills(head):
        generator = written_by(head)
        if generator is not None or ENTRY_XML not in remembered:
            return Takeover(generator, ENTRY_XML, _telling(files, ENTRY_XML, head), kept=text)
    astro = files.read(ASTRO_INDEX, HEAD_BYTES)
    if astro is not None and is_astro_index(astro):
        whole = _telling(files, ASTRO_INDEX, astro)
        if names_its_own(ASTRO, whole):  # else the user's, in Astro's shape
            return Takeover(ASTRO, ASTRO_INDEX, whole, kept=text)
    return None


def _telling(files: Files, name: str, head: bytes) -> bytes:
    """As much of ``name`` as tells what it names (sitemapfile.read_size): a urlset's head,
    whatever its size; an index's first INDEX_READ_BYTES, never all of a larger one."""
    size = read_size(head)
    if len(head) < HEAD_BYTES or size <= len(head):
        return head
    return files.read(name, size) or head


def take_over(
    files: Files,
    found: Takeover | None,
    report: Report,
    base_url: str,
    *,
    first: bool,
    lost: str | None = None,
    dry: bool = False,
) -> None:
    """After the run: what of ``found`` it took over (settle), said (announce; a warning
    when ``first``: no state named it), then its twins deleted (retire). ``lost``: the
    warning of sitemaps beside no state, said when they were not someone else's. ``dry``:
    a run that writes nothing (sitemill why) says nothing of replacing."""
    takeover = settle(files, found, report, base_url)
    if not dry:
        announce(takeover, report.warnings, first=first)
    if takeover is None and lost is not None:
        log.warning("%s", lost)
        report.warnings.append(lost)
    retire(files, takeover, report)


def settle(files: Files, found: Takeover | None, report: Report, base_url: str) -> Takeover | None:
    """What of ``found`` this run took over, once its sitemaps are written: None when it
    wrote no replacement (an empty run) or left the file as it was (then it was ours); its
    twins, each a sitemap that this run did not write."""
    if found is None:
        return None
    result = report.result
    if found.kept:
        return None if found.replaced in result.outputs else found
    if ENTRY_XML not in (result.written if found.replaced == ENTRY_XML else result.outputs):
        return None
    twin = GZ_TWIN if found.replaced == ENTRY_XML else ASTRO_INDEX
    passed = twin in result.outputs or twin in found.twins  # this run wrote it, or it goes
    from sitemill.writing.ownbytes import may_delete  # (a page's event deletes nothing)

    if not passed and (
        twin == found.replaced or may_delete(twin, files.read(twin, HEAD_BYTES), replaced=True)
    ):
        found.twins.append(twin)
    if sitemap_root(found.data[:HEAD_BYTES]) == SITEMAPINDEX:
        done = {*result.outputs, *found.twins}
        named = sorted_once(files, found, base_url)
        found.twins.extend(name for name in named.own if name not in done)
        found.users.extend(kept for kept in named.users if kept.name not in done)
    return found


def sorted_once(files: Files, found: Takeover, base_url: str) -> NamedSitemaps:
    """What the replaced index names, each file read once (before the run writes, when the
    run names the user's sitemaps: sitemill.writing.usersitemaps)."""
    if found.named is None:
        found.named = sort_named(found.data, found.generator, files.read, base_url)
    return found.named


def users_in_folder(files: Files, found: Takeover | None, base_url: str) -> list[KeptSitemap]:
    """The user's sitemaps the replaced index names in the folder (sitemill's index names
    them); none when it is no index, or stays (text output)."""
    if found is None or found.kept or sitemap_root(found.data[:HEAD_BYTES]) != SITEMAPINDEX:
        return []
    named = sorted_once(files, found, base_url)
    return [kept for kept in named.users if kept.name not in (None, found.replaced)]


def announce(takeover: Takeover | None, warnings: list[str], *, first: bool) -> None:
    """Say it: a warning of the run when no state names what was there (``first``), else
    only in the log (a generator wrote its sitemap again since the last run)."""
    if takeover is None:
        return
    if first:
        log.warning("%s", takeover.message())
        warnings.append(takeover.message())
    else:
        log.info("%s", takeover.message())


def retire(files: Files, takeover: Takeover | None, report: Report) -> None:
    """Delete the twins once sitemill's sitemaps are live, as the run's deletions; one
    warning for each that could not be deleted."""
    if takeover is None or not takeover.twins:
        return
    owner = "a" if takeover.generator is None else takeover.generator.owner
    for name in takeover.twins:
        try:
            files.delete(name)
        except (SinkError, OSError, RefusedError) as exc:
            message = f"could not delete {owner} {name}: {exc}"
            log.warning("%s", message)
            report.warnings.append(message)
            continue
        report.result.deleted.append(name)
    _robots_still_naming(files, owner, report)


def _robots_still_naming(files: Files, owner: str, report: Report) -> None:
    """A warning when the folder's robots.txt still points crawlers at a deleted file (Astro's
    guide adds ``Sitemap: .../sitemap-index.xml``): sitemill rewrites only its own lines."""
    robots = files.read(ROBOTS_TXT, MAX_ROBOTS_TXT_BYTES)
    if robots is None:
        return
    for line in robots.decode("utf-8", "replace").splitlines():
        field_name, _, value = line.partition(":")
        named = value.strip().rpartition("/")[2]
        if field_name.strip().lower() == "sitemap" and named in report.result.deleted:
            message = (
                f"{ROBOTS_TXT} still names {owner} {named}, deleted: "
                f"replace that line with one naming {ENTRY_XML}"
            )
            log.warning("%s", message)
            report.warnings.append(message)
            return


def _listed(names: list[str]) -> str:
    if len(names) <= 3:
        return ", ".join(names)
    return f"{', '.join(names[:3])} and {len(names) - 3:,} more"
