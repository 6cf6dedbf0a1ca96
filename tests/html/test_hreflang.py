"""hreflang values: the codes Google accepts, in canonical case."""

from __future__ import annotations

import pytest

import timing
from sitemill.html.hreflang import (
    LANGUAGES,
    REGIONS,
    SCRIPTS,
    X_DEFAULT,
    is_valid_hreflang,
    normalize_hreflang,
)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("en", "en"),
        ("EN", "en"),
        ("En", "en"),
        ("en-GB", "en-GB"),
        ("en-gb", "en-GB"),
        ("EN-gb", "en-GB"),
        ("de-AT", "de-AT"),
        ("pt-br", "pt-BR"),
        ("fr-CA ", "fr-CA"),  # HTML white space around the value is stripped
        ("\t\n fr-CA\r\f", "fr-CA"),
        ("zh-Hant", "zh-Hant"),
        ("zh-hant", "zh-Hant"),
        ("zh-HANS", "zh-Hans"),
        ("zh-Hant-TW", "zh-Hant-TW"),
        ("ZH-hant-tw", "zh-Hant-TW"),
        ("sr-Latn", "sr-Latn"),
        ("sr-cyrl-rs", "sr-Cyrl-RS"),
        ("az-Arab-IR", "az-Arab-IR"),
        ("x-default", "x-default"),
        ("X-Default", "x-default"),
        ("X-DEFAULT", "x-default"),
        (" x-default ", "x-default"),
        ("bh", "bh"),  # in ISO 639-1 as the Library of Congress lists it
        ("he", "he"),
        ("id", "id"),
        ("yi", "yi"),
        ("nb-NO", "nb-NO"),
        ("en-AQ", "en-AQ"),  # Antarctica: an assigned code, however unlikely
    ],
)
def test_valid_values_are_written_canonical(value: str, expected: str) -> None:
    assert normalize_hreflang(value) == expected
    assert is_valid_hreflang(value)


@pytest.mark.parametrize(
    "value",
    [
        "",
        " ",
        "e",
        "eng",  # ISO 639-2/3: Google accepts ISO 639-1 only
        "deu",
        "iw",  # withdrawn ISO 639-1 codes (now he, id, yi)
        "in",
        "ji",
        "sh",
        "qq",  # not assigned
        "zz",
        "en-",
        "-en",
        "en--GB",
        "en-UK",  # exceptionally reserved, not an ISO 3166-1 code: GB is
        "en-EU",
        "en-UN",
        "sq-XK",  # Kosovo: user-assigned, not official
        "en-ZZ",
        "es-419",  # UN M.49 region: not ISO 3166-1
        "en-001",
        "en_US",  # Google rejects underscores
        "en_us",
        "en-gb-x",
        "en-GB-oed",
        "en-US-x-twain",
        "en-Latn-",
        "zh-TW-Hant",  # region before script
        "zh-Hant-Hans",
        "zh-Hant-TW-TW",
        "en-Qaaa",  # private-use script
        "en-Abcd",
        "en-G",
        "en-GBR",  # alpha-3 region
        "x-default-x",
        "x-defaults",
        "x",
        "default",
        "en GB",
        "en.GB",
        "en-GB;",
        "\u0435n",  # Cyrillic "е" looks like "e"
        "e\u0578",  # Armenian "ո" looks like "n"
        "en-G\u0392",  # Greek "Β" looks like "B"
        "\u212aa",  # the Kelvin sign lower-cases to "k"
        "en-\u212aE",
        "ｅｎ",  # full-width
        "en\u00a0",  # a no-break space is no HTML white space
        "\u200ben",  # a zero-width space
        "en\x00",
    ],
)
def test_invalid_values_are_refused(value: str) -> None:
    assert normalize_hreflang(value) is None
    assert not is_valid_hreflang(value)


def test_a_long_value_is_refused_in_linear_time() -> None:
    value = "en-" + "x" * 10_000
    assert normalize_hreflang(value) is None
    assert timing.linear(normalize_hreflang, value, "en-" + "x" * 80_000, 20)
    assert normalize_hreflang(" " * 10_000 + "en") == "en"  # stripped first


def test_the_code_lists_have_their_sizes() -> None:
    assert len(LANGUAGES) == 184  # ISO 639-1
    assert len(REGIONS) == 249  # ISO 3166-1 alpha-2, officially assigned
    assert len(SCRIPTS) == 224  # ISO 15924, less the private-use Qaaa-Qabx


def test_the_code_lists_are_frozensets_in_canonical_case() -> None:
    for codes in (LANGUAGES, REGIONS, SCRIPTS):
        assert isinstance(codes, frozenset)
        assert all(isinstance(code, str) and code.isascii() and code.isalpha() for code in codes)
    assert all(len(code) == 2 and code.islower() for code in LANGUAGES)
    assert all(len(code) == 2 and code.isupper() for code in REGIONS)
    assert all(len(code) == 4 and code.istitle() for code in SCRIPTS)
    assert {"Hant", "Hans", "Latn", "Cyrl", "Arab", "Deva", "Jpan", "Kore"} <= SCRIPTS
    assert {"GB", "US", "TW", "SS", "CW", "BQ", "SX"} <= REGIONS
    assert not {"UK", "EU", "UN", "XK", "AN", "YU", "CS"} & REGIONS  # reserved, withdrawn
    assert not {"iw", "in", "ji", "sh", "mo"} & LANGUAGES


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_language_is_valid_alone_and_with_a_region(language: str) -> None:
    assert normalize_hreflang(language.upper()) == language
    assert normalize_hreflang(f"{language}-us") == f"{language}-US"


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_every_script_is_written_title_case(script: str) -> None:
    assert normalize_hreflang(f"zh-{script.upper()}-tw") == f"zh-{script}-TW"


def test_every_region_is_written_upper_case() -> None:
    for region in REGIONS:
        assert normalize_hreflang(f"EN-{region.lower()}") == f"en-{region}"


def test_x_default_is_the_constant() -> None:
    assert normalize_hreflang("X-default") == X_DEFAULT == "x-default"
