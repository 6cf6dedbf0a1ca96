"""The official sitemap XSDs (see SOURCES.md) and catalog.xml, which maps their URLs here."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from importlib import resources
from pathlib import Path


@contextlib.contextmanager
def schema_folder() -> Iterator[Path]:
    """A folder holding the XSDs and the catalog, for as long as the ``with`` block runs."""
    folder = resources.files(__name__)
    if isinstance(folder, Path):
        yield folder
        return
    import tempfile  # only a zipped install needs it

    # A zipped install: the XSDs import one another by relative path, so they need a folder.
    with tempfile.TemporaryDirectory(prefix="sitemill-xsd-") as tmp:
        for item in folder.iterdir():
            if item.name.endswith((".xsd", ".xml")):
                (Path(tmp) / item.name).write_bytes(item.read_bytes())
        yield Path(tmp)
