"""The state machine's four functions as the Lambda runtime calls them: bad input is one
clear error (raised: the state machine retries only what may pass on a second try)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from s3util import BASE, BUCKET, moto_bucket, restored_logging
from sitemill.aws import steps
from sitemill.errors import ConfigError, StateError

STATE = "s3://state-bucket/site/sitemill-state.json.gz"
ENV = {"SITEMILL_BUCKET": BUCKET, "SITEMILL_BASE_URL": BASE, "SITEMILL_STATE": STATE}


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        client.create_bucket(Bucket="state-bucket")
        yield client


@pytest.fixture(autouse=True)
def _logging() -> Iterator[None]:
    yield from restored_logging()


def test_a_stack_without_a_partitioned_state_is_refused(s3: Any) -> None:
    event = {"input": {"bucket": BUCKET, "prefix": "", "mode": "full"}, "run": "full-1"}
    for env in ({**ENV, "SITEMILL_STATE": ""}, {**ENV, "SITEMILL_SHARDS": "off"}):
        with pytest.raises(ConfigError, match="keeps a partitioned state"):
            steps.plan(event, env=env, s3=s3)


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ({"bucket": "another-bucket"}, "rebuilds site-bucket"),
        ({"bucket": BUCKET, "mode": "some"}, '"mode" is'),
        ({"bucket": BUCKET, "mode": "shards"}, "names no shard"),
        ({"bucket": BUCKET, "shards": "r1"}, "not a list of shard ids"),
        ([BUCKET], "not a JSON object"),
    ],
)
def test_the_planner_refuses_a_bad_execution_input(s3: Any, source: Any, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        steps.plan({"input": source, "run": "full-1"}, env=ENV, s3=s3)


def test_the_planner_refuses_a_run_name_that_is_no_execution_name(s3: Any) -> None:
    event = {"input": {"bucket": BUCKET}, "run": "../../other/run"}
    with pytest.raises(StateError, match="is not a run name"):
        steps.plan(event, env=ENV, s3=s3)


def test_a_worker_refuses_an_item_it_cannot_trust(s3: Any) -> None:
    with pytest.raises(StateError, match="no valid run"):
        steps.shard({"run": "x/y", "shard": "r", "afters": [""], "last": None}, env=ENV, s3=s3)


def test_the_reducer_needs_a_planned_run(s3: Any) -> None:
    with pytest.raises(ConfigError, match='given no "run"'):
        steps.reduce({}, env=ENV, s3=s3)
    with pytest.raises(StateError, match=r"has no run\.json: was it planned"):
        steps.reduce({"run": "full-9"}, env=ENV, s3=s3)


def test_an_unexpected_errors_text_is_redacted_in_the_raised_error_and_the_log(
    s3: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The state machine records a step's error as its cause (issue 39, item 10)."""
    secret = "k39-steps-session-token-Zm9vYmFy"

    def crash(*args: Any, **options: Any) -> Any:
        raise RuntimeError(f"broken near {secret}")

    monkeypatch.setattr(steps, "plan_run", crash)
    event = {"input": {"bucket": BUCKET, "prefix": "", "mode": "full"}, "run": "full-1"}
    with pytest.raises(Exception, match=r"RuntimeError: broken near \*\*\*") as raised:
        steps.plan(event, env={**ENV, "AWS_SESSION_TOKEN": secret}, s3=s3)
    logged = capsys.readouterr().out
    assert "broken near ***" in logged
    assert secret not in f"{raised.value!r} {raised.value}" + logged
