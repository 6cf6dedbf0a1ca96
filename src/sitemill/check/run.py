"""A check of the live site against what a build published, in the order of its steps."""
# The sitemap files (and robots.txt), each output feature's files (those of the pages asked
# too), the chosen <loc>s and their alternates, the URLs the last build removed, those pending as
# removed, and last each output feature's gate (a file engines read first): every problem once,
# and the URLs that passed, which are the only ones an output feature may announce. The check
# names no feature: each comes in the list its front end gives (CheckOptions.outputs).

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol, runtime_checkable

from sitemill.check._alternates import check_alternates
from sitemill.check._canonicals import check_canonicals
from sitemill.check._livepages import PageVerdict, judge_page, redirect_fixes
from sitemill.check._livesitemaps import check_sitemaps, check_user_sitemaps
from sitemill.check._removedurls import check_removed
from sitemill.check.problems import PAGE, SITE, UNCHECKED, CheckReport
from sitemill.check.published import (
    UNCHANGED_SAMPLE,
    Fingerprinting,
    Published,
    SiteFolder,
    chosen_urls,
)
from sitemill.config.model import Config
from sitemill.lastmod.fingerprint.digest import MAX_FINGERPRINT_BYTES
from sitemill.web.livesite import LiveSite, origin_or_blank


class LiveCopies(Protocol):
    """An output feature's part in a check (sitemill.outputs): its files as the live site
    serves them, beside the sitemaps."""

    def check_live_copies(
        self, site: LiveSite, published: Published, report: CheckReport, urls: list[str]
    ) -> None:
        """Each of its files ``published`` names, asked of ``site``, its problems into
        ``report``; ``urls``: the pages the check asks (a file of a page's may go with it)."""
        ...


@runtime_checkable
class AnnouncementGate(Protocol):
    """An output feature whose announcements need more than the pages live (IndexNow's key
    file): asked after the pages, when it has this hook."""

    def check_gate(self, site: LiveSite, config: Config, report: CheckReport) -> bool:
        """Whether the URLs that passed may be announced (False: none has passed), what it
        asked of ``site`` wrong a problem in ``report``."""
        ...


@dataclass(frozen=True, slots=True)
class CheckOptions:
    every: bool = False  # every <loc>, not the changed ones and a sample
    sample: int = UNCHANGED_SAMPLE
    outputs: Sequence[LiveCopies] = ()  # the output features the front end lists: their files


def check_live(
    config: Config, published: Published, site: LiveSite, options: CheckOptions
) -> CheckReport:
    """What is wrong with the live site, step by step; ``report.passed``: the checked
    <loc>s (and removed URLs) that IndexNow may announce."""
    started = time.monotonic()
    report = CheckReport(published.base_url, listed=len(published.pages))
    if _built_elsewhere(published, report):
        return report  # (every URL would differ: one cause, said once, nothing asked)
    check_sitemaps(site, published, report)
    check_user_sitemaps(site, published, report)
    urls = chosen_urls(published, every=options.every, sample=options.sample)
    for output in options.outputs:  # (each output feature's files)
        output.check_live_copies(site, published, report, urls)
    report.pages = len(urls)
    report.changed = sum(1 for url in urls if url in published.changed)
    how = published.fingerprinting
    files = SiteFolder(published.files) if published.files is not None else None
    verdicts: dict[str, PageVerdict] = {}
    judged = site.get_many(
        urls,
        MAX_FINGERPRINT_BYTES,
        lambda a: judge_page(a, published.pages[a.url], how, files),
        head=True,
    )
    for verdict in judged:
        verdicts[verdict.url] = verdict
    fixes = redirect_fixes(site, verdicts)
    for url, verdict in verdicts.items():
        fix = fixes.get(url)
        report.problems.extend(
            replace(p, fix=fix) if fix and p.kind == PAGE else p for p in verdict.problems
        )
    check_canonicals(site, verdicts, report)
    check_alternates(site, verdicts, report)
    report.passed = {url for url, verdict in verdicts.items() if verdict.passed}
    _note_uncompared(how, verdicts, report)
    left = check_removed(site, published, report, every=options.every, sample=options.sample)
    report.passed |= _gone(site, published, report, left)
    gates = [output for output in options.outputs if isinstance(output, AnnouncementGate)]
    if not all(gate.check_gate(site, config, report) for gate in gates):
        report.passed = set()  # (a gate shut: none may be announced)
    _unreachable(site, report)
    report.requests, report.seconds = site.requests, time.monotonic() - started
    return report


def _built_elsewhere(published: Published, report: CheckReport) -> bool:
    """Whether the build published for another base URL than the one checked (the problem
    says so, naming both)."""
    built = published.built_for
    if built is None or built == published.base_url:
        return False
    report.add(
        published.base_url,
        SITE,
        f"is not the base URL the last build published for ({built})",
        f"check with --base-url {built}, or build for {published.base_url} first",
    )
    return True


def _unreachable(site: LiveSite, report: CheckReport) -> None:
    """A host that never answered: one problem with the reason, instead of one per URL (each
    of them is that one), and nothing passed."""
    for origin, reason in sorted(site.unreachable().items()):
        report.problems = [p for p in report.problems if origin_or_blank(p.url) != origin]
        report.sitemaps = report.pages = report.changed = report.removed = 0
        report.llms = report.twins = 0
        report.add(
            origin + "/",
            SITE,
            f"could not be reached ({reason}); nothing was checked",
            "check the base URL and that the site is deployed and up, then check again",
        )
        report.passed = set()


def _note_uncompared(
    how: Fingerprinting | None, verdicts: dict[str, PageVerdict], report: CheckReport
) -> None:
    """A state whose fingerprints this sitemill cannot compute: what was compared, and how
    many pages were not (not a pass: IndexNow keeps them pending)."""
    if how is None or how.remembered:
        return
    uncompared = sum(1 for verdict in verdicts.values() if not verdict.compared)
    note = (
        "the state's fingerprints are of a version this sitemill cannot compute (another "
        "sitemill's): pages were compared by their bytes"
    )
    if uncompared:
        note += (
            f"; {uncompared:,} with no published bytes at hand were not compared, and are not "
            "announced (the next build makes comparable fingerprints)"
        )
    report.notes.append(note)


def _gone(
    site: LiveSite, published: Published, report: CheckReport, left: dict[str, bool]
) -> set[str]:
    """The URLs pending as removed that no longer answer 200 (announced as gone); those
    the removed URLs' step asked (``left``: whether each serves the page no more) are not
    asked again, and their problems are that step's."""
    gone = {url for url in published.removed if left.get(url)}
    for answer in site.answers(sorted(url for url in published.removed if url not in left)):
        if answer.status is not None and answer.status != 200:
            gone.add(answer.url)
        elif answer.status == 200:
            report.add(
                answer.url,
                PAGE,
                "left the sitemaps but still answers 200",
                "delete it from the host (aws s3 sync --delete), or redirect it",
            )
        elif not answer.asked:
            report.add(answer.url, UNCHECKED, answer.problem, "run the check again")
    return gone
