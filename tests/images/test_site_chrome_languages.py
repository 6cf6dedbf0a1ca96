"""Site chrome per language: the share counts among the pages of the image's own language (its
cluster's, else the one its entry carries: folder or <html lang>); a site with fewer than two
languages of MIN_LANGUAGE_PAGES pages is counted as one, exactly as before languages."""

from __future__ import annotations

from sitemill.bounded.dedupe import SeenUrls
from sitemill.bounded.spool import Spool, spool_all
from sitemill.entries import Alternate, Entry, Image
from sitemill.images.chrome import MIN_CHROME_PAGES, MIN_LANGUAGE_PAGES, SiteChrome

SITE = "https://example.com/"


def page(name: str, *images: str, language: str = "") -> Entry:
    return Entry(
        f"{SITE}{name}/",
        images=tuple(Image(SITE + image) for image in images),
        language=language,
    )


def run(entries: list[Entry], share: float = 0.5) -> tuple[list[Entry], SiteChrome]:
    pages_read = SeenUrls()
    for entry in entries:
        pages_read.add(entry.loc)
    chrome = SiteChrome(share, pages_read)
    return list(chrome.drop(spool_all(chrome.count(entries)))), chrome


def two_languages(pages: int = 30) -> list[Entry]:
    """A Docusaurus-like site: each language's pages show its own logo and their own shot."""
    return [
        page(f"{prefix}p{n}", f"{prefix}img/logo.svg", f"{prefix}p{n}/shot.png", language=lang)
        for lang, prefix in (("en", ""), ("fr", "fr/"))
        for n in range(pages)
    ]


def images(entries: list[Entry]) -> set[str]:
    return {image.loc for entry in entries for image in entry.images}


def test_each_languages_logo_on_half_the_site_is_chrome() -> None:
    out, chrome = run(two_languages())
    assert chrome.chrome == {SITE + "img/logo.svg": 30, SITE + "fr/img/logo.svg": 30}
    assert chrome.left_out == 60
    assert images(out) == {SITE + f"{p}p{n}/shot.png" for p in ("", "fr/") for n in range(30)}
    assert chrome.languages == {"en": 30, "fr": 30}
    assert chrome.messages() == [
        f"left out 2 site-chrome images shown on 30 of 60 pages, most of their language's "
        f"(en 30, fr 30) (e.g. {SITE}fr/img/logo.svg); keep_image_chrome = true keeps them"
    ]


def test_without_languages_the_same_site_keeps_them_as_before() -> None:
    entries = [entry._replace(language="") for entry in two_languages()]
    out, chrome = run(entries)
    assert chrome.chrome == {} and chrome.languages == {}
    assert len(images(out)) == 62


def test_a_pages_cluster_gives_its_language_before_what_the_page_says() -> None:
    # The French pages say lang="en" (a theme's fallback) but their clusters list them as fr.
    entries = []
    for n in range(30):
        en, fr = f"{SITE}p{n}/", f"{SITE}fr/p{n}/"
        cluster = (Alternate("en", en), Alternate("fr", fr), Alternate("x-default", en))
        entries.append(page(f"p{n}", "img/logo.svg", language="en")._replace(alternates=cluster))
        entries.append(
            page(f"fr/p{n}", "fr/img/logo.svg", language="en")._replace(alternates=cluster)
        )
    out, chrome = run(entries)
    assert chrome.languages == {"en": 30, "fr": 30}
    assert chrome.left_out == 60 and images(out) == set()


def with_banner(entries: list[Entry], indexes: list[int]) -> list[Entry]:
    banner = Image(SITE + "banner.png")
    return [
        entry._replace(images=(*entry.images, banner)) if index in indexes else entry
        for index, entry in enumerate(entries)
    ]


def test_an_image_shown_in_two_languages_counts_among_both() -> None:
    # A banner on 20 English and 5 French pages: 25 of the 60 pages of its two languages is
    # no majority (among the English pages alone, 20 of 30 would be).
    out, chrome = run(with_banner(two_languages(), [*range(20), *range(30, 35)]))
    assert chrome.chrome == {SITE + "img/logo.svg": 30, SITE + "fr/img/logo.svg": 30}
    assert sum(SITE + "banner.png" in {i.loc for i in entry.images} for entry in out) == 25
    # On 28 English and 5 French pages it is: 33 of the 60.
    out, chrome = run(with_banner(two_languages(), [*range(28), *range(30, 35)]))
    assert chrome.chrome[SITE + "banner.png"] == 33
    assert SITE + "banner.png" not in images(out)


def test_a_one_language_site_is_counted_over_the_whole_site_as_before() -> None:
    # 40 English pages and 30 of no known language (or of a stray second language): an image
    # on 30 English pages is no chrome (30 of 70), though it is on most English pages.
    english = [
        page(f"p{n}", *(["tag.png"] if n < 30 else []), f"p{n}.png", language="en")
        for n in range(40)
    ]
    for others in ("", "fr"):
        rest = [page(f"o{n}", f"o{n}.png", language=others if n < 5 else "") for n in range(30)]
        out, chrome = run(english + rest)
        assert chrome.chrome == {} and chrome.languages == {}
        unlabelled = [entry._replace(language="") for entry in english + rest]
        assert run(unlabelled)[0] == [entry._replace(language="") for entry in out]


def test_a_tiny_language_has_no_chrome_and_makes_no_language_of_its_own() -> None:
    tiny = MIN_LANGUAGE_PAGES - 1
    entries = two_languages() + [
        page(f"de/p{n}", "de/img/logo.svg", "img/logo.svg", f"de/p{n}/shot.png", language="de")
        for n in range(tiny)
    ]
    out, chrome = run(entries, share=0.0)
    assert chrome.languages == {"en": 30, "fr": 30}  # German is one of the rest
    # Its logo is on every German page but on fewer than MIN_CHROME_PAGES: kept.
    assert SITE + "de/img/logo.svg" not in chrome.chrome
    assert sum(SITE + "de/img/logo.svg" in {i.loc for i in e.images} for e in out) == tiny
    # The English logo it shows too is counted among the English pages and the rest: chrome.
    assert chrome.chrome[SITE + "img/logo.svg"] == 30 + tiny
    assert tiny < MIN_CHROME_PAGES
    # At MIN_LANGUAGE_PAGES pages German is a language of its own, and its logo chrome.
    entries.append(page("de/last", "de/img/logo.svg", language="de"))
    _, chrome = run(entries)
    assert chrome.languages == {"en": 30, "fr": 30, "de": MIN_LANGUAGE_PAGES}
    assert chrome.chrome[SITE + "de/img/logo.svg"] == MIN_LANGUAGE_PAGES


def test_the_rest_of_the_site_is_one_group_among_the_languages() -> None:
    # Pages of no known language beside two languages: an image shown only on them counts
    # among them; one shown on a language's pages and theirs, among both.
    entries = two_languages() + [page(f"x{n}", "x.png", language="") for n in range(25)]
    out, chrome = run(entries)
    assert chrome.chrome[SITE + "x.png"] == 25
    assert chrome.languages == {"en": 30, "fr": 30}
    assert images(out) == {SITE + f"{p}p{n}/shot.png" for p in ("", "fr/") for n in range(30)}


def test_the_decision_does_not_depend_on_the_order_of_the_pages() -> None:
    entries = two_languages() + [
        page(f"x{n}", "img/logo.svg", "fr/img/logo.svg", language="de") for n in range(5)
    ]
    out, chrome = run(entries)
    again_out, again = run(list(reversed(entries)))
    assert chrome.chrome == again.chrome and chrome.messages() == again.messages()
    assert list(reversed(again_out)) == out


def test_a_replayed_spool_gives_every_entry_and_keeps_them_for_the_drain() -> None:
    for in_memory in (3, 1_000):  # on disk, in memory
        spool = Spool(in_memory)
        entries = [page(f"p{n}", f"{n}.png") for n in range(10)]
        for entry in entries:
            spool.append(entry)
        assert list(spool.replay()) == entries
        assert list(spool.replay()) == entries
        assert list(spool.drain()) == entries
        assert list(spool.drain()) == []


def test_memory_holds_a_language_per_distinct_image_and_sets_for_shared_ones_only() -> None:
    languages = ("en", "fr", "de")
    entries = (
        page(f"p{n}", "logo.png", f"{n % 3}.png", language=languages[n % 3]) for n in range(30_000)
    )  # a generator: nothing held but the counts
    pages_read = SeenUrls()
    for n in range(30_000):
        pages_read.add(f"{SITE}p{n}/")
    chrome = SiteChrome(0.5, pages_read)
    for _entry in chrome.count(entries):
        assert len(chrome._counts) == len(chrome._language) <= 4
        assert len(chrome._mixed) <= 1  # only the logo, shown in every language
    assert chrome._mixed == {SITE + "logo.png": set(languages)}
    assert list(chrome.drop([page("p0", "logo.png")])) == [page("p0")]
    # The logo among the whole site, each language's own image among its pages: all chrome.
    assert chrome.chrome == {SITE + "logo.png": 30_000} | {
        f"{SITE}{n}.png": 10_000 for n in range(3)
    }
