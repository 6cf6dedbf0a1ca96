"""A check's step after the pages: the URLs the last build removed, asked where readers ask them."""
# docs/check.md, "The URLs the last build removed": a removed URL that answers 404 or 410 is a
# problem (with the redirect that fixes it when the build found where its content went); one that
# still answers 200 is a copy the deploy did not delete (unless it is a redirect page). A redirect
# is asked once (one hop), and only on the site's own origin: a URL of the state on another host is
# a note, never a request. With --all every one, else the sample the pages' check takes.

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Final
from urllib.parse import urlsplit

from sitemill.bounded.inflate import inflate_head
from sitemill.check._livepages import MAX_TARGETS_ASKED
from sitemill.check.problems import REMOVED_URL, UNCHECKED, CheckReport, Problem
from sitemill.check.published import Published, smallest_hashes
from sitemill.check.served import redirect_target, same_url
from sitemill.html.facts import PAGE_FACTS_BYTES, read_page_facts
from sitemill.html.links import resolve_url
from sitemill.state.removedurls import RemovedUrl
from sitemill.urls import split_url
from sitemill.web.livesite import REDIRECTS, RUN_DEADLINE, LiveAnswer, LiveSite

_NOT_FOUND: Final = frozenset({404, 410})
MAX_NOTED: Final = 20  # "redirected now" notes, one a URL; the rest are counted in one more
_HOSTS_FORMS: Final = (
    "in the host's own configuration (a _redirects line, an S3 routing rule, a redirect page)"
)


@dataclass(frozen=True, slots=True)
class RemovedAnswer:
    """What one removed URL answered, judged: its problem (None: fine), a note, the URL of
    the site it leads to now (asked once: one hop), and whether it serves the page no more."""

    url: str
    problem: Problem | None = None
    note: str = ""
    leads_to: str = ""
    left: bool = False  # answered, and no longer serves the page (IndexNow may say so)
    asked: bool = True  # False: not asked (the deadline, its host unreachable)


def check_removed(
    site: LiveSite, published: Published, report: CheckReport, *, every: bool, sample: int
) -> dict[str, bool]:
    """Ask the URLs the last build removed (every one, or ``sample`` of them) on the site's
    origin, each problem into ``report``; URL -> whether it serves the page no more, for each
    asked (check.run hands these to IndexNow's removed URLs: none is asked twice)."""
    removals = published.removals
    if not removals:
        return {}  # (no request, no line: a state that names none is checked as before)
    on_site = [url for url in removals if site.on_site(url)]
    off_site = len(removals) - len(on_site)
    if off_site:
        report.notes.append(
            f"not asked: {off_site:,} URL(s) the last build removed, not on the site's origin "
            "(a check asks the site's own origin only)"
        )
    urls = sorted(on_site) if every else sorted(smallest_hashes(on_site, sample))
    report.removed, report.removed_kept = len(urls), len(on_site)
    judged = list(
        site.get_many(
            urls, PAGE_FACTS_BYTES, lambda a: judge_removed(a, removals[a.url], site), head=True
        )
    )
    judged = _one_hop(site, judged, removals)
    report.problems.extend(j.problem for j in judged if j.problem is not None)
    _note_redirected(sorted(j.note for j in judged if j.note), report)
    return {j.url: j.left for j in judged if j.asked}


def judge_removed(answer: LiveAnswer, removed: RemovedUrl, site: LiveSite) -> RemovedAnswer:
    """What is wrong with what a removed URL answers, given what the build found of it."""
    url, status = answer.url, answer.status
    if not answer.asked and answer.problem == RUN_DEADLINE:
        problem = Problem(url, UNCHECKED, answer.problem, "run the check again")
        return RemovedAnswer(url, problem, asked=False)
    if status is None:
        fix = "the host said nothing of it: check again when it answers"
        problem = Problem(url, REMOVED_URL, f"no answer ({answer.problem})", fix)
        return RemovedAnswer(url, problem, asked=answer.asked)
    if status in REDIRECTS:
        led = _led(url, removed, redirect_target(answer), f"answers {status}", site)
        return replace(led, left=True)
    if status in _NOT_FOUND:
        problem = Problem(url, REMOVED_URL, *_not_found(url, status, removed))
        return RemovedAnswer(url, problem, left=True)
    if status != 200:
        what = f"answers HTTP {status}, not a redirect (the last build removed it)"
        fix = "make the host answer it with a redirect: " + _suggested(url, removed)
        return RemovedAnswer(url, Problem(url, REMOVED_URL, what, fix))
    stub = _refresh_target(answer)
    if stub and not same_url(stub, url):  # (a refresh that only reloads the page leads nowhere)
        led = _led(url, removed, stub, "is a redirect page (meta refresh)", site)
        return replace(led, left=True)
    what = "still answers 200 though the last build removed it (a copy the deploy did not delete)"
    return RemovedAnswer(url, Problem(url, REMOVED_URL, what, _still_served_fix(url, removed)))


def _led(url: str, removed: RemovedUrl, target: str, how: str, site: LiveSite) -> RemovedAnswer:
    """A removed URL that leads to ``target`` (a redirect, a redirect page): fine on the
    site (asked once), a problem when it leads nowhere or to another host than the build's."""
    recorded = removed.target
    if not target:
        what = f"{how}, a redirect to nowhere (no Location)"
        return RemovedAnswer(url, Problem(url, REMOVED_URL, what, _suggested_fix(url, removed)))
    if recorded is not None and same_url(target, recorded):
        return RemovedAnswer(url, leads_to=target if site.on_site(target) else "")
    if not site.on_site(target):
        what = f"{how}, a redirect to {target}, on another host (not followed)"
        return RemovedAnswer(url, Problem(url, REMOVED_URL, what, _suggested_fix(url, removed)))
    if removed.verdict == "redirected":
        note = f"{url}: redirected now to {target}, not to {recorded} (the build's redirect)"
    else:
        note = f"{url}: redirected now, to {target} (the build served no redirect for it)"
    return RemovedAnswer(url, note=note, leads_to=target)


def _one_hop(
    site: LiveSite, judged: list[RemovedAnswer], removals: Mapping[str, RemovedUrl]
) -> list[RemovedAnswer]:
    """Each redirect's target on the site asked once (at most MAX_TARGETS_ASKED): one that answers
    404 or 410 makes the redirect a problem (a reader still lands on nothing)."""
    asked = sorted({j.leads_to for j in judged if j.leads_to})[:MAX_TARGETS_ASKED]
    if not asked:
        return judged
    missing = {a.url: a.status for a in site.answers(asked) if a.status in _NOT_FOUND}
    found = []
    for item in judged:
        status = missing.get(item.leads_to) if item.leads_to else None
        if status is not None:
            what = f"leads to {item.leads_to}, which answers {status} (not found)"
            problem = Problem(item.url, REMOVED_URL, what, _suggested_fix(item.url,
                              removals[item.url]))  # fmt: skip
            item = replace(item, problem=problem, note="")
        found.append(item)
    return found


def _not_found(url: str, status: int, removed: RemovedUrl) -> tuple[str, str]:
    """What a removed URL that answers 404 or 410 is, and its fix, by what the build found."""
    if removed.verdict == "redirected":
        return (
            f"answers {status}, but the build serves a redirect for it (to {removed.target})",
            "deploy the redirect: its redirect page was not uploaded, or the host ignores "
            "_redirects (S3: a routing rule or x-amz-website-redirect-location)",
        )
    if removed.verdict == "renamed":
        return (
            f"answers {status}: the last build removed it with no redirect, and "
            f"{removed.target} holds its content",
            _suggested_fix(url, removed),
        )
    return (
        f"answers {status}: the last build removed it with no redirect (a reader who follows "
        "a link to it gets nothing)",
        _suggested_fix(url, removed),
    )


def _suggested(url: str, removed: RemovedUrl) -> str:
    """The redirect a removed URL wants, as a line: ``/old.html -> /new/old/``."""
    if removed.target is None:
        return f"{_path(url, url)} -> the page that replaces it"
    return f"{_path(url, url)} -> {_path(removed.target, url)}"


def _suggested_fix(url: str, removed: RemovedUrl) -> str:
    return f"redirect it: {_suggested(url, removed)}, {_HOSTS_FORMS}"


def _still_served_fix(url: str, removed: RemovedUrl) -> str:
    delete = (
        "delete it from the host (aws s3 sync --delete; on Netlify a file shadows its redirect)"
    )
    if removed.verdict == "gone" and removed.target is None:
        return delete + ", or redirect it to the page that replaces it"
    return f"{delete} and redirect it: {_suggested(url, removed)}"


def _path(target: str, url: str) -> str:
    """``target`` as a redirect line writes it: its path (and query) when on ``url``'s
    scheme and host, else whole."""
    there, here = split_url(target), urlsplit(url)
    if there is None or (there.scheme, there.netloc) != (here.scheme, here.netloc):
        return target
    return (there.path or "/") + (f"?{there.query}" if there.query else "")


def _refresh_target(answer: LiveAnswer) -> str:
    """Where a redirect page (a meta refresh in the head of a 200) leads, absolute; ""
    when the answer is no such page."""
    body: bytes | None = answer.body[:PAGE_FACTS_BYTES]
    if answer.header("Content-Encoding").strip().lower() == "gzip":
        body = inflate_head(answer.body, PAGE_FACTS_BYTES)
    if not body:
        return ""
    facts = read_page_facts(body)
    if facts.refresh is None:
        return ""
    return resolve_url(facts.refresh, answer.url, facts.base) or ""


def _note_redirected(notes: list[str], report: CheckReport) -> None:
    """The removed URLs redirected otherwise than the build found, as notes (not problems),
    at most MAX_NOTED lines and one that counts the rest."""
    report.notes.extend(notes[:MAX_NOTED])
    if len(notes) > MAX_NOTED:
        report.notes.append(f"and {len(notes) - MAX_NOTED:,} more removed URL(s) redirected now")
