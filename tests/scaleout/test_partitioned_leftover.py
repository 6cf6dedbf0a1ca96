"""sitemill's own sitemap.html in a sharded bucket once html_sitemap is off: a full pass deletes
it after the commit (as a tree and a one-state bucket do), on its bytes' word that sitemill made
it; a user's own sitemap.html is a page, never deleted."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.scaleout.test_partitioned import config_of, run
from tests.scaleout.test_partitioned import s3 as s3

from s3util import BASE, BUCKET, Requests
from sitemill.filenames.outputs import HTML_SITEMAP

PAGES = [f"{section}/p{n}.html" for section in "abc" for n in range(4)]
MANIFEST = "site/sitemill-state/index-state.json"  # (the commit: sitemill.scaleout.shardcommit)
OURS = b"<!doctype html><html><head><title>Our map</title></head><body>hand-made</body></html>"


def upload(s3: Any, path: str, body: bytes) -> None:
    s3.put_object(Bucket=BUCKET, Key=path, Body=body, ContentType="text/html")


@pytest.fixture
def site(s3: Any) -> Iterator[Any]:
    for path in PAGES:
        upload(s3, path, f"<!doctype html><title>{path}</title><p>x".encode())
    yield s3


def keys(s3: Any) -> set[str]:
    return {item["Key"] for item in s3.list_objects_v2(Bucket=BUCKET)["Contents"]}


def listed(s3: Any) -> str:
    """Every sitemap file of the bucket's root, in one text."""
    return "".join(
        s3.get_object(Bucket=BUCKET, Key=key)["Body"].read().decode()
        for key in sorted(keys(s3))
        if key.startswith("sitemap") and key.endswith(".xml")
    )


def test_a_full_pass_deletes_sitemills_leftover_after_the_commit(site: Any) -> None:
    run(site, config_of(max_urls=5, shard_fill=4, html_sitemap=True))
    assert HTML_SITEMAP in keys(site)
    requests = Requests(site)
    report = run(site, config_of(max_urls=5, shard_fill=4))  # (html_sitemap off: a full pass)
    assert len(report.result.plan.ids) > 1 and report.shards_touched is None
    assert HTML_SITEMAP not in keys(site)
    assert report.result.deleted == [HTML_SITEMAP]
    assert BASE + HTML_SITEMAP not in listed(site)
    # Its head read once (is it sitemill's?), its bytes once more (the deletion's proof), and
    # the deletion once the manifest that commits the run is up.
    calls = requests.calls
    assert calls.count(("GetObject", HTML_SITEMAP)) == 2
    deletion = calls.index(("DeleteObject", HTML_SITEMAP))
    assert deletion > calls.index(("PutObject", MANIFEST))
    # Gone: the next pass has nothing to delete.
    again = run(site, config_of(max_urls=5, shard_fill=4))
    assert again.result.deleted == []


def test_a_full_pass_keeps_a_users_own_sitemap_html_and_lists_it(site: Any) -> None:
    run(site, config_of(max_urls=5, shard_fill=4))
    upload(site, HTML_SITEMAP, OURS)
    requests = Requests(site)
    report = run(site, config_of(max_urls=5, shard_fill=4))
    assert report.shards_touched is None and report.result.deleted == []
    assert site.get_object(Bucket=BUCKET, Key=HTML_SITEMAP)["Body"].read() == OURS
    assert BASE + HTML_SITEMAP in listed(site)
    assert ("DeleteObject", HTML_SITEMAP) not in requests.calls


def test_a_leftover_the_user_replaced_after_the_listing_is_kept(site: Any) -> None:
    """The deletion is conditional on the version whose bytes proved it sitemill's: a page of
    the user's put there since is never deleted (a warning says the next run tries again)."""
    run(site, config_of(max_urls=5, shard_fill=4, html_sitemap=True))

    def replace_it(model: Any, params: dict[str, Any], **_: Any) -> None:
        if model.name == "PutObject" and params["url_path"].endswith(MANIFEST):
            site.meta.events.unregister("before-call.s3.PutObject", replace_it)
            upload(site, HTML_SITEMAP, OURS)  # (after the pass read it, before the deletion)

    site.meta.events.register("before-call.s3.PutObject", replace_it)
    report = run(site, config_of(max_urls=5, shard_fill=4))
    assert site.get_object(Bucket=BUCKET, Key=HTML_SITEMAP)["Body"].read() == OURS
    assert report.result.deleted == []
    assert any(
        f"could not delete sitemill's old {HTML_SITEMAP}" in w for w in report.result.warnings
    )


def test_a_dry_run_deletes_nothing(site: Any) -> None:
    run(site, config_of(max_urls=5, shard_fill=4, html_sitemap=True))
    run(site, config_of(max_urls=5, shard_fill=4), dry_run=True)
    assert HTML_SITEMAP in keys(site)
