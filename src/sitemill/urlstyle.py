"""``url_style = "auto"``: the style the pages' own canonicals are written in, decided and kept."""

# docs/pages.md, "URL style": each page whose canonical names the page itself votes for each style
# that writes its URL so; the most votes win, ties in URL_STYLES order; with fewer than MIN_VOTES
# pages voting, ``directory``. A run that keeps a state decides once and keeps the decision there,
# so that a small change to the site never moves every URL; a decision of fewer pages stands only
# until a run that sees the whole site decides again (a shard's run cannot count the site's votes).

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Final, Protocol
from urllib.parse import unquote, urlsplit

from sitemill.config.model import Config
from sitemill.entries import Page
from sitemill.html.facts import PageFacts
from sitemill.html.links import resolve_url, url_key
from sitemill.messages import counted
from sitemill.robots.rules import RobotsRules
from sitemill.rules import reads_head
from sitemill.urls import URL_STYLES, UrlStyle, page_url, site_root_path, url_path

# Pages whose canonical names themselves needed to decide for good; fewer: "directory", until
# a run that sees the whole site finds enough.
MIN_VOTES: Final = 10


@dataclass(frozen=True, slots=True)
class StyleDecision:
    """What ``auto`` settled on: the style, the pages voting for it among those whose
    canonical names themselves, and whether the decision is the state's (an earlier run's);
    ``unslashed``: the votes of folder pages (``x/index.html``) whose canonical is ``…/x``,
    listed as ``…/x/`` all the same (sitemill.listing._aliases), so not as they say."""

    style: UrlStyle
    votes: int = 0
    pages: int = 0
    kept: bool = False
    unslashed: int = 0

    @classmethod
    def from_json(cls, value: object) -> StyleDecision | None:
        """What url_style = "auto" decided: a URL style with its votes (fewer than it takes to
        decide: kept only until a run that sees the whole site decides again); else nothing."""
        if not isinstance(value, dict):
            return None
        name, votes, pages = value.get("style"), value.get("votes"), value.get("pages")
        styles = {style.value: style for style in URL_STYLES}
        counts = (votes, pages)
        if name not in styles or not all(type(count) is int and count >= 0 for count in counts):
            return None
        assert isinstance(name, str) and isinstance(votes, int) and isinstance(pages, int)
        unslashed = value.get("unslashed", 0)
        if type(unslashed) is not int or not 0 <= unslashed <= votes:
            unslashed = 0
        if votes > pages:
            return None
        return cls(styles[name], votes, pages, unslashed=unslashed)

    def to_json(self) -> dict[str, object]:
        """The decision as the state keeps it (unslashed only when there are such votes)."""
        kept: dict[str, object] = {"style": self.style.value, "votes": self.votes}
        kept["pages"] = self.pages
        if self.unslashed:  # (the votes that name a folder page without its final slash)
            kept["unslashed"] = self.unslashed
        return kept

    @property
    def decided(self) -> bool:
        """Whether enough pages voted for the decision to stand for good."""
        return self.pages >= MIN_VOTES

    def line(self) -> str:
        """``url style: clean (142 of 150 pages' own canonicals say so)``, for the report:
        the count is of canonicals that name the listed URL exactly."""
        style, exact = self.style.value, self.votes - self.unslashed
        said = f"{exact:,} of {self.pages:,} pages' own canonicals"
        if self.decided:
            kept = "kept from an earlier run: " if self.kept else ""
            if not self.unslashed:
                return f"url style: {style} ({kept}{said} {'said' if self.kept else 'say'} so)"
            return (
                f"url style: {style} ({kept}{said} {'named' if self.kept else 'name'} their "
                f"listed URL, {self.unslashed:,} more without its final slash: a folder page "
                "x/index.html is listed at …/x/, where hosts serve it)"
            )
        kept = "kept from an earlier run: " if self.kept else ""
        return (
            f"url style: {style} ({kept}{counted(self.pages, 'page')} "
            f"{'names itself' if self.pages == 1 else 'name themselves'} as canonical, "
            f"fewer than the {MIN_VOTES} auto needs to decide)"
        )


def rendering_style(style: UrlStyle, decision: StyleDecision | None) -> UrlStyle:
    """The style a run that does not decide renders in: ``style`` when set, else (``auto``)
    the ``decision`` a state keeps, ``directory`` while it keeps none."""
    if style is not UrlStyle.AUTO:
        return style
    return UrlStyle.DIRECTORY if decision is None else decision.style


# The vote of a folder page whose canonical is its URL without the final slash (Docusaurus).
_UNSLASHED: Final = (UrlStyle.CLEAN,)


class StyleVotes:
    """Counts the styles the pages' own canonicals are written in."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.counts: Counter[UrlStyle] = Counter()
        self.pages = 0
        self.unslashed = 0  # folder pages voting clean by a canonical without the final slash
        self._site_key = url_key(base_url)
        self._root = unquote(site_root_path(base_url))

    def see(self, path: str, facts: PageFacts | None) -> None:
        """The page at ``path`` with its facts (None: none read)."""
        if facts is None or facts.canonical is None or not facts.document:
            return
        styles = self.styles_of(path, facts)
        if styles:
            self.pages += 1
            self.counts.update(styles)
            if styles == _UNSLASHED and url_path(path, UrlStyle.CLEAN).endswith("/"):
                self.unslashed += 1

    def styles_of(self, path: str, facts: PageFacts) -> tuple[UrlStyle, ...]:
        """The styles in which the page's canonical names the page itself (none: it names
        another page, a query, another site, or nothing)."""
        assert facts.canonical is not None
        loc = page_url(self.base_url, path, UrlStyle.DIRECTORY)  # (the folder is the same)
        resolved = resolve_url(facts.canonical, loc, facts.base)
        if resolved is None:
            return ()
        parts = urlsplit(resolved)
        key = url_key(resolved)
        if parts.query or not (key + "/").startswith(self._site_key):  # (the root unslashed)
            return ()
        written = unquote(parts.path, errors="surrogateescape") or "/"
        if written + "/" == self._root:  # https://site/docs for https://site/docs/
            written = self._root
        if not written.startswith(self._root):
            return ()
        rest = written[len(self._root) :]
        styles = tuple(style for style in URL_STYLES if url_path(path, style) == rest)
        if styles or not rest:
            return styles
        folder = url_path(path, UrlStyle.DIRECTORY)
        return _UNSLASHED if folder.endswith("/") and folder == rest + "/" else ()

    def decision(self) -> StyleDecision:
        counts, pages = self.counts, self.pages
        if pages < MIN_VOTES:
            return StyleDecision(UrlStyle.DIRECTORY, counts[UrlStyle.DIRECTORY], pages)
        best = max(URL_STYLES, key=lambda style: (counts[style], -URL_STYLES.index(style)))
        unslashed = self.unslashed if best is UrlStyle.CLEAN else 0
        return StyleDecision(best, counts[best], pages, unslashed=unslashed)


def settle_style(
    base_url: str,
    pages: Iterable[Page],
    facts_of: Callable[[Page], PageFacts | None],
    kept: StyleDecision | None,
) -> tuple[StyleDecision, Iterator[Page]]:
    """The style of a run with ``url_style = "auto"``: the ``kept`` decision of an earlier
    run when enough pages made it (or it is marked to stand: keep_decision), else the votes of
    every page's facts (``facts_of``: None for a page that does not count); and the pages,
    as they came (held, when they were all read for the votes)."""
    if kept is not None and (kept.decided or kept.kept):
        return replace(kept, kept=True), iter(pages)
    held = list(pages)  # (every head is read before the first URL is made)
    votes = StyleVotes(base_url)
    for page in held:
        votes.see(page.path, facts_of(page))
    return votes.decision(), iter(held)


def resolve_url_style(
    config: Config,
    pages: Iterator[Page],
    robots: RobotsRules | None,
    read_facts: Callable[[str], PageFacts | None] | None,
    kept: StyleDecision | None,
) -> tuple[Config, Iterator[Page], StyleDecision | None]:
    """``config`` and its ``pages`` as they are (a URL style it sets), or with ``url_style =
    "auto"`` settled on the facts of the pages the pipeline reads, or as an earlier run
    ``kept`` it; and the decision (None: the configuration sets the style). ``read_facts``
    (what was read of a page: a lookup) is asked of every page; include, exclude, rules and
    robots.txt only of those whose canonical may vote."""

    def facts(page: Page) -> PageFacts | None:
        if page.verdict is not None:
            return None
        found = page.facts or (None if read_facts is None else read_facts(page.path))
        if found is None or found.canonical is None:
            return None  # (no vote, whatever the rules say: they are asked of canonicals only)
        return found if reads_head(config, robots, page.path) else None

    if config.url_style is not UrlStyle.AUTO:
        return config, pages, None
    decision, pages = settle_style(config.base_url, pages, facts, kept)
    return replace(config, url_style=decision.style), pages, decision


class Keeps(Protocol):
    """What keeps the decision from run to run (the state)."""

    url_style: StyleDecision | None


def keep_style(config: Config, decision: StyleDecision | None, remember: Keeps) -> Config:
    """``config`` with the URL style its run settled on (``decision``), which ``remember``
    (the state the run keeps) keeps: for good when enough pages decided it, else until a run
    that sees the whole site decides again (a shard's run keeps it as it is: kept_style)."""
    if decision is None:
        return config
    remember.url_style = replace(decision, kept=False)
    return replace(config, url_style=decision.style)


def kept_style(config: Config, state: Keeps) -> Config:
    """For a run that renders a part of the site (shards): ``config`` with the style that
    ``state`` keeps for ``auto`` (the votes are the whole site's: a part cannot count them),
    ``directory`` while it keeps none (the next full rebuild decides)."""
    return replace(config, url_style=rendering_style(config.url_style, state.url_style))


def keep_decision(decision: StyleDecision | None) -> StyleDecision:
    """The decision a state keeps, for a run over a part of the site (shards): it stands as
    it is, ``directory`` while there is none (the whole site's votes decide, which a part
    cannot count: the next full rebuild does)."""
    return replace(decision or StyleDecision(UrlStyle.DIRECTORY), kept=True)
