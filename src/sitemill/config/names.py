"""The names a setting goes by besides its key, and "did you mean …?" for a near miss."""
# A near miss is an unknown key in sitemill.toml (an error) or an unknown SITEMILL_* variable (a
# warning).

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Final

log = logging.getLogger("sitemill")

ENV_PREFIX: Final = "SITEMILL_"

# SITEMILL_* variables that are no configuration key, and who reads them.
OTHER_ENV: Final[Mapping[str, str]] = {
    "SITEMILL_BUCKET": "the Lambda: the site bucket (events from others are ignored)",
    "SITEMILL_PREFIX": "the Lambda: the site's key prefix in the bucket",
    "SITEMILL_CACHE_CONTROL": "the Lambda and `sitemill s3`: Cache-Control of the sitemaps",
    "SITEMILL_CLOUDFRONT_DISTRIBUTION_ID": "the Lambda: the distribution to invalidate",
    "SITEMILL_LOG_LEVEL": "the Lambda: its log level",
    "SITEMILL_INVENTORY": "the stack's rebuild functions: the S3 Inventory location",
    "SITEMILL_STATE_MACHINE_ARN": "the Lambda: the distributed rebuild it starts",
    "SITEMILL_ACTION_BASE_PYTHON": "the Action's steps (action.yml)",
    "SITEMILL_ACTION_ALLOW_BASE_URL_MISMATCH": "the Action's steps (action.yml)",
    "SITEMILL_ACTION_COMMAND": "the Action's steps (action.yml)",
    "SITEMILL_ACTION_COMMIT": "the Action's steps (action.yml)",
    "SITEMILL_ACTION_COMMIT_MESSAGE": "the Action's steps (action.yml)",
    "SITEMILL_ACTION_CHECK_ALL": "the Action's steps (action.yml)",
    "SITEMILL_ACTION_COMMITTER": "the Action's steps (action.yml)",
    "SITEMILL_ACTION_CONFIG": "the Action's steps (action.yml)",
    "SITEMILL_ACTION_DEEPEN": "the Action's steps (action.yml)",
    "SITEMILL_ACTION_FAIL_ON_REMOVED": "the Action's steps (action.yml)",
    "SITEMILL_ACTION_REDIRECTS_FORM": "the Action's steps (action.yml)",
    "SITEMILL_ACTION_OUTPUT_DIR": "the Action's steps (action.yml)",
    "SITEMILL_ACTION_PATH": "the Action's steps (action.yml)",
    "SITEMILL_ACTION_WARN_ONLY": "the Action's steps (action.yml)",
    "SITEMILL_ACTION_PYTHON": "the Action's steps (action.yml)",
}


def env_name(key: str) -> str:
    """A key's variable: ``base_url`` is ``SITEMILL_BASE_URL``."""
    return ENV_PREFIX + key.upper()


def did_you_mean(given: str, known: Iterable[str]) -> str:
    """``"; did you mean X?"`` for the closest of ``known`` (difflib), else ``""``."""
    import difflib  # (a mistake's only: not at every start)

    close = difflib.get_close_matches(given, list(known), n=1, cutoff=0.6)
    return f"; did you mean {close[0]}?" if close else ""


def warn_unknown_env(env: Mapping[str, str], keys: Iterable[str]) -> None:
    """One warning per SITEMILL_* variable that no part of sitemill reads (a typo sets
    nothing: SITEMILL_BASEURL leaves the base URL unset)."""
    known = {env_name(key) for key in keys} | set(OTHER_ENV)
    for name in sorted(env):
        if name.startswith(ENV_PREFIX) and name not in known:
            hint = did_you_mean(name, known)
            log.warning("%s is not a sitemill setting and is ignored%s", name, hint)
