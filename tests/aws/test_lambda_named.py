"""The function names the user's sitemaps in sitemill's index as the CLI does (the same job):
those Astro's index named beside its own children after the takeover, on every later rebuild
while their object is there (the state remembers them: Astro's index is gone), and those
SITEMILL_SITEMAPS names; nothing of the user's is written or deleted."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from s3util import (
    BASE,
    BUCKET,
    PAGE,
    USER_SITEMAP,
    Requests,
    astro_site,
    moto_bucket,
    restored_logging,
)
from sitemill.aws.handler import handle

ENV = {"SITEMILL_BASE_URL": BASE, "SITEMILL_BUCKET": BUCKET}
REBUILD = {"action": "rebuild"}


class Context:
    aws_request_id = "c6af9ac6-7b61-11e6-9a41-93e812345678"


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    yield from restored_logging()


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    for client in moto_bucket(monkeypatch):
        client.put_object(Bucket=BUCKET, Key="index.html", Body=PAGE)
        yield client


def read(s3: Any, key: str) -> bytes:
    return bytes(s3.get_object(Bucket=BUCKET, Key=key)["Body"].read())


def index_locs(s3: Any) -> list[str]:
    text = read(s3, "sitemap.xml").decode()
    return [part.split("</loc>")[0] for part in text.split("<loc>")[1:]]


def test_astros_custom_sitemaps_are_named_after_the_takeover_and_on(s3: Any) -> None:
    astro_site(s3)
    result = handle(REBUILD, Context(), env=ENV, s3=s3)
    assert (result["status"], result["deleted"]) == ("ok", 2), result
    named = [f"{BASE}sitemap-1.xml", f"{BASE}blog-sitemap.xml", f"{BASE}docs/sitemap.xml"]
    assert index_locs(s3) == named
    assert (
        read(s3, "blog-sitemap.xml") == USER_SITEMAP
        and read(s3, "docs/sitemap.xml") == USER_SITEMAP
    )
    # Astro's index is gone: the state remembers what to name; nothing is written again.
    again = handle(REBUILD, Context(), env=ENV, s3=s3)
    assert (again["status"], again["written"], again.get("deleted", 0)) == ("ok", 0, 0), again
    assert index_locs(s3) == named
    s3.delete_object(Bucket=BUCKET, Key="docs/sitemap.xml")
    assert handle(REBUILD, Context(), env=ENV, s3=s3)["status"] == "ok"
    assert index_locs(s3) == named[:2]
    assert read(s3, "blog-sitemap.xml") == USER_SITEMAP


def test_sitemill_sitemaps_names_them_and_writes_robots_lines(s3: Any) -> None:
    s3.put_object(Bucket=BUCKET, Key="blog-sitemap.xml", Body=USER_SITEMAP)
    s3.put_object(Bucket=BUCKET, Key="robots.txt", Body=b"User-agent: *\nDisallow:\n")
    env = ENV | {
        "SITEMILL_SITEMAPS": "blog-sitemap.xml\nhttps://shop.example.net/sitemap.xml",
        "SITEMILL_ROBOTS_TXT": "true",
    }
    result = handle(REBUILD, Context(), env=env, s3=s3)
    assert result["status"] == "ok", result
    assert index_locs(s3) == [f"{BASE}sitemap-1.xml", f"{BASE}blog-sitemap.xml"]
    assert read(s3, "robots.txt").decode() == (
        "User-agent: *\nDisallow:\n"
        f"Sitemap: {BASE}sitemap.xml\n"
        "Sitemap: https://shop.example.net/sitemap.xml # named by sitemill\n"
    )
    assert read(s3, "blog-sitemap.xml") == USER_SITEMAP
    again = handle(REBUILD, Context(), env=env, s3=s3)
    assert (again["status"], again["written"]) == ("ok", 0), again


def test_a_named_sitemap_costs_one_ranged_get_a_rebuild(s3: Any) -> None:
    """Counting requests: a rebuild with nothing new that names one of the user's sitemaps
    makes the requests of one that names none, and one GET of that sitemap's head more."""
    s3.put_object(Bucket=BUCKET, Key="blog-sitemap.xml", Body=USER_SITEMAP)
    for env in (ENV, ENV | {"SITEMILL_SITEMAPS": "blog-sitemap.xml"}):
        assert handle(REBUILD, Context(), env=env, s3=s3)["status"] == "ok"
    requests = Requests(s3)
    again = handle(REBUILD, Context(), env=ENV | {"SITEMILL_SITEMAPS": "blog-sitemap.xml"}, s3=s3)
    assert (again["status"], again["written"]) == ("ok", 0)
    named = Counter(requests.calls)
    s3.delete_object(Bucket=BUCKET, Key="blog-sitemap.xml")
    for env in (ENV, ENV):  # (the first writes the single sitemap.xml back)
        requests.calls.clear()
        assert handle(REBUILD, Context(), env=env, s3=s3)["status"] == "ok"
    plain = Counter(requests.calls)
    assert named - plain == Counter({("GetObject", "blog-sitemap.xml"): 1})
    assert plain - named == Counter()


def test_a_robots_line_sitemill_wrote_goes_when_taken_out_the_users_stays(s3: Any) -> None:
    """The state remembers the robots.txt lines sitemill wrote for the user's sitemaps: one
    taken out of SITEMILL_SITEMAPS goes; the user's own line, one naming a sitemap of
    SITEMILL_SITEMAPS too, stays where it was and is not written twice."""
    user, shop = "https://other.example.net/user.xml", "https://shop.example.net/sitemap.xml"
    rules = f"User-agent: *\nSitemap: {user}\nDisallow:\n"
    s3.put_object(Bucket=BUCKET, Key="robots.txt", Body=rules.encode())
    env = ENV | {"SITEMILL_ROBOTS_TXT": "true", "SITEMILL_SITEMAPS": f"{shop}\n{user}"}
    assert handle(REBUILD, Context(), env=env, s3=s3)["status"] == "ok"
    ours = f"Sitemap: {BASE}sitemap.xml\n"
    assert read(s3, "robots.txt").decode() == f"{rules}{ours}Sitemap: {shop} # named by sitemill\n"
    env = ENV | {"SITEMILL_ROBOTS_TXT": "true"}
    assert handle(REBUILD, Context(), env=env, s3=s3)["status"] == "ok"
    assert read(s3, "robots.txt").decode() == rules + ours
    again = handle(REBUILD, Context(), env=env, s3=s3)
    assert (again["status"], again["written"]) == ("ok", 0), again
