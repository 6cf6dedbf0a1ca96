"""Where a deployed site lives in a bucket, and how a front-end says so."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from sitemill.filenames.outputs import DEFAULT_CACHE_CONTROL, normalize_prefix

BUCKET_ENV: Final = "SITEMILL_BUCKET"
PREFIX_ENV: Final = "SITEMILL_PREFIX"
CACHE_CONTROL_ENV: Final = "SITEMILL_CACHE_CONTROL"
# Heads read at a time, at most (each a ranged GET on a connection of the client's pool).
MAX_HEAD_READERS: Final = 32


@dataclass(frozen=True, slots=True)
class BucketSite:
    """Where a deployed site lives: the sitemaps are written under the same prefix."""

    bucket: str
    prefix: str = ""
    cache_control: str = DEFAULT_CACHE_CONTROL

    @property
    def root(self) -> str:
        """The key prefix of the site root ('' or ending in '/')."""
        return normalize_prefix(self.prefix)


@dataclass(frozen=True, slots=True)
class BucketSettings:
    """The bucket, prefix and Cache-Control of a bucket site: one parse for the CLI and the
    Lambda. A value given explicitly (a flag) wins over SITEMILL_BUCKET / SITEMILL_PREFIX;
    the bucket may stay unknown (the Lambda takes it from its events)."""

    bucket: str | None
    prefix: str
    cache_control: str

    @classmethod
    def read(
        cls, env: Mapping[str, str], *, bucket: str | None = None, prefix: str | None = None
    ) -> BucketSettings:
        return cls(
            bucket=(bucket if bucket is not None else env.get(BUCKET_ENV, "")).strip() or None,
            prefix=(prefix if prefix is not None else env.get(PREFIX_ENV, "")).strip(),
            cache_control=env.get(CACHE_CONTROL_ENV, "").strip() or DEFAULT_CACHE_CONTROL,
        )

    def site(self, bucket: str) -> BucketSite:
        return BucketSite(bucket, self.prefix, self.cache_control)
