"""Helpers for tests that read a page's reduction (fingerprint.reduction)."""

from __future__ import annotations

from sitemill.lastmod.fingerprint.targetmarks import TITLE_END


def text_of(reduction: str) -> str:
    """A reduction as the text it reads: fingerprint version 5's mark at the title's end as
    the space between the title and what follows (none at either end)."""
    return reduction.replace(TITLE_END, " ").replace("  ", " ").strip(" ")
