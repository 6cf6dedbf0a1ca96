"""Which files to check: given paths, a directory's sitemaps, index children, gzip, text."""

from __future__ import annotations

import gzip
import io
import os
import re
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Final, Protocol
from urllib.parse import unquote, urlsplit

from sitemill.bounded.inflate import GZIP_MAGIC
from sitemill.protocol import MAX_BYTES_LIMIT, MAX_URLS_PER_SITEMAP
from sitemill.validate._extensions import ClusterSet, ExtensionRules
from sitemill.validate._ownindex import OwnIndexes
from sitemill.validate._urls import ChildrenLocs, LocRules, Place, place_of, server_path
from sitemill.validate._xmlcheck import XmlCheck
from sitemill.validate.document import MAX_ERRORS, Document
from sitemill.validate.limits import FEED_BYTES, NOT_FURTHER, TOO_MANY_BYTES
from sitemill.validate.violation import INDEX_TAG, Violation, note, short, warning

USERS: Final = (
    "one of your own sitemaps, which sitemill's index names on purpose (another app on the "
    "host may serve it); `sitemill check` asks it live"
)


def natural_key(text: str) -> tuple[tuple[int, str], ...]:
    """A sort key that orders the numbers in names by value."""
    # "sitemap-2.xml" before "sitemap-10.xml".
    parts = re.split(r"(\d+)", text)
    return tuple((int(part), "") if i % 2 else (-1, part) for i, part in enumerate(parts))


def file_chunks(stream: io.BufferedIOBase) -> Iterator[bytes]:
    """``stream``'s bytes, FEED_BYTES at a time."""
    return iter(lambda: stream.read(FEED_BYTES), b"")


def _is_file_name(name: str) -> bool:
    """Whether a decoded path segment can name a file or folder here."""
    return name not in {"", ".", ".."} and "/" not in name and "\0" not in name


def _names_under(home: Place, loc: str) -> list[str] | None:
    """The file names, folder by folder, that ``loc`` (in ``home``) names below ``home``'s
    directory, from its resolved path; None when it names no file there (a query, a fragment,
    an empty name, a name holding a slash or NUL once decoded)."""
    parts = urlsplit(loc)
    path = server_path(parts.path)
    if parts.query or parts.fragment or not path.startswith(home.directory):
        return None
    names = [unquote(part) for part in path[len(home.directory) :].split("/")]
    return names if all(map(_is_file_name, names)) else None


class FileFormats(Protocol):
    """An output feature's part in a validation (sitemill.outputs): its files' format."""

    def validate(self, path: Path) -> list[Violation] | None:
        """The violations of its files at ``path``: a folder's (those it writes there), or a
        file's when it is one of its own; None: ``path`` is a file of no format of its."""
        ...


class Validator:
    """Walks the given paths; collects violations in ``self.violations``. ``formats``: the
    output features the front end lists, each asked for its files."""

    def __init__(
        self, base: Place | None, check_xml: XmlCheck, formats: Sequence[FileFormats] = ()
    ) -> None:
        self.base = base
        self.check_xml = check_xml
        self.formats = formats
        self.violations: list[Violation] = []
        self.visited: set[Path] = set()
        self.clusters = ClusterSet()  # every urlset's hreflang clusters, for reciprocity

    def _report(self, file: str, line: int | None, message: str) -> None:
        self.violations.append(Violation(file, line, message))

    def check_path(self, path: Path) -> None:
        if path.is_dir():
            self._check_directory(path)
        elif path.is_file() and (found := self._own_file(path)) is not None:
            self.violations.extend(found)
        elif path.is_file():
            # A file given by itself is served from base_url's directory: that is its place.
            self._check_file(path, str(path), self.base, None)
        else:
            self._report(str(path), None, "no such file or directory")

    def _own_file(self, path: Path) -> list[Violation] | None:
        """The violations of a file an output feature writes (None: none writes it)."""
        for output in self.formats:
            if (found := output.validate(path)) is not None:
                return found
        return None

    def _check_directory(self, directory: Path) -> None:
        entries = [directory / name for name in ("sitemap.xml", "sitemap.txt")]
        entries = [entry for entry in entries if entry.is_file()]
        more = directory.glob("sitemap-index-*.xml")
        entries += sorted(more, key=lambda entry: natural_key(entry.name))
        for output in self.formats:
            self.violations.extend(output.validate(directory) or ())
        if not entries:
            self._report(str(directory), None, "no sitemap.xml or sitemap.txt in this directory")
            return
        group = ChildrenLocs()
        own = OwnIndexes(directory)
        for entry in entries:
            checked = self._check_file(entry, str(entry), self.base, None)
            if checked is not None and checked.root_tag == INDEX_TAG:
                self._check_children(directory, entry, checked, group, own)

    def _check_children(
        self, directory: Path, entry: Path, index: Document, group: ChildrenLocs, own: OwnIndexes
    ) -> None:
        home = self._home(directory, entry, index)
        if home is None:
            return
        itself = entry.resolve()
        for loc, line in index.children:
            place = place_of(loc)
            if place is None or not home.holds(place):
                continue  # already reported as off-host or outside the directory
            names = _names_under(home, loc)
            if names is None:
                message = f"child {short(loc)} does not name a file in {home.url}"
                self._report(str(entry), line, message)
                continue
            child = directory.joinpath(*names)
            if not child.is_file():
                if own.names_users(entry, names):  # (docs/output.md, "The user's own sitemaps")
                    message = f"child {short(loc)} is not in {directory}: {USERS}"
                    self.violations.append(note(str(entry), line, message))
                else:
                    message = f"child {short(loc)} is missing: no file {child}"
                    self._report(str(entry), line, message)
                continue
            if child.resolve() == itself:
                message = f"child {short(loc)} is this index itself; indexes cannot nest"
                self._report(str(entry), line, message)
                continue
            checked = self._check_file(child, str(child), place, group)
            if checked is not None and checked.root_tag == INDEX_TAG:
                message = f"child {short(loc)} is an index; indexes cannot nest"
                self._report(str(entry), line, message)

    def _home(self, directory: Path, entry: Path, index: Document) -> Place | None:
        """Where the index is served: base_url's directory. Without it, the deepest directory
        holding every child (they may sit below the index, as Hugo's /sitemap.xml names
        /en/sitemap.xml and /fr/sitemap.xml, or beside it, as sitemill writes them), or one
        above it where only there the first child's file is found (a lone child in a folder)."""
        if self.base is not None:
            return self.base
        learnt = index.rules.place if index.rules is not None else None
        if learnt is None:
            return None  # no child is an http(s) URL: each was reported
        located = [
            (loc, place.directory)
            for loc, _ in index.children
            if (place := place_of(loc)) is not None and place.origin == learnt.origin
        ]
        folders = [folder for _, folder in located]
        common, high = min(folders), max(folders)  # what these two share, all share
        while not high.startswith(common):
            common = common[: common.rindex("/", 0, -1) + 1]
        # The first child's file, looked for from the common directory up: names[level:] below
        # the index when it is served from the folder ``level`` folders deep (one stat a level).
        parts = urlsplit(located[0][0])
        segments = server_path(parts.path).split("/")[1:]
        names = [unquote(segment) for segment in segments]
        bad = [number + 1 for number, name in enumerate(names) if not _is_file_name(name)]
        lowest = len(names) if parts.query or parts.fragment else max(bad, default=0)
        itself = os.path.realpath(entry)
        for level in range(common.count("/") - 1, lowest - 1, -1):
            child = os.path.join(directory, "/".join(names[level:]))
            if os.path.isfile(child) and os.path.realpath(child) != itself:
                return Place(learnt.origin, "/" + "".join(f"{name}/" for name in segments[:level]))
        return Place(learnt.origin, common)  # where the missing files were looked for

    def _check_file(
        self, path: Path, file: str, place: Place | None, group: ChildrenLocs | None
    ) -> Document | None:
        resolved = path.resolve()
        if resolved in self.visited:
            return None
        self.visited.add(resolved)
        rules = LocRules(file, self.violations, place, group)
        rules.extensions = ExtensionRules(rules, self.clusters).check
        zipped = False
        try:
            with path.open("rb") as raw:
                zipped = self._sniff_gzip(raw, file, path.name.endswith(".gz"))
                with gzip.GzipFile(fileobj=raw) if zipped else raw as stream:
                    if path.name.removesuffix(".gz").endswith(".txt"):
                        self._check_text(stream, file, rules)
                        return None
                    return self.check_xml(file, self.violations, rules, file_chunks(stream))
        except (OSError, EOFError, zlib.error) as exc:
            reason = "gzip data does not decompress" if zipped else "cannot read the file"
            self._report(file, None, f"{reason}: {exc}")
            return None
        finally:
            rules.finish()

    def _sniff_gzip(self, raw: io.BufferedIOBase, file: str, named: bool) -> bool:
        """Whether the content is gzip, whatever the name says: consumers sniff it too."""
        zipped = raw.read(len(GZIP_MAGIC)) == GZIP_MAGIC
        raw.seek(0)
        if named and not zipped:
            message = "named .gz but not gzip-compressed; checked as the plain file it is"
            self.violations.append(warning(file, None, message))
        elif zipped and not named:
            message = "gzip-compressed but not named .gz; checked decompressed"
            self.violations.append(warning(file, None, message))
        return zipped

    def _check_text(self, stream: io.BufferedIOBase, file: str, rules: LocRules) -> None:
        """A text sitemap: one absolute URL per line, UTF-8 (sitemaps.org "Text file")."""
        size = urls = number = errors = 0
        while raw := stream.readline(MAX_BYTES_LIMIT - size + 1):
            size += len(raw)
            number += 1
            if size > MAX_BYTES_LIMIT:
                self._report(file, None, TOO_MANY_BYTES)
                return
            found = len(self.violations)
            urls += self._check_line(raw, number, file, rules)
            errors += any(violation.is_error for violation in self.violations[found:])
            if urls > MAX_URLS_PER_SITEMAP:
                message = f"more than {MAX_URLS_PER_SITEMAP:,} URLs in one file (protocol maximum)"
                self._report(file, number, f"{message}; {NOT_FURTHER}")
                return
            if errors > MAX_ERRORS:  # a flood of empty lines must not fill memory with lines
                self._report(file, None, f"more than {MAX_ERRORS:,} errors; {NOT_FURTHER}")
                return

    def _check_line(self, raw: bytes, number: int, file: str, rules: LocRules) -> bool:
        """Check one line; whether it held a URL."""
        try:
            url = raw.decode("utf-8").removesuffix("\n").removesuffix("\r")
        except UnicodeDecodeError:
            self._report(file, number, "line is not UTF-8")
            return False
        if number == 1:
            url = url.removeprefix("\ufeff")
        if not url:
            self._report(file, number, "empty line; a text sitemap has one URL per line")
            return False
        rules.check(url, number)
        return True
