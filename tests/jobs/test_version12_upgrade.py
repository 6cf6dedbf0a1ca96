"""Fingerprint version 12 (issue 79: structured data that counts or places the page itself says
nothing new): a state of version 11, the previous one, keeps every date on the upgrade, in a build
folder and in a git checkout; then a generator's recount of the page's words and its own crumb put
in move none, and the next edit a reader sees moves its page's date."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from gitutil import commit, make_repo, unix
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.filenames.outputs import STATE_NAME
from sitemill.lastmod.fingerprint.digest import FINGERPRINT_VERSION, fingerprint_html
from sitemill.protocol import Precision, lastmod_from_timestamp
from sitemill.sinks import LocalDirSink
from sitemill.state.parse import parse_state
from upgrades import BASE, OTHER_PAGE, as_version, first_build, lastmods, run, write_pages

T1, T2, T3, T4 = 1_700_000_000, 1_710_000_000, 1_720_000_000, 1_730_000_000
WORDS = "Leaf draws a chart from a table of numbers."


def post(words: str = WORDS, *, counted: int = 9, crumb: bool = False) -> bytes:
    """A Hugo Congo page: its Article's wordCount, and (Congo 2.9) a BreadcrumbList whose last
    crumb names the page by its title alone."""
    article = {"@context": "https://schema.org", "@type": "Article", "wordCount": str(counted)}
    crumbs = {
        "@context": "https://schema.org",
        "@type": "BreadcrumbList",
        "itemListElement": [
            {"@type": "ListItem", "item": BASE, "name": "Leaf", "position": 1},
            {"@type": "ListItem", "name": "Charts", "position": 2},
        ],
    }
    scripts = "".join(
        f'<script type="application/ld+json">{json.dumps(node)}</script>'
        for node in ([article, crumbs] if crumb else [article])
    )
    return (
        f"<!DOCTYPE html><html><head><title>Charts · Leaf</title>{scripts}</head><body><main>"
        f"<h1>Charts</h1><p>{words}</p></main></body></html>\n"
    ).encode()


def pages(words: str = WORDS, *, counted: int = 9, crumb: bool = False) -> dict[str, bytes]:
    return {
        "charts/index.html": post(words, counted=counted, crumb=crumb),
        "other.html": OTHER_PAGE,
    }


def test_a_state_of_version_11_keeps_every_date_then_a_recount_moves_none(tmp_path: Path) -> None:
    site, out = tmp_path / "public", tmp_path / "out"
    first = first_build(site, out, pages(), T1)  # (charts/ at T1, other.html before)
    as_version(site, out, 11)  # (the state as sitemill of version 11 wrote it)
    url = BASE + "charts/index.html"
    data = pages(counted=10, crumb=True)["charts/index.html"]
    assert fingerprint_html(data, version=11, url=url) != fingerprint_html(
        post(), version=11, url=url
    )

    write_pages(site, pages(), T2, spread=False)  # (a CI build: every page anew, none changed)
    report = run(site, out)
    assert lastmods(out) == first and report.dates == {"kept": 2}
    state = parse_state((out / STATE_NAME).read_bytes())
    assert state.fingerprint_version == FINGERPRINT_VERSION == 12  # (written anew, in 12)
    assert state.pages["charts/index.html"].fingerprint == fingerprint_html(post(), url=url)

    # Hugo counts the words anew and Congo puts its crumbs in: no word a reader sees changed.
    write_pages(site, pages(counted=10, crumb=True), T3, spread=False)
    report = run(site, out)
    assert lastmods(out) == first and report.dates == {"kept": 2}

    write_pages(
        site, pages("Leaf draws a chart from a table of sums.", crumb=True), T4, spread=False
    )
    report = run(site, out)
    assert lastmods(out) == {**first, "charts/": lastmod_from_timestamp(T4, Precision.DATETIME)}
    assert report.dates == {"kept": 1, "content changed": 1}


def test_a_git_checkout_with_a_state_of_version_11_keeps_every_date(tmp_path: Path) -> None:
    # Hugo counted the words anew and Congo put its crumbs in at G2 (no word a reader sees): the
    # history dates the page at G1. A state of version 11 that holds those dates, its
    # fingerprints version 11's (which read the recount), is compared by version 11's bytes: no
    # date moves, and the state is written anew in 12. (A state sitemill 11 wrote holds G2, its
    # history's: the history read anew by 12 dates the page at G1, as a first run does; an
    # upgrade walks once, docs/lastmod.md.)
    g1, g2 = "2024-01-10 09:00:00", "2024-02-20 10:00:00"
    repo, out = make_repo(tmp_path / "site"), tmp_path / "out"
    commit(repo, {"charts/index.html": post(), "other.html": OTHER_PAGE}, g1)
    commit(repo, {"charts/index.html": post(counted=10, crumb=True)}, g2)
    config = load_config({"base_url": BASE, "lastmod": "git"})
    build_from_tree(config, repo, LocalDirSink(out), output_dir=out)
    first = lastmods(out)
    at_g1 = lastmod_from_timestamp(unix(g1), Precision.DATETIME)
    assert first == {"charts/": at_g1, "other.html": at_g1}
    state = out / STATE_NAME
    document = json.loads(gzip.decompress(state.read_bytes()))
    document["fingerprint_version"] = 11
    url = BASE + "charts/index.html"
    data = (repo / "charts/index.html").read_bytes()
    document["pages"]["charts/index.html"]["fingerprint"] = fingerprint_html(
        data, version=11, url=url
    )
    assert document["pages"]["charts/index.html"]["fingerprint"] != fingerprint_html(data, url=url)
    state.write_bytes(gzip.compress(json.dumps(document).encode(), mtime=0))
    report = build_from_tree(config, repo, LocalDirSink(out), output_dir=out)
    assert lastmods(out) == first and report.dates == {"kept": 2}
    assert parse_state(state.read_bytes()).fingerprint_version == FINGERPRINT_VERSION
