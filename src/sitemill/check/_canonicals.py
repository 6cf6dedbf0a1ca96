"""Step two's canonical part: a page whose canonical names another URL, and what that URL is."""
# A canonical that names another URL tells engines to index that one instead, so the <loc> is not
# the URL they keep. What fixes it depends on what the canonical URL answers, so each one on the
# site is asked (at most MAX_CANONICALS_ASKED): one that redirects back to the <loc> is the page's
# mistake (a generator's trailing-slash or clean-URL setting the host does not follow); one that is
# live is the URL to list; one that is not live is a broken canonical. One on another host may be a
# move.

from __future__ import annotations

from collections.abc import Mapping
from typing import Final
from urllib.parse import urlsplit

from sitemill.check._livepages import PageVerdict
from sitemill.check.problems import CANONICAL, CheckReport
from sitemill.check.served import redirect_target, same_url, status_problem
from sitemill.web.livesite import LiveAnswer, LiveSite

MAX_CANONICALS_ASKED: Final = 2_000  # canonical URLs asked, at most
_LOCAL_HOSTS: Final = frozenset({"localhost", "::1", "0.0.0.0"})  # noqa: S104 (a name, not a bind)


def check_canonicals(
    site: LiveSite, verdicts: Mapping[str, PageVerdict], report: CheckReport
) -> None:
    """A problem at each checked page whose canonical names another URL, with its fix."""
    named = {url: verdict.canonical for url, verdict in verdicts.items() if verdict.canonical}
    asked = sorted({target for target in named.values() if site.on_site(target)})
    answers = {a.url: a for a in site.answers(asked[:MAX_CANONICALS_ASKED])}
    for url in sorted(named):
        target = named[url]
        report.add(url, CANONICAL, *_explained(url, target, answers.get(target), site))


def _explained(url: str, target: str, answer: LiveAnswer | None, site: LiveSite) -> tuple[str, str]:
    what = f"names {target} as its canonical URL"
    if not site.on_site(target):
        if _local(target):
            return (
                f"{what}, a local address",
                "the generator's site URL was left at a local one (Hugo's baseURL, Jekyll's "
                "url, ...): set it to the site's and build the site again",
            )
        return (
            f"{what}, on another host",
            "if the site moved there, set base_url to it and rebuild; else fix the "
            "page's canonical",
        )
    if answer is None or not answer.asked:
        return what, "list the canonical URL instead, or make the page's canonical name itself"
    if answer.status == 200:
        return (
            f"{what}, which is live",
            "list that URL instead (rebuild: a page whose canonical is another listed page is "
            "left out), or make the page's canonical name itself",
        )
    if same_url(redirect_target(answer), url):
        return (
            f"{what}, which redirects to this one",
            "fix the page's canonical: the generator's trailing-slash or clean-URL setting does "
            "not match what the host serves",
        )
    said = status_problem(answer, what="page")
    return (
        f"{what}, which {said[0] if said else 'is not live'}",
        "fix the page's canonical (it should name a URL that answers 200)",
    )


def _local(url: str) -> bool:
    """Whether ``url`` names this machine (a development server's address)."""
    try:
        host = (urlsplit(url).hostname or "").rstrip(".")
    except ValueError:
        return False
    return (
        host in _LOCAL_HOSTS or host.startswith("127.") or host.endswith((".localhost", ".local"))
    )
