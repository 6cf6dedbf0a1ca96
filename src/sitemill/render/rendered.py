"""A sitemap file as a renderer hands it to the writer."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RenderedSitemap:
    """One finished sitemap file (uncompressed), with what an index needs to know of it.

    ``parts``: the file's bytes, in order: one part, or slices of the blocks a URL list
    was written in (sitemill.render._blocks), so that a file of several MB is written out
    without ever being copied whole. ``last``: whether the renderer knows it to be the
    last file (True) or not (False), where it knows (None: the writer looks for a next
    one to tell).
    """

    parts: tuple[bytes | memoryview, ...]
    url_count: int
    lastmod: str | None
    last: bool | None = None

    @property
    def data(self) -> bytes:
        """The file's bytes whole (joined, when it is in several parts)."""
        parts = self.parts
        if len(parts) == 1 and isinstance(parts[0], bytes):
            return parts[0]
        return b"".join(parts)
