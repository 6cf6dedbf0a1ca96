"""Canonicals that cross languages: a translation that names a page in another language."""
# Google asks each language version to name itself as canonical and to point to the others with
# hreflang; a translation whose canonical names the English page is left out as ``canonical`` like
# any copy. Such canonicals are recognised from the page's own hreflang alternates (its own URL
# under one language, the canonical under another) and counted, so the summary can say why.
# https://developers.google.com/search/docs/specialty/international/localized-versions

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from sitemill.html.facts import PageFacts
from sitemill.html.hreflang import X_DEFAULT, normalize_hreflang
from sitemill.html.links import resolve_url, url_key

# Paths of cross-language pages remembered until the canonical gate decides them.
MAX_REMEMBERED: Final = 100_000


def canonical_languages(
    facts: PageFacts, loc: str, own_key: str, target_key: str, names: Callable[[str], str]
) -> tuple[str, str] | None:
    """(the page's language, its canonical's) when the page's alternates put its own URL and
    its canonical under different languages; None otherwise (no alternates, one language,
    only x-default for the target). ``names``: the page a link's key names."""
    if not facts.alternates:
        return None
    own: str | None = None
    target: str | None = None
    for raw, href in facts.alternates:
        hreflang = normalize_hreflang(raw)
        resolved = resolve_url(href, loc, facts.base)
        if hreflang is None or hreflang == X_DEFAULT or resolved is None:
            continue
        key = names(url_key(resolved))
        language = hreflang.split("-", 1)[0]
        if key == own_key and own is None:
            own = language
        if key == target_key and target is None:
            target = language
    if own is None or target is None or own == target:
        return None
    return own, target


@dataclass
class CrossLanguage:
    """Canonicals naming another language: how many, how many of those pages were left out,
    the first example; ``pending`` holds the paths the canonical gate has yet to decide."""

    count: int = 0
    left_out: int = 0
    example: str = ""
    pending: set[str] = field(default_factory=set)

    def saw(self, path: str, target: str, languages: tuple[str, str]) -> None:
        self.count += 1
        if not self.example:
            self.example = f"{path} ({languages[0]}) names {target} ({languages[1]})"
        if len(self.pending) < MAX_REMEMBERED:
            self.pending.add(path)

    def skipped(self, path: str) -> None:
        """The canonical gate left the page at ``path`` out."""
        if path in self.pending:
            self.pending.discard(path)
            self.left_out += 1

    def message(self) -> str | None:
        if not self.count:
            return None
        return (
            f"{self.count:,} page(s) name a page in another language as their canonical "
            f"({self.left_out:,} left out as copies of it), e.g. {self.example}: each "
            "translation should name itself as canonical and the others with hreflang; fix "
            "the generator's canonical (or set respect_canonical = false to list them)"
        )
