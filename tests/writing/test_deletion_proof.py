"""A state is a claim, not a proof (issue 78): a tampered state that names the user's files (a
real sitemap in a group child's or a default child's shape, a Markdown file quoting sitemill's
mark, a robots.txt line) deletes none of them, in a folder and in a bucket; sitemill's own files
whose bytes are the ones its record holds still go (writing.ownbytes)."""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import BASE_URL, page, write_site
from outputlist import build_from_tree, may_delete, rebuild_bucket
from s3util import BASE, BUCKET, moto_bucket, put_pages, upload
from sitemill.config.model import load_config
from sitemill.errors import ConfigError
from sitemill.filenames.outputs import STATE_NAME
from sitemill.jobs.bucket import BucketSite
from sitemill.llms._ownership import SITEMILL_MARK
from sitemill.report import Report
from sitemill.sinks import LocalDirSink

BLOG = {"name": "blog", "include": ["blog/**"]}
# Real sitemaps the user wrote, in the shapes of sitemill's names.
NEWS = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n'
    b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
    b"<url><loc>https://example.com/news/one.html</loc></url></urlset>\n"
)
SEVEN = NEWS.replace(b"one", b"seven")
USERS = {"sitemap-news.xml": NEWS, "sitemap-7.xml": SEVEN, "sitemap-index-3.xml": SEVEN}


def md5(data: bytes) -> str:
    return hashlib.md5(data, usedforsecurity=False).hexdigest()


def tamper(data: bytes, names: dict[str, bytes], *, digests: bool) -> bytes:
    """The state ``data`` with ``names`` among its outputs (and their MD5s with ``digests``)."""
    state = json.loads(gzip.decompress(data))
    state["outputs"] = sorted({*state.get("outputs", []), *names})
    if digests:  # (a digest would prove the bytes: the claim leaves them out, or gets them wrong)
        state["digests"] = state.get("digests", {}) | {n: md5(b"x" + d) for n, d in names.items()}
    return gzip.compress(json.dumps(state).encode())


def build(site: Path, out: Path, *groups: dict[str, Any]) -> Report:
    flags = {"base_url": BASE_URL, "lastmod": "mtime"}
    config = load_config(flags, {}, {"groups": list(groups)} if groups else {})
    return build_from_tree(config, site, LocalDirSink(out))


@pytest.mark.parametrize("digests", [False, True])
def test_a_tampered_state_naming_a_users_sitemaps_in_a_folder_deletes_none(
    tmp_path: Path, digests: bool
) -> None:
    files = {f"{s}/p{n}.html": page(f"{s} {n}") for s in ("a", "blog") for n in range(2)}
    site = write_site(tmp_path / "site", files)
    out = tmp_path / "out"
    build(site, out, BLOG)
    for name, data in USERS.items():
        (out / name).write_bytes(data)
    (out / STATE_NAME).write_bytes(tamper((out / STATE_NAME).read_bytes(), USERS, digests=digests))
    report = build(site, out)  # (the group removed: one file again)
    for name, data in USERS.items():
        assert (out / name).read_bytes() == data, name
    assert report.result.deleted == ["sitemap-1.xml", "sitemap-blog.xml"]  # (its own still go)


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


@pytest.mark.parametrize("digests", [False, True])
def test_a_tampered_state_naming_a_users_sitemaps_in_a_bucket_deletes_none(
    s3: Any, digests: bool
) -> None:
    put_pages(s3, "index.html", "blog/a.html", "blog/b.html")
    config = load_config({"base_url": BASE}, {}, {"groups": [BLOG]})
    rebuild_bucket(config, s3, BucketSite(BUCKET))
    upload(s3, USERS)
    state = s3.get_object(Bucket=BUCKET, Key=STATE_NAME)["Body"].read()
    upload(s3, {STATE_NAME: tamper(state, USERS, digests=digests)})
    report = rebuild_bucket(load_config({"base_url": BASE}), s3, BucketSite(BUCKET))
    for name, data in USERS.items():
        assert s3.get_object(Bucket=BUCKET, Key=name)["Body"].read() == data, name
    assert report.result.deleted == ["sitemap-1.xml", "sitemap-blog.xml"]


def test_a_tampered_llms_record_naming_a_users_markdown_that_quotes_the_mark_keeps_it(
    tmp_path: Path,
) -> None:
    """docs/llms-full.md of this repository quotes the mark on a line of its own: a state whose
    llms record names such a file, with its very MD5, once deleted it."""
    mine = f"# About llms-full.txt\n\nIt begins with:\n\n{SITEMILL_MARK}\n\nand more.\n".encode()
    site = write_site(tmp_path / "site", {"index.html": page("Home"), "docs/llms-full.md": mine})
    flags = ["--base-url", BASE_URL, "--llms-txt", "--llms-pages"]
    from clirun import run_sitemill

    assert run_sitemill("build", str(site), *flags).returncode == 0
    path = site / STATE_NAME
    state = json.loads(gzip.decompress(path.read_bytes()))
    state["llms"] |= {"docs/llms-full.md": md5(mine)}
    path.write_bytes(gzip.compress(json.dumps(state).encode()))
    off = ["--base-url", BASE_URL, "--llms-txt", "off", "--no-llms-pages"]
    done = run_sitemill("build", str(site), *off)  # (turned off: what it recorded goes)
    assert done.returncode == 0, done.stderr
    assert (site / "docs/llms-full.md").read_bytes() == mine
    assert not (site / "index.html.md").exists()  # (its own twin still goes)


def test_a_tampered_state_listing_a_users_robots_line_keeps_it(tmp_path: Path) -> None:
    mine = "https://example.com/shop/sitemap.xml"
    robots = f"User-agent: *\nDisallow:\n\nSitemap: {mine}\n"
    site = write_site(tmp_path / "site", {"index.html": page("Home"), "robots.txt": robots})
    config = load_config({"base_url": BASE_URL, "lastmod": "mtime", "robots_txt": True})
    build_from_tree(config, site, LocalDirSink(site))
    path = site / STATE_NAME
    state = json.loads(gzip.decompress(path.read_bytes()))
    state["robots_sitemaps"] = [mine]
    path.write_bytes(gzip.compress(json.dumps(state).encode()))
    build_from_tree(config, site, LocalDirSink(site))
    text = (site / "robots.txt").read_text()
    assert f"Sitemap: {mine}\n" in text and f"Sitemap: {BASE_URL}sitemap.xml" in text


TWIN = f"# Guide\n\n{SITEMILL_MARK}\n\nThe text.\n".encode()


@pytest.mark.parametrize(
    ("name", "data", "recorded", "kept"),
    [
        ("sitemap-news.xml", NEWS, None, True),  # no record: no proof
        ("sitemap-news.xml", NEWS, md5(SEVEN), True),  # another file's bytes
        ("sitemap-news.xml", NEWS, md5(NEWS), False),  # the bytes sitemill recorded
        ("guide.html.md", TWIN, md5(TWIN), False),  # a twin, whole, as sitemill writes it
        ("guide.html.md", TWIN + b"\n", md5(TWIN + b"\n"), True),  # not its form (two LFs)
        ("guide.html.md", b"Intro\n" + TWIN, md5(b"Intro\n" + TWIN), True),  # the mark quoted
        ("guide.html.md", None, md5(TWIN), True),  # gone
    ],
)
def test_a_file_goes_only_when_its_own_bytes_prove_it(
    name: str, data: bytes | None, recorded: str | None, kept: bool
) -> None:
    assert may_delete(name, data, recorded) is not kept


NEWS_GROUP = {"name": "news", "include": ["news/**"]}


def news_site(root: Path) -> Path:
    return write_site(
        root, {f"{s}/p{n}.html": page(f"{s} {n}") for s in ("a", "blog", "news") for n in range(2)}
    )


def test_a_child_of_a_group_only_the_state_remembers_goes_only_on_its_recorded_bytes(
    tmp_path: Path,
) -> None:
    """The live index names it, but that index was taken for sitemill's because the state says
    the group is sitemill's: a user's bytes written over the child since are not deleted."""
    site, out = news_site(tmp_path / "site"), tmp_path / "out"
    build(site, out, BLOG, NEWS_GROUP)
    (out / "sitemap-news.xml").write_bytes(NEWS)  # (the user's now; the index still names it)
    report = build(site, out, BLOG)  # (news no longer configured: only the state names it)
    assert (out / "sitemap-news.xml").read_bytes() == NEWS
    assert report.result.deleted == []


def test_a_child_of_a_group_only_the_state_remembers_in_a_bucket_goes_only_on_its_bytes(
    s3: Any,
) -> None:
    put_pages(s3, "index.html", "blog/a.html", "news/a.html")
    rebuild_bucket(
        load_config({"base_url": BASE}, {}, {"groups": [BLOG, NEWS_GROUP]}), s3, BucketSite(BUCKET)
    )
    upload(s3, {"sitemap-news.xml": NEWS})
    report = rebuild_bucket(
        load_config({"base_url": BASE}, {}, {"groups": [BLOG]}), s3, BucketSite(BUCKET)
    )
    assert s3.get_object(Bucket=BUCKET, Key="sitemap-news.xml")["Body"].read() == NEWS
    assert report.result.deleted == []


@pytest.mark.parametrize("digests", [False, True])
def test_a_tampered_state_naming_a_users_sitemap_under_a_groups_name_stops_the_run(
    tmp_path: Path, digests: bool
) -> None:
    """Writing over a file is deleting it: a state that remembers the user's sitemap-news.xml
    as sitemill's no more lets a new group's child replace it than when no state names it."""
    site, out = news_site(tmp_path / "site"), tmp_path / "out"
    build(site, out, BLOG)
    (out / "sitemap-news.xml").write_bytes(NEWS)
    mine = {"sitemap-news.xml": NEWS}
    (out / STATE_NAME).write_bytes(tamper((out / STATE_NAME).read_bytes(), mine, digests=digests))
    with pytest.raises(ConfigError) as caught:
        build(site, out, BLOG, NEWS_GROUP)
    assert caught.value.key == "groups[2].name" and "sitemill did not write it" in str(caught.value)
    assert (out / "sitemap-news.xml").read_bytes() == NEWS


def test_a_tampered_state_naming_a_users_sitemap_in_a_bucket_under_a_groups_name_stops_the_run(
    s3: Any,
) -> None:
    put_pages(s3, "index.html", "blog/a.html", "news/a.html")
    rebuild_bucket(load_config({"base_url": BASE}, {}, {"groups": [BLOG]}), s3, BucketSite(BUCKET))
    upload(s3, {"sitemap-news.xml": NEWS})
    state = s3.get_object(Bucket=BUCKET, Key=STATE_NAME)["Body"].read()
    upload(s3, {STATE_NAME: tamper(state, {"sitemap-news.xml": NEWS}, digests=True)})
    config = load_config({"base_url": BASE}, {}, {"groups": [BLOG, NEWS_GROUP]})
    with pytest.raises(ConfigError):
        rebuild_bucket(config, s3, BucketSite(BUCKET))
    assert s3.get_object(Bucket=BUCKET, Key="sitemap-news.xml")["Body"].read() == NEWS


def test_a_name_its_content_gives_proves_its_bytes_and_no_others() -> None:
    from sitemill.shards.manifest import child_version, state_version

    child = child_version("sitemap-blog-rabcdefgh-2.xml.gz", md5(NEWS), ())
    state = state_version("rabcdefgh", md5(SEVEN), ())
    assert may_delete(child, NEWS) and may_delete(state, SEVEN)
    assert not may_delete(child, SEVEN) and not may_delete(state, NEWS)
    assert not may_delete("sitemap-rabcdefgh-abcdefgh.xml", NEWS)  # (the shape alone)
