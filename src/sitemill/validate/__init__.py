"""`sitemill validate`: sitemaps against the official XSDs and the protocol's rules."""
# (An output feature's files against their format: each feature the front end lists.)

# libxml2 (lxml, the validate extra) streams each document and hands the root's finished children
# in batches to one document.Document, which applies the rules and the XSD.

from __future__ import annotations

import gzip
import io
import zlib
from collections.abc import Sequence
from pathlib import Path

from sitemill.bounded.inflate import GZIP_MAGIC
from sitemill.validate._urls import base_place
from sitemill.validate._xmlcheck import xml_check
from sitemill.validate.files import FileFormats, Validator, file_chunks, natural_key
from sitemill.validate.limits import FEED_BYTES
from sitemill.validate.violation import Severity, Violation, tally

__all__ = ["Severity", "Violation", "check_xsd", "tally", "validate_paths"]


def validate_paths(
    paths: Sequence[Path], base_url: str | None = None, formats: Sequence[FileFormats] = ()
) -> list[Violation]:
    """Validate sitemap files, indexes and output directories; return every finding, sorted.

    A directory stands for its ``sitemap.xml``/``sitemap.txt`` (and ``sitemap-index-N.xml``)
    plus every child their indexes list in its directory or below it (Hugo's /sitemap.xml names
    /en/sitemap.xml), and the files each output feature of ``formats`` writes there (llms.txt
    and those one folder down); a file one of them writes is checked as one. ``base_url`` is
    where the files are served; without it the location rule is checked only as far as the URLs
    themselves reveal it, and an index is taken
    to be served from the deepest directory holding all its children.
    Findings that consumers tolerate (a repeated loc) are warnings, and what could not be
    checked and is no fault (a user's sitemap sitemill's own index names, not in the folder)
    notes: see ``Violation.is_error``.
    XML is read by libxml2: a MissingExtraError says how to install lxml when it is not.
    """
    place = base_place(base_url) if base_url is not None else None
    validator = Validator(place, xml_check(), formats)
    for path in paths:
        validator.check_path(path)
    validator.violations.extend(validator.clusters.finish())
    unique = dict.fromkeys(validator.violations)
    return sorted(unique, key=lambda v: (natural_key(v.file), v.line or 0))


def check_xsd(data: bytes, name: str = "<document>") -> list[Violation]:
    """Well-formedness, safety and XSD violations of one in-memory document (gzip is detected)."""
    sink: list[Violation] = []
    check = xml_check()
    if not data.startswith(GZIP_MAGIC):
        chunks = (data[i : i + FEED_BYTES] for i in range(0, len(data), FEED_BYTES))
        check(name, sink, None, chunks)
        return sink
    try:  # decompressed as it is read: a bomb stops at the size limit, like a file's
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            check(name, sink, None, file_chunks(stream))
    except (OSError, EOFError, zlib.error) as exc:
        sink.append(Violation(name, None, f"gzip data does not decompress: {exc}"))
    return sink
