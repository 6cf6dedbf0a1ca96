"""Nothing sitemill publishes beside the sitemaps names a page the sitemaps leave out: every byte
written to the output folder or the bucket prefix is searched for the names of a page of every kind
left out (docs/state.md, "Public, and trusted by no one"), in every flow but the Action's (tested in
tests/github/test_action_privacy.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gitutil import commit, make_repo
from hidden import CONFIG_TOML, HIDDEN, SITE, assert_names_no_hidden_page
from s3util import BASE, BUCKET, moto_bucket
from sitemill.cli.main import main
from sitemill.filenames.outputs import STATE_NAME


def write_tree(root: Path) -> Path:
    for name, text in SITE.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        os.utime(path, (1_709_294_400, 1_709_294_400))
    return root


def published(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in folder.iterdir() if path.is_file()}


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    path = tmp_path / "sitemill.toml"
    path.write_text(CONFIG_TOML, encoding="utf-8")
    return path


@pytest.fixture
def quiet_git(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("HOME", str(tmp_path))


@pytest.mark.parametrize("dating", ["git", "mtime"])
@pytest.mark.parametrize("content_dates", [True, False])
def test_a_tree_build_publishes_no_hidden_name(
    tmp_path: Path, config_file: Path, quiet_git: None, dating: str, content_dates: bool
) -> None:
    if dating == "git":
        repo = make_repo(tmp_path / "repo")
        commit(repo, {f"site/{name}": text for name, text in SITE.items()}, when="2024-01-05")
        site = repo / "site"
    else:
        site = write_tree(tmp_path / "site")
    out = tmp_path / "out"
    argv = ["-q", "build", str(site), "--config", str(config_file), "--out", str(out)]
    argv += ["--lastmod", dating, "--robots-txt", "--max-urls", "1"]  # an index and children
    if not content_dates:
        argv.append("--no-content-dates")
    for _ in range(2):  # the second run starts from the first one's state
        assert main(argv) == 0
        files = published(out)
        assert (STATE_NAME in files) is content_dates
        assert_names_no_hidden_page(files)


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def bucket_files(s3: Any, bucket: str, prefix: str = "") -> dict[str, bytes]:
    found = {}
    for item in s3.list_objects_v2(Bucket=bucket, Prefix=prefix).get("Contents", []):
        key = item["Key"]
        name = key[len(prefix) :]
        if name.startswith(("sitemap", "sitemill-")) or name == "robots.txt":
            found[name] = s3.get_object(Bucket=bucket, Key=key)["Body"].read()
    return found


@pytest.mark.parametrize("where", ["beside the sitemaps", "in a private bucket"])
def test_a_bucket_rebuild_publishes_no_hidden_name(s3: Any, config_file: Path, where: str) -> None:
    for name, text in SITE.items():
        if len(name) < 1024:  # S3 keys are 1,024 bytes at most: no URL too long here
            s3.put_object(Bucket=BUCKET, Key=name, Body=text.encode())
    argv = ["-q", "s3", "--bucket", BUCKET, "--base-url", BASE, "--config", str(config_file)]
    argv += ["--max-urls", "1"]
    if where == "in a private bucket":
        s3.create_bucket(Bucket="private-state")
        argv += ["--state", "s3://private-state/site/sitemill-state.json.gz"]
    for _ in range(2):
        assert main(argv) == 0
        files = bucket_files(s3, BUCKET)
        assert (STATE_NAME in files) is (where == "beside the sitemaps")
        assert_names_no_hidden_page(files)
        if where == "in a private bucket":
            # The state of a bucket whose sitemaps may be shards, partitioned (docs/s3-lambda.md):
            # paths of listed pages, ETags of the others; and, in a shard's listing, the
            # pages a change to another page of the shard can bring back (the second file of
            # a URL, a page whose canonical names another) and the redirect stubs, whose
            # refresh names their target (a canonical in another shard may name the stub):
            # private, never beside the site.
            private = bucket_files(s3, "private-state", "site/")
            assert sorted(private)[0] == "sitemill-state/index-state.json"
            assert all(name.startswith("sitemill-state/shards/") for name in sorted(private)[1:])
            assert all(name.startswith("sitemill-state/") for name in private)
            returning = {"hidden-dup/index.html", "hidden-canonical.html"}
            returning |= {"hidden-redirect.html", "hidden-target.html"}
            assert_names_no_hidden_page(private, sitemaps=False, but=returning)
    assert len(HIDDEN) == 13
