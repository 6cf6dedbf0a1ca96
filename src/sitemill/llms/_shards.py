"""llms.txt of a sharded bucket, after each commit: from every shard's state, no page read."""
# llms.txt lists the whole site, so a sharded bucket's is made after each commit from the states
# the manifest names (their heads' title, description, site name, hreflang), in key order, and
# written where its bytes changed: a full rebuild and a deploy give the same bytes. llms-full.txt
# and the twins would read every page on every deploy: not written there (said once).

from __future__ import annotations

from collections.abc import Iterator

from sitemill.config.model import Config
from sitemill.entries import Alternate, Entry
from sitemill.html.links import resolve_url, url_key
from sitemill.state.model import State
from sitemill.urls import page_url
from sitemill.urlstyle import rendering_style

NOT_SHARDED = (
    "llms-full.txt and the Markdown twins are not written for a sharded bucket (they would read "
    "every page on every deploy); llms.txt is"
)


def state_entries(config: Config, state: State) -> Iterator[Entry]:
    """Each page the state lists, as the sitemaps list it, with what its head said."""
    style = rendering_style(config.url_style, state.url_style)
    for path in sorted(state.pages):
        facts = state.pages[path].facts
        loc = page_url(config.base_url, path, style)
        if facts is None or facts.title is None:
            yield Entry(loc, key=path)
            continue
        own = tuple(
            Alternate(hreflang, loc)
            for hreflang, href in (facts.alternates if config.alternates.enabled else ())
            if (url := resolve_url(href, loc, facts.base)) and url_key(url) == url_key(loc)
        )
        title, description = facts.title or None, facts.description or None
        yield Entry(
            loc, alternates=own, title=title, key=path, description=description,
            site_name=facts.site_name or None,
        )  # fmt: skip
