"""validate across batch borders: documents bigger than one chunk (64 KiB) are checked batch
by batch; these tests put the interesting parts after the first batch and check the verdicts and
their lines.
"""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape

import pytest

from outputlist import validate_paths
from sitemill.protocol import SITEMAP_NS
from sitemill.validate import Violation
from sitemill.validate.limits import FEED_BYTES

TESTS = Path(__file__).resolve().parents[1]
FIXTURE_DIRS = [TESTS / "schema_fixtures", TESTS.parents[1] / "shared" / "schemas" / "fixtures"]
FIXTURES = sorted(
    {path for folder in FIXTURE_DIRS if folder.is_dir() for path in folder.glob("*.xml")}
)
assert FIXTURES, "the bundled tests/schema_fixtures are missing"
HEAD = f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{SITEMAP_NS}"'
XHTML = "http://www.w3.org/1999/xhtml"


def found(path: Path, base_url: str | None = None) -> list[Violation]:
    return validate_paths([path], base_url)


def verdict(violations: list[Violation]) -> list[tuple[int | None, bool, str]]:
    """Line, severity and who found it (the XSD or a protocol rule), without the wording."""
    return [
        (v.line, v.is_error, "XSD" if v.message.startswith("XSD:") else v.message)
        for v in violations
    ]


def entry(i: int, extra: str = "") -> str:
    """A <url> over four lines."""
    loc = f"<loc>https://example.com/page-{i}</loc>"
    return f"<url>\n  {loc}\n  <lastmod>2024-05-01</lastmod>{extra}\n</url>\n"


def write(tmp_path: Path, *parts: str, attributes: str = "") -> Path:
    path = tmp_path / "sitemap.xml"
    path.write_text(f"{HEAD}{attributes}>\n" + "".join(parts) + "</urlset>\n")
    return path


def lines_of(path: Path, text: str) -> list[int]:
    return [number for number, line in enumerate(path.read_text().splitlines(), 1) if text in line]


@pytest.mark.parametrize(
    "path", FIXTURES, ids=lambda path: f"{path.parent.parent.name}/{path.name}"
)
def test_each_fixture_is_valid_by_its_name(path: Path) -> None:
    violations = found(path)
    # (valid-sitemap.xml's hreflang example breaks Google's rules: warnings, not errors)
    assert (not [v for v in violations if v.is_error]) is path.name.startswith("valid-")


def test_a_big_valid_sitemap_with_extensions(tmp_path: Path) -> None:
    def links(i: int) -> str:  # pages 2n and 2n + 1: one cluster, English and German
        pair = (i - i % 2, i - i % 2 + 1)
        return "".join(
            f'<xhtml:link rel="alternate" hreflang="{lang}" href="https://example.com/page-{n}"/>'
            for lang, n in zip(("en", "de"), pair, strict=True)
        )

    image = "<image:image><image:loc>https://example.com/i.png</image:loc></image:image>"
    entries = [entry(i, links(i) + image) for i in range(2_000)]
    namespaces = (
        f' xmlns:xhtml="{XHTML}" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"'
    )
    path = write(tmp_path, *entries, attributes=namespaces)
    assert path.stat().st_size > 5 * FEED_BYTES
    assert found(path) == []


def test_errors_in_later_batches_keep_their_lines(tmp_path: Path) -> None:
    # Line numbers past 65,535 too: libxml2 keeps them only on elements it has not copied.
    entries = [entry(i) for i in range(17_000)]
    entries[9_000] = entry(9_000).replace("2024-05-01", "yesterday")
    entries[16_999] = entry(16_999).replace("page-16999", "a page")
    entries[16_000] = entry(16_000).replace("2024-05-01", "2024-05-01T10:00:00")
    path = write(tmp_path, *entries)
    violations = found(path)
    assert verdict(violations) == [
        (lines_of(path, "yesterday")[0], True, "XSD"),
        (
            lines_of(path, "T10:00:00")[0],
            True,
            "lastmod '2024-05-01T10:00:00' has no time zone; W3C Datetime needs one (e.g. +00:00)",
        ),
        (
            lines_of(path, "a page")[0],
            True,
            "loc 'https://example.com/a page' has characters that must be percent-encoded: ' '",
        ),
    ]
    assert violations[-1].line == 68_000


def test_other_namespaces_before_the_first_entry_over_several_batches(tmp_path: Path) -> None:
    links = [
        f'<xhtml:link rel="alternate" hreflang="en" href="https://example.com/{i}"/>\n'
        for i in range(2_000)
    ]
    path = write(tmp_path, *links, entry(1), attributes=f' xmlns:xhtml="{XHTML}"')
    assert path.stat().st_size > 2 * FEED_BYTES
    assert found(path) == []


def test_an_element_of_another_namespace_after_an_entry(tmp_path: Path) -> None:
    stray = '<xhtml:link rel="alternate" hreflang="en" href="https://example.com/"/>\n'
    path = write(
        tmp_path, *(entry(i) for i in range(1_000)), stray, attributes=f' xmlns:xhtml="{XHTML}"'
    )
    violations = found(path)
    assert verdict(violations) == [(lines_of(path, "xhtml:link")[0], True, "XSD")]
    assert violations[0].message.endswith("not checked further")


def test_only_other_namespaces_no_entry(tmp_path: Path) -> None:
    links = [
        f'<xhtml:link rel="alternate" hreflang="en" href="https://example.com/{i}"/>\n'
        for i in range(2_000)
    ]
    path = write(tmp_path, *links, attributes=f' xmlns:xhtml="{XHTML}"')
    violations = found(path)
    assert verdict(violations) == [(2, True, "XSD")]  # <urlset> misses its <url>


def test_empty_urlset_and_a_wrong_root_attribute(tmp_path: Path) -> None:
    violations = found(write(tmp_path))
    assert verdict(violations) == [(2, True, "XSD")]
    path = write(tmp_path, *(entry(i) for i in range(3_000)), attributes=' color="blue"')
    violations = found(path)
    assert verdict(violations) == [(2, True, "XSD")]  # once, not per batch
    assert "color" in violations[0].message


def test_a_comment_inside_a_loc(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        *(entry(i) for i in range(1_500)),
        "<url><loc>https://example.com/<!-- split -->a b</loc></url>\n",
        "<url><loc>https://example.com/<!-- split -->b</loc>"
        "<lastmod>2024-05-01T10:00:00<!-- x --></lastmod></url>\n",
    )
    violations = found(path)
    messages = [v.message for v in violations]
    assert (
        "loc 'https://example.com/a b' has characters that must be percent-encoded: ' '" in messages
    )
    assert any("lastmod '2024-05-01T10:00:00' has no time zone" in message for message in messages)


def test_index_children_over_several_batches(tmp_path: Path) -> None:
    locs = [f"https://example.com/sitemap-{i}.xml" for i in range(1, 1_501)]
    body = "".join(f"<sitemap>\n  <loc>{escape(loc)}</loc>\n</sitemap>\n" for loc in locs)
    index = f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="{SITEMAP_NS}">\n'
    (tmp_path / "sitemap.xml").write_text(f"{index}{body}</sitemapindex>\n")
    child = f"{HEAD}>\n<url><loc>https://example.com/</loc></url>\n</urlset>\n"
    for i in range(1, 1_501):
        (tmp_path / f"sitemap-{i}.xml").write_text(child.replace("/</loc>", f"/{i}</loc>"))
    (tmp_path / "sitemap-1500.xml").unlink()
    violations = validate_paths([tmp_path])
    assert [(Path(v.file).name, v.line) for v in violations] == [("sitemap.xml", 4 + 3 * 1_499)]
    assert "sitemap-1500.xml is missing" in violations[0].message
