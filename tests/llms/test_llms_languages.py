"""One llms.txt per language, or one for all: decided from the pages' hreflang clusters, never from
folder names; and the site's name. Real sites' pages (tests/llms/sites/*.json, read from their
built trees by realpages.py with lxml) and made-up ones."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llmsreadings import commonmark_reading, reference_reading
from sitemill.llms._files import LlmsFiles, llms_files
from sitemill.llms._sitename import shared_title_part
from sitemill.llms._validation import check_llms_txt
from sitemill.llms.page import LlmsPage, LlmsSite

SITES = Path(__file__).resolve().parent / "sites"
BASE = "https://example.org/"
SITE = LlmsSite(BASE, BASE + "sitemap.xml")


def real_site(name: str) -> tuple[list[LlmsPage], LlmsSite]:
    data = json.loads((SITES / f"{name}.json").read_text(encoding="utf-8"))
    pages = [LlmsPage(**page) for page in data["pages"]]
    base = data["base_url"]
    return pages, LlmsSite(base, base + "sitemap.xml", data["name"], data["summary"])


def linked(result: LlmsFiles) -> dict[str, list[str]]:
    """Each file's links, as both readings give them (they must agree)."""
    found = {}
    for name, data in result.files.items():
        text = data.decode("utf-8")
        reading = reference_reading(text)
        assert commonmark_reading(text) == reading, name
        found[name] = [url for _, links in reading.sections for _, url, _ in links]
    return found


def assert_each_page_once(pages: list[LlmsPage], result: LlmsFiles) -> None:
    urls = [url for links in linked(result).values() for url in links]
    assert sorted(urls) == sorted(page.url for page in pages)


def test_archcraft_one_file_per_language() -> None:
    pages, site = real_site("archcraft")
    result = llms_files(pages, site)
    assert result.decision == (
        "one llms.txt per language (en at the root, fr in fr/): 386 of 386 pages are in hreflang "
        "clusters of 2 languages"
    )
    files = linked(result)
    assert list(files) == ["llms.txt", "fr/llms.txt"]
    language = {page.url: page.hreflang for page in pages}
    assert {language[url] for url in files["llms.txt"]} == {"en"}
    assert {language[url] for url in files["fr/llms.txt"]} == {"fr"}
    assert_each_page_once(pages, result)
    french = reference_reading(result.files["fr/llms.txt"].decode())
    assert french.name == "Archcraft"
    # (the top first, then the folders as listed; titles less the part most titles share)
    assert [name for name, _ in french.sections] == ["/fr/", "blog", "news", "docs"]
    assert "Bienvenue sur Wiki Archcraft" in [link[0] for link in french.sections[0][1]]


def test_python_markdown_is_named_by_its_home_page_and_has_no_summary() -> None:
    pages, site = real_site("python-markdown")
    result = llms_files(pages, site)
    assert (
        result.decision
        == "one llms.txt; no hreflang clusters (languages by folder are not guessed)"
    )
    reading = reference_reading(result.files["llms.txt"].decode())
    assert (reading.name, reading.summary) == ("Python-Markdown", None)  # its description: "None"
    assert_each_page_once(pages, result)


def test_dazwilkin_og_site_name_and_an_empty_description() -> None:
    pages, site = real_site("dazwilkin")
    reading = reference_reading(llms_files(pages, site).files["llms.txt"].decode())
    assert (reading.name, reading.summary) == ("(p)retired", None)


@pytest.mark.parametrize(
    ("titles", "home", "name"),
    [
        (["Installation — P 3.1 docs", "P — P 3.1 docs", "P 3.1 docs"], "P — P 3.1 docs", "P"),
        (["Intro | Site", "Guide | Site", "Home"], "", "Site"),
        (["Site: intro", "Site - guide", "Site | more"], "", "Site"),  # the name first
        (["Alpha", "Beta", "Gamma"], "", ""),  # nothing shared
        (["A | S", "B | T", "C | S", "D | T"], "", ""),  # half is not most
        (["Only | One"], "", ""),  # one title shares nothing
        (
            ["Welcome | Site", "A | Site"],
            "Welcome | Site",
            "Site",
        ),  # "Site" does not start "Welcome"
    ],
)
def test_the_part_the_titles_share(titles: list[str], home: str, name: str) -> None:
    assert shared_title_part(titles, home) == name


def test_the_host_when_nothing_names_the_site() -> None:
    pages = [LlmsPage(BASE + "a/", "Alpha"), LlmsPage(BASE + "b/", "Beta")]
    assert (
        reference_reading(llms_files(pages, SITE).files["llms.txt"].decode()).name == "example.org"
    )


def test_languages_by_folder_without_hreflang_are_not_guessed() -> None:
    # hugegraph's cn/, spyder-docs' en/ es/, reason-react's: folders, no hreflang: one file.
    pages = [
        LlmsPage(BASE + f"{folder}/docs/{n}/", f"P{n}")
        for n, folder in enumerate(["en", "es", "cn", "en", "es", "cn"])
    ]
    result = llms_files(pages, SITE)
    assert list(result.files) == ["llms.txt"]
    assert (
        result.decision
        == "one llms.txt; no hreflang clusters (languages by folder are not guessed)"
    )
    sections = reference_reading(result.files["llms.txt"].decode()).sections
    assert [name for name, _ in sections] == ["en", "es", "cn"]


def test_one_language_in_hreflang_gives_one_file() -> None:
    pages = [LlmsPage(BASE, "Home", hreflang="en"), LlmsPage(BASE + "docs/a/", "A", hreflang="en")]
    result = llms_files(pages, SITE)
    assert result.decision == "one llms.txt; the hreflang clusters name one language (en)"
    assert list(result.files) == ["llms.txt"]


def test_a_section_per_language_when_a_language_has_no_folder_of_its_own() -> None:
    pages = [
        LlmsPage(BASE + "docs/a/", "A", hreflang="en"),
        LlmsPage(BASE + "docs/a-fr/", "A fr", hreflang="fr"),  # French beside English in docs/
        LlmsPage(BASE + "blog/b/", "B", hreflang="fr"),
        LlmsPage(BASE + "blog/b2/", "B2", hreflang="fr"),
        LlmsPage(BASE + "docs%20%28fr%29/c/", "C"),  # a folder named like a language section
        LlmsPage(BASE + "docs%20%28fr%29/c2/", "C2"),
    ]
    result = llms_files(pages, SITE)
    assert list(result.files) == ["llms.txt"]
    assert result.decision == (
        "one llms.txt with a section per language (en, fr): 4 of 6 pages are in hreflang clusters "
        "of 2 languages, but fr's pages do not share a top folder of their own"
    )
    sections = reference_reading(result.files["llms.txt"].decode()).sections
    assert [(name, [link[0] for link in links]) for name, links in sections] == [
        ("docs (en)", ["A"]),
        ("docs (fr)", ["A fr"]),
        ("blog (fr)", ["B", "B2"]),
        ("docs (fr)/", ["C", "C2"]),
    ]
    assert_each_page_once(pages, result)


def test_pages_of_no_language_go_with_the_folder_they_are_in() -> None:
    pages = [
        LlmsPage(BASE + "fr/", "Accueil", "Le site", hreflang="fr"),
        LlmsPage(BASE, "Home", hreflang="en"),  # the home page's language stays at the root
        LlmsPage(BASE + "fr/search/", "Recherche"),  # no hreflang: with fr/
        LlmsPage(BASE + "search/", "Search"),  # no hreflang: at the root
        LlmsPage(BASE + "de/a/", "A", hreflang="de"),
    ]
    result = llms_files(pages, LlmsSite(BASE, BASE + "sitemap.xml", summary="The site"))
    assert linked(result) == {
        "llms.txt": [BASE, BASE + "search/"],
        "fr/llms.txt": [BASE + "fr/", BASE + "fr/search/"],
        "de/llms.txt": [BASE + "de/a/"],
    }
    assert result.decision.startswith(
        "one llms.txt per language (en at the root, fr in fr/, de in de/)"
    )
    french = reference_reading(result.files["fr/llms.txt"].decode())
    assert french.summary == "Le site"  # the folder's own page's description
    assert reference_reading(result.files["de/llms.txt"].decode()).summary is None


def test_without_the_home_page_the_language_with_no_folder_is_at_the_root() -> None:
    pages = [
        LlmsPage(BASE + "fr/a/", "A fr", hreflang="fr"),
        LlmsPage(BASE + "a/", "A", hreflang="en"),
        LlmsPage(BASE + "b/", "B", hreflang="en"),
    ]
    result = llms_files(pages, SITE)
    assert linked(result) == {
        "llms.txt": [BASE + "a/", BASE + "b/"],
        "fr/llms.txt": [BASE + "fr/a/"],
    }


@pytest.mark.parametrize("folder", ["%2E%2E", ".", "a%2Fb", "a%5Cb", "a%00", "a%0Ab"])
def test_a_folder_that_cannot_hold_a_file_is_no_language_folder(folder: str) -> None:
    pages = [
        LlmsPage(BASE, "Home", hreflang="en"),
        LlmsPage(f"{BASE}{folder}/x/", "X", hreflang="fr"),
    ]
    result = llms_files(pages, SITE)
    assert list(result.files) == ["llms.txt"]  # never "../llms.txt"
    assert "a section per language" in result.decision
    assert_each_page_once(pages, result)


FOLDERS = st.sampled_from(["", "a/", "b/", "fr/", "en/", "de/", "optional/", "x%20y/", "fr"])
PAGES = st.lists(
    st.tuples(
        FOLDERS, st.sampled_from(["", "en", "fr", "de", "EN"]), st.sampled_from([None, "g", "h"])
    ),
    max_size=30,
)


@settings(max_examples=300, deadline=None)
@given(PAGES)
def test_every_page_is_linked_once_and_each_file_holds_one_language(
    shapes: list[tuple[str, str, str | None]],
) -> None:
    pages = [
        LlmsPage(f"{BASE}{folder}{number}", f"Page {number}", hreflang=language, group=group)
        for number, (folder, language, group) in enumerate(shapes)
    ]
    result = llms_files(pages, SITE, group_order=["h", "g"])
    assert_each_page_once(pages, result)
    assert llms_files(list(pages), SITE, group_order=["h", "g"]) == result
    language = {page.url: page.hreflang.casefold() for page in pages}
    files = linked(result)
    if len(files) > 1:
        assert result.decision.startswith("one llms.txt per language")
        for name, urls in files.items():
            assert len({language[url] for url in urls} - {""}) <= 1, name
            if name != "llms.txt":
                folder = quote(name.removesuffix("llms.txt"))  # the file's name is decoded
                assert all(url.startswith(BASE + folder) for url in urls)
    for name, data in result.files.items():
        assert check_llms_txt(data, name) == []
