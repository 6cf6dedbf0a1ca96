"""robots.txt rules for User-agent: * (RFC 9309 as Google reads it) and Sitemap line upkeep."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitemill.robots.lines import NAMED_MARK, replace_sitemap_lines, written_lines
from sitemill.robots.rules import (
    MAX_ROBOTS_LINE_BYTES,
    MAX_ROBOTS_TXT_BYTES,
    RobotsRules,
    normalise_path,
)


def rules_for(*lines: str) -> RobotsRules:
    return RobotsRules.parse("User-agent: *\n" + "\n".join(lines) + "\n")


# Google's table "URL matching based on path values", each pattern allowed under "Disallow: /".
# https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt#url-matching-based-on-path-values
GOOGLE_PATH_EXAMPLES = [
    ("/", ["/", "/anything", "/a/b?c"], []),
    ("/*", ["/", "/anything"], []),
    ("/$", ["/"], ["/index.html", "/?q=1"]),
    (
        "/fish",
        [
            "/fish",
            "/fish.html",
            "/fish/salmon.html",
            "/fishheads",
            "/fishheads/yummy.html",
            "/fish.php?id=anything",
        ],
        ["/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"],
    ),
    (
        "/fish*",
        [
            "/fish",
            "/fish.html",
            "/fish/salmon.html",
            "/fishheads",
            "/fishheads/yummy.html",
            "/fish.php?id=anything",
        ],
        ["/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"],
    ),
    (
        "/fish/",
        ["/fish/", "/fish/?id=anything", "/fish/salmon.htm"],
        ["/fish", "/fish.html", "/animals/fish/", "/Fish/Salmon.asp"],
    ),
    (
        "/*.php",
        [
            "/index.php",
            "/filename.php",
            "/folder/filename.php",
            "/folder/filename.php?parameters",
            "/folder/any.php.file.html",
            "/filename.php/",
            "/index?f=filename.php/",
        ],
        ["/", "/windows.PHP", "/php/", "/index?php"],
    ),
    (
        "/*.php$",
        ["/filename.php", "/folder/filename.php"],
        [
            "/filename.php?parameters",
            "/filename.php/",
            "/filename.php5",
            "/windows.PHP",
            "/php/",
            "/filename?php",
            "/aaaphpaaa",
        ],
    ),
    ("/fish*.php", ["/fish.php", "/fishheads/catfish.php?parameters"], ["/Fish.PHP", "/fish"]),
]


@pytest.mark.parametrize(("pattern", "matching", "not_matching"), GOOGLE_PATH_EXAMPLES)
def test_google_path_examples(pattern: str, matching: list[str], not_matching: list[str]) -> None:
    rules = rules_for("Disallow: /", f"Allow: {pattern}")
    for path in matching:
        assert rules.allows(path), (pattern, path)
    for path in not_matching:
        if pattern in {"/", "/*"}:
            continue
        assert not rules.allows(path), (pattern, path)


# Google's "Order of precedence for rules" examples, plus RFC 9309 and google/robotstxt tests.
@pytest.mark.parametrize(
    ("lines", "path", "allowed"),
    [
        (["Allow: /p", "Disallow: /"], "/page", True),
        (["Allow: /folder", "Disallow: /folder"], "/folder/page", True),  # tie: Allow wins
        (["Allow: /page", "Disallow: /*.htm"], "/page.htm", False),  # longer pattern wins
        (["Allow: /page", "Disallow: /*.ph"], "/page.php5", True),  # tie on length: Allow
        (["Allow: /$", "Disallow: /"], "/", True),
        (["Allow: /$", "Disallow: /"], "/page.htm", False),
        (["Disallow: /x/page.html", "Allow: /x/"], "/x/page.html", False),
        (["Allow: /x/page.html", "Disallow: /x/"], "/x/page.html", True),
        (["Allow: /x/page.html", "Disallow: /x/"], "/x/", False),
        (["Disallow: /x", "Allow: /x/"], "/x", False),
        (["Disallow: /x", "Allow: /x/"], "/x/", True),
        (["Disallow: /foo/bar$", "Allow: /foo/bar/qux"], "/foo/bar", False),
        (["Disallow: /foo/bar$", "Allow: /foo/bar/qux"], "/foo/bar/", True),
        (["Disallow: /foo/bar/quz", "Allow: /foo/*/qux"], "/foo/bar/quz", False),
        (["Disallow: /foo/bar/quz", "Allow: /foo/*/qux"], "/foo//quz", True),
        (["Disallow: /a$b"], "/a$b/c", False),  # "$" only anchors at the very end
        (["Disallow: /a$b"], "/a", True),
        (["Disallow:"], "/anything", True),  # an empty Disallow allows all
        (["Disallow: /", "Allow:"], "/x", False),  # an empty Allow is no rule
        (["Disallow: /"], "/robots.txt", True),  # robots.txt itself is always allowed
        (["Disallow: /"], "/robots.txt?x=1", True),
        (["Disallow: /"], "/robots.txt.bak", False),
        (["Disallow: /x/", "Disallow: /*/y/*/z*"], "/a/y/b/z", False),
        (["Disallow: /*a*a*a*a*a*a*a*a*b"], "/" + "a" * 3000, True),  # no exponential backtracking
    ],
)
def test_precedence(lines: list[str], path: str, allowed: bool) -> None:
    assert rules_for(*lines).allows(path) is allowed


def test_no_rules_allow_everything() -> None:
    assert RobotsRules().allows("/x")
    assert RobotsRules.parse("").allows("/x")
    assert RobotsRules.parse("User-agent: googlebot\nDisallow: /\n").allows("/x")


@pytest.mark.parametrize(
    ("text", "path", "allowed"),
    [
        # Only "*" groups apply; several of them merge (RFC 9309 section 2.2.1).
        ("User-agent: *\nDisallow: /a\nUser-agent: bot\nDisallow: /b\n", "/b", True),
        ("User-agent: *\nDisallow: /a\nUser-agent: bot\nDisallow: /b\n", "/a", False),
        ("User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n", "/b", False),
        # Consecutive user-agent lines share one group, blank lines or not.
        ("User-agent: bot\nUser-agent: *\nDisallow: /a\n", "/a", False),
        ("User-agent: *\n\nUser-agent: bot\n\nDisallow: /a\n", "/a", False),
        # Only an Allow or Disallow line ends the run of user-agent lines: "a 'Sitemaps' record
        # MUST NOT terminate a group" (RFC 9309 section 2.2.4), nor do others in Google's parser.
        ("User-agent: *\nCrawl-delay: 5\nUser-agent: bot\nDisallow: /a\n", "/a", False),
        ("User-agent: *\nSitemap: https://e.com/s.xml\nUser-agent: b\nDisallow: /a\n", "/a", False),
        ("User-agent: *\nNoindex: /x\nUser-agent: b\nDisallow: /a\n", "/a", False),
        ("User-agent: *\nDisallow:\nUser-agent: b\nDisallow: /a\n", "/a", True),  # empty ends it
        ("User-agent: *\nAllow: /x\nUser-agent: b\nDisallow: /a\n", "/a", True),
        # Rules before any user-agent line belong to no group.
        ("Disallow: /a\nUser-agent: *\nDisallow: /b\n", "/a", True),
        # Field names in any case, spacing around the colon, comments, CRLF, CR, a BOM.
        ("USER-AGENT : *\r\nDISALLOW :/a # not /b\r\n", "/a", False),
        ("USER-AGENT : *\r\nDISALLOW :/a # not /b\r\n", "/b", True),
        ("user-agent: *\rdisallow: /a\r", "/a", False),
        ("\ufeffUser-agent: *\nDisallow: /a\n", "/a", False),
        ("User-agent: *\n# Disallow: /a\n", "/a", True),
        ("User-agent: * # every crawler\nDisallow: /a", "/a", False),
        ("User-agent: * extra words\nDisallow: /a", "/a", False),
        ("User-agent: *bot\nDisallow: /a", "/a", True),
        # ASCII whitespace is what absl strips and C's isspace() sees: tabs, vertical tabs, form
        # feeds, but not U+00A0.
        ("User-agent: *\x0bbot\nDisallow: /a", "/a", False),
        ("User-agent:\x0c*\nDisallow:\x0b/a\x0c\n", "/a", False),
        ("User-agent: *\nDisallow: \xa0/a\n", "/a", True),
        ("User-agent: *\nDisallow\xa0: /a\n", "/a", False),  # a key starting with "disallow"
        ("\xa0User-agent: *\nDisallow: /a\n", "/a", True),  # no key: no group
        ("User-agent: *\nDisallow: /a/*\nUnknown-field: /x\nAllow: /a/b\n", "/a/b", True),
        # Google's leniency: typos of field names, a forgotten colon.
        ("useragent: *\ndisalow: /a\n", "/a", False),
        ("User-agent *\nDisallow /a\n", "/a", False),
        ("User-agent: *\nDisallow /a /b\n", "/a", True),
        # Google: "Allow: .../index.html" also allows the directory itself.
        ("User-agent: *\nDisallow: /\nAllow: /docs/index.html\n", "/docs/", True),
        ("User-agent: *\nDisallow: /\nAllow: /docs/index.html\n", "/docs/other", False),
        ("User-agent: *\nDisallow: /\nAllow: /docs/index.htm\n", "/docs/", True),
        # ... as it stores the pattern: an escaped "i" is no "index.html" there.
        ("User-agent: *\nDisallow: /\nAllow: /docs/%69ndex.html\n", "/docs/", False),
        ("User-agent: *\nDisallow: /\nAllow: /docs/%69ndex.html\n", "/docs/index.html", True),
    ],
)
def test_groups_and_syntax(text: str, path: str, allowed: bool) -> None:
    assert RobotsRules.parse(text).allows(path) is allowed


@pytest.mark.parametrize(
    ("pattern", "path", "allowed"),
    [
        ("/ツ", "/%E3%83%84", False),  # non-ASCII patterns are matched in UTF-8 escapes
        ("/%e3%83%84", "/%E3%83%84", False),  # hex case does not matter, on either side
        ("/%E3%83%84", "/%e3%83%84", False),
        ("/caf%C3%A9", "/café", False),  # a raw path is escaped too
        ("/my file", "/my%20file", False),  # unsafe ASCII is escaped
        # An escaped reserved character is not that character (RFC 9309, google/robotstxt;
        # fast-robotstxt decodes it, see robots.py).
        ("/a%2fb", "/a/b", True),
        ("/a/b", "/a%2Fb", True),
        ("/a?", "/a%3F", True),
        ("/a%3Fb", "/a?b", True),
        ("/a%3F", "/a%3F", False),
        ("/*%2A", "/a*", True),
        # RFC 9309 section 2.2.2: an escaped unreserved character is that character (not so in
        # google/robotstxt, which compares escapes as written; fast-robotstxt decodes them).
        ("/%62az", "/baz", False),
        ("/%7Euser", "/~user", False),
        ("/%7euser", "/~user", False),
        ("/~user", "/%7Euser", False),
        ("/%41%2d%5F%2E%30", "/A-_.0", False),
        ("/%2541", "/A", True),  # "%25" is "%"
        ("/%2541", "/%2541", False),
        ("/100%", "/100%25", False),  # a "%" that starts no escape is itself escaped
        ("/x", "/X", True),  # paths are case-sensitive
    ],
)
def test_percent_encoding(pattern: str, path: str, allowed: bool) -> None:
    assert rules_for(f"Disallow: {pattern}").allows(path) is allowed


def test_normalise_path() -> None:
    assert normalise_path("/plain/path?q=1&x=*") == "/plain/path?q=1&x=*"
    assert normalise_path("/a b/%e3%83%84/ツ/100%/x%2f") == "/a%20b/%E3%83%84/%E3%83%84/100%25/x%2F"
    assert normalise_path("/%7e%7E%41%61%2D%2E%5F%30%39/%2541") == "/~~Aa-._09/%2541"
    assert normalise_path("/%3A%3a%40%2A%24%25%20") == "/%3A%3A%40%2A%24%25%20"  # others stay


def test_google_ignores_what_follows_500_kib() -> None:
    filler = "# " + "x" * 1000 + "\n"
    text = "User-agent: *\n" + filler * (MAX_ROBOTS_TXT_BYTES // len(filler) + 1) + "Disallow: /\n"
    assert RobotsRules.parse(text).allows("/page")
    assert not RobotsRules.parse("User-agent: *\n" + filler * 10 + "Disallow: /\n").allows("/p")


def test_google_ignores_what_follows_a_lines_limit() -> None:
    def disallow(value: str) -> str:
        return "User-agent: *\nDisallow: " + value + "\n"

    stars = "*" * (MAX_ROBOTS_LINE_BYTES - len("Disallow: /"))
    assert not RobotsRules.parse(disallow("/" + stars + "x")).allows("/y")  # the "x" is cut off
    assert RobotsRules.parse(disallow("/" + stars[1:] + "x")).allows("/y")  # it fits
    # A character cut in two leaves its first bytes, percent-encoded.
    cut = "/" + stars[2:] + "ツz"  # the line ends after "%E3%83"
    assert not RobotsRules.parse(disallow(cut)).allows("/%E3%83%84")
    assert RobotsRules.parse(disallow(cut)).allows("/%E3%81%82")


@pytest.mark.parametrize(
    ("lines", "path", "allowed"),
    [
        # The priority is the pattern's length as Google's parser stores it: escapes as written
        # (hex upper-cased), non-ASCII as UTF-8 escapes, other characters raw.
        (["Allow: /%7E", "Disallow: /~a"], "/~a", True),  # 4 > 3, though "%7E" is "~"
        (["Allow: /%7e", "Disallow: /~ab"], "/~ab", True),  # a tie: Allow wins
        (["Allow: /~", "Disallow: /%7Ea"], "/~a", False),
        (["Disallow: /a b", "Allow: /a%20"], "/a%20b", True),  # 4 < 5
        (["Disallow: /ツ", "Allow: /%E3%83%84"], "/%E3%83%84", True),  # a tie: 10 each
        (["Allow: /ツ", "Disallow: /%E3%83%84x"], "/%E3%83%84x", False),
    ],
)
def test_priority_is_googles_pattern_length(lines: list[str], path: str, allowed: bool) -> None:
    assert rules_for(*lines).allows(path) is allowed


def test_many_wildcards_match_in_linear_time() -> None:
    rules = rules_for("Disallow: /" + "a*" * 8000 + "b$", "Allow: /" + "*" * 16000 + "c")
    assert not rules.allows("/" + "a" * 8000 + "b")
    assert rules.allows("/" + "a" * 7999 + "b")
    assert rules.allows("/" + "a" * 8000 + "bc")  # not ending in "b": the Allow rule decides


def test_rules_are_ordered_and_comparable() -> None:
    rules = rules_for("Disallow: /a", "Allow: /a/b", "Disallow: /a/b")
    assert [(rule.allow, rule.pattern) for rule in rules.rules] == [
        (True, "/a/b"),
        (False, "/a/b"),
        (False, "/a"),
    ]
    assert rules == rules_for("Disallow: /a/b", "Disallow: /a", "Allow: /a/b")
    assert rules.matching_rule("/a/b/c") == rules.rules[0]
    assert rules.matching_rule("/z") is None


# --- Sitemap line upkeep ------------------------------------------------------------------

OWN = "https://example.com/"
NEW = [OWN + "sitemap.xml"]


def is_own(url: str) -> bool:
    return url.startswith(OWN) and url[len(OWN) :].startswith("sitemap")


@pytest.mark.parametrize(
    ("text", "urls", "expected"),
    [
        (None, NEW, "Sitemap: https://example.com/sitemap.xml\n"),
        (None, NEW * 2, "Sitemap: https://example.com/sitemap.xml\n"),  # no duplicates
        ("", NEW, "Sitemap: https://example.com/sitemap.xml\n"),
        (
            "User-agent: *\nDisallow:\n",
            NEW,
            "User-agent: *\nDisallow:\nSitemap: https://example.com/sitemap.xml\n",
        ),
        (  # no final newline: one is added before our line
            "User-agent: *\nDisallow:",
            NEW,
            "User-agent: *\nDisallow:\nSitemap: https://example.com/sitemap.xml\n",
        ),
        (  # old lines replaced in place, in any case and spacing; foreign ones kept
            "# top\nsitemap:https://example.com/sitemap-index-2.xml\nUser-agent: *\n"
            "Sitemap: https://cdn.example.net/other.xml\n  SITEMAP :  https://example.com/sitemap.xml"
            "  # old\nDisallow: /tmp\n",
            [OWN + "sitemap.xml", OWN + "sitemap-index-2.xml"],
            "# top\nSitemap: https://example.com/sitemap.xml\n"
            "Sitemap: https://example.com/sitemap-index-2.xml\nUser-agent: *\n"
            "Sitemap: https://cdn.example.net/other.xml\nDisallow: /tmp\n",
        ),
        (  # CRLF kept, and used for the new lines
            "User-agent: *\r\nSitemap: https://example.com/sitemap.xml\r\nDisallow: /x\r\n",
            [OWN + "sitemap.xml", OWN + "sitemap-index-2.xml"],
            "User-agent: *\r\nSitemap: https://example.com/sitemap.xml\r\n"
            "Sitemap: https://example.com/sitemap-index-2.xml\r\nDisallow: /x\r\n",
        ),
        (  # CRLF file without a final line end: appended after a CRLF
            "User-agent: *\r\nDisallow: /x",
            NEW,
            "User-agent: *\r\nDisallow: /x\r\nSitemap: https://example.com/sitemap.xml\r\n",
        ),
        (  # our line was last, without a line end: still none after it
            "User-agent: *\nSitemap: https://example.com/sitemap-old.xml",
            NEW,
            "User-agent: *\nSitemap: https://example.com/sitemap.xml",
        ),
        (  # no sitemaps any more: our lines go, the rest stays
            "Sitemap: https://example.com/sitemap.xml\nUser-agent: *\n",
            [],
            "User-agent: *\n",
        ),
        (  # the user's line naming a URL we would write stays, and is not written twice
            "Sitemap: https://example.com/custom.xml\n",
            [OWN + "custom.xml"],
            "Sitemap: https://example.com/custom.xml\n",
        ),
        (  # Google reads "Sitemap url" without the colon too
            "Sitemap https://example.com/sitemap.xml\n",
            NEW,
            "Sitemap: https://example.com/sitemap.xml\n",
        ),
        (  # a BOM stays in front
            "\ufeffSitemap: https://example.com/sitemap.xml\nUser-agent: *\n",
            NEW,
            "\ufeffSitemap: https://example.com/sitemap.xml\nUser-agent: *\n",
        ),
        (  # a comment naming a sitemap is not a Sitemap line; bytes sitemill cannot decode stay
            "# Sitemap: https://example.com/sitemap.xml\nDisallow: /\udcff\n",
            NEW,
            "# Sitemap: https://example.com/sitemap.xml\nDisallow: /\udcff\n"
            "Sitemap: https://example.com/sitemap.xml\n",
        ),
    ],
)
def test_replace_sitemap_lines(text: str | None, urls: list[str], expected: str) -> None:
    assert replace_sitemap_lines(text, urls, is_own) == expected
    assert replace_sitemap_lines(expected, urls, is_own) == expected  # idempotent


USER = "https://shop.example.net/sitemap.xml"
OURS = f"Sitemap: {USER} {NAMED_MARK}"  # (a line sitemill writes for a user's sitemap)


@pytest.mark.parametrize(
    ("text", "urls", "written", "expected", "recorded"),
    [
        (  # a line sitemill wrote for a sitemap it no longer names goes
            f"User-agent: *\nSitemap: {NEW[0]}\n{OURS}\n",
            NEW,
            [USER],
            f"User-agent: *\nSitemap: {NEW[0]}\n",
            [],
        ),
        (  # one the user wrote (no record) stays, even naming one sitemill names
            f"Sitemap: {USER}\nUser-agent: *\n",
            [*NEW, USER],
            [],
            f"Sitemap: {USER}\nUser-agent: *\nSitemap: {NEW[0]}\n",
            [],
        ),
        (  # one sitemill wrote is rewritten with its own, and recorded again
            f"User-agent: *\n{OURS}\nSitemap: {NEW[0]}\n",
            [*NEW, USER],
            [USER],
            f"User-agent: *\nSitemap: {NEW[0]}\n{OURS}\n",
            [USER],
        ),
        (  # a state that names the user's own line (tampered) removes nothing of the user's
            f"User-agent: *\nSitemap: {USER}\nSitemap: {NEW[0]}\n",
            NEW,
            [USER],
            f"User-agent: *\nSitemap: {USER}\nSitemap: {NEW[0]}\n",
            [],
        ),
    ],
)
def test_only_the_lines_sitemill_wrote_are_replaced(
    text: str, urls: list[str], written: list[str], expected: str, recorded: list[str]
) -> None:
    assert replace_sitemap_lines(text, urls, is_own, written) == expected
    assert written_lines(text, urls, is_own, written) == recorded
    again = written_lines(expected, urls, is_own, recorded)
    assert replace_sitemap_lines(expected, urls, is_own, recorded) == expected
    assert again == recorded  # (a second run: the same text, the same record)


FOREIGN_LINES = [
    "User-agent: *",
    "Disallow: /private/",
    "Allow: /",
    "# Sitemap: https://example.com/sitemap.xml",
    "Sitemap: https://cdn.example.net/sitemap.xml",
    "Sitemap: https://example.com/feeds/news.xml",
    "",
    "  ",
]
OWN_LINES = [
    "Sitemap: https://example.com/sitemap.xml",
    "sitemap:https://example.com/sitemap-3.xml.gz",
    "  Site-Map :  https://example.com/sitemap-index-2.xml  # old",
]
SAFE_TEXT = st.text(st.characters(blacklist_characters="\r\n"), max_size=30).filter(
    lambda line: re.match(r"\s*site-?map", line, re.IGNORECASE) is None
)
LABELLED_LINE = st.one_of(
    st.sampled_from(FOREIGN_LINES).map(lambda line: (line, False)),
    st.sampled_from(OWN_LINES).map(lambda line: (line, True)),
    SAFE_TEXT.map(lambda line: (line, False)),
)


def lines_of(text: str) -> list[str]:
    """Lines with their endings; joined they give ``text`` back."""
    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+", text)


@st.composite
def robots_files(draw: st.DrawFn) -> tuple[list[str], list[bool], str]:
    """A robots.txt as lines with their endings, which of them are ours, and its line ending."""
    labelled = draw(st.lists(LABELLED_LINE, max_size=12))
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    final = draw(st.booleans())
    lines, own = [], []
    for index, (line, is_ours) in enumerate(labelled):
        ending = newline if final or index < len(labelled) - 1 else ""
        if line + ending:
            lines.append(line + ending)
            own.append(is_ours)
    return lines, own, newline


@given(robots_files(), st.lists(st.sampled_from([*NEW, OWN + "sitemap-2.xml"]), max_size=3))
def test_replace_sitemap_lines_keeps_every_foreign_line(
    file: tuple[list[str], list[bool], str], urls: list[str]
) -> None:
    lines, own, newline = file
    text = "".join(lines)
    assert lines_of(text) == lines
    result = replace_sitemap_lines(text, urls, is_own)

    ours = [f"Sitemap: {url}" for url in dict.fromkeys(urls)]
    result_lines = lines_of(result)
    assert [line.rstrip("\r\n") for line in result_lines if line.rstrip("\r\n") in ours] == ours
    kept = [line for line in result_lines if line.rstrip("\r\n") not in ours]
    foreign = [line for line, is_ours in zip(lines, own, strict=True) if not is_ours]
    if not re.search(r"[\r\n]", text):
        newline = "\n"  # a file without line ends gets the usual one
    if kept and foreign and kept[-1] == foreign[-1] + newline and not any(own) and ours:
        kept[-1] = foreign[-1]  # appending to a file without a final line end adds one
    assert kept == foreign  # every foreign line, byte for byte, in order
    assert replace_sitemap_lines(result, urls, is_own) == result


def test_sitemap_urls_reads_every_spelling_google_takes() -> None:
    from sitemill.robots.lines import sitemap_urls

    text = "\ufeffUser-agent: *\r\nSitemap: https://a.example/s.xml # ours\nsite-map https://a.example/t.xml\nSITEMAP:\n"
    assert sitemap_urls(text) == ["https://a.example/s.xml", "https://a.example/t.xml"]
