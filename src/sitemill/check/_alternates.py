"""Step two's hreflang part: each page's alternates are live and name it back."""
# An alternate a checked page declares on the site's own hosts must answer 200 and declare that page
# in turn (hreflang links go both ways, or engines ignore them). Alternates not among the checked
# pages are asked too, at most MAX_OTHERS of them; alternates on other hosts are not asked.

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from sitemill.check._livepages import PageVerdict, live_alternates
from sitemill.check.problems import ALTERNATES, CheckReport
from sitemill.check.served import resource_key, status_problem
from sitemill.html.facts import read_page_facts
from sitemill.lastmod.fingerprint.digest import MAX_FINGERPRINT_BYTES
from sitemill.web.livesite import LiveAnswer, LiveSite

MAX_OTHERS: Final = 2_000  # alternates asked besides the checked pages, at most


def check_alternates(
    site: LiveSite, verdicts: Mapping[str, PageVerdict], report: CheckReport
) -> None:
    """A problem at each checked page for each of its alternates that is not live or that
    does not name it back."""
    keys = {url: resource_key(url) for url in verdicts}  # (an href that is a page's URL: its key)
    known = {keys[url]: verdict for url, verdict in verdicts.items()}
    wanted = sorted(
        {
            href
            for verdict in verdicts.values()
            for _, href in verdict.alternates
            if _key(keys, href) not in known and site.on_site(href)
        }
    )
    for verdict in site.get_many(
        wanted[:MAX_OTHERS], MAX_FINGERPRINT_BYTES, _alternates_of, head=True
    ):
        known[resource_key(verdict.url)] = verdict
    for url in sorted(verdicts):
        mine = keys[url]  # (each page's key made once: 10,000 pages made 150,000 of them)
        for lang, href in verdicts[url].alternates:
            theirs = _key(keys, href)
            other = known.get(theirs)
            if other is None or theirs == mine:
                continue
            if not other.live:
                report.add(
                    url,
                    ALTERNATES,
                    f"names {href} as its {lang!r} alternate, which {other.said or 'is not live'}",
                    "name the URL the alternate is served at (no redirect), or deploy that page",
                )
            elif not any(back == url or _key(keys, back) == mine for _, back in other.alternates):
                report.add(
                    url,
                    ALTERNATES,
                    f"names {href} as its {lang!r} alternate, which does not name it back",
                    "give every alternate the same set of hreflang links, itself included",
                )


def _key(keys: Mapping[str, tuple[str, str, str, str]], href: str) -> tuple[str, str, str, str]:
    """``href``'s resource_key: the one made for a checked page's URL when it is one."""
    return keys.get(href) or resource_key(href)


def _alternates_of(answer: LiveAnswer) -> PageVerdict:
    if answer.status != 200:
        said = status_problem(answer, what="page")
        return PageVerdict(answer.url, said=said[0] if said else "")
    facts = read_page_facts(answer.body)
    alternates = live_alternates(answer.url, facts)
    return PageVerdict(answer.url, alternates=alternates, live=True)
