"""llms.txt of a sharded bucket, after each commit: from every shard's state, no page read."""
# A deploy re-renders the shards it touches; llms.txt lists the whole site, so it is made after
# the commit from the states the manifest names (each listed page's title, description, site
# name and hreflang are kept there: the shards read them with their heads), in key order as the
# sitemaps list them, and written only where its bytes changed. A full rebuild and an incremental
# run make it the same way, so they give the same bytes. llms-full.txt and the Markdown twins
# would read every page on every deploy: a sharded bucket does not write them (said once).

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from sitemill.config.model import Config, LlmsMode
from sitemill.entries import Alternate, Entry
from sitemill.html.links import resolve_url, url_key
from sitemill.jobs.bucketsite import BucketSite
from sitemill.report import Report
from sitemill.state.model import State
from sitemill.state.partitioned import PartitionedStore
from sitemill.urls import page_url
from sitemill.urlstyle import rendering_style
from sitemill.writing.llmsoutputs import LlmsOutputs, LlmsSetup

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

log = logging.getLogger(__name__)

NOT_SHARDED = (
    "llms-full.txt and the Markdown twins are not written for a sharded bucket (they would read "
    "every page on every deploy); llms.txt is"
)


def shard_config(config: Config) -> Config:
    """The configuration a shard renders with: titles read and kept (llms_txt), no page read
    again for Markdown."""
    return replace(config, llms_full=False, llms_pages=False)


def publish_llms(
    config: Config, client: S3Client, site: BucketSite, store: PartitionedStore, report: Report
) -> None:
    """llms.txt from the states the committed manifest names, written where it changed."""
    if config.llms_full or config.llms_pages:
        log.warning("%s", NOT_SHARDED)
        report.warnings.append(NOT_SHARDED)
    if config.llms_txt is LlmsMode.OFF:
        return
    from sitemill.sinks.s3 import S3Sink

    sink = S3Sink(client, site.bucket, site.root, cache_control=site.cache_control)
    outputs = LlmsOutputs(shard_config(config), sink, LlmsSetup())
    for _ in outputs.watch(_entries(config, store)):
        pass
    warned = len(report.result.warnings)
    outputs.publish(report.result)
    report.warnings.extend(report.result.warnings[warned:])


def _entries(config: Config, store: PartitionedStore) -> Iterator[Entry]:
    plan = store.manifest.plan
    for shard in () if plan is None else plan.ids:
        found = store.read_shard(shard)
        if found is not None:
            yield from _state_entries(config, found.state)


def _state_entries(config: Config, state: State) -> Iterator[Entry]:
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
