"""Pages of a shard that name pages of others, and the other shards as the last build left them."""
# The other shards as the last build left them answer a distributed worker's canonical or hreflang
# naming a page of another shard (docs/distributed.md, What it does not do: one build behind). The
# URL's key is turned back into the keys that could hold it (``x.html``, ``x/index.html``...), each
# looked up in the last state of its shard (a remembered page is one it listed, with its head's
# facts). The most recently used shard states are kept: a worker's pages name a handful.

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from sitemill.alternates.declared import AlternateCounts, SiteKeys, declared_alternate_keys
from sitemill.config.model import Config
from sitemill.entries import Alternate
from sitemill.html.facts import PageFacts
from sitemill.html.links import resolve_url, url_key
from sitemill.shards.plan import Plan, shard_id
from sitemill.sources.s3pages import key_paths
from sitemill.state.model import PageRecord
from sitemill.state.partitioned import PartitionedStore
from sitemill.state.shardstate import ShardState
from sitemill.urls import page_url

if TYPE_CHECKING:
    from sitemill.outputs import OutputFeature

# Shard states kept per worker (each up to a few MB: 40,000 pages' records).
CACHED_SHARDS: Final = 8
# What a shard state tells: its listed pages' records, and its stubs' targets, by path.
_Known = tuple[Mapping[str, PageRecord], Mapping[str, str]]


class PreviousMembership:
    """The site's other shards as the last build left them (sitemill.shards.plan.OtherShards)."""

    def __init__(
        self, config: Config, store: PartitionedStore, plan: Callable[[], Plan | None]
    ) -> None:
        self.config = config
        self.site_key = url_key(config.base_url)
        self.store = store
        self._plan_of = plan
        self._plan: Plan | None = None
        self._loaded = False
        self._shards: OrderedDict[str, _Known] = OrderedDict()

    def lists(self, key: str) -> bool:
        return self._found(key) is not None

    def page(self, key: str) -> tuple[str, tuple[Alternate, ...]] | None:
        found = self._found(key)
        if found is None:
            return None
        path, record = found
        config = self.config
        loc = self._url(path)
        site = SiteKeys(
            config.base_url, self.site_key, own_key=url_key,
            page_url=lambda version: page_url(config.base_url, version, config.url_style),
        )  # fmt: skip
        pairs = declared_alternate_keys(
            record.facts, path, loc, config.alternates, site, AlternateCounts()
        )
        return loc, tuple(Alternate(hreflang, target) for hreflang, target in pairs)

    def redirect(self, key: str) -> tuple[str, str] | None:
        """The URL of the redirect stub with ``key`` that the last build saw and the URL it
        leads to (a shard state remembers a stub's refresh when that was a listed page)."""
        found = self._in_shards(key, 1)
        return None if found is None else (self._url(found[0]), found[1])

    def _found(self, key: str) -> tuple[str, PageRecord] | None:
        """The path and record of the page with ``key`` that the last build listed."""
        return self._in_shards(key, 0)

    def _in_shards(self, key: str, which: int) -> tuple[str, Any] | None:
        """The path with ``key`` in the last build's listed pages (``which`` 0) or stubs (1),
        and what is known of it."""
        if not key.startswith(self.site_key):
            return None
        plan = self._last_plan()
        if plan is None:
            return None
        for path in key_paths(key[len(self.site_key) :]):
            known = self._shard(shard_id(plan.afters[plan.shard_of(path)]))[which].get(path)
            if known is not None:
                return path, known
        return None

    def _url(self, path: str) -> str:
        return page_url(self.config.base_url, path, self.config.url_style)

    def _last_plan(self) -> Plan | None:
        if not self._loaded:
            self._plan, self._loaded = self._plan_of(), True
        return self._plan

    def _shard(self, shard: str) -> _Known:
        known = self._shards.get(shard)
        if known is not None:
            self._shards.move_to_end(shard)
            return known
        state = self.store.read_shard(shard)
        known = ({}, {}) if state is None else (state.state.pages, self._stubs(state))
        self._shards[shard] = known
        if len(self._shards) > CACHED_SHARDS:
            self._shards.popitem(last=False)
        return known

    def _stubs(self, shard: ShardState) -> dict[str, str]:
        """The shard's stubs that led to a listed page, and where (resolved)."""
        found: dict[str, str] = {}
        unlisted = shard.state.unlisted
        for page in shard.listing:
            facts = None if page.version is None else unlisted.get(page.version)
            if isinstance(facts, PageFacts) and facts.refresh is not None:
                target = resolve_url(facts.refresh, self._url(page.path), facts.base)
                if target is not None:
                    found[page.path] = target
        return found


def names_other_pages(config: Config, records: Mapping[str, PageRecord]) -> bool:
    """Whether a page of ``records`` names another page of the site: a canonical that is not
    its own URL, or alternates (their membership is decided across the whole site)."""
    if config.alternates.enabled and config.alternates.folders:
        return True
    for path, record in records.items():
        facts = record.facts
        if facts is None:
            continue
        if facts.alternates and config.alternates.enabled:
            return True
        if facts.canonical and config.respect_canonical:
            loc = page_url(config.base_url, path, config.url_style)
            resolved = resolve_url(facts.canonical, loc, facts.base)
            if resolved is not None and url_key(resolved) != url_key(loc):
                return True
    return False


def not_distributable(config: Config, outputs: Sequence[OutputFeature]) -> str | None:
    """Why shards rendered apart cannot give this configuration's sitemaps and ``outputs``
    (the output features the run lists; None: they can).
    A canonical or an hreflang alternate naming another shard's page is decided by the last
    build (one build behind); these need every page at once."""
    from sitemill.scaleout._shardoutputs import whole_site  # (the features: when a run plans)

    why = whole_site(config, outputs)
    if why is not None:
        return why
    if config.images and not config.keep_image_chrome:
        return "the site chrome among images is counted over the whole site"
    return None
