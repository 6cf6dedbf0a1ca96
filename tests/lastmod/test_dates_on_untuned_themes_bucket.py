"""The bucket twin of test_dates_on_untuned_themes (cases 1, 2, 11-14; guards 16, 17): the same
sites deployed twice to a moto bucket (the first upload spread over months, so that a first
rebuild dates each page by its own upload; the second, at W2, the whole site again with the
change); a page a reader sees changed is dated W2, any other keeps its first date."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from moto.core import DEFAULT_ACCOUNT_ID
from moto.s3.models import s3_backends
from test_dates_on_untuned_themes import (
    BASE,
    QUARTO_DOI,
    SELF_LINKS,
    Site,
    next_sites,
    papermod_post,
    papermod_site,
    plain,
    plain_site,
    quarto_book_sites,
    quarto_site,
    self_link_sites,
    share_site,
)

from outputlist import rebuild_bucket
from s3util import BUCKET, make_config, moto_bucket
from sitemill.jobs.bucket import BucketSite

T1 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
T2 = datetime(2024, 6, 2, 8, 30, tzinfo=UTC)
W2 = "2024-06-02T08:30:00+00:00"
SPREAD = timedelta(days=45)  # (each object of the first upload this much before the last)


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def deploy(client: Any, site: Site, when: datetime, *, spread: bool = False) -> None:
    """Upload every file and give it ``when`` as its LastModified (moto sets "now");
    ``spread``: each SPREAD earlier than the one before (pages uploaded one by one)."""
    backend = s3_backends[DEFAULT_ACCOUNT_ID]["aws"]
    for index, (key, body) in enumerate(site.items()):
        client.put_object(Bucket=BUCKET, Key=key, Body=body.encode())
        backend.get_object(BUCKET, key).last_modified = when - index * SPREAD if spread else when


def lastmods(client: Any) -> dict[str, str]:
    rebuild_bucket(make_config(base_url=BASE), client, BucketSite(BUCKET))
    data = client.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read().decode()
    return dict(re.findall(r"<loc>https://example\.org/(.*?)</loc><lastmod>(.*?)</lastmod>", data))


def two_deploys(client: Any, first: Site, second: Site) -> tuple[dict[str, str], dict[str, str]]:
    """The sitemap's dates after the first deploy (at T1, spread) and after the second (W2)."""
    deploy(client, first, T1, spread=True)
    before = lastmods(client)
    assert len(before) == len(first) >= 4  # (each dated by its own upload)
    deploy(client, {**first, **second}, T2)
    return before, lastmods(client)


def moved(client: Any, first: Site, second: Site, page: str) -> None:
    before, after = two_deploys(client, first, second)
    assert after[page] == W2, f"{page} kept its first date: the change was not seen"
    assert {loc: after[loc] for loc in before if loc != page} == {
        loc: when for loc, when in before.items() if loc != page
    }


def kept(client: Any, first: Site, second: Site) -> None:
    before, after = two_deploys(client, first, second)
    redated = {loc for loc in before if after[loc] != before[loc]}
    assert redated == set(), f"re-dated by the second deploy, which changed nothing: {redated}"


def test_1_quarto_doi_added_to_the_title_block_moves(s3: Any) -> None:
    """Quarto website: a DOI line added to the title block inside <main> (case 1)."""
    moved(s3, quarto_site(), quarto_site(doi=QUARTO_DOI), "methods.html")


def test_2_papermod_home_gains_a_post_teaser_moves(s3: Any) -> None:
    """Hugo PaperMod's home page gains a new post's teaser article (case 2)."""
    first, second = papermod_site(("b", "a")), papermod_site(("c", "b", "a"))
    before, after = two_deploys(s3, first, second)
    assert after[""] == W2, "the home page kept its first date: the new teaser was not seen"
    assert after == {**before, "": W2, "posts/c/": W2}


def test_11_quarto_book_title_parts_reordered_on_every_page_moves_nothing(s3: Any) -> None:
    """A Quarto book's every <title> in Quarto 1.5's order and separator (case 11)."""
    kept(s3, *quarto_book_sites())


def test_12_hexo_next_auto_excerpt_re_cut_and_re_escaped_moves_nothing(s3: Any) -> None:
    """Hexo NexT's meta description, the start of the post's text, cut and escaped anew
    (case 12)."""
    kept(s3, *next_sites())


@pytest.mark.parametrize("href", SELF_LINKS)
def test_13_headline_becomes_a_link_to_the_page_itself_moves_nothing(s3: Any, href: str) -> None:
    """A post's <h1> becomes a link to the post itself, in three spellings (case 13)."""
    kept(s3, *self_link_sites(href))


def test_14_share_links_carrying_the_pages_own_url_moved_to_another_host_move_nothing(
    s3: Any,
) -> None:
    """Hugo PaperMod's Twitter share intent becomes an X intent, both carrying the page's own
    URL (case 14)."""
    kept(s3, share_site(False), share_site(True))


def test_16_a_tag_added_to_the_articles_own_footer_moves(s3: Any) -> None:
    """Guard: a new tag in a PaperMod post's own footer is a reader's change (case 16)."""
    first = papermod_site(("b", "a"))
    second = {"posts/a/index.html": papermod_post("a", tags=("mending", "wool"))}
    moved(s3, first, second, "posts/a/")


def test_17_a_body_edit_beside_a_self_link_headline_moves(s3: Any) -> None:
    """Guard: the headline becomes a self-link and the body is edited in one deploy (case 17)."""

    def page(headline: str, words: str) -> str:
        return plain("Soil moisture", f"<article><h1>{headline}</h1><p>{words}</p></article>")

    first = plain_site(page("Soil moisture", "A probe reads the water content."))
    second = plain_site(
        page('<a href="/posts/a/">Soil moisture</a>', "A probe reads the water content daily.")
    )
    moved(s3, first, second, "posts/a/")
