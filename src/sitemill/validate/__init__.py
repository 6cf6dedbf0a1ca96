"""Check sitemap files against the official XSDs and the protocol rules no XSD can express.

One expat pass per file does both jobs: it checks counts, size and every <loc>/<lastmod> as the
parser streams, and builds a line-numbered element tree that xmlschema then validates.
The modules: ``urls`` (the <loc>/<lastmod> rules), ``scan`` (the expat pass), ``xsd``
(xmlschema, imported only when used), ``files`` (directories, gzip, text, index children).
"""

from __future__ import annotations

import gzip
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from sitemill.validate.files import Validator, natural_key
from sitemill.validate.scan import CHUNK, XmlScan, check_root
from sitemill.validate.urls import base_place
from sitemill.validate.violation import Violation
from sitemill.validate.xsd import require_xmlschema, xsd_violations

# Looked up here on each call, not bound into the modules, so one process-wide cache serves
# every entry point and a test can swap in a fresh one.
from sitemill.validate.xsd import schemas as _schemas

__all__ = ["Violation", "check_xsd", "validate_paths"]

_GZIP_MAGIC: Final = b"\x1f\x8b"


def validate_paths(paths: Sequence[Path], base_url: str | None = None) -> list[Violation]:
    """Validate sitemap files, indexes and output directories; return every violation, sorted.

    A directory stands for its ``sitemap.xml``/``sitemap.txt`` (and ``sitemap-index-N.xml``)
    plus every child their indexes list under it. ``base_url`` is where the files are served;
    without it the location rule is checked only as far as the URLs themselves reveal it.
    """
    require_xmlschema()
    validator = Validator(base_place(base_url) if base_url is not None else None, _schemas)
    for path in paths:
        validator.check_path(path)
    unique = dict.fromkeys(validator.violations)
    return sorted(unique, key=lambda v: (natural_key(v.file), v.line or 0))


def check_xsd(data: bytes, name: str = "<document>") -> list[Violation]:
    """Well-formedness and XSD violations of one in-memory document (gzip is detected)."""
    require_xmlschema()
    if data.startswith(_GZIP_MAGIC):
        data = gzip.decompress(data)
    sink: list[Violation] = []
    scan = XmlScan(name, sink, None)
    tree = scan.parse(data[i : i + CHUNK] for i in range(0, len(data), CHUNK))
    if tree is not None and check_root(scan, sink):
        sink += xsd_violations(tree, name, _schemas())
    return sink
