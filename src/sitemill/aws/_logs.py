"""The function's environment: its SITEMILL_* settings and Config, its secrets masked, and
JSON-lines logging (one object per line, easy to query in CloudWatch)."""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final

from sitemill.config.model import Config, env_name, load_config
from sitemill.errors import ConfigError, SitemillError
from sitemill.jobs.bucketsite import BucketSettings
from sitemill.messages import redact, register_secret, shown

if TYPE_CHECKING:
    from sitemill.aws.events import Trigger

_HANDLER_NAME: Final = "sitemill-json"
# The function's variables whose values are secrets (SITEMILL_INDEXNOW_KEY, the runtime's
# AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN): never in an answer or a log line.
_SECRET_NAME: Final = re.compile(r"(?:KEY|TOKEN|SECRET|PASSWORD)\Z")


class RedactedError(SitemillError):
    """An error whose text held a secret, raised in its place with the secret redacted (the
    Lambda runtime shows a raised error's text to the caller; Step Functions keeps it)."""


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


def function_env(env: Mapping[str, str] | None) -> Mapping[str, str]:
    """The function's environment (default: the process's), with logging set and its secrets
    masked: the first thing every entry point does, so that any failure after it is logged."""
    env = os.environ if env is None else env
    configure_logging(env.get("SITEMILL_LOG_LEVEL", "INFO"))
    register_env_secrets(env)
    return env


def register_env_secrets(env: Mapping[str, str]) -> None:
    """Redact the values of ``env``'s secret variables from every message from now on."""
    for name, value in env.items():
        if _SECRET_NAME.search(name.upper()):
            register_secret(value)


def redact_error(exc: Exception) -> Exception:
    """``exc``, or, when its text holds a secret, a RedactedError naming its type with the
    text redacted (raise it ``from None``: the runtime shows no chained text either)."""
    text = str(exc)
    if redact(text) == text:
        return exc
    return RedactedError(f"{type(exc).__name__}: {redact(text)}")


class JsonFormatter(logging.Formatter):
    """A record as one JSON object: time, level, logger, message and any ``fields``."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": shown(record.getMessage()),
        }
        request_id = getattr(record, "request_id", None)
        if request_id:
            line["request_id"] = request_id
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            line.update((name, _field(value)) for name, value in fields.items())
        if record.exc_info:  # (a traceback quotes the exception's text)
            line["exception"] = redact(self.formatException(record.exc_info))
        return json.dumps(line, ensure_ascii=False, default=str)


def _field(value: Any) -> Any:
    """A summary field as logged: its strings (keys, names: from outside) shown as any message
    is, redacted and escaped, in lists too (``would_write``, ``would_delete``)."""
    if isinstance(value, str):
        return shown(value)
    if isinstance(value, list | tuple):
        return [_field(item) for item in value]
    return value


class _StdoutHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever sys.stdout is at the time (the runtime's, or a test's capture)."""

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stdout
        super().emit(record)


def configure_logging(level: str = "INFO") -> logging.Logger:
    """Send the ``sitemill`` loggers to stdout as JSON lines; safe to call per invocation.

    They do not propagate, so the Lambda runtime's own root handler adds no second copy.
    """
    logger = logging.getLogger("sitemill")
    if not any(handler.get_name() == _HANDLER_NAME for handler in logger.handlers):
        handler = _StdoutHandler()
        handler.set_name(_HANDLER_NAME)
        handler.setFormatter(JsonFormatter())
        logger.addHandler(handler)
    numeric = logging.getLevelName(level.strip().upper())
    logger.setLevel(numeric if isinstance(numeric, int) else logging.INFO)
    logger.propagate = False
    if not isinstance(numeric, int):
        logger.warning("SITEMILL_LOG_LEVEL %r is not a level name; using INFO", level)
    return logger


def log_summary(
    summary: dict[str, Any],
    trigger: Trigger | None,
    started: float,
    request_id: str | None,
    level: int,
) -> None:
    """The invocation's summary line: its counts, how long it took, what triggered it."""
    summary["duration_ms"] = round((time.monotonic() - started) * 1000)
    fields = dict(summary)
    if trigger is not None:
        fields["records"] = trigger.records
        if trigger.from_sqs:
            fields["messages"] = len(trigger.message_ids)
            fields["bad_messages"] = len(trigger.bad_messages)
    fields.pop("would_write", None)
    fields.pop("would_delete", None)
    logging.getLogger("sitemill.lambda").log(
        level, "sitemill summary", extra={"fields": fields, "request_id": request_id}
    )
