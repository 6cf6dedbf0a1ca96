"""hreflang clusters: declarations joined into reciprocal sets of listed URLs, in order."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemill.alternates import clusters as clusters_module
from sitemill.alternates.clusters import MAX_CLUSTER, ClusterResolver
from sitemill.alternates.declared import (
    AlternateCounts,
    AlternatesSetting,
    SiteKeys,
    declared_alternate_keys,
    folder_versions,
    parse_alternates,
)
from sitemill.entries import Alternate, Entry
from sitemill.errors import ConfigError
from sitemill.html.facts import PageFacts
from sitemill.html.links import url_key

SITE = "https://example.com/"


def entry(path: str, *declared: tuple[str, str]) -> Entry:
    """An entry as the pipeline hands it over: alternates hold (hreflang, URL key)."""
    return Entry(
        SITE + path, alternates=tuple(Alternate(h, url_key(SITE + p)) for h, p in declared)
    )


def resolve(*entries: Entry) -> tuple[dict[str, list[tuple[str, str]]], AlternateCounts]:
    counts = AlternateCounts()
    out = list(ClusterResolver(url_key, counts).resolve(iter(entries)))
    assert [e.loc for e in out] == [e.loc for e in entries]  # order kept, nothing lost
    return {e.loc: [(a.hreflang, a.href) for a in e.alternates] for e in out}, counts


def test_a_page_that_declares_nothing_joins_the_cluster_that_names_it() -> None:
    found, _ = resolve(
        entry("en/", ("en", "en/"), ("fr", "fr/")),
        entry("fr/"),  # declares nothing
    )
    cluster = [("en", SITE + "en/"), ("fr", SITE + "fr/")]
    assert found == {SITE + "en/": cluster, SITE + "fr/": cluster}


def test_pages_not_listed_are_left_out_and_a_cluster_of_one_is_none() -> None:
    found, counts = resolve(entry("en/", ("en", "en/"), ("fr", "fr/")))
    assert found == {SITE + "en/": []}
    assert counts.counts["unlisted"] == 1


def test_the_listed_spelling_of_a_url_is_written() -> None:
    found, _ = resolve(
        Entry(
            SITE + "a.html", alternates=(Alternate("en", SITE + "a"), Alternate("fr", SITE + "fr/"))
        ),
        Entry(SITE + "fr/index.html"),
    )
    assert found[SITE + "a.html"] == [("en", SITE + "a.html"), ("fr", SITE + "fr/index.html")]


def test_one_hreflang_naming_two_pages_keeps_the_one_most_pages_name() -> None:
    found, counts = resolve(
        entry("en/", ("en", "en/"), ("fr", "fr/"), ("fr", "fr-old/"), ("de", "de/")),
        entry("de/", ("de", "de/"), ("en", "en/"), ("fr", "fr/")),
        entry("fr/", ("fr", "fr/"), ("en", "en/"), ("de", "de/")),
        entry("fr-old/", ("fr", "fr-old/"), ("en", "en/")),  # en/ names it back
    )
    cluster = [("de", SITE + "de/"), ("en", SITE + "en/"), ("fr", SITE + "fr/")]
    assert found[SITE + "en/"] == found[SITE + "fr/"] == cluster
    assert found[SITE + "fr-old/"] == []  # it lost its hreflang: in no cluster
    assert counts.counts["conflict"] == 1 and counts.counts["unconfirmed"] == 0


def test_a_page_that_no_version_names_back_joins_no_cluster() -> None:
    found, counts = resolve(
        entry("en/", ("en", "en/"), ("fr", "fr/")),
        entry("fr/", ("en", "en/"), ("fr", "fr/")),
        entry("fr-old/", ("en", "en/"), ("fr", "fr-old/")),  # nobody names it
    )
    cluster = [("en", SITE + "en/"), ("fr", SITE + "fr/")]
    assert found == {SITE + "en/": cluster, SITE + "fr/": cluster, SITE + "fr-old/": []}
    assert counts.counts["unconfirmed"] == 1 and counts.counts["conflict"] == 0
    assert (
        counts.examples["unconfirmed"] == f"{SITE}fr-old/ names {SITE}en/, which does not name it"
    )


def test_one_page_cannot_merge_two_clusters() -> None:
    # Two correct clusters, and a page that claims a page of each (the case).
    a = [
        entry("a.html", ("en", "a.html"), ("fr", "a-fr.html")),
        entry("a-fr.html", ("en", "a.html"), ("fr", "a-fr.html")),
    ]
    b = [
        entry("b.html", ("en-GB", "b.html"), ("de", "b-de.html")),
        entry("b-de.html", ("en-GB", "b.html"), ("de", "b-de.html")),
    ]
    p = entry("p.html", ("en", "a.html"), ("en-GB", "b.html"), ("es", "p.html"))
    alone, _ = resolve(*a, *b)
    for order in ([*a, p, *b], [p, *b, *a], [*b, *a, p]):
        found, counts = resolve(*order)
        assert found == {**alone, SITE + "p.html": []}
        assert counts.counts["unconfirmed"] == 2
    assert alone[SITE + "a.html"] == [("en", SITE + "a.html"), ("fr", SITE + "a-fr.html")]
    assert alone[SITE + "b-de.html"] == [("de", SITE + "b-de.html"), ("en-GB", SITE + "b.html")]


def test_a_page_that_declares_nothing_named_by_two_clusters() -> None:
    a = [entry("a.html", ("en", "a.html"), ("fr", "free.html"))]
    b = [entry("b.html", ("de", "b.html"), ("fr", "free.html"))]
    found, counts = resolve(*a, *b, entry("free.html"))
    assert found[SITE + "free.html"] == [] and found[SITE + "a.html"] == []  # a tie: none
    assert (
        counts.examples["unconfirmed"] == f"{SITE}free is named alike by two clusters"
    )  # (its URL key)
    # Named by more pages of one cluster: it joins that one.
    a.append(entry("a-de.html", ("en", "a.html"), ("de", "a-de.html"), ("fr", "free.html")))
    a[0] = entry("a.html", ("en", "a.html"), ("de", "a-de.html"), ("fr", "free.html"))
    found, _ = resolve(*a, *b, entry("free.html"))
    assert [href for _, href in found[SITE + "free.html"]] == [
        SITE + "a-de.html",
        SITE + "a.html",
        SITE + "free.html",
    ]
    assert found[SITE + "b.html"] == []


def test_x_default_comes_last_and_may_share_a_url() -> None:
    found, _ = resolve(
        entry("", ("x-default", ""), ("zh-Hant", "zh/"), ("en", "")),
        entry("zh/"),
    )
    assert found[SITE] == [("en", SITE), ("zh-Hant", SITE + "zh/"), ("x-default", SITE)]


def test_a_huge_cluster_is_cut() -> None:
    pages = [f"p{n}/" for n in range(MAX_CLUSTER + 10)]
    first = entry(pages[0], *((f"x{n}", page) for n, page in enumerate(pages)))
    # (x0...: not real hreflang values; the resolver takes what the pipeline checked)
    found, counts = resolve(first, *(entry(page) for page in pages[1:]))
    assert len(found[SITE + pages[0]]) == MAX_CLUSTER
    assert counts.counts["too_many"] == 1


def test_the_spool_moves_to_disk_and_keeps_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clusters_module, "SPOOL_IN_MEMORY", 7)
    entries = []
    for n in range(50):
        entries.append(entry(f"en/{n}/", ("en", f"en/{n}/"), ("de", f"de/{n}/")))
        entries.append(entry(f"de/{n}/"))
    found, _ = resolve(*entries)
    assert found[SITE + "de/49/"] == [("de", SITE + "de/49/"), ("en", SITE + "en/49/")]


def test_clusters_do_not_depend_on_order() -> None:
    a = entry("en/", ("en", "en/"), ("fr", "fr/"))
    b = entry("fr/", ("fr", "fr/"), ("de", "de/"))
    c = entry("de/")
    one, _ = resolve(a, b, c)
    two, _ = resolve(c, b, a)
    assert one == two
    # en/ names fr/, which does not name it back: only fr/ and de/ (which names nobody) join.
    assert one[SITE + "de/"] == [("de", SITE + "de/"), ("fr", SITE + "fr/")]
    assert one[SITE + "en/"] == []


@pytest.mark.parametrize(
    ("value", "folders"),
    [
        ({"en": "en/**", "fr": "fr/**"}, (("en", "en/"), ("fr", "fr/"))),
        ({"EN-gb": "**", "fr": "/fr/"}, (("fr", "fr/"), ("en-GB", ""))),
        (
            {"en": "**", "x-default": "**", "de": "de"},
            (("de", "de/"), ("en", ""), ("x-default", "")),
        ),
    ],
)
def test_language_folders_are_read(value: object, folders: object) -> None:
    assert parse_alternates("alternates", value) == AlternatesSetting(True, folders)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"en_US": "en/**", "fr": "fr/**"}, "alternates.en_US: is not an hreflang value"),
        ({"en": "en/*.html", "fr": "fr/**"}, "alternates.en: 'en/*.html' is not a folder"),
        ({"en": "../**", "fr": "fr/**"}, "alternates.en: '../**' is not a folder"),
        ({"en": "en/**"}, "alternates: needs at least two languages"),
        ({"en": "a/**", "fr": "a/**"}, "alternates: gives two languages the same folder"),
        ({"en": 3, "fr": "fr/**"}, "alternates.en: 3 is not a folder"),
        ("maybe", "alternates: 'maybe' is not a boolean"),
        (3, "alternates: must be true, false or a table"),
    ],
)
def test_a_bad_table_is_one_clear_error(value: object, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_alternates("alternates", value)
    assert str(caught.value).startswith(message)


def test_switches() -> None:
    assert parse_alternates("alternates", False) == AlternatesSetting(enabled=False)
    assert parse_alternates("alternates", "false") == AlternatesSetting(enabled=False)
    assert parse_alternates("alternates", "true") == AlternatesSetting()


def test_folder_versions_use_the_longest_folder() -> None:
    folders = parse_alternates("alternates", {"en": "**", "fr": "fr/**"}).folders
    assert folder_versions(folders, "fr/a.html") == [("fr", "fr/a.html"), ("en", "a.html")]
    assert folder_versions(folders, "fr-faq.html") == [
        ("fr", "fr/fr-faq.html"),
        ("en", "fr-faq.html"),
    ]
    nested = parse_alternates("alternates", {"en": "docs/en/**", "de": "docs/de/**"}).folders
    assert folder_versions(nested, "blog/x.html") == []


def declared(facts: PageFacts, loc: str = SITE + "en/a/") -> tuple[tuple[str, str], ...]:
    counts = AlternateCounts()
    return declared_alternate_keys(
        facts,
        "en/a/index.html",
        loc,
        AlternatesSetting(),
        SiteKeys(SITE, SITE, own_key=url_key, page_url=lambda path: SITE + path),
        counts,
    )


def test_declared_alternates_are_resolved_checked_and_kept_on_the_site() -> None:
    facts = PageFacts(
        alternates=(
            ("EN-gb", "./"),
            ("fr", "../../fr/a/index.html"),
            ("de", "https://EXAMPLE.com:443/de/a/#top"),
            ("es", "https://elsewhere.example/es/a/"),
            ("en_US", "/us/a/"),
            ("fr", "../../fr/a/index.html"),  # twice: once
            ("it", "javascript:alert(1)"),
        )
    )
    assert declared(facts) == (
        ("en-GB", SITE + "en/a/"),
        ("fr", SITE + "fr/a/"),
        ("de", SITE + "de/a/"),
    )


def test_a_base_href_moves_relative_alternates() -> None:
    facts = PageFacts(alternates=(("fr", "fr/a/"),), base="/")
    assert declared(facts) == (("fr", SITE + "fr/a/"),)


@given(
    sizes=st.lists(st.integers(2, 4), min_size=1, max_size=5),
    hostile=st.lists(st.lists(st.integers(0, 19), max_size=6), max_size=4),
    seed=st.randoms(use_true_random=False),
)
@settings(max_examples=150, deadline=None)
def test_no_page_rewrites_the_clusters_that_do_not_name_it(
    sizes: list[int], hostile: list[list[int]], seed: random.Random
) -> None:
    honest: list[Entry] = []
    for n, size in enumerate(sizes):
        members = [(f"l{k}", f"c{n}/{k}.html") for k in range(size)]
        honest += [entry(path, *members) for _, path in members]
    paths = [e.loc.removeprefix(SITE) for e in honest]
    attackers = [
        entry(
            f"h{n}.html",
            ("x-default", f"h{n}.html"),
            *((f"l{i}", paths[i % len(paths)]) for i in picks),
        )
        for n, picks in enumerate(hostile)
    ]
    alone, _ = resolve(*honest)
    mixed = [*honest, *attackers]
    seed.shuffle(mixed)
    found, _ = resolve(*mixed)
    assert {loc: found[loc] for loc in alone} == alone
    assert all(found[e.loc] == [] for e in attackers)
