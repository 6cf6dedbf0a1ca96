"""Taking over from a generator's sitemap: the sitemap.xml sitemill replaces on a first run
may be the site generator's (MkDocs, Hugo, Jekyll, Docusaurus, Sphinx), or the generator's
index may sit beside it under another name (Astro's sitemap-index.xml). sitemill says so once,
with the setting that turns the generator's off, and after publishing deletes the generator's
files that would contradict what is live: the ``.gz`` twin of the replaced file (only when it
holds the same bytes), the replaced index's children and Astro's index with its children
(only files that index names, in the generator's own shape). Nothing else is ever deleted.
"""

from __future__ import annotations

import gzip
import logging
import os
import stat
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from html import unescape
from pathlib import Path
from typing import Final, Protocol
from urllib.parse import urlsplit

from sitemill.errors import RefusedError, SinkError
from sitemill.filenames.outputs import ENTRY_XML, ROBOTS_TXT
from sitemill.protocol import MAX_BYTES_LIMIT
from sitemill.report import Report
from sitemill.safefs import Root
from sitemill.writing.generators import (
    ASTRO,
    ASTRO_INDEX,
    DOCUSAURUS,
    Generator,
    is_astro_index,
    written_by,
)
from sitemill.writing.publish import INDEX_ROOT, LOC, SNIFF_BYTES

log = logging.getLogger(__name__)

GZ_TWIN: Final = ENTRY_XML + ".gz"


class Files(Protocol):
    """Where the generator's files are: a sink (a local folder: sitemill.sinks.local), or a
    bucket's prefix (sitemill.jobs.buckettakeover, whose ``nested`` names hold "/")."""

    def names(self) -> Iterator[str]: ...

    def read(self, name: str) -> bytes | None: ...

    def delete(self, name: str) -> None: ...


@dataclass
class Takeover:
    """The generator's sitemap files this run replaces, and those it deletes once live."""

    generator: Generator
    replaced: str  # sitemap.xml, or Astro's sitemap-index.xml
    twins: list[str] = field(default_factory=list)  # folder-relative paths to delete

    def message(self) -> str:
        """One line: whose sitemap is replaced, what goes with it, how to turn it off."""
        named = self.generator.owner
        if self.replaced == ENTRY_XML:
            what = f"replacing {named} {ENTRY_XML} with sitemill's"
        else:
            what = f"sitemill's {ENTRY_XML} takes over from {named} {self.replaced}"
        gone = [name for name in self.twins if name != self.replaced]
        also = f" (deleting {_listed(gone)} with it)" if gone else ""
        if self.replaced in self.twins:  # Astro's index goes too
            also = f" (deleting it{' and ' + _listed(gone) if gone else ''})"
        return f"{what}{also}: {self.generator.setting}"


def find_takeover(sink: Files, base_url: str) -> Takeover | None:
    """The generator's sitemap in the sink's folder, when one is there and sitemill can tell
    whose it is; None when the folder holds none, or only sitemill's own."""
    names = set(sink.names())
    entry = _read(sink, ENTRY_XML) if ENTRY_XML in names and _maybe_a_generators(sink) else None
    generator = None if entry is None else written_by(entry)
    if entry is not None and generator is not None:
        takeover = Takeover(generator, ENTRY_XML)
        twin = _read(sink, GZ_TWIN) if GZ_TWIN in names else None
        if twin is not None and _gunzipped(twin) == entry:
            takeover.twins.append(GZ_TWIN)
        if INDEX_ROOT.search(entry[:SNIFF_BYTES]):
            takeover.twins += _children(sink, entry, base_url, generator)
        return takeover
    astro = _read(sink, ASTRO_INDEX) if ASTRO_INDEX in names else None
    if astro is not None and is_astro_index(astro):
        takeover = Takeover(ASTRO, ASTRO_INDEX, [ASTRO_INDEX])
        takeover.twins += _children(sink, astro, base_url, DOCUSAURUS)  # (one npm package)
        return takeover
    return None


def announce(takeover: Takeover | None, warnings: list[str]) -> None:
    """Say it (a warning of the run), when there is a takeover."""
    if takeover is not None:
        log.warning("%s", takeover.message())
        warnings.append(takeover.message())


def retire(sink: Files, takeover: Takeover | None, report: Report) -> None:
    """Delete the generator's twins once sitemill's sitemaps are live (never a name this run
    wrote), as the run's deletions; one warning for each that could not be deleted."""
    if takeover is None:
        return
    for name in takeover.twins:
        if name in report.result.outputs:
            continue
        try:
            if "/" in name and not getattr(sink, "nested", False):
                _delete_below(_folder(sink), name)
            else:
                sink.delete(name)
        except (SinkError, OSError, RefusedError) as exc:
            message = f"could not delete {takeover.generator.owner} {name}: {exc}"
            log.warning("%s", message)
            report.warnings.append(message)
            continue
        report.result.deleted.append(name)
    _robots_still_naming(sink, takeover, report)


def _robots_still_naming(sink: Files, takeover: Takeover, report: Report) -> None:
    """A warning when the folder's robots.txt still points crawlers at a deleted file (Astro's
    guide adds ``Sitemap: .../sitemap-index.xml``): sitemill rewrites only its own lines."""
    robots = _read(sink, ROBOTS_TXT) if ROBOTS_TXT in set(sink.names()) else None
    if robots is None:
        return
    for line in robots.decode("utf-8", "replace").splitlines():
        field_name, _, value = line.partition(":")
        named = value.strip().rpartition("/")[2]
        if field_name.strip().lower() == "sitemap" and named in report.result.deleted:
            message = (
                f"{ROBOTS_TXT} still names {takeover.generator.owner} {named}, deleted: "
                f"replace that line with one naming {ENTRY_XML}"
            )
            log.warning("%s", message)
            report.warnings.append(message)
            return


def _children(sink: Files, index: bytes, base_url: str, generator: Generator) -> list[str]:
    """The files the generator's index names that are in the folder, in ``generator``'s shape."""
    base = urlsplit(base_url).path
    folder = _folder(sink)
    found = []
    for match in LOC.finditer(index):
        loc = unescape(match.group(1).decode("utf-8", "replace"))
        path = urlsplit(loc).path
        if not path.startswith(base):
            continue
        name = path[len(base) :]
        if not name or name.endswith("/") or ".." in name.split("/"):
            continue
        if "/" in name and not getattr(sink, "nested", False):
            data = None if folder is None else _read_below(folder, name)
        else:
            data = _read(sink, name)
        if data is None:
            continue
        shape = written_by(data)
        if shape is generator:
            found.append(name)
    return found


def _read(sink: Files, name: str) -> bytes | None:
    try:
        return sink.read(name)
    except SinkError as exc:
        log.debug("not reading %s: %s", name, exc)
        return None


def _gunzipped(data: bytes) -> bytes | None:
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error):
        return None


def _maybe_a_generators(sink: Files) -> bool:
    """Whether the sink's sitemap.xml may be a generator's (False is sure): in a local folder,
    told from its first bytes, so that sitemill's own (every run's but the first) is never
    read whole here; elsewhere (a bucket's, already read) True."""
    folder = _folder(sink)
    if folder is None:
        return True
    try:
        head = Root(folder).read(ENTRY_XML, SNIFF_BYTES)
    except (RefusedError, OSError):
        return False  # (the sink's own read refuses it too: no generator's then)
    return head is not None and written_by(head) is not None


def _folder(sink: Files) -> Path | None:
    """The local folder a sink writes to (children in subfolders are read and deleted there)."""
    directory = getattr(sink, "directory", None)
    return directory if isinstance(directory, Path) else None


def _read_below(folder: Path, name: str) -> bytes | None:
    try:
        return Root(folder).read(name, MAX_BYTES_LIMIT, whole=True)
    except (RefusedError, OSError):
        return None


def _delete_below(folder: Path | None, name: str) -> None:
    """Delete a regular file inside ``folder`` (a link is refused, never followed)."""
    if folder is None:
        raise SinkError(f"{name} is not in a local folder")
    real = Root(folder).resolve(os.path.dirname(name) or ".")
    path = os.path.join(real, os.path.basename(name))
    if not stat.S_ISREG(os.lstat(path).st_mode):
        raise RefusedError(path, "is not a regular file")
    os.unlink(path)


def _listed(names: list[str]) -> str:
    if len(names) <= 3:
        return ", ".join(names)
    return f"{', '.join(names[:3])} and {len(names) - 3:,} more"
