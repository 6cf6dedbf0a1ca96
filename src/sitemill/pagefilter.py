"""Which pages a run looks at (include, exclude, rules, robots.txt)."""
# Only those are read, fingerprinted and dated.

from __future__ import annotations

from sitemill.config.model import Config
from sitemill.html.facts import wants_facts
from sitemill.robots.rules import RobotsRules
from sitemill.rules import builtin_exclusion, first_rule, is_candidate
from sitemill.urls import URL_STYLES, UrlStyle, page_url, site_root_path


def reads_head(config: Config, robots: RobotsRules | None, path: str) -> bool:
    """Whether the pipeline will look at the facts of the page at ``path``: an HTML page
    that include, exclude, rules and robots.txt leave in. A source whose reads cost a round
    trip (S3) reads only these."""
    return wants_facts(path) and reads_page(config, robots, path)


def reads_page(config: Config, robots: RobotsRules | None, path: str) -> bool:
    """Whether the pipeline will look at the page at ``path`` at all (include, exclude,
    rules, robots.txt): only such pages are read, fingerprinted and dated. While ``auto``
    has not settled the URL style, a page robots.txt allows in any style is read."""
    return is_candidate(config, path) and reads_candidate(config, robots, path)


def reads_candidate(config: Config, robots: RobotsRules | None, path: str) -> bool:
    """reads_page of a path that is_candidate let in (a tree's listed files: include and
    exclude are not asked again, on every page of every run)."""
    if builtin_exclusion(path) is not None:
        return False
    rule = first_rule(config, path)
    if rule is not None and rule.exclude:
        return False
    if robots is None:
        return True
    base = config.base_url
    root = site_root_path(base)
    styles = URL_STYLES if config.url_style is UrlStyle.AUTO else (config.url_style,)
    return any(robots.allows(root + page_url(base, path, style)[len(base) :]) for style in styles)
