"""What a run found to announce and what became of it; where the URLs not sent yet live."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from sitemill.config.model import IndexNowMode
from sitemill.state.pending import CHANGE_KINDS

if TYPE_CHECKING:
    from sitemill.report import Report


class PendingStore(Protocol):
    """Where the URLs not sent yet live: the state (``indexnow.pending.StatePending``) or an
    object of their own beside a partitioned state."""

    @property
    def public(self) -> bool: ...

    def read(self) -> dict[str, str]: ...

    def write(self, pending: dict[str, str]) -> bool: ...


@dataclass
class IndexNowOutcome:
    """What a run found to announce and what became of it."""

    mode: IndexNowMode
    urls: dict[str, str] = field(default_factory=dict, repr=False)  # to announce: URL -> kind
    found: Counter[str] = field(default_factory=Counter)  # this run's, by kind
    carried: int = 0  # pending from earlier runs
    pending: int = 0  # kept for the next run
    sent: Counter[str] = field(default_factory=Counter)  # accepted, by kind
    refused: Counter[str] = field(default_factory=Counter)  # dropped for good, by reason
    held: Counter[str] = field(default_factory=Counter)  # pending, by reason
    withheld: int = 0  # removed URLs a public state does not keep
    dropped: int = 0  # over the pending cap
    would_send: list[tuple[str, int]] = field(default_factory=list)  # a dry run's batches
    messages: list[str] = field(default_factory=list)
    store: PendingStore | None = field(default=None, repr=False)
    delivered: bool = False  # a send was tried (or, in a dry run, shown)
    # The key files a check read (location -> why not live; None: live), which the send takes
    # as they are rather than asking again; None: no check, the send reads them.
    key_files: Mapping[str, str | None] | None = field(default=None, repr=False)

    def hold_back(
        self, passed: set[str], key_files: Mapping[str, str | None] | None = None
    ) -> dict[str, str]:
        """Keep to announce only the URLs that ``passed`` a check of the live site (and the
        ``key_files`` it read, for the send); the others (URL -> kind), for ``deliver`` to
        keep pending."""
        self.key_files = key_files
        held = {url: kind for url, kind in self.urls.items() if url not in passed}
        self.urls = {url: kind for url, kind in self.urls.items() if url in passed}
        return held

    def counts(self) -> dict[str, Any]:
        """The numbers for a Lambda summary or a job summary."""
        counts: dict[str, Any] = {
            "mode": self.mode.value,
            "found": {kind: self.found[kind] for kind in CHANGE_KINDS if self.found[kind]},
            "from_earlier_runs": self.carried,
            "sent": sum(self.sent.values()),
            "pending": self.pending,
            "refused": sum(self.refused.values()),
        }
        if self.held:
            counts["pending_by_reason"] = dict(sorted(self.held.items()))
        if self.refused:
            counts["refused_by_reason"] = dict(sorted(self.refused.items()))
        if self.withheld or self.dropped:
            counts["withheld"], counts["dropped"] = self.withheld, self.dropped
        if self.would_send:
            counts["would_send"] = sum(count for _, count in self.would_send)
        return counts

    def line(self) -> str:
        """One line for a terminal: what was found, and sent, kept or refused."""
        kinds = ", ".join(
            f"{self.found[kind]:,} {kind}" for kind in CHANGE_KINDS if self.found[kind]
        )
        found = f"{len(self.urls):,} URL(s) to announce ({kinds or 'none new'}"
        found += f"; {self.carried:,} from earlier runs)" if self.carried else ")"
        if self.would_send:
            return f"IndexNow: {found}; would send {sum(c for _, c in self.would_send):,}"
        if not self.delivered:
            return f"IndexNow: {found}; {self.pending:,} pending for `sitemill indexnow`"
        held, refused = _by_reason(self.held), _by_reason(self.refused)
        return (
            f"IndexNow: {found}; {sum(self.sent.values()):,} sent, {self.pending:,} pending"
            + (f" ({held})" if held else "")
            + (f", {sum(self.refused.values()):,} refused ({refused})" if refused else "")
        )


def _by_reason(counts: Counter[str]) -> str:
    return ", ".join(f"{reason} {count:,}" for reason, count in sorted(counts.items()))


def outcome_of(report: Report) -> IndexNowOutcome | None:
    """IndexNow's outcome of a run, as its feature kept it in ``report`` (the report, which
    names no feature, holds it as report.Announcing); None: the run announced nothing."""
    found = report.indexnow
    return found if isinstance(found, IndexNowOutcome) else None
