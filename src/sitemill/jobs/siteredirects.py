"""The redirects a site directory serves: where a tree build's removed URLs lead, if anywhere."""
# A static host serves a file before any rule (Netlify: unless the rule is forced), so a removed
# URL's own file is asked first: a meta refresh there is the redirect (Hugo aliases, the
# generators' redirect plugins). Then `_redirects` and `netlify.toml` at the site's root, as
# Netlify and Cloudflare Pages read them (sitemill.redirects): a 3xx is a redirect, a 200 a
# rewrite that still serves the URL, a 404 a not-found page.

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

from sitemill.diff.compare import RedirectOf
from sitemill.errors import SitemillError
from sitemill.html.facts import PAGE_FACTS_BYTES, read_page_facts
from sitemill.html.links import resolve_url
from sitemill.redirects import RedirectRules, parse_netlify_toml, parse_redirects_file
from sitemill.redirects.netlifyfile import MAX_FILE_BYTES
from sitemill.safefs import Root
from sitemill.urls import join_url, split_url

HOST_FILES = ("_redirects", "netlify.toml")  # at the root of the published folder


class TreeRemoved:
    """Where a tree build's removed URL leads (site_redirects), and whether a file still
    serves it (jobs.removedpages.RemovedLookup): a build keeps the URLs it removed whose file
    is gone or is a redirect stub (a page left out but still served, noindex or a copy, is
    not named: the state may be public), as a bucket's rebuild keeps them."""

    def __init__(self, site_dir: Path, base_url: str) -> None:
        self.site, self.base_url = Root(site_dir, hidden=False), base_url
        self.redirect_of = site_redirects(self.site, base_url)
        self.answers: dict[str, bool] = {}  # (asked of a removed URL twice: the state, a warning)

    def __call__(self, url: str) -> tuple[str, str] | None:
        return self.redirect_of(url)

    def served(self, url: str) -> bool:
        if url not in self.answers:
            rest = url[len(self.base_url) :] if url.startswith(self.base_url) else None
            self.answers[url] = rest is not None and any(
                stub_page(self.site, path) is not None for path in served_by(rest)
            )
        return self.answers[url]


def site_redirects(site: Root, base_url: str) -> RedirectOf:
    """Where the site sends a URL under ``base_url``: its stub at the URL's file, else the
    host's rules (None: neither, or a rule that answers not-found). The rules are read when
    a URL first needs them: a build that removed nothing (every build calls this) reads no
    `_redirects`."""
    stubs = stub_redirects(site, base_url)
    read: list[RedirectRules | None] = []  # (the rules, once read)

    def redirect_of(url: str) -> tuple[str, str] | None:
        found = stubs(url)
        if found is not None:
            return found
        if not read:
            read.append(host_rules(site))
        rules = read[0]
        if rules is None:
            return None
        parts = split_url(url)  # (a state's URL urllib.parse refuses: no rule serves it)
        if parts is None:
            return None
        path = parts.path
        ruled = rules.target_of(path)
        if ruled is None or ruled[1] in (404, 410):
            return None
        target, status = ruled
        how = "a _redirects rewrite (200)" if status == 200 else f"a _redirects rule ({status})"
        if rules.many_to_one(path):
            how += ", a catch-all: every URL it matches lands on one page"
        joined = join_url(url, target)  # (a target urllib.parse refuses: as if no rule)
        return None if joined is None else (joined, how)

    return redirect_of


def host_rules(site: Root) -> RedirectRules | None:
    """The rules of the site's `_redirects`, then its `netlify.toml`; None without either."""
    found: RedirectRules | None = None
    for name, parse in zip(HOST_FILES, (parse_redirects_file, parse_netlify_toml), strict=True):
        data = _read(site, name, MAX_FILE_BYTES)
        if data is not None:
            rules = parse(data)
            found = rules if found is None else found.then(rules)
    return found


def stub_redirects(site: Root, base_url: str) -> RedirectOf:
    """Where the new build's redirect stubs send a URL under ``base_url``: the meta refresh
    of the file that serves it (``x/index.html`` for ``x/``; ``x.html``, ``x`` or
    ``x/index.html`` for ``x``), read bounded inside the site."""

    def redirect_of(url: str) -> tuple[str, str] | None:
        if not url.startswith(base_url):
            return None
        for path in served_by(url[len(base_url) :]):
            data = stub_page(site, path)
            if data is None:
                continue
            facts = read_page_facts(data)
            target = None if facts.refresh is None else resolve_url(facts.refresh, url, facts.base)
            return None if target is None else (target, f"a redirect stub ({path})")
        return None

    return redirect_of


def served_by(rest: str) -> tuple[str, ...]:
    """The files a static host serves a URL path below the site's root from."""
    path = unquote(rest)
    if path == "" or path.endswith("/"):
        return (path + "index.html", path + "index.htm")
    if path.endswith((".html", ".htm")):
        return (path,)
    return (path + ".html", path, path + "/index.html")


def stub_page(site: Root, path: str) -> bytes | None:
    """The head of the file at ``path`` inside the site (None: none there, a folder, a way
    out of the site)."""
    return _read(site, path, PAGE_FACTS_BYTES)


def _read(site: Root, path: str, limit: int) -> bytes | None:
    try:
        return site.read(path, limit)
    except (OSError, SitemillError):  # (none there, a directory, or a way out of the site)
        return None
