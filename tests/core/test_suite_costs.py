"""What the suite's shared setup (tests/conftest.py) saves on every moto S3 call, counted: moto's
URL table is loaded once, a timestamp's text is parsed by dateutil once, and a mock_aws() start
makes no new `responses` stubs; and what collection made is frozen out of the cyclic collector's
scans (issue 80)."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import botocore.utils
import dateutil.parser
import moto.s3.models
import pytest
import responses
from moto import mock_aws

from s3util import BUCKET, moto_bucket

OBJECTS = 10
LISTINGS = 20


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def counted(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[object]:
    """Each call of ``owner.name`` from now on, recorded (the call is made)."""
    calls: list[object] = []
    real = getattr(owner, name)

    def count(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[0] if args else None)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, count)
    return calls


def test_moto_loads_its_s3_url_table_once_not_per_request(
    s3: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    reloads = counted(monkeypatch, moto.s3.models, "reload")
    for n in range(LISTINGS):
        s3.put_object(Bucket=BUCKET, Key=f"k{n}", Body=b"x")
        s3.list_objects_v2(Bucket=BUCKET)
    assert len(reloads) <= 1, len(reloads)  # (moto alone: two per request, 80)


def test_each_timestamp_text_is_parsed_once_and_to_the_same_moment(
    s3: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(OBJECTS):
        s3.put_object(Bucket=BUCKET, Key=f"k{n}", Body=b"x")
    first = s3.list_objects_v2(Bucket=BUCKET)["Contents"]
    parsed = counted(monkeypatch, dateutil.parser, "parse")
    for _ in range(LISTINGS):
        again = s3.list_objects_v2(Bucket=BUCKET)["Contents"]
        assert [item["LastModified"] for item in again] == [i["LastModified"] for i in first]
    # (moto and botocore alone: 2 per object listed, 400)
    assert len(parsed) <= OBJECTS, len(parsed)
    uncached = getattr(botocore.utils.parse_timestamp, "__wrapped__", None)
    assert uncached is not None, "botocore.utils.parse_timestamp is not cached"
    texts = {*parsed, "2024-01-01T12:00:00.000Z", "Mon, 01 Jan 2024 12:00:00 GMT", "1704110400"}
    for text in texts:  # the cached reading is botocore's own
        assert botocore.utils.parse_timestamp(text) == uncached(text), text


def test_a_mock_aws_start_makes_the_same_stubs_once(monkeypatch: pytest.MonkeyPatch) -> None:
    with mock_aws():  # (the first start in this process, if it is)
        pass
    made = counted(monkeypatch, responses.CallbackResponse, "__init__")
    for _ in range(2):
        with mock_aws():
            pass
    assert len(made) == 0, len(made)  # (moto alone: 1,288 per start)


def test_a_handlers_kwargs_and_an_events_alias_read_as_botocore_reads_them() -> None:
    import botocore.compat
    import botocore.handlers
    import botocore.hooks

    handlers = [entry[1] for entry in botocore.handlers.BUILTIN_HANDLERS]
    handlers += [lambda x: x, lambda **kw: kw, len, functools.partial(lambda a, **k: a, 1)]
    for handler in handlers:
        takes = botocore.hooks.accepts_kwargs(handler)
        assert takes == bool(botocore.compat.accepts_kwargs(handler)), handler  # (its name)
    for entry in botocore.handlers.BUILTIN_HANDLERS:
        alone = botocore.hooks.EventAliaser(botocore.hooks.HierarchicalEmitter(), {})
        alone._event_aliases = dict(botocore.hooks.EVENT_ALIASES)  # (not botocore's own table)
        shared = botocore.hooks.EventAliaser(botocore.hooks.HierarchicalEmitter())
        assert shared._alias_event_name(entry[0]) == alone._alias_event_name(entry[0])


def test_what_collection_made_is_out_of_the_collectors_reach(
    request: pytest.FixtureRequest,
) -> None:
    """The collected items (and all else collection made) sit in the permanent generation: no
    full collection scans them again; the garbage a test makes is still freed."""
    import gc
    import weakref

    assert gc.get_freeze_count() > 0
    assert not any(found is request.node for found in gc.get_objects())  # (frozen)

    class Cycle:
        pass

    made = Cycle()
    made.me = made  # type: ignore[attr-defined]
    gone = weakref.ref(made)
    del made
    gc.collect()
    assert gone() is None


def test_a_cli_run_in_this_process_starts_from_a_new_processs_loggers(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """clirun.run_sitemill runs the command in this process: what an earlier test left on
    sitemill's loggers (here a Lambda handler's JSON lines to stdout, not propagated) must
    neither swallow its warnings nor outlive it (its one line on stderr, as in a process)."""
    import logging

    from clirun import run_sitemill
    from sitemill.aws._logs import configure_logging

    logger = logging.getLogger("sitemill")
    for name in ("handlers", "level", "propagate"):  # (given back after the test)
        monkeypatch.setattr(logger, name, getattr(logger, name))
    monkeypatch.setattr(logger, "handlers", list(logger.handlers))
    configure_logging()
    before = (list(logger.handlers), logger.level, logger.propagate)
    site = tmp_path / "site"
    site.mkdir()
    (site / "CNAME").write_text("example.org\n")
    (site / "index.html").write_text(
        '<head><meta property="og:url" content="https://example.org/">'
    )
    done = run_sitemill(
        "build", str(site), "--base-url", "http://example.org/", "--out", str(tmp_path / "o")
    )
    assert done.returncode == 0, done.stderr
    (warning,) = done.stderr.splitlines()
    assert warning.startswith("sitemill: warning: the base URL is http://example.org/"), warning
    assert '"level"' not in done.stdout  # (no JSON line of the Lambda's handler)
    assert (list(logger.handlers), logger.level, logger.propagate) == before
