"""IndexNow in the Action: a build's key file and announcements, and `command: indexnow`."""
# A build's key file and announcements come before its commit; `command: indexnow` sends what the
# committed state holds pending, then commits the state with what is left, so that a later build
# does not send it again.

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from sitemill.commands.adapters import folder_pending, require_indexnow_key
from sitemill.config.model import Config
from sitemill.errors import SitemillError
from sitemill.github._previous import state_name
from sitemill.github._push import Committed, commit_outputs
from sitemill.github.settings import Settings
from sitemill.indexnow.outcome import IndexNowOutcome, outcome_of
from sitemill.indexnow.run import deliver, pending_outcome
from sitemill.jobs.afterpublish import WriteFile, after_publishing
from sitemill.jobs.asked import RunAsked
from sitemill.jobs.features import OUTPUTS
from sitemill.report import Report

if TYPE_CHECKING:
    from sitemill.indexnow.pending import StatePending

_T = TypeVar("_T")

NO_KEY_INPUT = (
    ": set the indexnow-key input from a secret (indexnow-key: ${{ secrets.INDEXNOW_KEY }})"
)


# What it costs when the state with what is left pending is not committed.
SENT_NOT_KEPT = "the next checkout still holds the URLs just sent, and a build sends them again"


@dataclass
class Announcer:
    """Delivers a run's announcements, once per attempt at a commit.

    A push the remote refused is retried on its new tip (sitemill.github._push), where the
    outputs are made again from a state that still holds what an earlier attempt sent: that
    is neither sent again nor kept pending, and the counts are the attempts' together.
    """

    config: Config
    done: dict[str, str] = field(default_factory=dict)  # URL -> kind: sent or refused
    sent: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)

    def after_publishing(self, report: Report, write_file: WriteFile) -> None:
        """A build's: the key file where asked, then (indexnow = send) the announcements."""
        asked = self._skip_done(outcome_of(report))
        after_publishing(self.config, report, write_file, RunAsked(OUTPUTS))
        self._settle(outcome_of(report), asked, report.warnings)

    def deliver(self, outcome: IndexNowOutcome, held: dict[str, str] | None = None) -> None:
        """Send ``outcome.urls`` but those an earlier attempt did; ``held``: pending URLs a
        check kept back (indexnow.run.deliver)."""
        asked = self._skip_done(outcome)
        deliver(self.config, outcome, held=held)
        self._settle(outcome, asked, outcome.messages)

    def _skip_done(self, outcome: IndexNowOutcome | None) -> dict[str, str]:
        if outcome is None:
            return {}
        asked = dict(outcome.urls)
        outcome.urls = {url: kind for url, kind in asked.items() if self.done.get(url) != kind}
        return asked

    def _settle(
        self, outcome: IndexNowOutcome | None, asked: dict[str, str], warnings: list[str]
    ) -> None:
        if outcome is None or not outcome.delivered:
            return
        left = outcome.store.read() if outcome.store is not None else {}
        self.done.update((url, kind) for url, kind in asked.items() if left.get(url) != kind)
        self.sent += outcome.sent
        self.refused += outcome.refused
        outcome.sent, outcome.refused = Counter(self.sent), Counter(self.refused)
        if len(outcome.urls) == len(asked) or outcome.store is None:
            return
        # (with nothing left to send, deliver wrote nothing: the state still holds them)
        kept = {url: kind for url, kind in left.items() if self.done.get(url) != kind}
        outcome.pending = len(kept)
        try:
            outcome.store.write(kept)
        except SitemillError as exc:
            warnings.append(f"IndexNow: what is left pending could not be kept: {exc}")


@dataclass
class Announced:
    """What `command: indexnow` did: the announcements, and the commit of the state."""

    outcome: IndexNowOutcome
    committed: Committed
    changed: bool  # the state's pending list changed
    warnings: list[str] = field(default_factory=list)


def announce_pending(settings: Settings, env: Mapping[str, str]) -> Announced:
    """Send the URLs the state holds pending; commit the state with what is left."""
    config = settings.config
    require_indexnow_key(config, NO_KEY_INPUT)
    name = state_name(settings)
    warnings: list[str] = []

    def send(store: StatePending, announcer: Announcer) -> tuple[IndexNowOutcome, bool]:
        before = store.store.read()
        if before is None:
            warnings.append(
                f"IndexNow: no state at {name}: nothing is pending (does this step name the "
                "same `state`, `path` and `output-dir` as the build?)"
            )
        outcome = pending_outcome(config, store)
        announcer.deliver(outcome)
        return outcome, store.store.read() != before

    (outcome, changed), committed = send_committed(settings, env, send)
    return Announced(outcome, committed, changed, list(dict.fromkeys(warnings)))


def send_committed(
    settings: Settings, env: Mapping[str, str], send: Callable[[StatePending, Announcer], _T]
) -> tuple[_T, Committed]:
    """``send`` from the pending URLs where a build with these inputs keeps them, once per
    attempt at committing the state (a push the remote refused is retried on its new tip:
    sitemill.github._push), with one Announcer over the attempts; the last attempt's
    answer, and the commit of the state with what is left pending."""
    config = settings.config
    store = folder_pending(config, settings.site_dir, settings.out_dir)
    announcer = Announcer(config)
    answers: list[_T] = []

    def produce() -> list[str]:
        answers.append(send(store, announcer))
        return []

    committed = commit_outputs(settings, env, produce, {state_name(settings): SENT_NOT_KEPT})
    return answers[-1], committed


def indexnow_outputs(outcome: IndexNowOutcome | None) -> dict[str, str]:
    """``indexnow-sent`` and ``indexnow-pending``: URL counts, empty when IndexNow is off."""
    if outcome is None:
        return {"indexnow-sent": "", "indexnow-pending": ""}
    return {
        "indexnow-sent": str(sum(outcome.sent.values())),
        "indexnow-pending": str(outcome.pending),
    }
