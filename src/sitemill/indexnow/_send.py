"""IndexNow: post the announced URLs, per host in batches, once the host's key file is live."""
# Each origin (``scheme://host[:port]``) is one group: its key file is read first (an engine would
# refuse a key it cannot find, and count that against the site), then its URLs go out sorted,
# BATCH_SIZE to a POST. An engine's answer decides each batch: accepted (200, 202), refused for good
# (400, 422: sending again would be refused again), or kept for the next run (403, 429 once the
# waiting is spent, 5xx, anything else, no answer); after a kept batch the origin's later batches
# are kept too. No message, exception or repr holds the key, and the POST's body is never logged.

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Final
from urllib.parse import urlsplit

from sitemill.indexnow._post import Answer, key_file_problem, post, retry_wait
from sitemill.indexnow.key import IndexNowTarget
from sitemill.messages import register_secret, shown

BATCH_SIZE: Final = 10_000  # the most URLs IndexNow takes in one POST
KEY_MISSING: Final = "no IndexNow key (set SITEMILL_INDEXNOW_KEY or indexnow_key)"
NOT_LIVE: Final = "key file not live"
NO_ANSWER: Final = "no answer"
KEY_FILE_UNREAD: Final = "the check did not read it"
_REFUSED: Final = {400: "400 bad request", 422: "422 URLs not for this host or key"}
_NOT_HTTP: Final = "not an absolute http(s) URL"


@dataclass(frozen=True, slots=True)
class SendLimits:
    """How much a send may take: ``batch_size`` URLs to a POST; ``timeout`` bounds each
    silence and ``deadline`` each request (the key file's GET and every POST); ``max_wait``
    bounds the seconds ``sleep`` is given after 429s, all origins together."""

    batch_size: int = BATCH_SIZE
    sleep: Callable[[float], None] = time.sleep
    timeout: float = 10.0
    deadline: float = 30.0
    max_wait: float = 60.0


_LIMITS: Final = SendLimits()


@dataclass
class SendReport:
    """What one call sent, kept for the next run and dropped; URLs map to their kind."""

    sent: dict[str, str] = field(default_factory=dict)  # accepted (200, 202)
    pending: dict[str, str] = field(default_factory=dict)  # for the next run
    refused: Counter[str] = field(default_factory=Counter)  # reason -> URLs dropped for good
    held: Counter[str] = field(default_factory=Counter)  # reason -> URLs of ``pending``
    messages: list[str] = field(default_factory=list)  # one line each, for warnings
    would_send: list[tuple[str, int]] = field(default_factory=list)  # dry run: (origin, URLs)


def send_announcements(
    urls: Mapping[str, str],
    settings: IndexNowTarget,
    *,
    dry_run: bool = False,
    key_files: Mapping[str, str | None] | None = None,
    limits: SendLimits = _LIMITS,
) -> SendReport:
    """Post ``urls`` (URL -> "added", "changed" or "removed") to ``settings.endpoint``, within
    ``limits`` (SendLimits).

    ``key_files``: what a check found of each key file (location -> why it is not
    live, None when it is), taken as it is: no key file is read again, and one it did not
    read is not live. A dry run contacts nothing and lists the batches it would post."""
    batch_size = limits.batch_size
    if batch_size < 1:
        raise ValueError(f"batch_size must be 1 or more ({batch_size} given)")
    if settings.key:
        register_secret(settings.key)  # (settings built in code never went through parsing)
    report = SendReport()
    groups = _by_origin(urls, report)
    if dry_run:
        report.would_send = [
            (origin, len(batch))
            for origin, group in groups
            for batch in _batches(group, batch_size)
        ]
        if not settings.key and groups:
            report.messages.append(f"IndexNow: {KEY_MISSING}: a real run would send nothing")
        return report
    if not settings.key:
        for _, group in groups:
            _keep(report, urls, group, "no key")
        if groups:
            report.messages.append(f"IndexNow: {KEY_MISSING}; {_urls(len(report.pending))} kept")
        return report
    sender = _Sender(settings, report, urls, limits, key_files)
    for origin, group in groups:
        sender.send_origin(origin, _batches(group, batch_size))
    return report


def _by_origin(urls: Mapping[str, str], report: SendReport) -> list[tuple[str, list[str]]]:
    """The URLs by origin (scheme and host lower-cased, no user info), each group sorted; a
    URL that names no http(s) host cannot be announced: refused."""
    groups: dict[str, list[str]] = {}
    for url in urls:
        try:
            parts = urlsplit(url)
            scheme, host = parts.scheme.lower(), parts.hostname
        except ValueError:  # an unclosed [IPv6 address
            scheme, host = "", None
        if scheme not in ("http", "https") or not host:
            report.refused[_NOT_HTTP] += 1
            continue
        netloc = parts.netloc.rpartition("@")[2].lower()
        groups.setdefault(f"{scheme}://{netloc}", []).append(url)
    if report.refused[_NOT_HTTP]:
        count = report.refused[_NOT_HTTP]
        report.messages.append(f"IndexNow: {_urls(count)} without an http(s) host not sent")
    return [(origin, sorted(groups[origin])) for origin in sorted(groups)]


def _batches(group: list[str], size: int) -> list[list[str]]:
    return [group[start : start + size] for start in range(0, len(group), size)]


def _keep(report: SendReport, urls: Mapping[str, str], batch: list[str], reason: str) -> None:
    report.pending.update((url, urls[url]) for url in batch)
    report.held[reason] += len(batch)


class _Sender:
    """Posts one origin's batches after its key file check; shares the 429 waiting budget."""

    def __init__(
        self,
        settings: IndexNowTarget,
        report: SendReport,
        urls: Mapping[str, str],
        limits: SendLimits,
        key_files: Mapping[str, str | None] | None,
    ) -> None:
        self.settings, self.report, self.urls, self.sleep = settings, report, urls, limits.sleep
        self.key_files = key_files
        self.timeout, self.deadline, self.budget = limits.timeout, limits.deadline, limits.max_wait
        self.endpoint = self._quoted(settings.endpoint)

    def send_origin(self, origin: str, batches: list[list[str]]) -> None:
        location = self.settings.location_for(origin)
        problem = self._key_file_problem(location)
        count = sum(map(len, batches))
        if problem is not None:
            self._keep_rest(batches, NOT_LIVE)
            self.report.messages.append(
                f"IndexNow: nothing sent for {self._quoted(origin)}: its key file "
                f"{self._quoted(location)} is not live ({self._quoted(problem)}); "
                f"{_urls(count)} kept for the next run"
            )
            return
        host = urlsplit(origin).hostname or ""
        body = {"host": host, "key": self.settings.key, "keyLocation": location}
        for index, batch in enumerate(batches):
            if not self._send_batch(origin, {**body, "urlList": batch}, batches[index:]):
                return

    def _key_file_problem(self, location: str) -> str | None:
        """Why the key file at ``location`` is not live: as the check found it, else asked."""
        if self.key_files is not None:
            return self.key_files.get(location, KEY_FILE_UNREAD)
        return key_file_problem(
            location, self.settings.key, timeout=self.timeout, deadline=self.deadline
        )

    def _send_batch(self, origin: str, body: dict[str, object], rest: list[list[str]]) -> bool:
        """One batch, again after each 429 while the budget lasts; False: the origin stops."""
        batch = rest[0]
        attempt, waited = 0, 0.0
        while True:
            answer = post(
                self.settings.endpoint, body, timeout=self.timeout, deadline=self.deadline
            )
            if answer.status != 429:
                break
            wait = retry_wait(answer.retry_after, attempt, time.time())
            if wait > self.budget:
                note = f" after {waited:g} s of waiting"
                return self._stop(origin, rest, "429 too many requests", answer, note)
            self.budget -= wait
            waited += wait
            self.sleep(wait)
            attempt += 1
        if answer.status in (200, 202):
            self.report.sent.update((url, self.urls[url]) for url in batch)
            return True
        if answer.status in _REFUSED:
            reason = _REFUSED[answer.status]
            self.report.refused[reason] += len(batch)
            self.report.messages.append(
                f"IndexNow: {self.endpoint} refused {_urls(len(batch))} of "
                f"{self._quoted(origin)}: HTTP {reason}{self._excerpt(answer)}; "
                "they are not sent again"
            )
            return True
        note = ""
        if answer.status == 403:
            location = self.settings.location_for(origin)
            note = f" (it reads the key at {self._quoted(location)})"
        return self._stop(origin, rest, _held_reason(answer.status), answer, note)

    def _stop(
        self, origin: str, rest: list[list[str]], reason: str, answer: Answer, note: str = ""
    ) -> bool:
        """Keep ``rest`` (the origin's batches from this one on) for the next run; False."""
        count = self._keep_rest(rest, reason)
        what = (
            f"{self.endpoint} answered HTTP {reason}"
            if answer.status is not None
            else f"no answer from {self.endpoint}"
        )
        self.report.messages.append(
            f"IndexNow: {what} for {self._quoted(origin)}{note}{self._excerpt(answer)}; "
            f"{_urls(count)} kept for the next run"
        )
        return False

    def _keep_rest(self, rest: list[list[str]], reason: str) -> int:
        for batch in rest:
            _keep(self.report, self.urls, batch, reason)
        return sum(map(len, rest))

    def _excerpt(self, answer: Answer) -> str:
        return f": {self._quoted(answer.detail)}" if answer.detail else ""

    def _quoted(self, text: str) -> str:
        """``text`` as a message may show it: the key as ``<key>``, then ``shown``."""
        return shown(text.replace(self.settings.key, "<key>"))


def _held_reason(status: int | None) -> str:
    if status is None:
        return NO_ANSWER
    if status == 403:
        return "403 key not verified"
    if 500 <= status <= 599:
        return f"{status} server error"
    return f"{status} unexpected answer"


def _urls(count: int) -> str:
    return f"{count:,} URL" if count == 1 else f"{count:,} URLs"
