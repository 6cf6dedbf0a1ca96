"""What one removed URL's answer means (check.removedurls.judge_removed), answer by answer: no
request is made here, the answers are given."""

from __future__ import annotations

import gzip

import pytest

from sitemill.check._removedurls import judge_removed
from sitemill.check.problems import REMOVED_URL, UNCHECKED
from sitemill.state.removedurls import RemovedUrl
from sitemill.web.livesite import RUN_DEADLINE, LiveAnswer, LiveSite

BASE = "https://www.example.com"
SITE = LiveSite(frozenset({BASE}))
OLD = BASE + "/old.html"
HTML = (("Content-Type", "text/html"),)


def stub(to: str) -> bytes:
    return f'<!doctype html><html><head><meta http-equiv="refresh" content="0; url={to}">'.encode()


@pytest.mark.parametrize(
    ("answer", "removed", "what", "leads_to"),
    [
        # the build's redirect to another host, served as the build serves it: fine, not asked
        (
            LiveAnswer(OLD, 301, (("Location", "https://other.example.net/x"),)),
            RemovedUrl("redirected", "https://other.example.net/x"),
            None,
            "",
        ),
        (
            LiveAnswer(OLD, 301, (("Location", "/new/"),)),
            RemovedUrl("redirected", BASE + "/new/"),
            None,
            BASE + "/new/",
        ),
        (LiveAnswer(OLD, 410), RemovedUrl("gone"), "answers 410: the last build removed it", ""),
        (LiveAnswer(OLD, 302), RemovedUrl("gone"), "answers 302, a redirect to nowhere", ""),
        # a refresh that only reloads the page is no redirect page: a copy still served
        (
            LiveAnswer(OLD, 200, HTML, stub("")),
            RemovedUrl("gone"),
            "still answers 200 though the last build removed it",
            "",
        ),
        (
            LiveAnswer(OLD, 200, (*HTML, ("Content-Encoding", "gzip")), gzip.compress(stub("/n/"))),
            RemovedUrl("redirected", BASE + "/n/"),
            None,
            BASE + "/n/",
        ),
        (
            LiveAnswer(OLD, 200, HTML, stub("https://other.example.net/")),
            RemovedUrl("renamed", BASE + "/n/"),
            "is a redirect page (meta refresh), a redirect to https://other.example.net/, on "
            "another host",
            "",
        ),
        (LiveAnswer(OLD, problem="timed out"), RemovedUrl("gone"), "no answer (timed out)", ""),
        (LiveAnswer(OLD, 403), RemovedUrl("gone"), "answers HTTP 403, not a redirect", ""),
    ],
)
def test_each_answer_is_judged_by_what_the_build_found(
    answer: LiveAnswer, removed: RemovedUrl, what: str | None, leads_to: str
) -> None:
    judged = judge_removed(answer, removed, SITE)
    if what is None:
        assert judged.problem is None and judged.note == ""
    else:
        assert judged.problem is not None and judged.problem.kind == REMOVED_URL
        assert judged.problem.what.startswith(what)
    assert judged.leads_to == leads_to


def test_the_deadline_leaves_it_unchecked() -> None:
    answer = LiveAnswer(OLD, problem=RUN_DEADLINE, asked=False)
    judged = judge_removed(answer, RemovedUrl("gone"), SITE)
    assert judged.problem is not None and judged.problem.kind == UNCHECKED
    assert not judged.asked


def test_the_host_s_own_redirect_of_a_renamed_url_is_a_note() -> None:
    answer = LiveAnswer(OLD, 308, (("Location", "/elsewhere/"),))
    judged = judge_removed(answer, RemovedUrl("renamed", BASE + "/new/"), SITE)
    assert judged.problem is None and judged.left
    assert judged.note == (
        f"{OLD}: redirected now, to {BASE}/elsewhere/ (the build served no redirect for it)"
    )
