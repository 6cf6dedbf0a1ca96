"""The redirects a change's report suggests: one for each renamed URL, to its new page."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from sitemill.diff.model import SiteDiff, Verdict
from sitemill.redirects import Redirect, RedirectForm, redirect_notes, render_redirects
from sitemill.urls import site_root_path


@dataclass(frozen=True, slots=True)
class Suggested:
    """The suggested redirects in a host's form (``form``: netlify, s3-rules, hugo …): the
    text, how many, and what it is and how to apply it (``notes``: a JSON form has no
    comments to say it in)."""

    form: str
    text: str
    count: int = 0
    notes: tuple[str, ...] = ()


def suggested_redirects(diff: SiteDiff) -> list[Redirect]:
    """A 301 from each renamed URL's path on its host to its new page's path (an absolute
    URL when that page is on another host), in URL order. A gone URL has none to suggest."""
    found = []
    for item in diff.with_verdict(Verdict.RENAMED):
        if item.target is None:
            continue
        source, target = urlsplit(item.url), urlsplit(item.target)
        same = (source.scheme, source.netloc) == (target.scheme, target.netloc)
        found.append(Redirect(source.path or "/", (target.path or "/") if same else item.target))
    return found


def suggest(diff: SiteDiff, base_url: str, form: RedirectForm) -> Suggested | None:
    """The report's suggested redirects in ``form`` (paths below ``base_url``'s path where the
    form is the site's); None when it suggests none."""
    redirects = suggested_redirects(diff)
    if not redirects:
        return None
    base_path = site_root_path(base_url)
    notes = redirect_notes(redirects, form, base_path=base_path)
    text = render_redirects(redirects, form, base_path=base_path)
    return Suggested(form.value, text, len(redirects), tuple(notes))
