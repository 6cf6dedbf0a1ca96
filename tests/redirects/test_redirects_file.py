"""A `_redirects` file read as Netlify and Cloudflare Pages read it, bounded, and sitemill's
own `_redirects` lines read back to the redirects they were written from."""

from __future__ import annotations

import pytest

from sitemill.redirects import Redirect, RedirectForm, parse_redirects_file, render_redirects
from sitemill.redirects.netlifyfile import (
    CLOUDFLARE_DYNAMIC_RULES,
    MAX_DYNAMIC_RULES,
    MAX_FILE_BYTES,
    compile_from,
)

FILE = b"""\xef\xbb\xbf# a comment
  # an indented comment

/old            /new
/news/*         /blog/:splat        302
/a/:year/:slug  /b/:slug?y=:year
/store id=:id   /blog/:id           301
/fr/*           /fr/404.html        404
/spa/*          /index.html         200!
/geo            /us/                302  Country=us
https://old.example.com/*  https://new.example.com/:splat  301!
/caf\xc3\xa9           /coffee/
/dup            /first
/dup            /second
/x/*/y/*        /z
/trailing       /t   # a trailing comment
only-one-word
"""


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/old", ("/new", 301)),
        ("/old/", ("/new", 301)),  # Netlify matches with and without the trailing slash
        ("/news", ("/blog/", 302)),
        ("/news/a/b.html", ("/blog/a/b.html", 302)),
        ("/a/2020/hi", ("/b/hi?y=2020", 301)),
        ("/a/2020/hi/more", None),  # a placeholder is one segment
        ("/store", None),  # a rule on the query string: no plain path matches it
        ("/fr/x/", ("/fr/404.html", 404)),
        ("/spa/route", ("/index.html", 200)),  # a rewrite: the URL is served
        ("/geo", None),  # a rule for some countries only
        ("/caf%C3%A9", ("/coffee/", 301)),
        ("/caf%c3%a9/", ("/coffee/", 301)),
        ("/dup", ("/first", 301)),  # the first rule that matches wins
        ("/trailing", ("/t", 301)),
        ("/x/1/y/2", None),  # two splats: not a rule Cloudflare or sitemill reads
        ("/elsewhere", None),
    ],
)
def test_what_a_path_is_sent_to(path: str, expected: tuple[str, int] | None) -> None:
    assert parse_redirects_file(FILE).target_of(path) == expected


def test_rules_left_out_are_counted() -> None:
    rules = parse_redirects_file(FILE)
    assert (rules.ignored, rules.invalid, rules.truncated) == (3, 2, 0)
    assert (
        rules.redirects("/old") and not rules.redirects("/spa/x") and not rules.redirects("/fr/x")
    )


def test_an_earlier_splat_wins_over_a_later_exact_rule() -> None:
    rules = parse_redirects_file(b"/docs/* /v2/docs/:splat 301\n/docs/a /elsewhere 301\n")
    assert rules.target_of("/docs/a") == ("/v2/docs/a", 301)
    later = parse_redirects_file(b"/docs/a /elsewhere 301\n/docs/* /v2/docs/:splat 301\n")
    assert later.target_of("/docs/a") == ("/elsewhere", 301)


def test_the_file_is_read_to_its_bounds_and_the_rest_is_counted() -> None:
    line = b"/p /q 301\n"
    big = line * (MAX_FILE_BYTES // len(line) + 5)
    assert parse_redirects_file(big).truncated >= 5
    dynamic = b"".join(b"/d%d/* /e 301\n" % i for i in range(MAX_DYNAMIC_RULES + 3))
    assert parse_redirects_file(dynamic).truncated == 3
    cloudflare = parse_redirects_file(dynamic, cloudflare=True)
    assert cloudflare.truncated == MAX_DYNAMIC_RULES + 3 - CLOUDFLARE_DYNAMIC_RULES
    assert cloudflare.target_of("/d99/x") == ("/e", 301)
    assert cloudflare.target_of("/d100/x") is None


def test_no_user_text_is_a_regular_expression_and_matching_stays_linear() -> None:
    pattern = compile_from("/a.b/(x+)+/:name/[c]*")
    assert pattern is not None
    assert pattern.fullmatch("/a.b/(x+)+/n/[c]tail")
    assert not pattern.fullmatch("/aXb/(x+)+/n/[c]tail")
    rules = parse_redirects_file(b"/(a+)+$ /x\n/:a/:b/:c/* /y\n")
    assert rules.target_of("/(a+)+$") == ("/x", 301)
    long_path = "/" + "a" * 2_000 + "/b/c/" + "d/" * 10
    assert rules.target_of(long_path) == ("/y", 301)


HOSTILE = [
    Redirect("/docs/a b.html", "/docs/new/a b/"),
    Redirect('/docs/it\'s "quoted".html', "/docs/new/q/"),
    Redirect("/docs/hash#tag.html", "/docs/new/h/"),
    Redirect("/docs/100%25.html", "/docs/new/pct/"),
    Redirect("/docs/lone%zz.html", "/docs/new/lone/"),
    Redirect("/docs/caf%C3%A9.html", "/docs/new/caf%C3%A9/"),
    Redirect("/docs/日本.html", "/docs/new/ja/"),
    Redirect("/docs/line%0Abreak\r\n/x /evil 200", "/docs/new/nl/"),
    Redirect("/docs/tab\there.html", "https://other.example/a b/"),
    Redirect("/docs/#comment", "/docs/new/c/"),
]


def test_own_lines_read_back_to_every_redirect_even_with_hostile_names() -> None:
    text = render_redirects(HOSTILE, RedirectForm.NETLIFY)
    rules = parse_redirects_file(text.encode())
    assert len(rules) == len(HOSTILE)
    assert (rules.ignored, rules.invalid, rules.truncated) == (0, 0, 0)
    assert len(text.splitlines()) == len(HOSTILE) + text.count("\n# ") + 1
    for redirect in HOSTILE:
        found = rules.target_of(redirect.source)
        assert found is not None, redirect
        assert found[1] == 301
    assert rules.target_of("/x") is None  # the line break did not start a rule of its own
    assert rules.target_of("/docs/caf%C3%A9.html") == ("/docs/new/caf%C3%A9/", 301)
    assert rules.target_of("/docs/tab%09here.html") == ("https://other.example/a%20b/", 301)


def test_a_catch_all_rule_is_told_from_one_that_keeps_the_path() -> None:
    rules = parse_redirects_file(b"/docs/v1/* /docs/v2/:splat 301\n/old/* /new/ 301\n/a /b\n")
    assert rules.redirects("/old/page.html") and rules.many_to_one("/old/page.html")
    assert not rules.many_to_one("/docs/v1/x.html")
    assert not rules.many_to_one("/a") and not rules.many_to_one("/nowhere")


def test_cloudflare_answers_302_by_default() -> None:
    assert parse_redirects_file(b"/a /b\n/c /d 301\n", cloudflare=True).target_of("/a") == (
        "/b",
        302,
    )
    assert parse_redirects_file(b"/a /b\n", cloudflare=True).target_of("/c") is None
    assert parse_redirects_file(b"/a /b\n").target_of("/a") == ("/b", 301)
