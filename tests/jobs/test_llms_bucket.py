"""llms.txt and its kin in a bucket (moto, issue 67): written under the prefix with their types,
nothing PUT by a second run, recorded in the state (a private one too), a user's llms.txt
kept, sitemill's own deleted once off."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from typing import Any

import pytest

from llmssite import BASE, LLMS_FILES, SITE, TWINS, hidden_words, links, sitemap_locs
from outputlist import rebuild_bucket
from s3util import BUCKET, Requests, make_config, moto_bucket
from sitemill.filenames.outputs import STATE_NAME
from sitemill.jobs.bucket import BucketSite
from sitemill.report import Report
from sitemill.state.store import open_state_store

PREFIX = "site/"
PRIVATE = "private-state"
TYPES = {"llms.txt": "text/plain; charset=utf-8", "md": "text/markdown; charset=utf-8"}
MINE = b"# Our site\n\n> By hand.\n"
OFF: dict[str, Any] = {"llms_txt": "off", "llms_full": False, "llms_pages": False}


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        client.create_bucket(Bucket=PRIVATE)
        for name, text in SITE.items():
            kind = "application/pdf" if name.endswith(".pdf") else "text/html"
            data = text.encode()
            client.put_object(Bucket=BUCKET, Key=PREFIX + name, Body=data, ContentType=kind)
        yield client


def rebuild(client: Any, **values: Any) -> Report:
    settings = {"llms_txt": "on", "llms_full": True, "llms_pages": True, **values}
    config = make_config(**settings)
    store = open_state_store(config, s3_client=lambda: client)
    return rebuild_bucket(config, client, BucketSite(BUCKET, PREFIX), state_store=store)


def body(client: Any, key: str, bucket: str = BUCKET) -> bytes:
    data: bytes = client.get_object(Bucket=bucket, Key=key)["Body"].read()
    return data


def keys(client: Any) -> set[str]:
    listed = client.list_objects_v2(Bucket=BUCKET, Prefix=PREFIX).get("Contents", [])
    return {item["Key"][len(PREFIX) :] for item in listed}


def recorded(client: Any, bucket: str = BUCKET, key: str = PREFIX + STATE_NAME) -> dict[str, str]:
    llms: dict[str, str] = json.loads(gzip.decompress(body(client, key, bucket))).get("llms", {})
    return llms


def test_written_under_the_prefix_with_their_types(s3: Any) -> None:
    report = rebuild(s3)
    assert keys(s3) >= LLMS_FILES | TWINS
    assert not {name for name in keys(s3) if name.endswith(".md")} - TWINS
    for name in LLMS_FILES | TWINS:
        head = s3.head_object(Bucket=BUCKET, Key=PREFIX + name)
        assert head["ContentType"] == TYPES["md" if name.endswith(".md") else "llms.txt"], name
    root, french = (body(s3, PREFIX + name).decode() for name in ("llms.txt", "fr/llms.txt"))
    locs = sitemap_locs(body(s3, PREFIX + "sitemap.xml"))
    assert sorted(links(root) + links(french)) == sorted(locs)
    assert links(french) == [BASE + "fr/"]
    for name in LLMS_FILES | TWINS:
        text = body(s3, PREFIX + name).decode()
        assert not [word for word in hidden_words() if word in text], name
    assert report.result.warnings == []
    assert set(report.result.llms.files) == LLMS_FILES | TWINS
    assert set(recorded(s3)) == LLMS_FILES | TWINS


def test_a_second_run_puts_nothing(s3: Any) -> None:
    rebuild(s3)
    requests = Requests(s3)
    report = rebuild(s3)
    assert requests.count("PutObject") == 0, requests.calls
    assert report.result.warnings == []
    assert report.result.written == [] and not report.result.changed
    assert set(report.result.llms.files) == LLMS_FILES | TWINS


def test_the_record_is_kept_in_a_private_state(s3: Any) -> None:
    state = f"s3://{PRIVATE}/{BUCKET}/{PREFIX}{STATE_NAME}"
    rebuild(s3, state=state, shards="off")
    assert STATE_NAME not in keys(s3)
    assert set(recorded(s3, PRIVATE, f"{BUCKET}/{PREFIX}{STATE_NAME}")) == LLMS_FILES | TWINS
    requests = Requests(s3)
    report = rebuild(s3, state=state, shards="off")
    assert requests.count("PutObject") == 0 and report.result.warnings == []
    report = rebuild(s3, state=state, shards="off", **OFF)
    assert sorted(report.result.deleted) == sorted(LLMS_FILES | TWINS)
    assert not (LLMS_FILES | TWINS) & keys(s3)


def test_a_users_llms_txt_in_the_bucket_is_kept(s3: Any) -> None:
    s3.put_object(Bucket=BUCKET, Key=PREFIX + "llms.txt", Body=MINE, ContentType="text/plain")
    requests = Requests(s3)
    report = rebuild(s3)
    assert body(s3, PREFIX + "llms.txt") == MINE
    assert ("PutObject", PREFIX + "llms.txt") not in requests.calls
    (warning,) = report.result.warnings
    assert warning.startswith("llms.txt is there already and sitemill did not write it")
    assert "llms.txt" not in recorded(s3)
    rebuild(s3, llms_txt="replace")
    assert BASE + "docs/guide.html" in links(body(s3, PREFIX + "llms.txt").decode())


def test_turned_off_sitemills_own_go_and_a_users_twin_stays(s3: Any) -> None:
    s3.put_object(Bucket=BUCKET, Key=PREFIX + "about.html.md", Body=MINE)
    rebuild(s3)
    report = rebuild(s3, **OFF)
    assert sorted(report.result.deleted) == sorted(LLMS_FILES | TWINS)
    assert not (LLMS_FILES | TWINS) & keys(s3)
    assert body(s3, PREFIX + "about.html.md") == MINE


def test_each_folder_of_twins_is_listed_once(s3: Any) -> None:
    # A sink a folder (sinks.folders): the twins of one folder's pages share its one LIST.
    for n in range(6):
        page = SITE["docs/guide.html"].replace("Guide", f"Chapter {n}")
        s3.put_object(Bucket=BUCKET, Key=f"{PREFIX}docs/c{n}.html", Body=page.encode())
    requests = Requests(s3)
    rebuild(s3)
    twins = {name for name in keys(s3) if name.endswith(".md")}
    folders = {name.rpartition("/")[0] for name in twins | LLMS_FILES}
    assert len(twins) >= len(folders) + 6
    listed = [key for name, key in requests.calls if name == "ListObjectsV2"]
    assert len(listed) <= len(folders) + 2, listed  # (+ the pages' listing, the root's)
