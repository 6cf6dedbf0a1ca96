"""The output features of a sharded bucket: the shards' configuration and findings, the merge."""
# The features are those the front end lists. A shard renders by every feature's shard configuration
# (llms.txt: titles read and kept, no page read again); once the commit is live each feature makes
# its files from the states the committed manifest names, in its order (sitemill.outputs). A feature
# that needs every page at once (sitemap.html) makes the run a full rebuild, never one of shards
# rendered apart (whole_site). What a shard's pass found (IndexNow: the URLs to announce) is merged
# over the shards and kept by each feature before the commit (found, keep_found).

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

from sitemill.config.model import Config, ShardsMode
from sitemill.outputs import OutputFeature, ShardsFound
from sitemill.report import Report
from sitemill.scaleout import ShardedRun
from sitemill.state.model import State
from sitemill.state.partitioned import PartitionedStore


def outputs_shard_config(config: Config, outputs: Sequence[OutputFeature]) -> Config:
    """The configuration a shard renders by, each of the ``outputs`` the run lists asked."""
    for feature in outputs:
        config = feature.shard_config(config)
    return config


def shard_pass_config(config: Config, outputs: Sequence[OutputFeature]) -> Config:
    """The configuration a shard's pass renders by: always shards, robots.txt the commit's,
    each of the ``outputs`` asked (llms.txt: made after the commit)."""
    return outputs_shard_config(replace(config, shards=ShardsMode.ON, robots_txt=False), outputs)


def whole_site(config: Config, outputs: Sequence[OutputFeature]) -> str | None:
    """Why shards rendered apart cannot give some feature's files (None: they can)."""
    return next((why for why in (feature.whole_site(config) for feature in outputs) if why), None)


def found_by(
    config: Config, outputs: Sequence[OutputFeature], before: State, after: State
) -> dict[str, str]:
    """What a shard's pass found from ``before`` to ``after``, for each of ``outputs``."""
    found: dict[str, str] = {}
    for feature in outputs:
        found.update(feature.found(config, before, after))
    return found


def keep_found(
    config: Config,
    outputs: Sequence[OutputFeature],
    store: PartitionedStore,
    found: dict[str, str],
    *,
    first_run: bool,
    dry_run: bool = False,
) -> Callable[[Report], None]:
    """Each of ``outputs`` keeps what the shards ``found``, before the commit; what they say
    in the run's report, once it has one."""
    shards = ShardsFound(config, store, found, first_run, dry_run)
    notes = [feature.keep_found(shards) for feature in outputs]

    def note(report: Report) -> None:
        for each in notes:
            each(report)

    return note


def merge_outputs(run: ShardedRun, report: Report) -> None:
    """Each feature ``run`` lists makes its files from the states the committed manifest names."""
    from sitemill.sinks.s3 import S3Sink

    site = run.site
    sink = S3Sink(run.client, site.bucket, site.root, cache_control=site.cache_control)
    for feature in run.outputs:
        feature.merge(run.config, sink, _states(run.store), report)


def _states(store: PartitionedStore) -> Iterator[State]:
    plan = store.manifest.plan
    for shard in () if plan is None else plan.ids:
        found = store.read_shard(shard)
        if found is not None:
            yield found.state
