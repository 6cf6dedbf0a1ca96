"""`sitemill s3 --function NAME`: the same rebuild as the stack's function, from a terminal.

The deployed function's SITEMILL_* environment is the stack's whole configuration: the
bucket, the prefix, the base URL, every sitemap option, and the state location in the
stack's private state bucket. Taken from the function itself, a terminal run cannot drift
from it (a second, public state in the site bucket; other sitemaps than the function's).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from sitemill.aws.clients import function_environment
from sitemill.errors import ConfigError, SitemillError
from sitemill.sources.s3 import describe_error

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
    except SitemillError:  # (no boto3: the extra's one line)
        raise
    except Exception as exc:
        from botocore.exceptions import BotoCoreError, ClientError

        if not isinstance(exc, ClientError | BotoCoreError):
            raise
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
