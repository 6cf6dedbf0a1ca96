"""What a build removed: its state against the one it started from, by URL (diff.compare)."""
# The build has both states in hand: the one it started from and the one it writes. Their pages
# by URL go to the pure comparison; only a removed URL costs a look at the site (``redirect_of``),
# never a kept one. The URLs removed whose page is no longer served (gone, or a redirect) are
# kept in the state for `sitemill check` (state.removedurls), until a later run removes others.

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final, Protocol

from sitemill.config.model import Config
from sitemill.diff.compare import RedirectOf, compare_builds
from sitemill.diff.model import Removed, SiteDiff, Verdict
from sitemill.lastmod.fingerprint.versions import FINGERPRINT_VERSION
from sitemill.messages import shown
from sitemill.state.model import PageRecord, State
from sitemill.state.removedurls import MAX_REMOVED, RemovedUrl
from sitemill.urls import UrlStyle, page_url

MAX_REMOVED_SHOWN: Final = 100  # removed URLs a summary names (the first in URL order)
_EXAMPLES: Final = 3  # removed URLs a warning names


def by_url(
    state: State, base_url: str, style: UrlStyle, paths: Iterable[str] | None = None
) -> dict[str, PageRecord]:
    """The state's listed pages (those of ``paths`` only, when given) by their URL."""
    pages = state.pages
    chosen = pages if paths is None else paths
    return {page_url(base_url, path, style): pages[path] for path in chosen}


def old_style(config: Config, before: State, new: UrlStyle) -> UrlStyle:
    """The URL style the state compared against was written with (``auto``: its decision)."""
    if config.url_style is UrlStyle.AUTO and before.url_style is not None:
        return before.url_style.style
    return new


def _moved(before: State, after: State) -> list[str] | None:
    """The paths ``after`` lists anew or with another record, when it lists every path of
    ``before``; None when it lists fewer (something may be removed)."""
    old = before.pages
    if any(path not in after.pages for path in old):
        return None
    return [path for path, record in after.pages.items() if old.get(path) != record]


def diff_states(
    config: Config,
    before: State,
    after: State,
    style: UrlStyle,
    redirect_of: RedirectOf,
    unseen: Callable[[str], bool] | None = None,
) -> SiteDiff:
    """The report of the build that wrote ``after`` (its URL style ``style``) against
    ``before``, the state it started from (``unseen``: diff.compare's)."""
    base, was = before.base_url or config.base_url, old_style(config, before, style)
    # Every old path still listed at the same URLs: nothing is removed, and a page whose record
    # is the same is neither added nor changed (the comparison needs only the others' URLs).
    moved = _moved(before, after) if (base, was) == (config.base_url, style) else None
    new = by_url(after, config.base_url, style, moved)
    old = by_url(
        before, base, was, None if moved is None else (p for p in moved if p in before.pages)
    )
    same = (before.fingerprint_version, before.fingerprint_main) == (
        FINGERPRINT_VERSION,
        after.fingerprint_main,
    )
    return compare_builds(old, new, redirect_of, same_fingerprints=same, unseen=unseen)


class RemovedLookup(Protocol):
    """Where a removed URL leads (diff.compare.RedirectOf: asked of removed URLs alone), and
    whether a file still serves it: a tree's (jobs.siteredirects), a bucket's
    (jobs.bucketremoved)."""

    def __call__(self, url: str) -> tuple[str, str] | None: ...
    def served(self, url: str) -> bool: ...


def record_removed(
    config: Config,
    before: State,
    after: State,
    style: UrlStyle,
    lookup: RemovedLookup,
    unseen: Callable[[str], bool] | None = None,
) -> SiteDiff:
    """What every run that keeps a state does with what it removed: the report of ``after``
    against ``before`` (diff_states), and ``after.removed`` set from it (remember_removed)."""
    diff = diff_states(config, before, after, style, lookup, unseen)
    remember_removed(before, after, diff, lookup.served)
    return diff


def remember_removed(
    before: State, after: State, diff: SiteDiff, served: Callable[[str], bool]
) -> None:
    """Set ``after.removed``: the URLs ``diff`` removed that no longer serve a page (their
    file gone, or a redirect, even one that leads nowhere; ``served``: a file is still
    there) in URL order, at most
    MAX_REMOVED; when it removed none, those ``before`` named that it did not add back."""
    found = {
        item.url: RemovedUrl(item.verdict.value, item.target)
        for item in diff.removed
        if _redirect(item) or not served(item.url)
    }
    if not diff.removed:
        added = set(diff.added)
        found = {url: item for url, item in before.removed.items() if url not in added}
    after.removed = {url: found[url] for url in sorted(found)[:MAX_REMOVED]}


def _redirect(item: Removed) -> bool:
    """Whether the new build serves a redirect for the removed URL (leading to a listed page,
    or nowhere: diff.compare's "gone" with a target): no page is served there."""
    return item.target is not None and item.verdict is not Verdict.RENAMED


def removed_summary(removed: Iterable[Removed]) -> dict[str, Any]:
    """A summary's ``removed`` (the first MAX_REMOVED_SHOWN, in URL order: URL, verdict and
    target) and ``removed_count`` (all of them)."""
    items = sorted(removed, key=lambda item: item.url)
    shown = [
        {"url": item.url, "verdict": item.verdict.value}
        | ({} if item.target is None else {"target": item.target})
        for item in items[:MAX_REMOVED_SHOWN]
    ]
    return {"removed": shown, "removed_count": len(items)}


def removed_warnings(
    removed: Iterable[Removed], base_url: str, served: Callable[[str], bool]
) -> tuple[list[str], dict[tuple[str, str], int]]:
    """What a build says of the URLs it removed that a reader will miss, before the deploy
    (`sitemill check` says it again after): those nothing redirects and no page holds (they
    answer 404), and those whose content a new page holds (a redirect to add). A URL the
    new build redirects needs nothing, nor one whose file is still ``served`` (a page left
    out: noindex, a copy). With the warnings, their URLs counted for the first line of the run's
    summary (report.needs), by what the user is to do: (one, many) -> count."""
    gone, renamed = _missed(removed, served)
    needs = {
        ("removed URL nothing redirects", "removed URLs nothing redirects"): len(gone),
        ("removed URL to redirect", "removed URLs to redirect"): len(renamed),
    }
    short = short_urls(base_url)
    found = []
    if gone:
        urls = ", ".join(short(item.url) for item in gone[:_EXAMPLES])
        found.append(
            f"{_urls(len(gone))} removed that nothing redirects"
            f"{':' if len(gone) == 1 else ', e.g.'} {urls}; once this build is deployed, "
            f"{'it answers' if len(gone) == 1 else 'they answer'} 404: add a redirect to the "
            f"page that takes {'its' if len(gone) == 1 else 'their'} place, if one does"
        )
    if renamed:
        pairs = ", ".join(
            f"{short(item.url)} -> {short(item.target or '')}" for item in renamed[:_EXAMPLES]
        )
        found.append(
            f"{_urls(len(renamed))} removed whose content a new page holds"
            f"{':' if len(renamed) == 1 else ', e.g.'} {pairs}; add "
            f"{'this redirect' if len(renamed) == 1 else 'a redirect for each'} before "
            "this build is deployed, or the old URL answers 404"
        )
    return found, {what: count for what, count in needs.items() if count}


def _missed(
    removed: Iterable[Removed], served: Callable[[str], bool]
) -> tuple[list[Removed], list[Removed]]:
    """The removed URLs a reader will miss: those gone, and those a new page holds."""
    missed = [item for item in removed if not _redirect(item) and not served(item.url)]
    gone = [item for item in missed if item.verdict is Verdict.GONE]
    return gone, [item for item in missed if item.verdict is Verdict.RENAMED]


def _urls(count: int) -> str:
    return "1 URL" if count == 1 else f"{count:,} URLs"


def short_urls(base_url: str) -> Callable[[str], str]:
    """A URL below the base URL as its path from the root (``/about.html``), else whole; as
    sitemill shows text anywhere (messages.shown): the URLs come from the site and the state."""

    def short(url: str) -> str:
        return shown("/" + url[len(base_url) :] if url.startswith(base_url) else url)

    return short
