"""Check sitemap files against the official XSDs and the protocol rules no XSD can express, and
llms.txt files against the format of llmstxt.org."""

# A reader streams each document: libxml2 through lxml (lxml_reader, lxml_xsd) or, where lxml
# is not installed, expat and xmlschema (expat_reader, py_xsd). Both hand the root's finished
# children over in batches to one document.Document, which applies the rules (urls; paths
# resolves dot segments for the location rule) and the XSD; limits bound what a hostile document
# can cost; files picks the files (directories, index children, gzip, text sitemaps); ownindex
# tells sitemill's own index by the state beside it (a user's sitemap it names and another app
# serves is a note); engines picks the reader; llmstxt reads an llms.txt line by line.

from __future__ import annotations

import gzip
import io
import zlib
from collections.abc import Sequence
from pathlib import Path

from sitemill.validate.engines import Engine, reader
from sitemill.validate.files import GZIP_MAGIC, Validator, natural_key, read_chunks
from sitemill.validate.limits import CHUNK
from sitemill.validate.urls import base_place
from sitemill.validate.violation import Severity, Violation, tally

__all__ = ["Engine", "Severity", "Violation", "check_xsd", "tally", "validate_paths"]


def validate_paths(
    paths: Sequence[Path], base_url: str | None = None, *, engine: Engine | None = None
) -> list[Violation]:
    """Validate sitemap files, indexes and output directories; return every finding, sorted.

    A directory stands for its ``sitemap.xml``/``sitemap.txt`` (and ``sitemap-index-N.xml``)
    plus every child their indexes list in its directory or below it (Hugo's /sitemap.xml names
    /en/sitemap.xml), and its llms.txt and those one folder down (/fr/llms.txt); a file named
    llms.txt is checked as one. ``base_url`` is where the files are served; without it the
    location rule is checked only as far as the URLs themselves reveal it, and an index is taken
    to be served from the deepest directory holding all its children.
    Findings that consumers tolerate (a repeated loc) are warnings, and what could not be
    checked and is no fault (a user's sitemap sitemill's own index names, not in the folder)
    notes: see ``Violation.is_error``.
    ``engine`` picks the XML engine; by default lxml when installed, else xmlschema.
    """
    validator = Validator(base_place(base_url) if base_url is not None else None, reader(engine))
    for path in paths:
        validator.check_path(path)
    validator.violations.extend(validator.clusters.finish())
    unique = dict.fromkeys(validator.violations)
    return sorted(unique, key=lambda v: (natural_key(v.file), v.line or 0))


def check_xsd(
    data: bytes, name: str = "<document>", *, engine: Engine | None = None
) -> list[Violation]:
    """Well-formedness, safety and XSD violations of one in-memory document (gzip is detected)."""
    sink: list[Violation] = []
    if not data.startswith(GZIP_MAGIC):
        chunks = (data[i : i + CHUNK] for i in range(0, len(data), CHUNK))
        reader(engine).check(name, sink, None, chunks)
        return sink
    try:  # decompressed as it is read: a bomb stops at the size limit, like a file's
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            reader(engine).check(name, sink, None, read_chunks(stream))
    except (OSError, EOFError, zlib.error) as exc:
        sink.append(Violation(name, None, f"gzip data does not decompress: {exc}"))
    return sink
