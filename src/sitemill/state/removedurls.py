"""The URLs the last build removed, kept in its state for `sitemill check` after the deploy."""
# Only URLs whose file the new build no longer has: a page left out but still served (noindex,
# a canonical elsewhere) is not named, since a state beside the sitemaps is public and names no
# page the sitemaps leave out (docs/state.md). Each with what the build found of it (diff.model:
# redirected, renamed, gone) and the redirect's target or the suggested one. Read checked and
# bounded: a state is input from outside.

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

MAX_REMOVED: Final = 10_000  # URLs kept at most (the first in URL order)
MAX_URL: Final = 2_048  # characters of a removed URL or target read at most (the protocol's)
FATES: Final = ("redirected", "renamed", "gone")


@dataclass(frozen=True, slots=True)
class RemovedUrl:
    """What the build that removed a URL found of it: ``verdict`` (one of FATES) and the
    URL its redirect leads to or the one suggested (None: gone)."""

    verdict: str
    target: str | None = None


def removed_to_json(removed: dict[str, RemovedUrl]) -> dict[str, Any]:
    """The record as the state writes it, in URL order."""
    return {
        url: {"verdict": item.verdict, **({} if item.target is None else {"target": item.target})}
        for url, item in sorted(removed.items())
    }


def removed_from_json(value: object) -> dict[str, RemovedUrl]:
    """A state's record, checked: absolute http(s) URLs, known verdicts, at most MAX_REMOVED;
    anything else is dropped (never trusted: the check asks these URLs on the site's origin
    only, sitemill.check)."""
    if not isinstance(value, dict) or len(value) > MAX_REMOVED:
        return {}
    found: dict[str, RemovedUrl] = {}
    for url, item in value.items():
        if not _is_url(url) or not isinstance(item, dict):
            continue
        verdict, target = item.get("verdict"), item.get("target")
        if verdict not in FATES or not (target is None or _is_url(target)):
            continue
        found[url] = RemovedUrl(verdict, target)
    return found


def _is_url(value: object) -> bool:
    return (
        isinstance(value, str)
        and len(value) <= MAX_URL
        and value.startswith(("https://", "http://"))
        and value.isprintable()
    )
