"""An upgrade from a sitemill two or more fingerprint versions old (State.outdated): a page
whose bytes are unchanged (its git blob, its ETag) keeps its date and is fingerprinted anew;
another takes the evidence ladder, as on a first run: never the run's time, never the deploy's.
Written against FINGERPRINT_VERSION, so that it holds for the next version too."""

from __future__ import annotations

import gzip
import json
import os
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from moto.core import DEFAULT_ACCOUNT_ID
from moto.s3.models import s3_backends
from test_content_dates_bucket import SITE, page

from gitutil import commit, make_repo, unix
from outputlist import build_from_tree, rebuild_bucket, rebuild_partitioned
from s3util import BUCKET, make_config, moto_bucket, put_pages
from sitemill.config.model import Config, load_config
from sitemill.filenames.outputs import STATE_NAME, stored_digest
from sitemill.jobs.bucket import BucketSite
from sitemill.jobs.bucketsite import partitioned_prefix
from sitemill.lastmod.fingerprint.digest import (
    EARLIER_VERSIONS,
    FINGERPRINT_VERSION,
    fingerprint_html,
)
from sitemill.protocol import Precision, lastmod_from_timestamp
from sitemill.report import Report
from sitemill.sinks import LocalDirSink
from sitemill.state.model import State
from sitemill.state.parse import parse_state
from sitemill.state.partitioned import PartitionedStore, merged_states
from sitemill.state.shardstate import ShardState

BASE = "https://example.com/"
# The versions this sitemill cannot compute: two, three and four versions old (docs/lastmod.md keeps
# the current and the previous one: issue 80, where 8 and 9 were still computed), the first one, a
# newer sitemill's, and values no sitemill wrote.
OUTDATED = [
    FINGERPRINT_VERSION - 2,
    FINGERPRINT_VERSION - 3,
    FINGERPRINT_VERSION - 4,
    1,
    FINGERPRINT_VERSION + 1,
    0,
    "4",
    None,
]
# A fingerprint of an old algorithm: never compared, whatever it is.
OLD_PRINT = "0123456789abcdef0123456789abcdef"


def test_only_the_previous_version_stays_computable() -> None:
    # (docs/lastmod.md: only the current and the previous version stay computable)
    assert set(EARLIER_VERSIONS) == {FINGERPRINT_VERSION - 1}
    assert State(fingerprint_version=FINGERPRINT_VERSION).outdated is False
    assert State(fingerprint_version=FINGERPRINT_VERSION - 1).outdated is False
    assert State(fingerprint_version=FINGERPRINT_VERSION - 2).outdated is True
    assert State(fingerprint_version=FINGERPRINT_VERSION - 3).outdated is True
    assert State(fingerprint_version=FINGERPRINT_VERSION - 4).outdated is True


def outdated(data: bytes, version: object) -> bytes:
    """A state as a sitemill of fingerprint ``version`` wrote it: its marker, its HTML pages'
    fingerprints of that algorithm, and its blob fingerprints under another key (left out)."""
    document = json.loads(gzip.decompress(data))
    document["fingerprint_version"] = version
    document.pop("blobs", None)
    for name, record in document["pages"].items():
        if name.endswith(".html") and "fingerprint" in record:
            record["fingerprint"] = OLD_PRINT
    return gzip.compress(json.dumps(document).encode(), mtime=0)


# A tree: a CI build folder (no git) and a git checkout.

T1, T2 = 1_700_000_000, 1_710_000_000
SPREAD = 45 * 86_400


def render(text: str, build: str) -> bytes:
    return (
        f'<!DOCTYPE html><html><head><meta name="generator" content="Gen {build}">'
        f"<title>T</title></head><body><h1>T</h1><p>{text}</p></body></html>\n"
    ).encode()


def write_folder(root: Path, pages: dict[str, bytes], when: int, *, spread: bool) -> None:
    for index, (name, data) in enumerate(pages.items()):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        stamp = when - index * SPREAD if spread else when
        os.utime(path, (stamp, stamp))


def run_tree(site: Path, out: Path, **values: Any) -> Report:
    config = load_config({"base_url": BASE, **values})
    return build_from_tree(config, site, LocalDirSink(out), output_dir=out)


def tree_lastmods(out: Path) -> dict[str, str]:
    text = (out / "sitemap.xml").read_text()
    return dict(re.findall(r"<loc>https://example.com/(.*?)</loc><lastmod>(.*?)</lastmod>", text))


def w3c(seconds: int) -> str:
    return lastmod_from_timestamp(seconds, Precision.DATETIME)


def folder_pages(build: str, a: str = "Alpha.") -> dict[str, bytes]:
    return {
        "index.html": render("Welcome.", build),
        "a.html": render(a, build),
        "manual.pdf": b"%PDF-1.4 manual",
    }


@pytest.mark.parametrize("version", OUTDATED)
def test_a_build_folder_with_an_outdated_state_takes_the_ladder(
    tmp_path: Path, version: object
) -> None:
    # A folder holds no blob: its HTML pages take the ladder (a CI build's one mtime is no
    # evidence: no date, not the build's time); the PDF's fingerprint is its bytes' hash in
    # every version, which says it is unchanged: it keeps its date.
    site, out = tmp_path / "public", tmp_path / "out"
    write_folder(site, folder_pages("1"), T1, spread=True)
    run_tree(site, out, lastmod="mtime")
    first = tree_lastmods(out)
    state = out / STATE_NAME
    state.write_bytes(outdated(state.read_bytes(), version))
    write_folder(site, folder_pages("2", a="Alpha, edited."), T2, spread=False)
    report = run_tree(site, out, lastmod="mtime")
    assert tree_lastmods(out) == {"manual.pdf": first["manual.pdf"]}
    assert report.dates == {"kept": 1, "no date (file times are one build's)": 2}
    kept = parse_state(state.read_bytes())
    assert kept.fingerprint_version == FINGERPRINT_VERSION and not kept.outdated
    assert kept.pages["a.html"].fingerprint == fingerprint_html(
        (site / "a.html").read_bytes(), url=BASE + "a.html"
    )
    again = run_tree(site, out, lastmod="mtime")  # nothing changed: nothing written
    assert not again.state_written and not again.result.written
    assert again.dates == {"kept": 1, "no date (unchanged, none remembered)": 2}


def test_a_build_folder_with_a_previous_version_state_keeps_every_date(tmp_path: Path) -> None:
    # The previous version is computed: the pages are compared by it, and keep their dates.
    site, out = tmp_path / "public", tmp_path / "out"
    write_folder(site, folder_pages("1"), T1, spread=True)
    run_tree(site, out, lastmod="mtime")
    first = tree_lastmods(out)
    state = out / STATE_NAME
    document = json.loads(gzip.decompress(state.read_bytes()))
    document["fingerprint_version"] = previous = FINGERPRINT_VERSION - 1
    for name, record in document["pages"].items():
        if name.endswith(".html"):
            data = (site / name).read_bytes()
            record["fingerprint"] = fingerprint_html(data, version=previous, url=BASE + name)
    state.write_bytes(gzip.compress(json.dumps(document).encode(), mtime=0))
    write_folder(site, folder_pages("2", a="Alpha, edited."), T2, spread=False)
    report = run_tree(site, out, lastmod="mtime")
    assert tree_lastmods(out) == {**first, "a.html": w3c(T2)}
    assert report.dates == {"kept": 2, "content changed": 1}
    assert parse_state(state.read_bytes()).fingerprint_version == FINGERPRINT_VERSION


G1, G2, G3 = "2024-01-10 09:00:00", "2024-02-20 10:00:00", "2024-03-30 11:00:00"


@pytest.mark.parametrize(
    "version", [FINGERPRINT_VERSION - 2, FINGERPRINT_VERSION - 3, FINGERPRINT_VERSION - 4, 1]
)
def test_a_git_checkout_with_an_outdated_state(tmp_path: Path, version: int) -> None:
    # Pages whose blob is unchanged keep their dates (their history's, which the state holds);
    # a page edited since is dated by its history, rung 1 of the ladder.
    repo, out = make_repo(tmp_path / "site"), tmp_path / "out"
    commit(repo, {"guide.html": render("First.", "1"), "other.html": render("Other.", "1")}, G1)
    commit(repo, {"guide.html": render("Better.", "2"), "other.html": render("Other.", "2")}, G2)
    run_tree(repo, out, lastmod="git")
    first = tree_lastmods(out)
    assert first == {"guide.html": w3c(unix(G2)), "other.html": w3c(unix(G1))}
    state = out / STATE_NAME
    state.write_bytes(outdated(state.read_bytes(), version))
    report = run_tree(repo, out, lastmod="git")
    assert tree_lastmods(out) == first and report.dates == {"kept": 2}
    assert parse_state(state.read_bytes()).fingerprint_version == FINGERPRINT_VERSION
    again = run_tree(repo, out, lastmod="git")
    assert not again.state_written and again.dates == {"kept": 2}
    state.write_bytes(outdated(state.read_bytes(), version))
    commit(repo, {"guide.html": render("Best.", "2")}, G3)
    edited = run_tree(repo, out, lastmod="git")
    assert tree_lastmods(out) == {**first, "guide.html": w3c(unix(G3))}
    assert edited.dates == {"kept": 1, "the last commit": 1}


# A bucket (the Lambda's S3 rebuild).

B1 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
B2 = datetime(2024, 6, 2, 8, 30, tzinfo=UTC)
DECLARED = "2024-05-01T00:00:00+00:00"


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Any:
    yield from moto_bucket(monkeypatch)


def upload(client: Any, files: dict[str, bytes], when: datetime, *, spread: bool = False) -> None:
    backend = s3_backends[DEFAULT_ACCOUNT_ID]["aws"]
    for index, (key, body) in enumerate(files.items()):
        client.put_object(Bucket=BUCKET, Key=key, Body=body)
        moment = when - index * (SPREAD_DAYS) if spread else when
        backend.get_object(BUCKET, key).last_modified = moment


SPREAD_DAYS = B1 - datetime(2024, 1, 15, 12, 0, tzinfo=UTC)


def bucket_lastmods(client: Any) -> dict[str, str]:
    data = client.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read().decode()
    found = re.findall(r"<loc>https://example.com/(.*?)</loc>(?:<lastmod>(.*?)</lastmod>)?", data)
    return {path: date for path, date in found if date}


def rebuild(client: Any) -> Report:
    return rebuild_bucket(make_config(), client, BucketSite(BUCKET))


@pytest.mark.parametrize("version", OUTDATED)
def test_a_bucket_with_an_outdated_state(s3: Any, version: object) -> None:
    # After an `aws s3 sync` of a fresh build (every LastModified the sync's), the objects
    # of unchanged ETag keep their dates; a changed one takes the ladder: its declared date,
    # else none (the sync's time is no evidence), never the deploy's "content changed".
    upload(s3, SITE, B1, spread=True)
    rebuild(s3)
    first = bucket_lastmods(s3)
    data = s3.get_object(Bucket=BUCKET, Key=STATE_NAME)["Body"].read()
    s3.put_object(Bucket=BUCKET, Key=STATE_NAME, Body=outdated(data, version))
    declared = f'<meta property="article:modified_time" content="{DECLARED}">'
    site = {**SITE, "a.html": page("A", "Alpha, edited.", declared), "b.html": page("B", "B2.")}
    upload(s3, site, B2)
    report = rebuild(s3)
    assert bucket_lastmods(s3) == {
        "": first[""],
        "a.html": DECLARED,
        "docs/manual.pdf": first["docs/manual.pdf"],
    }
    assert report.dates == {
        "kept": 2,
        "declared": 1,
        "no date (upload times are one sync's)": 1,
    }
    assert report.heads_read == 3  # every HTML page once, to fingerprint it anew
    kept = parse_state(s3.get_object(Bucket=BUCKET, Key=STATE_NAME)["Body"].read())
    assert kept.fingerprint_version == FINGERPRINT_VERSION and not kept.outdated
    assert kept.pages["index.html"].fingerprint == fingerprint_html(
        SITE["index.html"], url=BASE + "index.html"
    )
    again = rebuild(s3)  # nothing changed: nothing read, nothing written
    assert again.heads_read == 0 and not again.state_written and not again.result.written
    assert bucket_lastmods(s3) == {
        "": first[""],
        "a.html": DECLARED,
        "docs/manual.pdf": first["docs/manual.pdf"],
    }


def test_merged_shard_states_are_read_in_their_oldest_version() -> None:
    # A partial rebuild after an upgrade leaves shards of several versions: the merged state
    # is read in the outdated one (every page fingerprinted anew, none compared by a version
    # this sitemill cannot compute), else in an earlier one.
    def shard(version: int) -> ShardState:
        return ShardState("", state=State(fingerprint_version=version))

    previous, old = FINGERPRINT_VERSION - 1, FINGERPRINT_VERSION - 4
    current = merged_states([shard(FINGERPRINT_VERSION), None, shard(FINGERPRINT_VERSION)])[0]
    assert current.fingerprint_version == FINGERPRINT_VERSION
    earlier = merged_states([shard(FINGERPRINT_VERSION), shard(previous)])[0]
    assert earlier.fingerprint_version == previous and not earlier.outdated
    mixed = [shard(FINGERPRINT_VERSION), shard(old), shard(previous)]
    assert merged_states(mixed)[0].outdated


# A partitioned state (a state per shard, docs/s3-lambda.md).

STATE_BUCKET = "state-bucket"
NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def partitioned(s3: Any) -> tuple[Config, PartitionedStore]:
    config = make_config(
        shards="on", max_urls=5, shard_fill=4, state=f"s3://{STATE_BUCKET}/site/state.json.gz"
    )
    where = partitioned_prefix(config)
    assert where is not None
    return config, PartitionedStore(s3, *where)


def outdated_shards(s3: Any, version: int) -> int:
    """Every shard state made one of fingerprint ``version`` (the index-state names their new
    bytes); how many there are."""
    key = "site/state/index-state.json"
    manifest = json.loads(s3.get_object(Bucket=STATE_BUCKET, Key=key)["Body"].read())
    for ref in manifest["states"].values():
        name = "site/state/" + ref["name"]
        shard = json.loads(
            gzip.decompress(s3.get_object(Bucket=STATE_BUCKET, Key=name)["Body"].read())
        )
        shard["state"] = json.loads(
            gzip.decompress(outdated(gzip.compress(json.dumps(shard["state"]).encode()), version))
        )
        data = gzip.compress(json.dumps(shard).encode(), mtime=0)
        s3.put_object(Bucket=STATE_BUCKET, Key=name, Body=data)
        ref["digest"] = stored_digest(data)
    s3.put_object(Bucket=STATE_BUCKET, Key=key, Body=json.dumps(manifest).encode())
    return len(manifest["states"])


def test_a_partitioned_state_of_an_outdated_version(s3: Any) -> None:
    # Every shard's state is of a version this sitemill cannot compute: the objects of
    # unchanged ETag keep their dates; the one changed takes the ladder (the objects' upload
    # times are spread: its own), not "content changed".
    s3.create_bucket(Bucket=STATE_BUCKET)
    keys = [f"{section}/p{n}.html" for section in "abc" for n in range(4)]
    put_pages(s3, *keys)
    config, store = partitioned(s3)
    rebuild_partitioned(config, s3, BucketSite(BUCKET), store, now=NOW)
    assert outdated_shards(s3, FINGERPRINT_VERSION - 4) == 3
    put_pages(s3, *keys)  # a sync: new times, the same bytes
    s3.put_object(Bucket=BUCKET, Key="b/p1.html", Body=b"<!doctype html><title>y</title>")
    config, store = partitioned(s3)
    report = rebuild_partitioned(config, s3, BucketSite(BUCKET), store, now=NOW)
    assert report.dates == {"kept": 11, "file time": 1}
    assert report.heads_read == 12  # every page once, to fingerprint it anew
    config, store = partitioned(s3)
    again = rebuild_partitioned(config, s3, BucketSite(BUCKET), store, now=NOW)
    assert again.heads_read == 0 and not again.state_written and not again.result.written


def test_pages_the_new_version_reads_anew_keep_their_dates_from_a_previous_version_state(
    tmp_path: Path,
) -> None:
    # Pages whose fingerprint version 13 computes otherwise than version 12 (issue 79: a header
    # whose <h1> names the page's kind, the excerpt window in letters): a state of version 12 (the
    # previous one, computable) compares them by its algorithm and every date is kept. (Version
    # 11, whose rule's pages stood here before, is no longer computable: issue 80.)
    links = " ".join(f'<a href="https://example.org/{"x" * 40}/{n}">{n}</a>' for n in range(60))
    said = "Use it to brew a pot of green tea."

    def pages(build: str) -> dict[str, bytes]:
        head = f'<!DOCTYPE html><html><head><meta name="generator" content="Gen {build}">'
        return {
            "a.html": f"{head}<title>Make (T.Make)</title></head><body><header><h1>Module Make"
            "</h1><p>Use it.</p></header><div><p>More.</p></div></body></html>\n".encode(),
            "b.html": f'{head}<title>T</title><meta name="description" content="{said}"></head>'
            f"<body><main><h1>T</h1><pre>{links}</pre><p>{said}</p></main></body></html>\n".encode(),
        }

    for name, data in pages("1").items():
        previous = fingerprint_html(data, version=FINGERPRINT_VERSION - 1, url=BASE + name)
        assert fingerprint_html(data, url=BASE + name) != previous
    site, out = tmp_path / "public", tmp_path / "out"
    write_folder(site, pages("1"), T1, spread=True)
    run_tree(site, out, lastmod="mtime")
    first = tree_lastmods(out)
    state = out / STATE_NAME
    document = json.loads(gzip.decompress(state.read_bytes()))
    document["fingerprint_version"] = previous_version = FINGERPRINT_VERSION - 1
    for name, record in document["pages"].items():
        data = (site / name).read_bytes()
        record["fingerprint"] = fingerprint_html(data, version=previous_version, url=BASE + name)
    state.write_bytes(gzip.compress(json.dumps(document).encode(), mtime=0))
    write_folder(site, pages("2"), T2, spread=False)
    report = run_tree(site, out, lastmod="mtime")
    assert tree_lastmods(out) == first and len(first) == 2
    assert report.dates == {"kept": 2}
    assert parse_state(state.read_bytes()).fingerprint_version == FINGERPRINT_VERSION
