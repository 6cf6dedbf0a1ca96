"""Check sitemap files against the official XSDs and the protocol rules no XSD can express.

One expat pass per file does both jobs: it checks counts, size and every <loc>/<lastmod> as the
parser streams, and builds a line-numbered element tree that xmlschema then validates.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import io
import re
import tempfile
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Final, cast
from urllib.parse import unquote, urlsplit
from xml.parsers import expat

from sitemill.errors import ConfigError, SitemillError
from sitemill.protocol import (
    MAX_BYTES_LIMIT,
    MAX_SITEMAPS_PER_INDEX_LIMIT,
    MAX_URL_LENGTH,
    MAX_URLS_PER_SITEMAP,
    SITEMAP_NS,
)

if TYPE_CHECKING:
    from xmlschema import XMLSchemaBase

_URLSET: Final = f"{{{SITEMAP_NS}}}urlset"
_INDEX: Final = f"{{{SITEMAP_NS}}}sitemapindex"
_ENTRY_TAG: Final = {_URLSET: f"{{{SITEMAP_NS}}}url", _INDEX: f"{{{SITEMAP_NS}}}sitemap"}
_ENTRY_LIMIT: Final = {_URLSET: MAX_URLS_PER_SITEMAP, _INDEX: MAX_SITEMAPS_PER_INDEX_LIMIT}
_LOC: Final = f"{{{SITEMAP_NS}}}loc"
_LASTMOD: Final = f"{{{SITEMAP_NS}}}lastmod"
# Prefixes for element names in messages; the sitemap namespace prints unprefixed.
_PREFIXES: Final = {
    "": SITEMAP_NS,
    "image": "http://www.google.com/schemas/sitemap-image/1.1",
    "video": "http://www.google.com/schemas/sitemap-video/1.1",
    "news": "http://www.google.com/schemas/sitemap-news/0.9",
    "xhtml": "http://www.w3.org/1999/xhtml",
}
_DEFAULT_PORTS: Final = {"http": 80, "https": 443}
_CHUNK: Final = 1 << 16
_GZIP_MAGIC: Final = b"\x1f\x8b"

# RFC 3986 admits none of these anywhere in a URL: they must arrive percent-encoded.
_MUST_ENCODE = re.compile(r'[\x00-\x20\x7f<>"{}|\\^`]|[^\x00-\x7f]|%(?![0-9A-Fa-f]{2})')
# What W3C Datetime allows and the XSD accepts: a date, or a date-time with seconds and a zone.
_W3C_LASTMOD = re.compile(r"\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2}))?")
# Lexical xsd:date | xsd:dateTime. Values outside it are the XSD's to report, not ours.
_XSD_LASTMOD = re.compile(r"-?\d{4,}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?")


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule, located as precisely as the input allows."""

    file: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.message}"


def validate_paths(paths: Sequence[Path], base_url: str | None = None) -> list[Violation]:
    """Validate sitemap files, indexes and output directories; return every violation, sorted.

    A directory stands for its ``sitemap.xml``/``sitemap.txt`` (and ``sitemap-index-N.xml``)
    plus every child their indexes list under it. ``base_url`` is where the files are served;
    without it the location rule is checked only as far as the URLs themselves reveal it.
    """
    _require_xmlschema()
    validator = _Validator(_base_place(base_url) if base_url is not None else None)
    for path in paths:
        validator.check_path(path)
    unique = dict.fromkeys(validator.violations)
    return sorted(unique, key=lambda v: (_natural_key(v.file), v.line or 0))


def check_xsd(data: bytes, name: str = "<document>") -> list[Violation]:
    """Well-formedness and XSD violations of one in-memory document (gzip is detected)."""
    _require_xmlschema()
    if data.startswith(_GZIP_MAGIC):
        data = gzip.decompress(data)
    sink: list[Violation] = []
    scan = _XmlScan(name, sink, None)
    tree = scan.parse(data[i : i + _CHUNK] for i in range(0, len(data), _CHUNK))
    if tree is not None and _check_root(scan, sink):
        sink += _xsd_violations(tree, name)
    return sink


def _require_xmlschema() -> None:
    try:
        import xmlschema  # noqa: F401  (an optional extra: the Lambda package goes without)
    except ImportError as exc:
        raise SitemillError(
            "validation needs the xmlschema package: pip install 'sitemill[validate]'"
        ) from exc


# --- where URLs must live ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Place:
    """The origin and directory of a URL: what the host and location rules compare."""

    origin: tuple[str, str, int]
    directory: str  # a path ending in "/"

    @property
    def origin_url(self) -> str:
        scheme, host, port = self.origin
        return f"{scheme}://{host}" + ("" if _DEFAULT_PORTS[scheme] == port else f":{port}")

    @property
    def url(self) -> str:
        return self.origin_url + self.directory

    def holds(self, other: _Place) -> bool:
        return other.origin == self.origin and other.directory.startswith(self.directory)


def _place_of(url: str) -> _Place | None:
    """The place of an absolute http(s) URL, or None when it is not one."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    path = parts.path or "/"
    origin = (parts.scheme, parts.hostname.lower(), port or _DEFAULT_PORTS[parts.scheme])
    return _Place(origin, path[: path.rindex("/") + 1])


def _base_place(base_url: str) -> _Place:
    parts = urlsplit(base_url)
    place = _place_of(base_url if base_url.endswith("/") else base_url + "/")
    if place is None or parts.query or parts.fragment:
        raise ConfigError("base_url", f"must be an absolute http(s) URL, got {base_url!r}")
    return place


def _short(text: str) -> str:
    return text if len(text) <= 100 else text[:97] + "..."


class _Group:
    """Fingerprints of the URLs in every child of a directory's indexes, to find duplicates."""

    def __init__(self) -> None:
        self.files: list[str] = []
        self.seen: dict[int, int] = {}  # fingerprint -> file number << 32 | line


class _LocRules:
    """Checks each URL of one file: form, length, host, location rule, duplicates."""

    def __init__(
        self, file: str, sink: list[Violation], place: _Place | None, group: _Group | None
    ) -> None:
        self.file, self.sink = file, sink
        self.place = place  # where every URL must lie; None: learnt from the first URL
        self.first_line: int | None = None  # the line that taught self.place
        self.siblings = False  # an index without a known place: children share one directory
        self.seen: dict[int, int] = {}  # fingerprint -> line
        self.group, self.number = group, 0
        if group is not None:
            self.number = len(group.files)
            group.files.append(file)

    def check(self, loc: str, line: int) -> None:
        self.sink.extend(Violation(self.file, line, text) for text in self._problems(loc, line))

    def _problems(self, loc: str, line: int) -> Iterator[str]:
        if len(loc) > MAX_URL_LENGTH:
            yield f"loc is {len(loc):,} characters long; the maximum is {MAX_URL_LENGTH:,}"
        bad = sorted(set(_MUST_ENCODE.findall(loc)))
        if bad:
            shown = ", ".join(repr(char) for char in bad[:5])
            yield f"loc {_short(loc)!r} has characters that must be percent-encoded: {shown}"
        place = _place_of(loc)
        if place is None:
            yield f"loc {_short(loc)!r} is not an absolute http(s) URL"
        else:
            yield from self._place_problems(loc, place, line)
        yield from self._duplicate(loc, line)

    def _place_problems(self, loc: str, place: _Place, line: int) -> Iterator[str]:
        if self.place is None:
            self.place = place if self.siblings else _Place(place.origin, "/")
            self.first_line = line
            return
        expected = self.place
        if place.origin != expected.origin:
            why = ", where this sitemap is served"
            if self.first_line is not None:
                why = f" like the first loc (line {self.first_line})"
            yield f"loc {_short(loc)} is on {place.origin_url}, not {expected.origin_url}{why}"
        elif not expected.holds(place):
            if self.first_line is not None:
                yield (
                    f"index child {_short(loc)} is not in {expected.url} like the first child "
                    f"(line {self.first_line}); an index's children must share one directory"
                )
            else:
                yield (
                    f"loc {_short(loc)} is outside {expected.url}, the directory this sitemap "
                    "is served from (sitemaps.org location rule)"
                )

    def _duplicate(self, loc: str, line: int) -> Iterator[str]:
        # 64-bit fingerprints instead of the strings keep a million URLs in tens of MB.
        digest = hashlib.blake2b(loc.encode("utf-8", "surrogatepass"), digest_size=8).digest()
        fingerprint = int.from_bytes(digest, "big")
        first = self.seen.setdefault(fingerprint, line)
        if first != line:
            yield f"duplicate loc {_short(loc)} (first at line {first})"
        elif self.group is not None:
            packed = self.group.seen.setdefault(fingerprint, self.number << 32 | line)
            if packed >> 32 != self.number:
                other = f"{self.group.files[packed >> 32]}:{packed & 0xFFFFFFFF}"
                yield f"duplicate loc {_short(loc)}: also listed in {other}"


def _lastmod_problem(value: str) -> str | None:
    """Flag the forms the XSD accepts but W3C Datetime does not (no zone, a date with a zone)."""
    if _W3C_LASTMOD.fullmatch(value) or not _XSD_LASTMOD.fullmatch(value):
        return None
    if "T" in value and not re.search(r"(Z|[+-]\d{2}:\d{2})$", value):
        return f"lastmod {value!r} has no time zone; W3C Datetime needs one (e.g. +00:00)"
    return f"lastmod {value!r} is not W3C Datetime: use YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+hh:mm"


# --- XML: one streaming pass --------------------------------------------------------------------


class _LineElement(ET.Element):
    """An element that knows its line; xmlschema reports it as the error's ``sourceline``."""

    __slots__ = ("sourceline",)
    sourceline: int


def _qualify(name: str) -> str:
    # expat with namespace_separator="}" gives "uri}local"; ElementTree spells "{uri}local".
    return "{" + name if "}" in name else name


def _prefixed(text: str) -> str:
    for prefix, uri in _PREFIXES.items():
        text = text.replace(f"{{{uri}}}", f"{prefix}:" if prefix else "")
    return text


class _XmlScan:
    """Streams a document through expat: protocol checks on the fly, a tree for the XSD."""

    def __init__(self, file: str, sink: list[Violation], rules: _LocRules | None) -> None:
        self.file, self.sink, self.rules = file, sink, rules
        self.parser = expat.ParserCreate(namespace_separator="}")
        self.parser.buffer_text = True
        self.parser.buffer_size = _CHUNK
        self.parser.XmlDeclHandler = self._declaration
        self.parser.StartElementHandler = self._start
        self.parser.EndElementHandler = self._end
        self.parser.CharacterDataHandler = self._data
        self.builder = ET.TreeBuilder(element_factory=_LineElement)
        self.root_tag: str | None = None
        self.root_line = 1
        self.depth = 0
        self.entries = 0
        self.in_entry = False
        self.field: str | None = None  # _LOC or _LASTMOD while its text is being collected
        self.field_line = 0
        self.text: list[str] = []
        self.children: list[tuple[str, int]] = []  # an index's (loc, line) pairs

    def parse(self, chunks: Iterable[bytes]) -> ET.Element | None:
        """Feed the document; return its tree, or None when it cannot be checked further."""
        size = 0
        try:
            for chunk in chunks:
                size += len(chunk)
                if size > MAX_BYTES_LIMIT:
                    # Stop here: a gzip bomb must not cost more than the limit it breaks.
                    self._report(
                        None,
                        f"more than {MAX_BYTES_LIMIT:,} bytes uncompressed (the protocol "
                        "maximum); not checked further",
                    )
                    return None
                self.parser.Parse(chunk, False)
            self.parser.Parse(b"", True)
        except expat.ExpatError as exc:
            reason = expat.ErrorString(exc.code)
            self._report(exc.lineno, f"XML is not well-formed: {reason} (column {exc.offset + 1})")
            return None
        return self.builder.close()

    def _report(self, line: int | None, message: str) -> None:
        self.sink.append(Violation(self.file, line, message))

    def _declaration(self, version: str, encoding: str | None, standalone: int) -> None:
        if (
            self.rules is not None
            and encoding is not None
            and encoding.lower().replace("_", "-") not in {"utf-8", "utf8"}
        ):
            self._report(self.parser.CurrentLineNumber, f"encoding is {encoding}; use UTF-8")

    def _start(self, name: str, attrs: dict[str, str]) -> None:
        tag, line = _qualify(name), self.parser.CurrentLineNumber
        qualified = {_qualify(key): value for key, value in attrs.items()} if attrs else {}
        cast(_LineElement, self.builder.start(tag, qualified)).sourceline = line
        self.depth += 1
        if self.depth == 1:
            self.root_tag, self.root_line = tag, line
            if self.rules is not None:
                self.rules.siblings = tag == _INDEX
        elif self.depth == 2:
            self.in_entry = self.root_tag in _ENTRY_TAG and tag == _ENTRY_TAG[self.root_tag]
            if self.in_entry:
                self._count_entry(tag, line)
        elif self.depth == 3 and self.in_entry and tag in {_LOC, _LASTMOD}:
            self.field, self.field_line, self.text = tag, line, []

    def _count_entry(self, tag: str, line: int) -> None:
        self.entries += 1
        limit = _ENTRY_LIMIT[cast(str, self.root_tag)]
        if self.entries == limit + 1 and self.rules is not None:
            entry = _prefixed(tag)
            self._report(line, f"more than {limit:,} <{entry}> in one file (protocol maximum)")

    def _data(self, text: str) -> None:
        self.builder.data(text)
        if self.field is not None:
            self.text.append(text)

    def _end(self, name: str) -> None:
        self.builder.end(_qualify(name))
        if self.depth == 3 and self.field is not None:
            self._end_field(self.field, "".join(self.text).strip())
            self.field = None
        elif self.depth == 2:
            self.in_entry = False
        self.depth -= 1

    def _end_field(self, tag: str, value: str) -> None:
        if self.rules is None:
            return
        if tag == _LOC:
            self.rules.check(value, self.field_line)
            if self.root_tag == _INDEX:
                self.children.append((value, self.field_line))
        elif problem := _lastmod_problem(value):
            self._report(self.field_line, problem)


def _check_root(scan: _XmlScan, sink: list[Violation]) -> bool:
    if scan.root_tag in _ENTRY_TAG:
        return True
    found = _prefixed(scan.root_tag or "")
    sink.append(
        Violation(
            scan.file,
            scan.root_line,
            f"root element is <{found}>; expected <urlset> or <sitemapindex> in {SITEMAP_NS}",
        )
    )
    return False


# --- XSD ------------------------------------------------------------------------------------------


@functools.cache
def _schemas() -> tuple[XMLSchemaBase, XMLSchemaBase]:
    """The urlset (core + extensions) and index schemas, built once per process."""
    folder = resources.files("sitemill.schemas")
    if isinstance(folder, Path):
        return _load_schemas(folder)
    # A zipped install: the XSDs import one another by relative path, so they need a folder.
    with tempfile.TemporaryDirectory(prefix="sitemill-xsd-") as tmp:
        for item in folder.iterdir():
            if item.name.endswith(".xsd"):
                (Path(tmp) / item.name).write_bytes(item.read_bytes())
        return _load_schemas(Path(tmp))


def _load_schemas(folder: Path) -> tuple[XMLSchemaBase, XMLSchemaBase]:
    import xmlschema

    # "sandbox": files in this folder only, never the network. xhtml1-strict.xsd's import of
    # http://www.w3.org/2001/xml.xsd is served from xmlschema's bundled copy of that namespace.
    urlset = xmlschema.XMLSchema(str(folder / "sitemap-all.xsd"), allow="sandbox")
    index = xmlschema.XMLSchema(str(folder / "siteindex.xsd"), allow="sandbox")
    return urlset, index


def _xsd_violations(tree: ET.Element, file: str) -> list[Violation]:
    import xmlschema

    urlset, index = _schemas()
    schema = index if tree.tag == _INDEX else urlset
    # allow="none": the document may name schemas (xsi:schemaLocation); none is ever fetched.
    resource = xmlschema.XMLResource(tree, allow="none")
    violations = []
    for error in schema.iter_errors(resource, namespaces=_PREFIXES):
        tag = "" if error.elem is None else str(error.elem.tag)
        element = f"<{_prefixed(tag)}> " if tag else ""
        reason = _prefixed(error.reason or error.message)
        if tag == _LASTMOD:
            reason += " (use YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+hh:mm)"
        violations.append(Violation(file, error.sourceline, f"XSD: {element}{reason}"))
    return violations


# --- files, directories, indexes -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Scanned:
    root_tag: str
    children: list[tuple[str, int]]


def _natural_key(text: str) -> tuple[tuple[int, str], ...]:
    # "sitemap-2.xml" before "sitemap-10.xml".
    parts = re.split(r"(\d+)", text)
    return tuple((int(part), "") if i % 2 else (-1, part) for i, part in enumerate(parts))


def _read_chunks(stream: io.BufferedIOBase) -> Iterator[bytes]:
    return iter(lambda: stream.read(_CHUNK), b"")


class _Validator:
    """Walks the given paths; collects violations in ``self.violations``."""

    def __init__(self, base: _Place | None) -> None:
        self.base = base
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
        entries += sorted(more, key=lambda entry: _natural_key(entry.name))
        if not entries:
            self._report(str(directory), None, "no sitemap.xml or sitemap.txt in this directory")
            return
        group = _Group()
        for entry in entries:
            scanned = self._check_file(entry, str(entry), self.base, None)
            if scanned is not None and scanned.root_tag == _INDEX:
                self._check_children(directory, str(entry), scanned.children, group)

    def _check_children(
        self, directory: Path, index: str, children: list[tuple[str, int]], group: _Group
    ) -> None:
        places = (_place_of(loc) for loc, _ in children)
        # Without base_url the index lives where its children do (they must be siblings).
        home = self.base or next((place for place in places if place is not None), None)
        for loc, line in children:
            place = _place_of(loc)
            if home is None or place is None or not home.holds(place):
                continue  # already reported as off-host or outside the directory
            parts = urlsplit(loc)
            names = [unquote(part) for part in parts.path[len(home.directory) :].split("/")]
            odd = any(name in {"", ".", ".."} or "/" in name for name in names)
            if parts.query or parts.fragment or odd:
                self._report(index, line, f"child {_short(loc)} does not name a file in {home.url}")
                continue
            child = directory.joinpath(*names)
            if not child.is_file():
                self._report(index, line, f"child {_short(loc)} is missing: no file {child}")
                continue
            scanned = self._check_file(child, str(child), place, group)
            if scanned is not None and scanned.root_tag == _INDEX:
                self._report(index, line, f"child {_short(loc)} is an index; indexes cannot nest")

    def _check_file(
        self, path: Path, file: str, place: _Place | None, group: _Group | None
    ) -> _Scanned | None:
        resolved = path.resolve()
        if resolved in self.visited:
            return None
        self.visited.add(resolved)
        zipped = path.name.endswith(".gz")
        rules = _LocRules(file, self.violations, place, group)
        try:
            with gzip.open(path, "rb") if zipped else path.open("rb") as stream:
                if path.name.removesuffix(".gz").endswith(".txt"):
                    self._check_text(stream, file, rules)
                    return None
                scan = _XmlScan(file, self.violations, rules)
                tree = scan.parse(_read_chunks(stream))
        except (OSError, EOFError, zlib.error) as exc:
            reason = "gzip data does not decompress" if zipped else "cannot read the file"
            self._report(file, None, f"{reason}: {exc}")
            return None
        if tree is None or not _check_root(scan, self.violations):
            return None
        self.violations += _xsd_violations(tree, file)
        return _Scanned(cast(str, scan.root_tag), scan.children)

    def _check_text(self, stream: io.BufferedIOBase, file: str, rules: _LocRules) -> None:
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
