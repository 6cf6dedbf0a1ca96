"""Which pages a crawler should be sent to: the decisions a page's facts lead to, counted."""
# docs/pages.md, "In short": what is left out, each under its reason, and the one summary warning
# each kind of doubtful canonical gives (listing.declaredbase, listing.siteurl).

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Final
from urllib.parse import unquote, urlsplit

from sitemill.config.model import Config
from sitemill.entries import Entry, SkipReason
from sitemill.html.facts import PageFacts
from sitemill.html.links import resolve_url, strip_page_suffix, url_key
from sitemill.listing._aliases import FolderAliases
from sitemill.listing._crosslang import CrossLanguage, canonical_languages
from sitemill.listing._declaredbase import DeclaredBase
from sitemill.listing._gate import CanonicalGate
from sitemill.listing.stubs import Stubs, WebsiteRedirect
from sitemill.report import Declared, Tally
from sitemill.urls import UrlStyle, path_key, url_path

# Folders that hold third-party packages copied into a site (their READMEs and demos are
# HTML pages of someone else's).
_VENDORED: Final = re.compile(r"(?:^|/)(node_modules|bower_components|jspm_packages|js/vendor)/")
# The detail of each skip the page's own bytes give, read now or remembered by the state
# (which keeps no URL of an unlisted page: a remembered redirect's target is not known).
_NOT_A_PAGE: Final = "not an HTML document"
_NOINDEX: Final = "robots meta noindex"
_REMEMBERED: Final = {
    SkipReason.NOT_A_PAGE: _NOT_A_PAGE,
    SkipReason.NOINDEX: _NOINDEX,
    SkipReason.REDIRECT: "meta refresh (unchanged since the last run)",
}
# When canonicals leave out more than this share of the pages (and at least _MANY_CANONICAL),
# a template probably names one URL on every page: say so.
_MANY_CANONICAL: Final = 10


class PageChecks:
    """The fact-based checks of one run, with what they counted for its summary."""

    def __init__(
        self,
        config: Config,
        tally: Tally,
        holds: Callable[[str], bool] | None = None,
        outside: Callable[[str], bool] | None = None,
        redirects: WebsiteRedirect | None = None,
        *,
        hint: bool = True,
    ) -> None:
        """``holds``: whether the site has a page file at a path (a tree knows its files);
        ``outside``: whether a URL key no page of this run has is listed by another shard;
        ``redirects``: the URL and redirect of an object at a URL key no page has (a bucket's
        empty objects with a website redirect), or None; ``hint``: say when the pages' own
        canonicals are written in another style (a style the user set: ``auto`` chose the
        style from them)."""
        self.config = config
        self.tally = tally
        self.site_key = url_key(config.base_url)
        clean = config.url_style is UrlStyle.CLEAN
        self.aliases = FolderAliases(self.site_key, clean=clean, holds=holds)
        self.gate = CanonicalGate(self.aliases, outside) if config.respect_canonical else None
        self.cross_language = CrossLanguage()
        self.declared = DeclaredBase(config.base_url, self.site_key)
        self.shared_at = DeclaredBase(config.base_url, self.site_key)  # (og:url)
        self.stubs = Stubs(self.gate, self.aliases, self._on_site)
        self._redirects = redirects
        self.style_hint = StyleHint(config.url_style) if hint else None
        self._site_stem = self.site_key[:-1]  # without its final "/"
        self._base_length = len(config.base_url)
        self.vendored: Counter[str] = Counter()
        self.vendored_example: dict[str, str] = {}
        self.candidates = 0

    def skip_reason(self, path: str, loc: str, facts: PageFacts) -> bool:
        """Count and return True when the facts leave the page out (before dedupe); the
        page is then known as left out (``left_out``), a redirect stub with its target (a
        noindex stub too, as Hugo's aliases are: a crawler follows it all the same)."""
        config = self.config
        if not facts.document:
            self.tally.skip(path, SkipReason.NOT_A_PAGE, _NOT_A_PAGE)
            self.left_out(loc)
            return True
        stub, named, key = False, None, ""
        if config.respect_redirects and facts.refresh is not None:
            key = self.own_key(loc)
            target = resolve_url(facts.refresh, loc, facts.base)
            named = None if target is None else self._on_site(url_key(target))
            stub = named != key  # a reload is no redirect
        if config.respect_noindex and facts.noindex:
            self.tally.skip(path, SkipReason.NOINDEX, _NOINDEX)
        elif stub:
            kind = "S3 website redirect" if facts.website_redirect else "meta refresh"
            self.tally.skip(path, SkipReason.REDIRECT, f"{kind} to {facts.refresh}")
        else:
            return False
        if stub:
            self.stubs.saw(path, key, named)
        else:
            self.left_out(loc)
        return True

    def skip_remembered(self, path: str, loc: str, verdict: SkipReason) -> None:
        """Count a page left out by the verdict the state remembers for these same bytes."""
        self.tally.skip(path, verdict, _REMEMBERED.get(verdict, ""))
        self.left_out(loc)

    def own_key(self, loc: str) -> str:
        """``url_key`` of a page's own URL, the fast way: sitemill wrote it normalized."""
        path = path_key("/" + loc[self._base_length :])  # ("+" is written "%2B")
        if "/." in path:  # a file named "..html" is "/." with url_style = clean
            return url_key(loc)
        return self._site_stem + strip_page_suffix(path)

    def left_out(self, loc: str) -> None:
        """A page with facts was left out: canonicals naming it do not name a listed URL."""
        key = self.own_key(loc)
        self.aliases.saw(key)
        if self.gate is not None:
            self.gate.drop(key)

    def names(self, key: str) -> str:
        """Once every page was seen: the key of the page a link to ``key`` names."""
        return self.aliases.names(key, final=True)

    def offer(self, entry: Entry, path: str, facts: PageFacts | None) -> Iterator[Entry]:
        """The entries that can be written now, in order (a page may wait for its canonical)."""
        self.candidates += 1
        found = _VENDORED.search(path)
        if found is not None:
            folder = found.group(1)
            self.vendored[folder] += 1
            self.vendored_example.setdefault(folder, path)
        key = self.own_key(entry.loc)
        self.aliases.saw(key)
        resolved: str | None = None
        named: str | None = None
        if facts is not None and facts.canonical is not None:
            if facts.canonical == entry.loc:  # the usual case: the page names itself as listed
                resolved, named = entry.loc, key
            else:
                resolved, named = self._named_key(entry.loc, facts.canonical, facts.base)
            self.declared.saw(path, key, named, facts.canonical)
        if facts is not None and facts.og_url is not None:
            shared = self._named_key(entry.loc, facts.og_url, facts.base)[1]
            self.shared_at.saw(path, key, shared, facts.og_url)
        gate = self.gate
        if gate is None:
            return iter((entry,))
        target = None
        if facts is not None and facts.canonical is not None:
            if named is not None and named.startswith(self.site_key):
                target = self.aliases.names(named, own=key)
            else:  # off the site, or no http(s) URL at all
                gate.counts.count("off_site", f"{path} names {facts.canonical}")
            if target == key:
                target = None
                hint = self.style_hint
                if hint is not None and resolved is not None and named == key:  # (its own URL)
                    hint.saw(path, entry.loc, resolved)
            elif named is not None and facts.alternates:
                names = self.aliases.names
                languages = canonical_languages(facts, entry.loc, key, target or named, names)
                if languages is not None:
                    self.cross_language.saw(path, target or named, languages)
        released = gate.offer(entry, path, key, target)
        self._drain()
        return released

    def finish(self) -> Iterator[Entry]:
        if self.gate is None:
            return iter(())
        if self._redirects is not None:
            self.stubs.ask(self._redirects)
        released = self.gate.finish()
        self._drain()
        return released

    def declared_urls(self) -> list[Declared]:
        """Once every page was seen: the base URLs most pages' canonicals and og:url declare
        (listing.siteurl)."""
        found = (self.declared.evidence("canonical"), self.shared_at.evidence("og:url"))
        return [item for item in found if item is not None]

    def _named_key(self, loc: str, href: str, base: str | None) -> tuple[str | None, str | None]:
        """A URL the page names (its canonical, its og:url) resolved, and its key, on this
        site or not; None unless http(s)."""
        resolved = resolve_url(href, loc, base)
        key = None if resolved is None else url_key(resolved)
        if key == self._site_stem:  # "https://owner.github.io/project": the site's root
            key = self.site_key
        return resolved, key

    def _on_site(self, key: str) -> str | None:
        """``key`` when it is a URL of this site (its root without the final "/" too)."""
        if key == self._site_stem:
            return self.site_key
        return key if key.startswith(self.site_key) else None

    def stub_ends(self) -> dict[str, bool | None]:
        """Once every page was decided: where each redirect stub leads (listing.stubs)."""
        return self.stubs.ends()

    def _drain(self) -> None:
        assert self.gate is not None
        for path, target in self.gate.skipped:
            self.tally.skip(path, SkipReason.CANONICAL, f"canonical is {target}")
            self.cross_language.skipped(path)
        self.gate.skipped.clear()

    def summary(self, *, changed: bool = True) -> list[str]:
        """One warning per kind of surprise, with a count and an example. ``changed``: the
        run wrote something; the folder aliases' note (links the run followed as they are
        meant) is said by a run whose output changed only, not again by every later run
        that finds the same links and changes nothing."""
        lines: list[str] = []
        style = None if self.style_hint is None else self.style_hint.message()
        aliases = self.aliases.message() if changed else None
        hints = (aliases, self.cross_language.message(), style)
        for message in hints:
            if message is not None:
                lines.append(message)
        question = self.declared.message()  # (it stands for the two warnings below)
        if question is not None:
            lines.append(question)
        if self.gate is not None:
            counts = self.gate.counts
            if counts.off_site and question is None:
                lines.append(
                    f"{counts.off_site:,} listed page(s) declare a canonical URL off this site "
                    f"({self.config.base_url}), e.g. {counts.examples['off_site']}: check the "
                    "generator's site URL setting (site_url, baseURL, html_baseurl, url)"
                )
            if counts.unlisted and question is None:
                lines.append(
                    f"{counts.unlisted:,} listed page(s) declare a canonical URL that this "
                    f"sitemap does not list, e.g. {counts.examples['unlisted']}"
                )
            skipped = self.tally.counts[SkipReason.CANONICAL]
            if skipped >= _MANY_CANONICAL and skipped * 2 > self.candidates:
                lines.append(
                    f"{skipped:,} of {self.candidates:,} pages name another page as their "
                    "canonical and were left out: if a template sets one canonical for every "
                    "page, fix it or set respect_canonical = false"
                )
        for folder, count in sorted(self.vendored.items()):
            lines.append(
                f"listed {count:,} page(s) under {folder}/, e.g. {self.vendored_example[folder]}"
                f': third-party files? exclude them with exclude = ["**/{folder}/**"]'
            )
        return lines


# Which ``url_style`` the pages' own canonicals are written in, when it is not the run's.
# A site whose pages declare clean canonicals (``https://site/a/b``) built with the default
# ``url_style = "directory"`` gets ``https://site/a/b.html`` in its sitemap: one page, two URLs, and
# search engines see a sitemap that disagrees with every canonical. sitemill counts, for each page
# whose canonical names the page itself, the styles in which the page's URL is written as the
# canonical is; when most pages agree on another style than the run's, the summary says which.
# Pages with a canonical of their own needed before a style is suggested.
MIN_STYLE_PAGES: Final = 10


class StyleHint:
    """Counts the styles the pages' own canonicals are written in."""

    def __init__(self, style: UrlStyle) -> None:
        self._style = style
        self._pages = 0
        self._matches: Counter[UrlStyle] = Counter()
        self._examples: dict[UrlStyle, str] = {}

    def saw(self, path: str, loc: str, canonical: str) -> None:
        """The page at ``path``, listed at ``loc``, names itself as ``canonical`` (an
        absolute URL of one key with ``loc``)."""
        self._pages += 1
        written = _last_segment(urlsplit(canonical).path)
        for style in UrlStyle:
            if _last_segment(url_path(path, style)) == written:
                self._matches[style] += 1
                if style not in self._examples:
                    self._examples[style] = f"{path} declares {canonical}, listed as {loc}"

    def message(self) -> str | None:
        pages, matches = self._pages, self._matches
        if pages < MIN_STYLE_PAGES:
            return None
        best = max(UrlStyle, key=lambda style: (matches[style], style is self._style))
        if best is self._style or matches[best] * 2 <= pages:
            return None
        return (
            f"{matches[best]:,} of {pages:,} listed pages declare their own URL in the "
            f'"{best.value}" url_style as their canonical (only {matches[self._style]:,} as '
            f'listed), e.g. {self._examples[best]}: set url_style = "{best.value}" so that '
            "the sitemap's URLs are the pages' canonical URLs"
        )


def _last_segment(path: str) -> str:
    return unquote(path.rpartition("/")[2])
