"""The function's own SITEMILL_* settings and its Config, read from its environment."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sitemill.config.model import Config, env_name, load_config
from sitemill.errors import ConfigError
from sitemill.jobs.bucketsite import BucketSettings


@dataclass(frozen=True, slots=True)
class LambdaSettings:
    """The Lambda's own SITEMILL_* variables (the sitemap options are in Config)."""

    site: BucketSettings  # SITEMILL_BUCKET, _PREFIX, _CACHE_CONTROL
    distribution_id: str | None
    state_machine: str | None = None  # the distributed rebuild's (infra/rebuild.asl.json)

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> LambdaSettings:
        """Read the bucket settings, SITEMILL_CLOUDFRONT_DISTRIBUTION_ID and
        SITEMILL_STATE_MACHINE_ARN."""
        return cls(
            site=BucketSettings.read(env),
            distribution_id=env.get("SITEMILL_CLOUDFRONT_DISTRIBUTION_ID", "").strip() or None,
            state_machine=env.get("SITEMILL_STATE_MACHINE_ARN", "").strip() or None,
        )


def lambda_config(env: Mapping[str, str]) -> Config:
    """The function's Config; a missing base URL names the stack's parameter (no flags here)."""
    if not env.get(env_name("base_url"), "").strip():
        raise ConfigError(
            "base_url",
            "is required: set the stack's BaseUrl parameter (the function's SITEMILL_BASE_URL)",
        )
    return load_config({}, env)
