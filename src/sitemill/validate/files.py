"""Which files to check: given paths, a directory's sitemaps, index children, gzip, text."""

from __future__ import annotations

import gzip
import io
import re
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Final
from urllib.parse import unquote, urlsplit

from sitemill.protocol import MAX_BYTES_LIMIT, MAX_URLS_PER_SITEMAP
from sitemill.validate.document import MAX_ERRORS, Document
from sitemill.validate.engines import Reader
from sitemill.validate.extensions import ClusterSet, ExtensionRules
from sitemill.validate.limits import CHUNK, NOT_FURTHER, TOO_BIG
from sitemill.validate.names import INDEX, short
from sitemill.validate.urls import Group, LocRules, Place, place_of
from sitemill.validate.violation import Violation, warning

GZIP_MAGIC: Final = b"\x1f\x8b"


def natural_key(text: str) -> tuple[tuple[int, str], ...]:
    """A sort key that orders the numbers in names by value."""
    # "sitemap-2.xml" before "sitemap-10.xml".
    parts = re.split(r"(\d+)", text)
    return tuple((int(part), "") if i % 2 else (-1, part) for i, part in enumerate(parts))


def read_chunks(stream: io.BufferedIOBase) -> Iterator[bytes]:
    return iter(lambda: stream.read(CHUNK), b"")


class Validator:
    """Walks the given paths; collects violations in ``self.violations``."""

    def __init__(self, base: Place | None, reader: Reader) -> None:
        self.base = base
        self.reader = reader
        self.violations: list[Violation] = []
        self.visited: set[Path] = set()
        self.clusters = ClusterSet()  # every urlset's hreflang clusters, for reciprocity

    def _report(self, file: str, line: int | None, message: str) -> None:
        self.violations.append(Violation(file, line, message))

    def check_path(self, path: Path) -> None:
        if path.is_dir():
            self._check_directory(path)
        elif path.is_file():
            # A file given by itself is served from base_url's directory: that is its place.
            self._check_file(path, str(path), self.base, None)
        else:
            self._report(str(path), None, "no such file or directory")

    def _check_directory(self, directory: Path) -> None:
        entries = [directory / name for name in ("sitemap.xml", "sitemap.txt")]
        entries = [entry for entry in entries if entry.is_file()]
        more = directory.glob("sitemap-index-*.xml")
        entries += sorted(more, key=lambda entry: natural_key(entry.name))
        if not entries:
            self._report(str(directory), None, "no sitemap.xml or sitemap.txt in this directory")
            return
        group = Group()
        for entry in entries:
            checked = self._check_file(entry, str(entry), self.base, None)
            if checked is not None and checked.root_tag == INDEX:
                self._check_children(directory, str(entry), checked.children, group)

    def _check_children(
        self, directory: Path, index: str, children: list[tuple[str, int]], group: Group
    ) -> None:
        places = (place_of(loc) for loc, _ in children)
        # Without base_url the index lives where its children do (they must be siblings).
        home = self.base or next((place for place in places if place is not None), None)
        for loc, line in children:
            place = place_of(loc)
            if home is None or place is None or not home.holds(place):
                continue  # already reported as off-host or outside the directory
            parts = urlsplit(loc)
            names = [unquote(part) for part in parts.path[len(home.directory) :].split("/")]
            odd = any(name in {"", ".", ".."} or "/" in name for name in names)
            if parts.query or parts.fragment or odd:
                self._report(index, line, f"child {short(loc)} does not name a file in {home.url}")
                continue
            child = directory.joinpath(*names)
            if not child.is_file():
                self._report(index, line, f"child {short(loc)} is missing: no file {child}")
                continue
            checked = self._check_file(child, str(child), place, group)
            if checked is not None and checked.root_tag == INDEX:
                self._report(index, line, f"child {short(loc)} is an index; indexes cannot nest")

    def _check_file(
        self, path: Path, file: str, place: Place | None, group: Group | None
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
                    return self.reader.check(file, self.violations, rules, read_chunks(stream))
        except (OSError, EOFError, zlib.error) as exc:
            reason = "gzip data does not decompress" if zipped else "cannot read the file"
            self._report(file, None, f"{reason}: {exc}")
            return None

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
                self._report(file, None, TOO_BIG)
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
