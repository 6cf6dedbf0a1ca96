"""Where a bucket's partitioned state lives, if its configuration partitions it."""
# Apart from sitemill.state.partitioned (the store), so that a run over a bucket whose state is
# one object learns so without importing the manifest and the shard states.

from __future__ import annotations

from typing import Final

from sitemill.config.model import Config, ShardsMode
from sitemill.state.s3 import parse_s3_location

_SUFFIXES: Final = (".json.gz", ".gz", ".json")


def partitioned_prefix(config: Config) -> tuple[str, str] | None:
    """(bucket, prefix) of the partitioned state, or None when a bucket's state is not
    partitioned: it is only in a state location of its own (never beside the public
    sitemaps: a shard state names every object of its range) and with shards not "off"."""
    if config.state is None or not config.state.startswith("s3://"):
        return None
    if config.shards is ShardsMode.OFF:
        return None
    bucket, key = parse_s3_location(config.state)
    for suffix in _SUFFIXES:
        if key.endswith(suffix) and len(key) > len(suffix):
            key = key[: -len(suffix)]
            break
    return bucket, key + "/"
