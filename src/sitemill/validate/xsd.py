"""The official XSDs, checked with xmlschema: an optional extra, imported only when used."""

from __future__ import annotations

import functools
import tempfile
import xml.etree.ElementTree as ET
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from sitemill.errors import SitemillError
from sitemill.validate.scan import INDEX, LASTMOD, PREFIXES, prefixed
from sitemill.validate.violation import Violation

if TYPE_CHECKING:
    from xmlschema import XMLSchemaBase


def require_xmlschema() -> None:
    """Raise a SitemillError that says how to install xmlschema when it is missing."""
    try:
        import xmlschema  # noqa: F401  (an optional extra: the Lambda package goes without)
    except ImportError as exc:
        raise SitemillError(
            "validation needs the xmlschema package: pip install 'sitemill[validate]'"
        ) from exc


@functools.cache
def schemas() -> tuple[XMLSchemaBase, XMLSchemaBase]:
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


def xsd_violations(
    tree: ET.Element, file: str, loaded: tuple[XMLSchemaBase, XMLSchemaBase]
) -> list[Violation]:
    """What the urlset or index schema (as ``loaded`` by ``schemas()``) says of ``tree``."""
    import xmlschema

    urlset, index = loaded
    schema = index if tree.tag == INDEX else urlset
    # allow="none": the document may name schemas (xsi:schemaLocation); none is ever fetched.
    resource = xmlschema.XMLResource(tree, allow="none")
    violations = []
    for error in schema.iter_errors(resource, namespaces=PREFIXES):
        tag = "" if error.elem is None else str(error.elem.tag)
        element = f"<{prefixed(tag)}> " if tag else ""
        reason = prefixed(error.reason or error.message)
        if tag == LASTMOD:
            reason += " (use YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+hh:mm)"
        violations.append(Violation(file, error.sourceline, f"XSD: {element}{reason}"))
    return violations
