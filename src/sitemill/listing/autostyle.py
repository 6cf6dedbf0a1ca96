"""``url_style = "auto"``: the style the pages' own canonicals are written in (design.md,
Configuration), so that out of the box each ``<loc>`` is the URL its page declares.

A page whose canonical names the page itself votes for each style that writes its URL so:
``a/b.html`` declaring ``…/a/b`` votes ``clean``, declaring ``…/a/b.html`` ``directory`` and
``file`` (both list it so); ``a/index.html`` declaring ``…/a/`` votes ``directory`` and
``clean``, declaring ``…/a/index.html`` ``file``, and declaring ``…/a`` (Docusaurus, Next.js:
no trailing slash) ``clean``, the style of URLs without one. The style with the most votes
wins, ties in URL_STYLES order; with fewer than MIN_VOTES pages voting, ``directory``. A run
that keeps a state decides once and keeps the decision there (sitemill.state.model), so that
a small change to the site never moves every URL; a decision of fewer pages stands only until
a run that sees the whole site decides again (a shard's run cannot count the site's votes).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Final
from urllib.parse import unquote, urlsplit

from sitemill.config.model import Config
from sitemill.html.facts import PageFacts
from sitemill.html.links import resolve_url, url_key
from sitemill.report import Report
from sitemill.sources.page import Page
from sitemill.state.model import State
from sitemill.styledecision import MIN_VOTES, StyleDecision, style_kept
from sitemill.urls import URL_STYLES, UrlStyle, page_url, site_root_path, url_path

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
    run when enough pages made it (or it is marked to stand: as_kept), else the votes of
    every page's facts (``facts_of``: None for a page that does not count); and the pages,
    as they came (held, when they were all read for the votes)."""
    if kept is not None and (kept.decided or kept.kept):
        return replace(kept, kept=True), iter(pages)
    held = list(pages)  # (every head is read before the first URL is made)
    votes = StyleVotes(base_url)
    for page in held:
        votes.see(page.path, facts_of(page))
    return votes.decision(), iter(held)


def keep_style(config: Config, report: Report, remember: State) -> Config:
    """``config`` with the URL style its run settled on, which ``remember`` (the state the
    run keeps) keeps: for good when enough pages decided it, else until a run that sees the
    whole site decides again (a shard's run keeps it as it is: kept_style)."""
    decision = report.url_style
    if decision is None:
        return config
    remember.url_style = replace(decision, kept=False)
    return replace(config, url_style=decision.style)


def kept_style(config: Config, state: State) -> Config:
    """For a run that renders a part of the site (shards): ``config`` with the style that
    ``state`` keeps for ``auto`` (the votes are the whole site's: a part cannot count them),
    ``directory`` while it keeps none (the next full rebuild decides)."""
    return replace(config, url_style=style_kept(config.url_style, state.url_style))


def as_kept(state: State) -> State:
    """``state`` for a run over a part of the site (shards): the style it keeps for ``auto``
    stands as it is, ``directory`` while it keeps none (the whole site's votes decide, which
    a part cannot count: the next full rebuild does)."""
    decision = state.url_style or StyleDecision(UrlStyle.DIRECTORY)
    return replace(state, url_style=replace(decision, kept=True))
