"""The change report's data: the URLs a build adds, changes and removes, and each removal's fate."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any


class Verdict(Enum):
    """What a reader who follows a removed URL gets from the new build."""

    REDIRECTED = "redirected"  # the new build serves a redirect for it (to a page it serves)
    RENAMED = "renamed"  # no redirect, but a new page holds its content: suggest one
    GONE = "gone"  # no redirect, no page with its content: a 404


@dataclass(frozen=True, slots=True)
class Removed:
    """A URL the old build listed and the new one does not. ``target``: where its redirect
    leads (redirected) or the new page that holds its content (renamed); ``resemblance``:
    how nearly (1.0, the same content fingerprint); ``detail``: one line on the evidence
    (which redirect, why gone)."""

    url: str
    verdict: Verdict
    target: str | None = None
    resemblance: float | None = None
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Changed:
    """A URL both builds list whose content changed: the new date and its evidence."""

    url: str
    lastmod: str | None
    evidence: str


@dataclass(frozen=True, slots=True)
class SiteDiff:
    """The change report of one build against a state, each list in URL order."""

    added: tuple[str, ...]
    changed: tuple[Changed, ...]
    removed: tuple[Removed, ...]

    def with_verdict(self, verdict: Verdict) -> tuple[Removed, ...]:
        return tuple(removed for removed in self.removed if removed.verdict is verdict)

    @property
    def gone(self) -> tuple[Removed, ...]:
        return self.with_verdict(Verdict.GONE)

    def counts(self) -> dict[str, int]:
        found = {"added": len(self.added), "changed": len(self.changed)}
        found["removed"] = len(self.removed)
        for verdict in Verdict:
            found[verdict.value] = len(self.with_verdict(verdict))
        return found


def diff_to_json(diff: SiteDiff) -> dict[str, Any]:
    """The report as JSON for machines (``sitemill diff --json``, the Action, the Lambda)."""
    return {
        "counts": diff.counts(),
        "added": list(diff.added),
        "changed": [
            {"url": item.url, "lastmod": item.lastmod, "evidence": item.evidence}
            for item in diff.changed
        ],
        "removed": [_removed_json(item) for item in diff.removed],
    }


def _removed_json(item: Removed) -> dict[str, Any]:
    found: dict[str, Any] = {"url": item.url, "verdict": item.verdict.value}
    if item.target is not None:
        found["target"] = item.target
    if item.resemblance is not None:
        found["resemblance"] = round(item.resemblance, 3)
    if item.detail:
        found["detail"] = item.detail
    return found
