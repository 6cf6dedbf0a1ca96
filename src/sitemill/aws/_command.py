"""A manual command of the function (`check`, `diff`): the environment read, then its answer."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from sitemill.aws._logs import LambdaSettings, function_env, lambda_config
from sitemill.aws.clients import make_s3_client
from sitemill.aws.events import own_bucket
from sitemill.config.model import Config
from sitemill.errors import EventError, SitemillError
from sitemill.messages import shown

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class CommandInputs:
    """A command's settings, configuration, bucket and S3 client."""

    settings: LambdaSettings
    config: Config
    bucket: str
    client: S3Client


def command_inputs(
    event: Mapping[str, Any], env: Mapping[str, str], s3: S3Client | None, verb: str
) -> CommandInputs:
    """The function's own bucket (``verb``: what the error says it does only there) and the
    rest: a SitemillError for anything wrong."""
    settings, config = LambdaSettings.from_env(env), lambda_config(env)
    bucket = own_bucket(event, settings.site.bucket, verb)
    return CommandInputs(settings, config, bucket, s3 if s3 is not None else make_s3_client())


@dataclass(frozen=True, slots=True)
class ManualCommand(Generic[_T]):
    """A manual command of the function, called as its handler: the event read (``read``),
    then the inputs, then the answer (``answer``, with the invocation's context); any
    SitemillError on the way is status "error", one line logged on ``log`` (the command's
    own logger)."""

    verb: str  # what it does, for an error that says it does so on the function's bucket only
    read: Callable[[Mapping[str, Any]], _T]
    answer: Callable[[CommandInputs, _T, object], dict[str, Any]]
    log: logging.Logger

    def __call__(
        self,
        event: Mapping[str, Any],
        context: object = None,
        *,
        env: Mapping[str, str] | None = None,
        s3: S3Client | None = None,
    ) -> dict[str, Any]:
        """The command's JSON answer to ``event`` (status ok, or what ``answer`` says)."""
        env = function_env(env)
        try:
            found = self.read(event)
            return self.answer(command_inputs(event, env, s3, self.verb), found, context)
        except SitemillError as exc:
            failed = {"status": "error", "error": shown(str(exc))}
            self.log.error("%s", json.dumps(failed))
            return failed


def read_keys(event: Mapping[str, Any], verb: str, known: tuple[str, ...]) -> None:
    """A ``verb`` event of the ``known`` keys only, its bucket (if named) a string: an
    EventError otherwise."""
    unknown = sorted(set(event) - set(known))
    if unknown:
        raise EventError(
            f"unknown key {unknown[0]!r} in a {verb} event (known: {', '.join(known)})"
        )
    if "bucket" in event and not isinstance(event["bucket"], str):
        raise EventError('"bucket" must be a bucket name')
