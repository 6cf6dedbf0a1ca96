"""`make demo`, Lambda part: deploy examples/site to an embedded (moto) S3, notify the handler."""

from __future__ import annotations

import json
import mimetypes
import os
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote_plus

import boto3
from moto import mock_aws

from sitemill.aws.handler import handle

SITE = Path(__file__).resolve().parent / "site"
BUCKET = "demo-site"
ENV = {
    "SITEMILL_BASE_URL": "https://www.example.com/",
    "SITEMILL_LASTMOD_PRECISION": "date",
    "SITEMILL_BUCKET": BUCKET,
}


def notification(keys: list[str]) -> dict[str, Any]:
    """An S3 event as S3 sends it: one record per object, keys URL-encoded ('+' for spaces)."""
    return {
        "Records": [
            {
                "eventSource": "aws:s3",
                "eventName": "ObjectCreated:Put",
                "s3": {"bucket": {"name": BUCKET}, "object": {"key": quote_plus(key, safe="/")}},
            }
            for key in keys
        ]
    }


def use_fake_credentials() -> None:
    """The embedded S3 needs credentials and a region: fake ones, never the user's real ones."""
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
        os.environ[name] = "demo"
    os.environ["AWS_DEFAULT_REGION"] = "us-east-1"
    for name in ("AWS_PROFILE", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3"):
        os.environ.pop(name, None)


def main() -> int:
    use_fake_credentials()
    with mock_aws():
        s3 = boto3.client("s3")
        s3.create_bucket(Bucket=BUCKET)
        keys = []
        for path in sorted(SITE.rglob("*")):
            if path.is_file():
                key = path.relative_to(SITE).as_posix()
                kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
                s3.put_object(Bucket=BUCKET, Key=key, Body=path.read_bytes(), ContentType=kind)
                keys.append(key)
        print(f"uploaded {len(keys)} objects to s3://{BUCKET}/; delivering the S3 notification")
        print("(the handler's log lines are JSON, one per line)\n", flush=True)
        result = handle(notification(keys), None, env=ENV, s3=s3)
        print(f"\nhandler returned: {json.dumps(result)}\n")

        print(f"--- keys in s3://{BUCKET}/")
        for obj in s3.list_objects_v2(Bucket=BUCKET).get("Contents", []):
            print(f"{obj['Size']:>6}  {obj['Key']}")
        index = s3.get_object(Bucket=BUCKET, Key="sitemap.xml")
        print(f"\n--- sitemap.xml ({index['ContentType']}, {index['CacheControl']})")
        print(index["Body"].read().decode("utf-8"), end="")

        print("\n--- the same notification again: nothing changes, nothing is PUT\n", flush=True)
        again = handle(notification(keys), None, env=ENV, s3=s3)
        print(f"\nhandler returned: {json.dumps(again)}")
    return 0 if result["status"] == again["status"] == "ok" and again["written"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
