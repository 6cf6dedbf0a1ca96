"""The redirect stubs of a run, and where each stub leads once every page is known."""
# A canonical naming a stub names the stub's target (listing._gate follows them).
#
# A state beside the sitemaps is public and names no page they leave out (docs/state.md, "Public,
# and trusted by no one"), so what an unchanged stub may be remembered by is decided at the end: its
# facts (its target's URL) when it leads to a listed page (True); its verdict alone when it leads
# off the site (False: no page of the site can be its target); nothing when it leads to a page of
# the site that is not listed (None: read again next time, that page may be listed by then).

from __future__ import annotations

from collections.abc import Callable

from sitemill.html.links import resolve_url, url_key
from sitemill.listing._aliases import FolderAliases
from sitemill.listing._gate import MAX_STUB_HOPS, CanonicalGate

# The URL of an object at a URL key no page has, and its website redirect as written.
WebsiteRedirect = Callable[[str], tuple[str, str] | None]


class Stubs:
    """The stubs a run found (paths and target keys, None: off the site)."""

    def __init__(
        self,
        gate: CanonicalGate | None,
        aliases: FolderAliases,
        on_site: Callable[[str], str | None],
    ) -> None:
        """``on_site``: a URL key if it is one of the site's (else None)."""
        self.gate = gate
        self.aliases = aliases
        self.on_site = on_site
        self._found: list[tuple[str, str | None]] = []

    def saw(self, path: str, key: str, target: str | None) -> None:
        """The page at ``path`` (``key``) is a stub to ``target``."""
        self._found.append((path, target))
        self.aliases.saw(key)
        if self.gate is not None:
            self.gate.redirect(key, target)

    def ask(self, redirects: WebsiteRedirect) -> None:
        """Canonicals still waiting on a URL that no page has may name an object with a
        website redirect: it is a stub like any other (followed up to MAX_STUB_HOPS of them)."""
        gate = self.gate
        if gate is None:
            return
        asked: set[str] = set()
        for _ in range(MAX_STUB_HOPS):
            targets = [key for key in gate.waiting_targets() if key not in asked]
            targets = [key for key in targets if not self.aliases.knows(key)]
            if not targets:
                return
            for target in targets:
                asked.add(target)
                found = redirects(target)
                if found is not None:
                    resolved = resolve_url(found[1], found[0], None)
                    self.aliases.saw(target)
                    gate.redirect(
                        target, None if resolved is None else self.on_site(url_key(resolved))
                    )

    def ends(self) -> dict[str, bool | None]:
        """Once every page was decided, each stub's end by path: True, it leads to a listed
        page; False, off the site (or canonicals are not followed at all); None, to a page of
        the site that is not listed."""
        found: dict[str, bool | None] = {}
        gate = self.gate
        for path, target in self._found:
            if target is None or gate is None:
                found[path] = False
            else:
                found[path] = (
                    gate.lists(gate.follow(self.aliases.names(target, final=True))) or None
                )
        return found
