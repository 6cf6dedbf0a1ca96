"""The redirect stubs of a run, and where each leads once every page is known.

A canonical naming a stub names the stub's target (sitemill.listing.gate follows them). A
state beside the sitemaps is public and names no page they leave out (design.md, "State":
privacy), so what an unchanged stub may be remembered by is decided here, at the end: its
facts (its target's URL) when it leads to a listed page (True); its verdict alone when it
leads off the site (False: no page of the site can be its target); nothing when it leads to a
page of the site that is not listed (read again next time: that page may be listed by then).
"""

from __future__ import annotations

from collections.abc import Callable


class Stubs:
    """The stubs a run found: their paths and target keys (None: off the site)."""

    def __init__(self) -> None:
        self._found: list[tuple[str, str | None]] = []

    def saw(self, path: str, target: str | None) -> None:
        self._found.append((path, target))

    def ends(self, lead: Callable[[str], str | None] | None) -> dict[str, bool]:
        """Each stub's end by path: True, it leads to a listed page; False, off the site.
        ``lead``: the listed page a target key leads to (None: none); without one (canonicals
        are not followed), every stub counts as leading off the site."""
        found: dict[str, bool] = {}
        for path, target in self._found:
            if target is None or lead is None:
                found[path] = False
            elif lead(target) is not None:
                found[path] = True
        return found
