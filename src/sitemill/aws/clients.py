"""AWS clients, built only at the edges (the CLI, the Lambda) and passed into the core."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

from sitemill.errors import MissingExtraError, install_hint
from sitemill.jobs.bucketsite import MAX_HEAD_READERS

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

    from sitemill.scaleout.executor import StatesClient


class CloudFrontClient(Protocol):
    """The one CloudFront call sitemill makes."""

    def create_invalidation(self, **kwargs: Any) -> Any: ...


def _boto3() -> Any:
    try:
        import boto3  # optional dependency: the "s3" extra
    except ImportError as exc:
        raise MissingExtraError(f"S3 support needs boto3: {install_hint('s3')}") from exc
    return boto3


def parse_timestamp(value: Any) -> datetime:
    """botocore's timestamp parser, with a fast path for ISO 8601 (every LastModified of a
    listing): dateutil's general parser would cost ~50 µs per object of a large bucket."""
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            pass
        else:
            return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    from botocore.utils import parse_timestamp as parse_any

    parsed: datetime = parse_any(value)
    return parsed


def _botocore_session() -> Any:
    """botocore's session, with ISO timestamps parsed fast. The S3 client is botocore's own:
    boto3's session only adds its transfer methods (upload_file …, which sitemill never
    calls: boto3, s3transfer and multiprocessing are 65 modules of a cold start) and its name
    to the User-Agent header."""
    try:
        from botocore.parsers import ResponseParserFactory
        from botocore.session import get_session
    except ImportError as exc:
        raise MissingExtraError(f"S3 support needs boto3: {install_hint('s3')}") from exc

    session = get_session()
    factory = ResponseParserFactory()
    factory.set_parser_defaults(timestamp_parser=parse_timestamp)
    session.register_component("response_parser_factory", factory)
    return session


def make_s3_client(endpoint_url: str | None = None) -> S3Client:
    """An S3 client; ``endpoint_url`` for S3-compatible stores (and moto in tests).

    Its connection pool holds one connection per head read at a time (botocore keeps 10; a
    busier pool discards connections with urllib3's "Connection pool is full" warning).
    With a custom endpoint, checksums are sent only when an operation requires them: many
    S3-compatible stores reject the CRC headers that botocore adds by default since 1.36.
    """
    session = _botocore_session()
    from botocore.config import Config

    config = Config(retries={"mode": "standard"}, max_pool_connections=MAX_HEAD_READERS)
    if endpoint_url:
        config = config.merge(
            Config(
                request_checksum_calculation="when_required",
                response_checksum_validation="when_required",
            )
        )
    client: S3Client = session.create_client("s3", endpoint_url=endpoint_url or None, config=config)
    return client


def make_states_client() -> StatesClient:
    """A Step Functions client (to start the distributed rebuild)."""
    client: StatesClient = _boto3().client("stepfunctions")
    return client


def make_cloudfront_client() -> CloudFrontClient:
    """A CloudFront client (for invalidations)."""
    client: CloudFrontClient = _boto3().client("cloudfront")
    return client


def function_environment(name: str) -> dict[str, str]:
    """The environment variables of a deployed Lambda function (the stack's sitemill: its
    configuration, bucket and state location), by its name or ARN."""
    client = _boto3().client("lambda")
    configuration = client.get_function_configuration(FunctionName=name)
    variables = configuration.get("Environment", {}).get("Variables", {})
    return {str(key): str(value) for key, value in variables.items()}
