"""Which files to check: given paths, a directory's sitemaps, index children, gzip, text."""

from __future__ import annotations

import gzip
import io
import re
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast
from urllib.parse import unquote, urlsplit

from sitemill.protocol import MAX_BYTES_LIMIT, MAX_URLS_PER_SITEMAP
from sitemill.validate.scan import CHUNK, INDEX, XmlScan, check_root
from sitemill.validate.urls import Group, LocRules, Place, place_of, short
from sitemill.validate.violation import Violation
from sitemill.validate.xsd import xsd_violations

if TYPE_CHECKING:
    from xmlschema import XMLSchemaBase


@dataclass(frozen=True, slots=True)
class _Scanned:
    root_tag: str
    children: list[tuple[str, int]]


def natural_key(text: str) -> tuple[tuple[int, str], ...]:
    """A sort key that orders the numbers in names by value."""
    # "sitemap-2.xml" before "sitemap-10.xml".
    parts = re.split(r"(\d+)", text)
    return tuple((int(part), "") if i % 2 else (-1, part) for i, part in enumerate(parts))


def _read_chunks(stream: io.BufferedIOBase) -> Iterator[bytes]:
    return iter(lambda: stream.read(CHUNK), b"")


class Validator:
    """Walks the given paths; collects violations in ``self.violations``.

    ``schemas`` returns the loaded (urlset, index) schemas; it is called for each XML file
    that gets as far as the XSD check.
    """

    def __init__(
        self, base: Place | None, schemas: Callable[[], tuple[XMLSchemaBase, XMLSchemaBase]]
    ) -> None:
        self.base = base
        self.schemas = schemas
        self.violations: list[Violation] = []
        self.visited: set[Path] = set()

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
            scanned = self._check_file(entry, str(entry), self.base, None)
            if scanned is not None and scanned.root_tag == INDEX:
                self._check_children(directory, str(entry), scanned.children, group)

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
            scanned = self._check_file(child, str(child), place, group)
            if scanned is not None and scanned.root_tag == INDEX:
                self._report(index, line, f"child {short(loc)} is an index; indexes cannot nest")

    def _check_file(
        self, path: Path, file: str, place: Place | None, group: Group | None
    ) -> _Scanned | None:
        resolved = path.resolve()
        if resolved in self.visited:
            return None
        self.visited.add(resolved)
        zipped = path.name.endswith(".gz")
        rules = LocRules(file, self.violations, place, group)
        try:
            with gzip.open(path, "rb") if zipped else path.open("rb") as stream:
                if path.name.removesuffix(".gz").endswith(".txt"):
                    self._check_text(stream, file, rules)
                    return None
                scan = XmlScan(file, self.violations, rules)
                tree = scan.parse(_read_chunks(stream))
        except (OSError, EOFError, zlib.error) as exc:
            reason = "gzip data does not decompress" if zipped else "cannot read the file"
            self._report(file, None, f"{reason}: {exc}")
            return None
        if tree is None or not check_root(scan, self.violations):
            return None
        self.violations += xsd_violations(tree, file, self.schemas())
        return _Scanned(cast(str, scan.root_tag), scan.children)

    def _check_text(self, stream: io.BufferedIOBase, file: str, rules: LocRules) -> None:
        """A text sitemap: one absolute URL per line, UTF-8 (sitemaps.org "Text file")."""
        size = urls = number = 0
        while raw := stream.readline(MAX_BYTES_LIMIT - size + 1):
            size += len(raw)
            number += 1
            if size > MAX_BYTES_LIMIT:
                message = f"more than {MAX_BYTES_LIMIT:,} bytes uncompressed; not checked further"
                self._report(file, None, message)
                return
            try:
                url = raw.decode("utf-8").removesuffix("\n").removesuffix("\r")
            except UnicodeDecodeError:
                self._report(file, number, "line is not UTF-8")
                continue
            if number == 1:
                url = url.removeprefix("\ufeff")
            if not url:
                self._report(file, number, "empty line; a text sitemap has one URL per line")
                continue
            urls += 1
            if urls == MAX_URLS_PER_SITEMAP + 1:
                message = f"more than {MAX_URLS_PER_SITEMAP:,} URLs in one file (protocol maximum)"
                self._report(file, number, message)
            rules.check(url, number)
