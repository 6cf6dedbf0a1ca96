"""`sitemill s3 --function NAME`: the same rebuild as the stack's function, from a terminal."""
# The deployed function's SITEMILL_* environment is the stack's whole configuration: the bucket, the
# prefix, the base URL, every sitemap option, and the state location in the stack's private state
# bucket. Taken from the function itself, a terminal run cannot drift from it (a second, public
# state in the site bucket; other sitemaps than the function's).

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Final

from botocore.exceptions import BotoCoreError, ClientError

from sitemill.aws.clients import function_environment
from sitemill.config.model import Config
from sitemill.errors import ConfigError, SitemillError
from sitemill.filenames.outputs import ENTRY_XML, STATE_NAME
from sitemill.jobs.bucketsite import BucketSite, partitioned_prefix
from sitemill.sources.s3 import describe_error, read_object
from sitemill.state.s3 import parse_s3_location

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

# The function's own settings, not the sitemaps': the terminal run starts no state machine
# and logs as a terminal does.
_FUNCTION_ONLY: Final = frozenset({"SITEMILL_STATE_MACHINE_ARN", "SITEMILL_LOG_LEVEL"})


def stack_environment(
    function: str,
    env: Mapping[str, str],
    read: Callable[[str], dict[str, str]] = function_environment,
) -> dict[str, str]:
    """``env`` with the function's SITEMILL_* variables over it (flags still win)."""
    try:
        variables = read(function)
    except (ClientError, BotoCoreError) as exc:
        why = describe_error(exc)
        raise ConfigError("function", f"cannot read the Lambda function {function}: {why}") from exc
    settings = {
        key: value
        for key, value in variables.items()
        if key.startswith("SITEMILL_") and key not in _FUNCTION_ONLY
    }
    if not settings.get("SITEMILL_BUCKET") or not settings.get("SITEMILL_STATE"):
        raise ConfigError(
            "function", f"{function} is not the stack's sitemill function (no SITEMILL_BUCKET "
            "and SITEMILL_STATE): give the FunctionName output of the stack"
        )  # fmt: skip
    return {**env, **settings}


# A shard child's name (sitemill.shards.plan): only a run with its state elsewhere writes one.
_SHARD_CHILD: Final = re.compile(rb"/sitemap-r[a-z2-7]{8}[-.]")
_MANIFEST: Final = "index-state.json"


def refuse_state_elsewhere(config: Config, client: S3Client, site: BucketSite) -> None:
    """A ConfigError when this run would keep a second state beside the one the stack keeps
    (a second state would start over: every date, every head)."""
    elsewhere = _stack_state_elsewhere(config, client, site)
    if elsewhere is not None:
        raise ConfigError("state", elsewhere)


def _stack_state_elsewhere(config: Config, client: S3Client, site: BucketSite) -> str | None:
    """Why this run would keep a second state beside the one the stack keeps (None: it
    would not): no state where this run looks, but the stack's is to be seen. Beside the
    sitemaps: the live index names shard children, which only a run with its state in a
    location of its own writes. In a state bucket: the stack's manifest for this site is
    there, under another key."""
    if config.state is None:
        if read_object(client, site.bucket, site.root + STATE_NAME, limit=1) is not None:
            return None
        index = read_object(client, site.bucket, site.root + ENTRY_XML, limit=64 * 1024)
        if index is None or not _SHARD_CHILD.search(index):
            return None
        return (
            f"s3://{site.bucket}/{site.root}{ENTRY_XML} names shards of a run that keeps its "
            f"state elsewhere (the stack's state bucket), and there is no state here: run "
            f"`sitemill s3 --function <the stack's FunctionName>` (its TerminalRebuildCommand "
            f"output), or give that state with --state"
        )
    where = partitioned_prefix(config)
    if where is None:
        return None
    bucket, prefix = where
    stack_prefix = f"{site.bucket}/{site.root}sitemill-state/"
    if prefix == stack_prefix:
        return None
    legacy = parse_s3_location(config.state)[1]
    if any(
        read_object(client, bucket, key, limit=1) is not None
        for key in (prefix + _MANIFEST, legacy)
    ):
        return None
    try:
        if read_object(client, bucket, stack_prefix + _MANIFEST, limit=1) is None:
            return None
    except SitemillError:  # (not allowed to look there: nothing seen)
        return None
    stack_state = f"s3://{bucket}/{site.bucket}/{site.root}{STATE_NAME}"
    return (
        f"no state at {config.state}, but the stack's is in the same bucket: give "
        f"--state {stack_state} (or run `sitemill s3 --function <the stack's FunctionName>`)"
    )
