"""Step two's redirect part: where a <loc> that redirects leads, and so what fixes it."""
# A <loc> that redirects is never followed for the page's checks, but the fix depends on where it
# leads: a host that only adds a slash or strips ".html" serves the page at the URL a url_style
# lists (sitemill.check.served), so that style is the fix, but only if that URL answers 200. Each
# target on the site is asked once (at most MAX_TARGETS_ASKED); one that is not live means the
# page is served at neither URL.

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from sitemill.check.livepages import PageVerdict
from sitemill.check.served import status_problem
from sitemill.web.livesite import LiveSite

MAX_TARGETS_ASKED: Final = 2_000  # redirect targets asked, at most


def redirect_fixes(site: LiveSite, verdicts: Mapping[str, PageVerdict]) -> dict[str, str]:
    """URL -> the fix of its redirect, for the <loc>s whose redirect leads to a URL of the
    site that is not live (the others keep the fix their problem has)."""
    targets = {
        url: v.redirect for url, v in verdicts.items() if v.redirect and site.on_site(v.redirect)
    }  # ("" is no URL: never on the site, and not remembered as one, so not asked about)
    asked = sorted(set(targets.values()))[:MAX_TARGETS_ASKED]
    answers = {a.url: a for a in site.answers(asked)}
    fixes: dict[str, str] = {}
    for url, target in targets.items():
        answer = answers.get(target)
        if answer is None or answer.status == 200 or not answer.asked:
            continue
        said = status_problem(answer, what="page")
        fixes[url] = (
            f"it leads to {target}, which {said[0] if said else 'is not live'}: the page is "
            "served at neither URL (on hosts such as GitHub Pages a folder named like the page "
            "takes its URL); serve it at one of them"
        )
    return fixes
