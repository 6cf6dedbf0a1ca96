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
