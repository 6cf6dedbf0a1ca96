"""validate: the official XSDs, the protocol rules beyond them, and the test helpers."""

from __future__ import annotations

import functools
import gzip
import importlib.util
import socket
import sys
from pathlib import Path
from xml.sax.saxutils import escape

import pytest

from outputlist import validate_paths
from sitemill.errors import ConfigError, SitemillError
from sitemill.protocol import MAX_BYTES_LIMIT, SITEMAP_NS
from sitemill.validate import (
    Severity,
    Violation,
    check_xsd,
)
from sitemill.validate import (
    _lxml_xsd as lxml_xsd,
)
from xsd import assert_valid_sitemaps, assert_xsd_valid

FIXTURES = Path(__file__).resolve().parents[1] / "schema_fixtures"
HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
FIRST = 3  # line of the first entry in documents built by urlset() and index()


def url(loc: str, lastmod: str | None = None) -> str:
    extra = f"<lastmod>{lastmod}</lastmod>" if lastmod else ""
    return f"<url><loc>{escape(loc)}</loc>{extra}</url>"


def urlset(*entries: str) -> str:
    """One entry per line: entry i (0-based) sits on line FIRST + i."""
    body = "".join(entry + "\n" for entry in entries)
    return f'{HEAD}<urlset xmlns="{SITEMAP_NS}">\n{body}</urlset>\n'


def index(*locs: str) -> str:
    body = "".join(f"<sitemap><loc>{escape(loc)}</loc></sitemap>\n" for loc in locs)
    return f'{HEAD}<sitemapindex xmlns="{SITEMAP_NS}">\n{body}</sitemapindex>\n'


def write(folder: Path, name: str, text: str | bytes) -> Path:
    data = text.encode() if isinstance(text, str) else text
    path = folder / name
    path.write_bytes(gzip.compress(data, mtime=0) if name.endswith(".gz") else data)
    return path


def found(violations: list[Violation]) -> list[tuple[str, int | None, str]]:
    return [(Path(v.file).name, v.line, v.message) for v in violations]


def assert_one(violations: list[Violation], line: int | None, fragment: str) -> None:
    hits = [v for v in violations if v.line == line and fragment in v.message]
    assert hits, f"no {fragment!r} at line {line} in {[str(v) for v in violations]}"


# --- Violation and the official fixtures ----------------------------------------------------------


def test_violation_prints_file_line_message() -> None:
    assert str(Violation("a/sitemap.xml", 7, "bad")) == "a/sitemap.xml:7: bad"
    assert str(Violation("a/sitemap.xml", None, "bad")) == "a/sitemap.xml: bad"
    repeat = Violation("a/sitemap.xml", 7, "twice", Severity.WARNING)
    assert str(repeat) == "a/sitemap.xml:7: warning: twice"
    assert not repeat.is_error


# (line, fragment): the XSD's messages by their start; the protocol rules' own messages are
# checked in full.
FIXTURE_CASES = [
    ("valid-sitemap.xml", []),
    ("valid-index.xml", []),
    ("invalid-changefreq.xml", [(10, "XSD: <changefreq>")]),
    ("invalid-hreflang.xml", [(16, "XSD: <xhtml:link> attribute")]),
    ("invalid-index-lastmod.xml", [(4, "XSD: <lastmod>")]),
    ("invalid-index-nested.xml", [(3, "changefreq")]),
    ("invalid-lastmod.xml", [(9, "XSD: <lastmod>")]),
    ("invalid-loc-short.xml", [(8, "not an absolute http(s) URL"), (8, "XSD: <loc>")]),
    ("invalid-news-notitle.xml", [(26, "XSD: <news:news>")]),
    ("invalid-priority.xml", [(11, "XSD: <priority>")]),
    ("invalid-xhtml-unknown-element.xml", [(16, "XSD: <xhtml:lnk>")]),
    ("w3cdtf-minutes-only.xml", [(9, "XSD: <lastmod>")]),
    ("w3cdtf-year-month.xml", [(9, "XSD: <lastmod>")]),
    ("dt-no-timezone.xml", [(9, "lastmod '2024-05-01T10:00:00' has no time zone")]),
]


def test_every_fixture_has_a_case() -> None:
    assert {name for name, _ in FIXTURE_CASES} == {p.name for p in FIXTURES.glob("*.xml")}


@pytest.mark.parametrize(("name", "expected"), FIXTURE_CASES)
def test_fixtures(name: str, expected: list[tuple[int, str]]) -> None:
    # Errors only: the fixtures' hreflang examples break Google's rules, which are warnings
    # (see tests/validate/test_validate_extensions.py).
    violations = [v for v in validate_paths([FIXTURES / name]) if v.is_error]
    assert len(violations) == len(expected), [str(v) for v in violations]
    for (line, fragment), violation in zip(expected, violations, strict=True):
        assert violation.line == line
        assert fragment in violation.message
        assert violation.file == str(FIXTURES / name)
        assert violation.is_error


def test_xsd_messages_are_short_and_prefixed() -> None:
    found = validate_paths([FIXTURES / "invalid-changefreq.xml"])
    (violation,) = [v for v in found if v.is_error]
    assert violation.message == (
        "XSD: <changefreq> The value 'sometimes' is not an element of the set "
        "{'always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never'}"
    )
    found = validate_paths([FIXTURES / "invalid-lastmod.xml"])
    (violation,) = [v for v in found if v.is_error]
    assert violation.message == (
        "XSD: <lastmod> '2024-05-01 10:00' is not a valid value of the union type 'tLastmod' "
        "(use YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+hh:mm)"
    )


@pytest.mark.parametrize(
    ("name", "valid"),
    [
        ("valid-sitemap.xml", True),
        ("valid-index.xml", True),
        ("dt-no-timezone.xml", True),  # the XSD accepts it; only the protocol check objects
        ("invalid-priority.xml", False),
        ("invalid-index-lastmod.xml", False),
    ],
)
def test_check_xsd_on_fixtures(name: str, valid: bool) -> None:
    data = (FIXTURES / name).read_bytes()
    assert (check_xsd(data) == []) is valid
    assert (check_xsd(gzip.compress(data)) == []) is valid


def test_check_xsd_reports_malformed_and_foreign_documents() -> None:
    malformed = f'<urlset xmlns="{SITEMAP_NS}">\n<url>\n</urlset>'.encode()
    ((name, line, message),) = found(check_xsd(malformed))
    assert (name, line) == ("<document>", 3)
    assert message.startswith("XML is not well-formed: ")
    assert "root element is <html>" in check_xsd(b"<html/>")[0].message
    # The root is checked first, as a reader meets it, even when the XML breaks later.
    assert "root element is <urlset>" in check_xsd(b"<urlset>\n<url>\n</urlset>")[0].message


def test_helpers_pass_and_fail(tmp_path: Path) -> None:
    assert_valid_sitemaps(FIXTURES / "valid-sitemap.xml")
    assert_xsd_valid((FIXTURES / "valid-index.xml").read_bytes())
    with pytest.raises(pytest.fail.Exception, match=r"invalid-priority\.xml:11: XSD"):
        assert_valid_sitemaps(FIXTURES / "invalid-priority.xml")
    with pytest.raises(pytest.fail.Exception, match=r"<document>:9: XSD: <lastmod>"):
        assert_xsd_valid((FIXTURES / "w3cdtf-year-month.xml").read_bytes())


# --- counts and sizes -----------------------------------------------------------------------------


@pytest.mark.parametrize("count", [50_000, 50_001])
def test_urls_per_sitemap(tmp_path: Path, count: int) -> None:
    entries = [f"<url><loc>https://example.com/{i}</loc></url>" for i in range(count)]
    violations = validate_paths([write(tmp_path, "sitemap.xml", urlset(*entries))])
    if count == 50_000:
        assert violations == []
    else:
        assert found(violations) == [
            (
                "sitemap.xml",
                FIRST + 50_000,
                "more than 50,000 <url> in one file (protocol maximum); not checked further",
            )
        ]


def test_sitemaps_per_index(tmp_path: Path) -> None:
    locs = [f"https://example.com/sitemap-{i}.xml" for i in range(50_001)]
    violations = validate_paths([write(tmp_path, "sitemap.xml", index(*locs))])
    assert found(violations) == [
        (
            "sitemap.xml",
            FIRST + 50_000,
            "more than 50,000 <sitemap> in one file (protocol maximum); not checked further",
        )
    ]


@pytest.mark.parametrize("name", ["sitemap.xml", "sitemap.xml.gz"])
@pytest.mark.parametrize("size", [MAX_BYTES_LIMIT, MAX_BYTES_LIMIT + 1])
def test_bytes_per_sitemap(tmp_path: Path, name: str, size: int) -> None:
    # Padding between entries, in runs below the 10,000,000-byte limit for one text.
    entries = [url(f"https://example.com/{i}") for i in range(8)]
    pad = (size - len(urlset(*entries))) // 7
    document = urlset(*(entry + " " * pad for entry in entries[:7]), entries[7])
    padded = document.replace("\n</urlset>", " " * (size - len(document)) + "\n</urlset>")
    assert len(padded) == size
    violations = validate_paths([write(tmp_path, name, padded)])
    if size == MAX_BYTES_LIMIT:
        assert violations == []
    else:
        assert found(violations) == [
            (
                name,
                None,
                "more than 52,428,800 bytes uncompressed (the protocol maximum); "
                "not checked further",
            )
        ]


@pytest.mark.parametrize(("length", "valid"), [(2_048, True), (2_049, False)])
def test_loc_length(tmp_path: Path, length: int, valid: bool) -> None:
    loc = "https://example.com/" + "a" * (length - len("https://example.com/"))
    violations = validate_paths([write(tmp_path, "sitemap.xml", urlset(url(loc)))])
    if valid:
        assert violations == []
    else:
        assert_one(violations, FIRST, "loc is 2,049 characters long; the maximum is 2,048")


# --- host, location rule, URL form ----------------------------------------------------------------


def test_locs_share_one_host_without_base_url(tmp_path: Path) -> None:
    document = urlset(
        url("https://example.com/"),
        url("https://EXAMPLE.com:443/same-host"),
        url("https://other.example/"),
        url("http://example.com/"),
        url("https://example.com:8443/"),
    )
    assert found(validate_paths([write(tmp_path, "sitemap.xml", document)])) == [
        (
            "sitemap.xml",
            5,
            "loc https://other.example/ is on https://other.example, "
            "not https://example.com like the first loc (line 3)",
        ),
        (
            "sitemap.xml",
            6,
            "loc http://example.com/ is on http://example.com, "
            "not https://example.com like the first loc (line 3)",
        ),
        (
            "sitemap.xml",
            7,
            "loc https://example.com:8443/ is on https://example.com:8443, "
            "not https://example.com like the first loc (line 3)",
        ),
    ]


@pytest.mark.parametrize("base_url", ["https://example.com/docs/", "https://example.com/docs"])
def test_location_rule_with_base_url(tmp_path: Path, base_url: str) -> None:
    document = urlset(
        url("https://example.com/docs/"),
        url("https://example.com/docs/deep/page.html"),
        url("https://example.com/blog/"),
        url("https://elsewhere.example/docs/"),
    )
    violations = validate_paths([write(tmp_path, "sitemap.xml", document)], base_url)
    assert found(violations) == [
        (
            "sitemap.xml",
            5,
            "loc https://example.com/blog/ is outside https://example.com/docs/, "
            "the directory this sitemap is served from (sitemaps.org location rule)",
        ),
        (
            "sitemap.xml",
            6,
            "loc https://elsewhere.example/docs/ is on https://elsewhere.example, "
            "not https://example.com, where this sitemap is served",
        ),
    ]


@pytest.mark.parametrize("base_url", ["ftp://example.com/", "/docs/", "https://example.com/?a=1"])
def test_bad_base_url_is_a_config_error(tmp_path: Path, base_url: str) -> None:
    with pytest.raises(ConfigError, match="base_url"):
        validate_paths([tmp_path], base_url)


@pytest.mark.parametrize(
    ("loc", "fragment"),
    [
        ("ftp://example.com/file", "is not an absolute http(s) URL"),
        ("//example.com/page", "is not an absolute http(s) URL"),
        ("https:///path-without-host", "is not an absolute http(s) URL"),
        ("https://example.com/a page", "must be percent-encoded: ' '"),
        ("https://example.com/über", "must be percent-encoded: 'ü'"),
        ("https://example.com/a<b>", "must be percent-encoded: '<', '>'"),
        ('https://example.com/"q"', "must be percent-encoded: '\"'"),
        ("https://example.com/{x}|y", "must be percent-encoded: '{', '|', '}'"),
        ("https://example.com/a\\b^c`d", "must be percent-encoded: '\\\\', '^', '`'"),
        ("https://example.com/100%", "must be percent-encoded: '%'"),
        ("https://example.com/a[1]", "must be percent-encoded: '[', ']'"),
        ("https://example.com/a#b#c", "must be percent-encoded: \"'#' after the fragment's\""),
    ],
)
def test_loc_form(tmp_path: Path, loc: str, fragment: str) -> None:
    document = urlset(url("https://example.com/"), url(loc))
    violations = validate_paths([write(tmp_path, "sitemap.xml", document)])
    assert_one(violations, FIRST + 1, fragment)


def test_percent_encoded_loc_is_fine(tmp_path: Path) -> None:
    document = urlset(url("https://example.com/%C3%BCber?a=1&b=%20#top"))
    assert validate_paths([write(tmp_path, "sitemap.xml", document)]) == []


def test_brackets_around_an_ipv6_host_are_fine(tmp_path: Path) -> None:
    document = urlset(url("https://[::1]:8080/x"))
    assert validate_paths([write(tmp_path, "sitemap.xml", document)]) == []


# --- duplicates -----------------------------------------------------------------------------------


def test_duplicate_within_a_file_is_a_warning(tmp_path: Path) -> None:
    # Repeats are allowed by the protocol (Hugo's own sitemap has them) and read by consumers.
    document = urlset(
        url("https://example.com/a"), url("https://example.com/b"), url("https://example.com/a")
    )
    violations = validate_paths([write(tmp_path, "sitemap.xml", document)])
    assert found(violations) == [
        ("sitemap.xml", 5, "duplicate loc https://example.com/a (first at line 3)")
    ]
    assert [v.severity for v in violations] == [Severity.WARNING]
    assert_valid_sitemaps(tmp_path / "sitemap.xml")
    with pytest.raises(pytest.fail.Exception, match="warning: duplicate loc"):
        assert_valid_sitemaps(tmp_path / "sitemap.xml", warnings=True)


def test_duplicate_on_one_line(tmp_path: Path) -> None:
    one_line = urlset(url("https://example.com/a") + url("https://example.com/a"))
    assert found(validate_paths([write(tmp_path, "sitemap.xml", one_line)])) == [
        ("sitemap.xml", 3, "duplicate loc https://example.com/a (first at line 3)")
    ]


def test_duplicate_across_index_children(tmp_path: Path) -> None:
    write(tmp_path, "sitemap.xml", index(*(f"https://example.com/sitemap-{i}.xml" for i in (1, 2))))
    write(tmp_path, "sitemap-1.xml", urlset(url("https://example.com/a")))
    write(
        tmp_path,
        "sitemap-2.xml",
        urlset(url("https://example.com/b"), url("https://example.com/a")),
    )
    assert [str(v) for v in validate_paths([tmp_path])] == [
        f"{tmp_path / 'sitemap-2.xml'}:4: warning: duplicate loc https://example.com/a: "
        f"also listed in {tmp_path / 'sitemap-1.xml'}:3"
    ]


# --- lastmod --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lastmod", "fragment"),
    [
        ("2024-05-01", None),
        ("2024-05-01T10:00:00+00:00", None),
        ("2024-05-01T10:00:00Z", None),
        ("2024-05-01T10:00:00.123-08:00", None),
        ("2024-05-01T10:00:00", "lastmod '2024-05-01T10:00:00' has no time zone"),
        ("2024-05-01T10:00:00.5", "has no time zone"),
        ("2024-05-01+02:00", "lastmod '2024-05-01+02:00' is not W3C Datetime"),
        ("2024-05-01T10:00", "(use YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+hh:mm)"),
        ("2024-02-30", "XSD: <lastmod>"),
    ],
)
def test_lastmod(tmp_path: Path, lastmod: str, fragment: str | None) -> None:
    document = urlset(url("https://example.com/", lastmod))
    violations = validate_paths([write(tmp_path, "sitemap.xml", document)])
    if fragment is None:
        assert violations == []
    else:
        assert len(violations) == 1
        assert_one(violations, FIRST, fragment)


# --- files: gzip, well-formedness, roots, encodings -----------------------------------------------


def test_gzip_sitemap_is_read(tmp_path: Path) -> None:
    path = write(tmp_path, "sitemap.xml.gz", urlset(url("https://example.com/", "2024-05-01")))
    assert validate_paths([path]) == []


@pytest.mark.parametrize(
    "data",
    [
        gzip.compress(urlset(url("https://example.com/")).encode(), mtime=0)[:-12],
        gzip.compress(urlset(url("https://example.com/")).encode(), mtime=0)[:12] + b"not deflate",
    ],
    ids=["truncated", "corrupt"],
)
def test_bad_gzip(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "sitemap-1.xml.gz"
    path.write_bytes(data)
    violations = validate_paths([path])
    assert len(violations) == 1
    assert violations[0].line is None
    assert violations[0].message.startswith("gzip data does not decompress: ")


def test_plain_xml_named_gz_is_a_warning_and_checked(tmp_path: Path) -> None:
    # Consumers sniff the content: a plain file named .gz is read as the XML it is.
    path = tmp_path / "sitemap-1.xml.gz"
    path.write_text(urlset(url("https://example.com/"), url("https://example.com/a b")))
    violations = validate_paths([path])
    assert found(violations) == [
        (
            "sitemap-1.xml.gz",
            None,
            "named .gz but not gzip-compressed; checked as the plain file it is",
        ),
        (
            "sitemap-1.xml.gz",
            FIRST + 1,
            "loc 'https://example.com/a b' has characters that must be percent-encoded: ' '",
        ),
    ]
    assert [v.is_error for v in violations] == [False, True]
    garbage = write(tmp_path, "garbage.xml", b"")
    garbage.with_suffix(".gz").write_bytes(b"not gzip at all")
    messages = [v.message for v in validate_paths([garbage.with_suffix(".gz")])]
    assert messages[0].startswith("named .gz but not gzip-compressed")
    assert messages[1].startswith("XML is not well-formed: ")


def test_gzip_named_xml_is_a_warning_and_read(tmp_path: Path) -> None:
    path = tmp_path / "sitemap-1.xml"
    path.write_bytes(gzip.compress(urlset(url("https://example.com/")).encode()))
    violations = validate_paths([path])
    assert found(violations) == [
        ("sitemap-1.xml", None, "gzip-compressed but not named .gz; checked decompressed")
    ]
    assert not violations[0].is_error


def test_malformed_xml_is_one_violation_with_its_line(tmp_path: Path) -> None:
    text = urlset(url("https://example.com/"), "<url><loc>https://example.com/b</url>")
    ((name, line, message),) = found(validate_paths([write(tmp_path, "sitemap.xml", text)]))
    assert (name, line) == ("sitemap.xml", 4)
    assert message.startswith("XML is not well-formed: ")
    ((name, line, message),) = found(validate_paths([write(tmp_path, "empty.xml", b"")]))
    assert (name, line) == ("empty.xml", 1)
    assert message.startswith("XML is not well-formed: ")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("<html/>", "root element is <html>; expected <urlset> or <sitemapindex>"),
        ("<urlset><url><loc>https://example.com/</loc></url></urlset>", "root element is <urlset>"),
    ],
)
def test_wrong_root(tmp_path: Path, text: str, fragment: str) -> None:
    violations = validate_paths([write(tmp_path, "sitemap.xml", HEAD + text)])
    assert len(violations) == 1
    assert_one(violations, 2, fragment)


def test_declared_encoding_must_be_utf8(tmp_path: Path) -> None:
    text = urlset(url("https://example.com/")).replace("UTF-8", "ISO-8859-1")
    violations = validate_paths([write(tmp_path, "sitemap.xml", text)])
    assert found(violations) == [("sitemap.xml", 1, "encoding is ISO-8859-1; use UTF-8")]
    sixteen = urlset(url("https://example.com/")).replace("UTF-8", "UTF-16").encode("utf-16")
    utf16 = write(tmp_path, "utf16.xml", sixteen)
    assert found(validate_paths([utf16])) == [("utf16.xml", 1, "encoding is UTF-16; use UTF-8")]


# --- directories and indexes ----------------------------------------------------------------------


def make_site(folder: Path, base: str = "https://example.com/") -> None:
    write(folder, "sitemap.xml", index(base + "sitemap-1.xml", base + "sitemap-2.xml.gz"))
    write(folder, "sitemap-1.xml", urlset(url(base, "2024-05-01"), url(base + "a/")))
    write(folder, "sitemap-2.xml.gz", urlset(url(base + "b", "2024-05-01T10:00:00+00:00")))


@pytest.mark.parametrize("base_url", [None, "https://example.com/docs/"])
def test_valid_directory(tmp_path: Path, base_url: str | None) -> None:
    make_site(tmp_path, base_url or "https://example.com/")
    assert validate_paths([tmp_path], base_url) == []
    assert_valid_sitemaps(tmp_path, base_url)


def test_missing_child(tmp_path: Path) -> None:
    make_site(tmp_path)
    (tmp_path / "sitemap-2.xml.gz").unlink()
    assert [str(v) for v in validate_paths([tmp_path])] == [
        f"{tmp_path / 'sitemap.xml'}:4: child https://example.com/sitemap-2.xml.gz is missing: "
        f"no file {tmp_path / 'sitemap-2.xml.gz'}"
    ]


def test_index_given_as_a_file_does_not_follow_children(tmp_path: Path) -> None:
    make_site(tmp_path)
    (tmp_path / "sitemap-2.xml.gz").unlink()
    assert validate_paths([tmp_path / "sitemap.xml"]) == []


def test_nested_index(tmp_path: Path) -> None:
    write(tmp_path, "sitemap.xml", index("https://example.com/sitemap-1.xml"))
    write(tmp_path, "sitemap-1.xml", index("https://example.com/sitemap-2.xml"))
    assert found(validate_paths([tmp_path])) == [
        (
            "sitemap.xml",
            3,
            "child https://example.com/sitemap-1.xml is an index; indexes cannot nest",
        )
    ]


def test_index_children_in_other_folders_are_sought_below_the_index(tmp_path: Path) -> None:
    # Without base_url the index is served from the deepest directory holding every child
    # (here the root: Hugo's multilingual layout), so each child is read from its own folder.
    write(
        tmp_path,
        "sitemap.xml",
        index("https://example.com/a/sitemap-1.xml", "https://example.com/b/sitemap-2.xml"),
    )
    write(tmp_path, "sitemap-1.xml", urlset(url("https://example.com/a/page")))
    assert found(validate_paths([tmp_path])) == [
        (
            "sitemap.xml",
            line,
            f"child https://example.com/{name} is missing: no file {tmp_path / name}",
        )
        for line, name in [(3, "a/sitemap-1.xml"), (4, "b/sitemap-2.xml")]
    ]


def test_child_urls_stay_under_the_child_directory(tmp_path: Path) -> None:
    write(tmp_path, "sitemap.xml", index("https://example.com/docs/sitemap-1.xml"))
    write(
        tmp_path,
        "sitemap-1.xml",
        urlset(url("https://example.com/docs/a"), url("https://example.com/b")),
    )
    assert found(validate_paths([tmp_path])) == [
        (
            "sitemap-1.xml",
            4,
            "loc https://example.com/b is outside https://example.com/docs/, "
            "the directory this sitemap is served from (sitemaps.org location rule)",
        )
    ]


def test_children_on_another_host_are_reported_not_read(tmp_path: Path) -> None:
    write(tmp_path, "sitemap.xml", index("https://other.example/sitemap-1.xml"))
    violations = validate_paths([tmp_path], "https://example.com/")
    assert found(violations) == [
        (
            "sitemap.xml",
            3,
            "loc https://other.example/sitemap-1.xml is on https://other.example, "
            "not https://example.com, where this sitemap is served",
        )
    ]


def test_missing_paths(tmp_path: Path) -> None:
    assert [str(v) for v in validate_paths([tmp_path, tmp_path / "nope.xml"])] == [
        f"{tmp_path}: no sitemap.xml or sitemap.txt in this directory",
        f"{tmp_path / 'nope.xml'}: no such file or directory",
    ]


def test_order_is_by_file_then_line(tmp_path: Path) -> None:
    locs = [f"https://example.com/sitemap-{i}.xml" for i in (10, 2)]
    write(tmp_path, "sitemap.xml", index(*locs, "https://example.com/sitemap-3.xml"))
    bad = urlset(url("https://example.com/x y"), url("https://example.com/x y"))
    write(tmp_path, "sitemap-10.xml", bad)
    write(tmp_path, "sitemap-2.xml", bad.replace("x y", "z y"))
    result = [(Path(v.file).name, v.line) for v in validate_paths([tmp_path])]
    assert result == [
        ("sitemap-2.xml", 3),
        ("sitemap-2.xml", 4),
        ("sitemap-2.xml", 4),
        ("sitemap-10.xml", 3),
        ("sitemap-10.xml", 4),
        ("sitemap-10.xml", 4),
        ("sitemap.xml", 5),
    ]


# --- text sitemaps --------------------------------------------------------------------------------


def test_valid_text_sitemap(tmp_path: Path) -> None:
    text = "\ufeffhttps://example.com/\r\nhttps://example.com/a%20b\r\n"
    assert validate_paths([write(tmp_path, "sitemap.txt", text)]) == []
    assert validate_paths([write(tmp_path, "sitemap-1.txt.gz", text)]) == []


def test_text_sitemap_rules(tmp_path: Path) -> None:
    lines = [
        b"https://example.com/",
        b"/relative",
        b"https://example.com/with space",
        b"",
        b"https://other.example/",
        b"https://example.com/\xff",
        b"https://example.com/",
    ]
    path = write(tmp_path, "sitemap.txt", b"\n".join(lines) + b"\n")
    messages = {v.line: v.message for v in validate_paths([path])}
    assert messages == {
        2: "loc '/relative' is not an absolute http(s) URL",
        3: "loc 'https://example.com/with space' has characters that must be percent-encoded: ' '",
        4: "empty line; a text sitemap has one URL per line",
        5: "loc https://other.example/ is on https://other.example, "
        "not https://example.com like the first loc (line 1)",
        6: "line is not UTF-8",
        7: "duplicate loc https://example.com/ (first at line 1)",
    }


@pytest.mark.parametrize("count", [50_000, 50_001])
def test_text_sitemap_lines(tmp_path: Path, count: int) -> None:
    text = "".join(f"https://example.com/{i}\n" for i in range(count))
    violations = validate_paths([write(tmp_path, "sitemap.txt", text)])
    if count == 50_000:
        assert violations == []
    else:
        assert found(violations) == [
            (
                "sitemap.txt",
                50_001,
                "more than 50,000 URLs in one file (protocol maximum); not checked further",
            )
        ]


def test_text_sitemap_bytes(tmp_path: Path) -> None:
    path = write(tmp_path, "sitemap.txt", "https://example.com/" + "a" * MAX_BYTES_LIMIT)
    assert found(validate_paths([path])) == [
        (
            "sitemap.txt",
            None,
            "more than 52,428,800 bytes uncompressed (the protocol maximum); not checked further",
        )
    ]


# --- environment: optional dependency, no network -------------------------------------------------


def test_without_lxml_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("lxml", "lxml.etree"):
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(SitemillError, match=r"checkout: pip install -e '\.\[validate\]'\)"):
        validate_paths([FIXTURES / "valid-sitemap.xml"])
    with pytest.raises(SitemillError, match=r"needs the lxml package: pip install 'lxml>=5.0'"):
        check_xsd((FIXTURES / "valid-sitemap.xml").read_bytes())


def test_schemas_load_without_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("network access while loading schemas")

    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    # A fresh cache: the schemas are built here, offline.
    monkeypatch.setattr(lxml_xsd, "schema", functools.cache(lxml_xsd.schema.__wrapped__))
    assert check_xsd((FIXTURES / "valid-sitemap.xml").read_bytes()) == []
    assert check_xsd((FIXTURES / "valid-index.xml").read_bytes()) == []
    located = (
        (FIXTURES / "valid-sitemap.xml")
        .read_text()
        .replace(
            "<urlset ",
            '<urlset xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation='
            '"http://www.sitemaps.org/schemas/sitemap/0.9 http://example.invalid/sitemap.xsd" ',
            1,
        )
    )
    assert check_xsd(located.encode()) == []  # hints are never followed
    assert lxml_xsd.schema.cache_info().misses == 2


def test_check_xsd_stops_a_gzip_bomb_at_the_size_limit() -> None:
    # 3 MB of gzip members, each 1 MiB of whitespace and a comment once inflated: 3 GB in all.
    member = gzip.compress(b" " * (1 << 20) + b"<!---->", mtime=0)
    head = gzip.compress(urlset(url("https://example.com/")).encode()[:-10], mtime=0)
    bomb = head + member * 3_000
    assert found(check_xsd(bomb)) == [
        (
            "<document>",
            None,
            "more than 52,428,800 bytes uncompressed (the protocol maximum); not checked further",
        )
    ]
    assert found(check_xsd(b"\x1f\x8b not really gzip")) == [
        ("<document>", None, "gzip data does not decompress: Unknown compression method")
    ]


def test_text_sitemap_flood_of_bad_lines_stops(tmp_path: Path) -> None:
    path = write(tmp_path, "sitemap.txt", "https://example.com/\n" + "\n" * 10_000_000)
    violations = validate_paths([path])
    assert len(violations) == 1_002
    assert found(violations)[0] == (
        "sitemap.txt",
        None,
        "more than 1,000 errors; not checked further",
    )


def test_one_xml_reader() -> None:
    # libxml2 alone reads XML (24x faster than the expat + xmlschema path it replaced, which
    # no install of sitemill brought: benchmarks/README.md, "Second implementations").
    assert check_xsd((FIXTURES / "valid-index.xml").read_bytes()) == []
    for gone in ("expat_reader", "py_xsd", "engines"):
        assert importlib.util.find_spec(f"sitemill.validate.{gone}") is None
