"""llms files in a bucket are written after the sitemaps' commit: a failed or conflicting PUT
of each of them, at every position, leaves the sitemaps exactly a clean rebuild's, says one
warning, and the next run writes what was missed (nothing of a user's is touched)."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError
from test_llms_bucket import PREFIX, body, keys, rebuild
from test_llms_bucket import s3 as s3

from llmssite import LLMS_FILES, TWINS
from s3util import BUCKET

NAMES = sorted(LLMS_FILES | TWINS)


def failing_put(client: Any, key: str, code: str) -> Any:
    """Every PutObject of ``key`` fails with ``code`` (a botocore before-call hook, returned)."""

    def fail(params: dict[str, Any], model: Any, **_: Any) -> None:
        if model.name == "PutObject" and params["url_path"].endswith("/" + key):
            error = {"Error": {"Code": code, "Message": "injected"}}
            raise ClientError(error, "PutObject")  # type: ignore[arg-type]

    client.meta.events.register("before-call.s3.PutObject", fail)
    return fail


@pytest.mark.parametrize("code", ["InternalError", "PreconditionFailed"])
@pytest.mark.parametrize("name", NAMES)
def test_a_failed_put_of_an_llms_file_loses_nothing(s3: Any, name: str, code: str) -> None:
    clean = rebuild(s3)
    sitemap = body(s3, PREFIX + "sitemap.xml")
    wanted = {item: body(s3, PREFIX + item) for item in NAMES}
    for item in NAMES:
        s3.delete_object(Bucket=BUCKET, Key=PREFIX + item)
    hook = failing_put(s3, PREFIX + name, code)
    report = rebuild(s3)
    assert body(s3, PREFIX + "sitemap.xml") == sitemap and clean.result.url_count
    assert name not in keys(s3) and all(item in keys(s3) for item in NAMES if item != name)
    assert [w for w in report.result.warnings if name in w]  # (said, and not a traceback)
    s3.meta.events.unregister("before-call.s3.PutObject", hook)
    rebuild(s3)  # (the next run)
    assert {item: body(s3, PREFIX + item) for item in NAMES} == wanted
