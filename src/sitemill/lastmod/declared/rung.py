"""Rung 3 of the evidence ladder: a first-seen page's declared modification date, asked."""
# The candidates (each page's in-page declarations, then the replaced generator sitemap's
# ``<lastmod>``: docs/lastmod.md, "Declared dates") of every page the ladder may date are gathered
# first; the checks (sitemill.lastmod.declared.checks: not the publication date, no build stamp, not
# behind the history the run has) run once over all of them, the first time a page is asked for, so
# the dates depend on the pages only, never on the order they are dated in.

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

from sitemill.lastmod.decide import DateReason, Evidence
from sitemill.lastmod.declared.buildstamps import StampCheck
from sitemill.lastmod.declared.checks import behind_history, check_declared, distrust_when_behind
from sitemill.lastmod.declared.w3cdate import DeclaredDate, DeclaredPrecision
from sitemill.lastmod.proof import Proof, Rung

# Every first-seen page's candidates, in order of preference (called once, when asked first).
Candidates = Callable[[], Mapping[str, Sequence[DeclaredDate]]]
# The pages the run's history dates: each one's declarations, and its history date.
HistoryDates = Callable[[], tuple[Mapping[str, Sequence[DeclaredDate]], Mapping[str, datetime]]]


class DeclaredRung:
    """An EvidenceProvider (sitemill.lastmod.decide): the declared date of a page the stamp
    check accepts, as a lastmod at full precision (a date without a time stays a date).
    ``history``: the pages the run's history dates, to hold the site's declared dates against
    (None: the run has none, as in a bucket)."""

    def __init__(
        self, candidates: Candidates, run_time: datetime, history: HistoryDates | None = None
    ) -> None:
        self._candidates = candidates
        self._run_time = run_time
        self._history = history
        self._check: StampCheck[str] | None = None

    def check(self) -> StampCheck[str]:
        """The checks over all the candidates (made on the first call)."""
        if self._check is None:
            found = {page: dates for page, dates in self._candidates().items() if dates}
            self._check = check_declared(found, self._run_time)
            if self._history is not None and self._check.accepted:
                declared, dates = self._history()
                known = check_declared(declared, self._run_time).accepted
                self._check = distrust_when_behind(self._check, behind_history(known, dates))
        return self._check

    def __call__(self, path: str) -> Evidence | None:
        declared = self.check().accepted.get(path)
        if declared is None:
            return None
        proof = Proof(Rung.DECLARED, kind=declared.source)  # (what sitemill why names)
        return Evidence(as_lastmod(declared), DateReason.DECLARED, proof)


def as_lastmod(declared: DeclaredDate) -> str:
    """``YYYY-MM-DD`` for a date, ``YYYY-MM-DDThh:mm:ss+00:00`` for an instant."""
    if declared.precision is DeclaredPrecision.DAY:
        return declared.when.strftime("%Y-%m-%d")
    return declared.when.strftime("%Y-%m-%dT%H:%M:%S+00:00")
