"""`sitemill validate` on the sitemap extensions: hreflang alternates and images, per <url>
and across a whole file set."""

from __future__ import annotations

import gzip
import tracemalloc
from pathlib import Path

import pytest

from conftest import write_site
from outputlist import validate_paths
from sitemill.cli.main import main
from sitemill.config.model import load_config
from sitemill.jobs.tree import build_from_tree
from sitemill.protocol import SITEMAP_NS
from sitemill.sinks import LocalDirSink
from sitemill.validate import Violation

XHTML = "http://www.w3.org/1999/xhtml"
IMAGE = "http://www.google.com/schemas/sitemap-image/1.1"
HEAD = (
    f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{SITEMAP_NS}" '
    f'xmlns:xhtml="{XHTML}" xmlns:image="{IMAGE}">\n'
)
SITE = "https://example.com/"


def link(lang: str, href: str, rel: str = "alternate") -> str:
    return f'<xhtml:link rel="{rel}" hreflang="{lang}" href="{href}"/>'


def url(loc: str, *parts: str) -> str:
    return f"<url><loc>{loc}</loc>{''.join(parts)}</url>\n"


def image(loc: str) -> str:
    return f"<image:image><image:loc>{loc}</image:loc></image:image>"


def urlset(*urls: str) -> str:
    return HEAD + "".join(urls) + "</urlset>\n"


def cluster(*pairs: tuple[str, str]) -> str:
    return "".join(link(lang, SITE + path) for lang, path in pairs)


EN_FR = cluster(("en", "en/"), ("fr", "fr/"))


def check(tmp_path: Path, text: str) -> list[tuple[int | None, bool, str]]:
    path = tmp_path / "sitemap.xml"
    path.write_text(text, encoding="utf-8")
    return summary(validate_paths([path], SITE))


def summary(violations: list[Violation]) -> list[tuple[int | None, bool, str]]:
    return [(v.line, v.is_error, v.message) for v in violations]


def test_a_reciprocal_cluster_with_images_is_valid(tmp_path: Path) -> None:
    text = urlset(
        url(SITE + "en/", EN_FR, link("x-default", SITE + "en/"), image(SITE + "a.png")),
        url(SITE + "fr/", EN_FR, link("x-default", SITE + "en/")),
    )
    assert check(tmp_path, text) == []


@pytest.mark.parametrize(
    ("parts", "expected"),
    [
        (
            cluster(("en-UK", "en/"), ("fr", "fr/")),
            (True, "hreflang 'en-UK' is not an ISO 639-1 language"),
        ),
        (
            cluster(("english", "en/"), ("fr", "fr/")),
            (True, "hreflang 'english' is not an ISO 639-1 language"),
        ),
        (link("en", "/en/") + link("fr", SITE + "fr/"), (True, "alternate href '/en/' is not")),
        (link("en", SITE + "en/", rel="nofollow"), (True, "xhtml:link rel is 'nofollow'")),
        ('<xhtml:link rel="alternate" href="https://example.com/en/"/>', (True, "needs both")),
        (
            EN_FR + link("de", "https://other.example.org/de/"),
            (False, "alternate https://other.example.org/de/ is on https://other.example.org"),
        ),
        (EN_FR + link("fr", SITE + "fr-old/"), (False, "hreflang fr names two pages")),
        (EN_FR + link("fr", SITE + "fr/"), (False, "alternate fr https://example.com/fr/ is")),
        (cluster(("fr", "fr/")), (False, "the page https://example.com/en/ is missing from")),
        (image("/a.png"), (True, "image:loc '/a.png' is not an absolute http(s) URL")),
        (image(SITE + "a.png") * 2, (False, "image https://example.com/a.png is listed twice")),
        ("".join(image(f"{SITE}{n}.png") for n in range(1_001)), (True, "1,001 images")),
    ],
)
def test_each_rule(tmp_path: Path, parts: str, expected: tuple[bool, str]) -> None:
    text = urlset(url(SITE + "en/", parts), url(SITE + "fr/", EN_FR))
    found = check(tmp_path, text)
    error, fragment = expected
    assert [(is_error, fragment) for _, is_error, message in found if fragment in message] == [
        (error, fragment)
    ], found
    assert all(fragment in message or not is_error for _, is_error, message in found)


def test_an_xsd_invalid_hreflang_is_reported_once(tmp_path: Path) -> None:
    found = check(tmp_path, urlset(url(SITE + "en/", cluster(("en_US", "en/")))))
    assert [(error, message[:4]) for _, error, message in found] == [(True, "XSD:")]


def test_reciprocity_is_checked_across_the_file_set(tmp_path: Path) -> None:
    # The index names three children (one gzipped); fr/ is in the second and lists another
    # cluster than en/ does; de/ is named by en/ but listed nowhere.
    en = cluster(("en", "en/"), ("fr", "fr/"), ("de", "de/"))
    children = {
        "sitemap-1.xml": urlset(url(SITE + "en/", en)),
        "sitemap-2.xml": urlset(url(SITE + "fr/", EN_FR)),
        "sitemap-3.xml.gz": urlset(url(SITE + "it/")),
    }
    for name, text in children.items():
        data = text.encode()
        (tmp_path / name).write_bytes(gzip.compress(data, mtime=0) if name.endswith("gz") else data)
    index = "".join(f"<sitemap><loc>{SITE}{name}</loc></sitemap>" for name in children)
    (tmp_path / "sitemap.xml").write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="{SITEMAP_NS}">{index}'
        "</sitemapindex>\n"
    )
    found = summary(validate_paths([tmp_path], SITE))
    first = str(tmp_path / "sitemap-1.xml")
    messages = [message for _, _, message in found]
    assert not [error for _, error, _ in found if error]
    assert any(
        "alternates of https://example.com/en/ are not reciprocal" in m and "only 1 carry" in m
        for m in messages
    ), messages
    assert any(
        "alternate https://example.com/de/ of https://example.com/en/ names a page" in m
        for m in messages
    )
    assert all(
        v.file in (first, str(tmp_path / "sitemap-2.xml")) for v in validate_paths([tmp_path], SITE)
    )


def test_sitemills_own_split_multilingual_output_passes_without_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    languages = ("en-GB", "fr", "de")
    files = {}
    for number in range(30):
        pairs = [(lang, f"/{lang.lower()}/p{number}/") for lang in languages]
        pairs.append(("x-default", f"/en-gb/p{number}/"))
        links = "".join(f'<link rel="alternate" hreflang="{h}" href="{p}">' for h, p in pairs)
        for lang in languages:
            files[f"{lang.lower()}/p{number}/index.html"] = (
                f"<!doctype html><html><head><title>{number}</title>{links}</head>"
                f'<body><img src="i{number}.png"></body></html>'
            )
    site = write_site(tmp_path / "site", files)
    out = tmp_path / "out"
    config = load_config(
        {"base_url": SITE, "lastmod": "none", "max_urls": 25, "gzip": True, "images": True}
    )
    build_from_tree(config, site, LocalDirSink(out), output_dir=out)
    assert len(list(out.glob("sitemap-*.xml.gz"))) == 4
    assert main(["validate", str(out), "--base-url", SITE]) == 0
    assert capsys.readouterr().out.splitlines() == [f"valid: {out}"]


# --- each rule's exact finding -----------------------------------------------------------------

NOT_ISO = (
    "is not an ISO 639-1 language (with an optional ISO 15924 script and ISO 3166-1 region, "
    "e.g. en-GB, zh-Hant) or x-default"
)
MISSING = (
    "the page https://example.com/en/ is missing from its own cluster (Google ignores its "
    "alternates): one xhtml:link must name its own URL and language"
)
NOT_RECIPROCAL = (
    "alternates of https://example.com/{} are not reciprocal (Google ignores them): of the 2 "
    "listed pages its cluster names (https://example.com/en/, https://example.com/fr/), only 1 "
    "carry the same cluster"
)
# (the <url> of en/ on line 3, whose extensions are the case; fr/ on line 4 lists EN_FR)
RULE_CASES = {
    "hreflang en-UK": (
        cluster(("en-UK", "en/"), ("fr", "fr/")),
        [
            (3, True, f"hreflang 'en-UK' {NOT_ISO}"),
            (3, False, MISSING),
            (4, False, NOT_RECIPROCAL.format("fr/")),
        ],
    ),
    "relative href": (
        link("en", "/en/") + link("fr", SITE + "fr/"),
        [
            (3, True, "alternate href '/en/' is not an absolute http(s) URL"),
            (3, False, MISSING),
            (4, False, NOT_RECIPROCAL.format("fr/")),
        ],
    ),
    "href on another host": (
        EN_FR + link("de", "https://other.example.org/de/"),
        [
            (
                3,
                False,
                "alternate https://other.example.org/de/ is on https://other.example.org, not "
                "https://example.com: Google reads it only when both sites are verified together",
            )
        ],
    ),
    "page missing from its own cluster": (
        cluster(("fr", "fr/")),
        [(3, False, MISSING), (4, False, NOT_RECIPROCAL.format("fr/"))],
    ),
    "one hreflang naming two pages": (
        EN_FR + link("fr", SITE + "fr-old/"),
        [
            (
                3,
                False,
                "hreflang fr names two pages in one cluster: https://example.com/fr/ and "
                "https://example.com/fr-old/",
            ),
            (3, False, NOT_RECIPROCAL.format("en/")),
            (
                3,
                False,
                "alternate https://example.com/fr-old/ of https://example.com/en/ names a page "
                "this sitemap set does not list",
            ),
            (4, False, NOT_RECIPROCAL.format("fr/")),
        ],
    ),
    "the same alternate twice": (
        EN_FR + link("fr", SITE + "fr/"),
        [(3, False, "alternate fr https://example.com/fr/ is listed twice")],
    ),
    "rel other than alternate": (
        EN_FR + link("de", SITE + "de/", rel="nofollow"),
        [(3, True, "xhtml:link rel is 'nofollow'; a sitemap alternate is rel=\"alternate\"")],
    ),
    "1,001 images": (
        EN_FR + "".join(image(f"{SITE}{n}.png") for n in range(1_001)),
        [
            (
                3,
                True,
                "1,001 images in the <url> of https://example.com/en/; at most 1,000 are allowed",
            )
        ],
    ),
    "relative and repeated image:loc": (
        EN_FR + image("/a.png") + image(SITE + "a.png") * 2,
        [
            (3, True, "image:loc '/a.png' is not an absolute http(s) URL"),
            (3, False, "image https://example.com/a.png is listed twice"),
        ],
    ),
}


@pytest.mark.parametrize(("parts", "expected"), RULE_CASES.values(), ids=list(RULE_CASES))
def test_each_rule_exactly(
    tmp_path: Path, parts: str, expected: list[tuple[int, bool, str]]
) -> None:
    text = urlset(url(SITE + "en/", parts), url(SITE + "fr/", EN_FR))
    assert check(tmp_path, text) == expected


def test_an_underscore_hreflang_is_the_xsds_error_alone(tmp_path: Path) -> None:
    # en_US is outside the XSD's LanguageCode: the XSD reports it.
    text = urlset(url(SITE + "en/", cluster(("en_US", "en/"))))
    ((line, error, message),) = check(tmp_path, text)
    assert (line, error) == (3, True)
    assert message.startswith("XSD: <xhtml:link> attribute ")
    assert "en_US" in message


def test_the_shared_invalid_hreflang_fixture() -> None:
    fixtures = Path(__file__).resolve().parents[1] / "schema_fixtures"
    path = fixtures / "invalid-hreflang.xml"
    shared = fixtures.parents[2] / "shared" / "schemas" / "fixtures" / path.name
    if shared.is_file():
        assert path.read_bytes() == shared.read_bytes()
    found = summary(validate_paths([path]))
    assert found[0] == (
        13,
        False,
        "the page https://example.com/catalog?item=12&desc=vacation_hawaii is missing from its "
        "own cluster (Google ignores its alternates): one xhtml:link must name its own URL and "
        "language",
    )
    ((line, error, message),) = found[1:]
    assert (line, error) == (16, True)
    assert message.startswith("XSD: <xhtml:link> attribute ") and "'en_US!'" in message


def test_a_cluster_not_reciprocated_in_another_file(tmp_path: Path) -> None:
    (tmp_path / "sitemap-1.xml").write_text(urlset(url(SITE + "en/", EN_FR)))
    (tmp_path / "sitemap-2.xml").write_text(
        urlset(url(SITE + "fr/", cluster(("fr", "fr/"), ("de", "de/"))))
    )
    paths = [tmp_path / "sitemap-1.xml", tmp_path / "sitemap-2.xml"]
    found = [
        (Path(v.file).name, v.line, v.is_error, v.message) for v in validate_paths(paths, SITE)
    ]
    assert found == [
        ("sitemap-1.xml", 3, False, NOT_RECIPROCAL.format("en/")),
        (
            "sitemap-2.xml",
            3,
            False,
            "alternate https://example.com/de/ of https://example.com/fr/ names a page this "
            "sitemap set does not list",
        ),
    ]


# --- namespaces: used without a declaration, declared without a use ---------------------------

NO_XHTML = (
    'XML is not well-formed: namespace prefix xhtml is not declared; add xmlns:xhtml="'
    f'{XHTML}" to the root element'
)
NO_IMAGE = (
    'XML is not well-formed: namespace prefix image is not declared; add xmlns:image="'
    f'{IMAGE}" to the root element'
)
NO_A = "no xmlns:a is in scope"
BARE = f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{SITEMAP_NS}">\n'
NAMESPACE_CASES = {
    "xhtml:link": (BARE + url(SITE, link("en", SITE)), [(3, True, NO_XHTML)]),
    "image:image": (BARE + url(SITE, image(SITE + "a.png")), [(3, True, NO_IMAGE)]),
    # A start tag over three lines: libxml2 names the line where it ends.
    "over lines": (
        BARE + f'<url><loc>{SITE}</loc>\n<xhtml:link\n rel="alternate" hreflang="en"\n'
        f' href="{SITE}"/></url>\n',
        [(6, True, NO_XHTML)],
    ),
    # Declared on the first <url> only: the second one is outside its scope.
    "out of scope": (
        BARE
        + url(SITE, link("en", SITE)).replace("<url>", f'<url xmlns:xhtml="{XHTML}">')
        + url(SITE + "fr/", link("fr", SITE + "fr/")),
        [(4, True, NO_XHTML)],
    ),
    "an attribute's prefix": (
        HEAD + url(SITE, link("en", SITE).replace("<xhtml:link ", '<xhtml:link a:b="c:d" ')),
        [(3, True, "XML is not well-formed: namespace prefix a is not declared; " + NO_A)],
    ),
    "declared and unused": (HEAD + url(SITE), []),
}


@pytest.mark.parametrize(("head", "expected"), NAMESPACE_CASES.values(), ids=list(NAMESPACE_CASES))
def test_extension_namespaces(
    tmp_path: Path, head: str, expected: list[tuple[int, bool, str]]
) -> None:
    assert check(tmp_path, head + "</urlset>\n") == expected


# --- a whole multilingual set, as a user runs it ----------------------------------------------

LANGUAGES = ("en-GB", "fr", "de")


def multilingual_url(language: str, page: int) -> str:
    """A page in one language, in its cluster of LANGUAGES plus x-default (the en-GB page)."""
    pairs = [(lang, f"{SITE}{lang.lower()}/p{page}/") for lang in LANGUAGES]
    pairs.append(("x-default", f"{SITE}en-gb/p{page}/"))
    alternates = "".join(link(lang, href) for lang, href in pairs)
    lastmod = "<lastmod>2024-03-01</lastmod>"
    return url(f"{SITE}{language.lower()}/p{page}/", lastmod, alternates)


def write_multilingual_set(folder: Path, pages: int, names: list[str]) -> None:
    """An index and one child per name, each language's pages in turn split over them."""
    urls = [multilingual_url(lang, page) for lang in LANGUAGES for page in range(pages)]
    size = -(-len(urls) // len(names))
    for number, name in enumerate(names):
        data = urlset(*urls[number * size : (number + 1) * size]).encode()
        (folder / name).write_bytes(gzip.compress(data, mtime=0) if name.endswith(".gz") else data)
    index = "".join(f"<sitemap><loc>{SITE}{name}</loc></sitemap>\n" for name in names)
    (folder / "sitemap.xml").write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="{SITEMAP_NS}">\n{index}'
        "</sitemapindex>\n"
    )


def test_a_valid_multilingual_set_passes_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An index, two children and a gzipped one; each cluster spans files.
    write_multilingual_set(tmp_path, 20, ["sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml.gz"])
    assert main(["validate", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines() == [f"valid: {tmp_path}"]
    assert main(["validate", str(tmp_path), "--base-url", SITE]) == 0
    assert capsys.readouterr().out.splitlines() == [f"valid: {tmp_path}"]
    assert validate_paths([tmp_path], SITE) == []


def test_a_child_alone_warns_about_the_pages_of_the_others(tmp_path: Path) -> None:
    write_multilingual_set(tmp_path, 2, ["sitemap-1.xml", "sitemap-2.xml"])
    found = summary(validate_paths([tmp_path / "sitemap-1.xml"], SITE))
    assert found and not [error for _, error, _ in found if error]
    assert all("names a page this sitemap set does not list" in m for _, _, m in found)


def test_memory_stays_bounded_on_a_large_multilingual_set(tmp_path: Path) -> None:
    # 15,000 URLs in 3-language clusters over 5 files. (200,000 would take about 30 s under
    # tracemalloc, most of it the tracing of the readers' own allocations.)
    write_multilingual_set(
        tmp_path, 15_000 // len(LANGUAGES), [f"sitemap-{n}.xml" for n in range(1, 6)]
    )
    tracemalloc.start()
    try:
        found = validate_paths([tmp_path], SITE)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert found == []
    assert peak < 60 * 2**20, f"peak {peak / 2**20:.0f} MiB"


def test_a_warning_repeated_on_every_url_is_a_few_lines_and_a_count(tmp_path: Path) -> None:
    """Eight pages each naming an image twice: the first five say so, one line counts the
    other three (and the summary all eight)."""
    pages = [url(f"{SITE}p{n}/", image(SITE + "a.png") * 2) for n in range(8)]
    found = check(tmp_path, urlset(*pages))
    twice = (False, "image https://example.com/a.png is listed twice")
    assert found == [
        *((line, *twice) for line in range(3, 8)),
        (8, False, "… and 3 more image listed twice (up to line 10)"),
    ]
    assert sum(v.count for v in validate_paths([tmp_path / "sitemap.xml"], SITE)) == 8
