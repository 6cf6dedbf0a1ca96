"""URLs that pages name: resolving, comparing (url_key) and the canonical gate."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import timing
from sitemill.config.model import load_config
from sitemill.entries import Entry, SkipReason
from sitemill.html.facts import PageFacts
from sitemill.html.links import resolve_url, strip_page_suffix, url_key
from sitemill.listing import _gate as gate
from sitemill.listing._gate import CanonicalGate
from sitemill.listing.checks import PageChecks
from sitemill.report import Tally
from sitemill.urls import UrlStyle, page_url

# --- url_key ---------------------------------------------------------------------------------

SAME = [
    ("https://example.com/a/", "HTTPS://EXAMPLE.COM/a/"),
    ("https://example.com/a/", "https://Example.Com/a/"),
    ("https://example.com/", "https://example.com"),
    ("https://example.com/", "https://example.com:443/"),
    ("http://example.com/", "http://example.com:80/"),
    ("https://example.com/", "https://example.com:/"),
    ("https://xn--bcher-kva.example/x", "https://bücher.example/x"),
    ("https://xn--bcher-kva.example/x", "https://BÜCHER.example/x"),
    ("https://example.com/~user/", "https://example.com/%7euser/"),
    ("https://example.com/~user/", "https://example.com/%7Euser/"),
    ("https://example.com/%E2%82%AC", "https://example.com/%e2%82%ac"),
    ("https://example.com/%E2%82%AC", "https://example.com/€"),
    ("https://example.com/a%20b", "https://example.com/a b"),
    ("https://example.com/a/", "https://example.com/a/index.html"),
    ("https://example.com/a/", "https://example.com/a/index.htm"),
    ("https://example.com/", "https://example.com/index.html"),
    ("https://example.com/a/b", "https://example.com/a/b.html"),
    ("https://example.com/a/b", "https://example.com/a/b.htm"),
    ("https://example.com/a/", "https://example.com/a/#top"),
    ("https://example.com/a/", "https://example.com/a/index.html#x"),
    ("https://example.com/a/?q=1", "https://example.com/a/?q=1#x"),
    ("https://example.com/a/?q=~", "https://example.com/a/?q=%7E"),
    ("https://example.com/a", "https://example.com/a?"),
    ("https://example.com/a/c", "https://example.com/a/b/../c"),
    ("https://example.com/a/c", "https://example.com/a/./c"),
    ("https://example.com/a/", "https://example.com/a/b/.."),
    ("https://example.com/a/", "https://example.com/a/."),
    ("https://example.com/", "https://example.com/../.."),
    ("https://example.com/a/c", "https://example.com/a/b/%2e%2e/c"),
    ("https://example.com/a/", "https://user:pw@example.com/a/"),
    ("https://[::1]/", "https://[::1]:443/"),
    # A path's delimiters, raw or escaped: one file on every static host (urls.path_key).
    ("https://example.com/a(b)!/", "https://example.com/a%28b%29%21/"),
    ("https://example.com/c++/", "https://example.com/c%2b%2B/"),
    (
        "https://example.com/a:b@c;d=e,f&g$h'i*",
        "https://example.com/a%3Ab%40c%3Bd%3De%2Cf%26g%24h%27i%2A",
    ),
]
DIFFERENT = [
    ("https://example.com/a/", "http://example.com/a/"),
    ("https://example.com/a/", "https://www.example.com/a/"),
    ("https://example.com/", "https://example.com:8443/"),
    ("https://example.com/a/", "https://example.com/a"),
    ("https://example.com/a/", "https://example.com/A/"),
    ("https://example.com/a", "https://example.com/a?q=1"),
    ("https://example.com/a?q=1", "https://example.com/a?q=2"),
    ("https://example.com/a%2Fb", "https://example.com/a/b"),  # an escaped "/" is data
    ("https://example.com/a.html/", "https://example.com/a/"),
    ("https://example.com/a.pdf", "https://example.com/a"),
    ("https://example.com/.html", "https://example.com/"),  # a file named ".html"
    ("https://example.com/a/.htm", "https://example.com/a/"),
    ("https://example.com/a/..b", "https://example.com/"),  # not a dot segment
    ("https://example.com/a%2528", "https://example.com/a("),  # "%25" is a "%" of the name
    ("https://example.com/a?b=%26", "https://example.com/a?b=&"),  # a query keeps its escapes
]


@pytest.mark.parametrize(("one", "other"), SAME)
def test_url_key_equal(one: str, other: str) -> None:
    assert url_key(one) == url_key(other) == url_key(url_key(other))


@pytest.mark.parametrize(("one", "other"), DIFFERENT)
def test_url_key_different(one: str, other: str) -> None:
    assert url_key(one) != url_key(other)


@pytest.mark.parametrize(
    "url",
    [
        "http://[::1",
        "http://[::1]:x/",
        "https://example.com:99999999/",
        "https://example.com:abc/",
        "https://a..b/",
        "https://" + "x" * 64 + ".example/",  # a label longer than DNS allows
        "",
        "/relative",
        "garbage",
        "https://",
        "https:///path",
        "https://exa mple.com/",
        "https://example.com/\udcff",
        "https://example.com/\x00",
    ],
)
def test_url_key_never_raises(url: str) -> None:
    assert isinstance(url_key(url), str)


def test_an_unparsable_url_is_its_own_key() -> None:
    assert url_key("http://[::1") == "http://[::1"
    assert url_key("http://[::1") != url_key("http://[::1]/")


@pytest.mark.parametrize(
    ("path", "stripped"),
    [
        ("/a/index.html", "/a/"),
        ("/a/index.htm", "/a/"),
        ("/index.html", "/"),
        ("/a/b.html", "/a/b"),
        ("/a/b.htm", "/a/b"),
        ("/a/.html", "/a/.html"),
        ("/a/.htm", "/a/.htm"),
        ("/a/b.HTML", "/a/b.HTML"),
        ("/a/b.pdf", "/a/b.pdf"),
        ("/a/", "/a/"),
        ("/a/myindex.html", "/a/myindex"),
    ],
)
def test_strip_page_suffix(path: str, stripped: str) -> None:
    assert strip_page_suffix(path) == stripped


# --- resolve_url -----------------------------------------------------------------------------

PAGE = "https://example.com/docs/a/page.html"


@pytest.mark.parametrize(
    ("href", "base", "resolved"),
    [
        ("b.html", None, "https://example.com/docs/a/b.html"),
        ("./", None, "https://example.com/docs/a/"),
        ("../x/", None, "https://example.com/docs/x/"),
        ("../../../../x", None, "https://example.com/x"),
        ("/x", None, "https://example.com/x"),
        ("//other.example/x", None, "https://other.example/x"),
        ("http://example.com/x", None, "http://example.com/x"),
        ("HTTPS://Example.com/x", None, "https://Example.com/x"),
        ("", None, PAGE),
        ("#top", None, PAGE + "#top"),
        ("?q=1", None, "https://example.com/docs/a/page.html?q=1"),
        (" \n/x\t/y \n", None, "https://example.com/x/y"),  # the URL parser drops tab and LF
        ("/x\r\n/y", None, "https://example.com/x/y"),
        ("\f/x ", None, "https://example.com/x"),
        ("x", "/base/", "https://example.com/base/x"),
        ("x", "sub/", "https://example.com/docs/a/sub/x"),
        ("x", "https://cdn.example.org/b/", "https://cdn.example.org/b/x"),
        ("x", "//cdn.example.org/b/", "https://cdn.example.org/b/x"),
        ("/x", "https://cdn.example.org/b/", "https://cdn.example.org/x"),
        ("https://example.com/y", "/base/", "https://example.com/y"),
        ("x", "/ba\nse/", "https://example.com/base/x"),
        ("x", "", "https://example.com/docs/a/x"),  # an empty base href: the page's URL
        ("javascript:alert(1)", None, None),
        ("JavaScript:alert(1)", None, None),
        ("mailto:someone@example.com", None, None),
        ("data:text/html,x", None, None),
        ("ftp://example.com/x", None, None),
        ("tel:+1", None, None),
        ("http://[::1", None, None),
        ("x", "http://[::1", None),
        ("x", "javascript:void(0)/", None),
    ],
)
def test_resolve_url(href: str, base: str | None, resolved: str | None) -> None:
    assert resolve_url(href, PAGE, base) == resolved


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60), st.none() | st.text(max_size=30))
def test_resolve_url_never_raises(href: str, base: str | None) -> None:
    resolved = resolve_url(href, PAGE, base)
    if resolved is not None:
        assert isinstance(url_key(resolved), str)


# --- own_key is url_key of a page's own URL --------------------------------------------------

BASES = [
    "https://example.com/",
    "https://example.com:443/",
    "http://example.com:8080/",
    "https://bücher.example/",
    "https://owner.github.io/project/",
    "https://example.com/a%7eb/c%2fd/",
    "https://EXAMPLE.com/Docs/",
]
_SEGMENT_CHARS = st.characters(
    blacklist_characters="/\x00", blacklist_categories=("Cs",)
) | st.sampled_from(
    ["\udcff", "\udc80", "%", "#", "?", "~", ".", " ", "(", ")", "!", "+", ":", "@", "&", "="]
)
_SEGMENT = st.text(_SEGMENT_CHARS, min_size=1, max_size=8).filter(lambda s: s not in {".", ".."})
_NAME = _SEGMENT | st.sampled_from(
    ["index.html", "index.htm", ".html", ".htm", "a.html", "a.htm", "a.HTML", "a.pdf", "..html"]
)
_PATH = st.builds(lambda dirs, name: "/".join([*dirs, name]), st.lists(_SEGMENT, max_size=3), _NAME)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(BASES), _PATH, st.sampled_from(list(UrlStyle)))
def test_own_key_is_url_key_of_the_page_url(base: str, path: str, style: UrlStyle) -> None:
    config = load_config({"base_url": base, "url_style": style.value})
    checks = PageChecks(config, Tally(Counter(), []))
    loc = page_url(config.base_url, path, style)
    assert checks.own_key(loc) == url_key(loc)
    assert checks.own_key(loc).startswith(checks.site_key)


# --- the gate --------------------------------------------------------------------------------


def run_gate(
    steps: list[tuple[str, ...]],
) -> tuple[list[str], list[tuple[str, str]], CanonicalGate]:
    """Steps: ("offer", key, target or "") and ("drop", key); entries' locs are their keys."""
    gate = CanonicalGate()
    out: list[str] = []
    skipped: list[tuple[str, str]] = []
    for step in steps:
        if step[0] == "drop":
            gate.drop(step[1])
        else:
            key, target = step[1], step[2] or None
            out.extend(entry.loc for entry in gate.offer(Entry(key), key, key, target))
        skipped.extend(gate.skipped)
        gate.skipped.clear()
    out.extend(entry.loc for entry in gate.finish())
    skipped.extend(gate.skipped)
    return out, skipped, gate


@pytest.mark.parametrize(
    ("steps", "listed", "skipped"),
    [
        pytest.param([("offer", "b", ""), ("offer", "a", "b")], ["b"], ["a"], id="target first"),
        pytest.param([("offer", "a", "b"), ("offer", "b", "")], ["b"], ["a"], id="target after"),
        pytest.param(
            [("offer", "a", "b"), ("offer", "b", "c"), ("offer", "c", "")],
            ["a", "c"],
            ["b"],
            id="chain a>b>c",
        ),
        pytest.param(
            [("offer", "c", ""), ("offer", "b", "c"), ("offer", "a", "b")],
            ["c", "a"],
            ["b"],
            id="chain, targets first",
        ),
        pytest.param(
            [("offer", "a", "b"), ("offer", "b", "nowhere")],
            ["b"],
            ["a"],
            id="chain to nowhere",
        ),
        pytest.param(
            [("offer", "a", "b"), ("offer", "b", "c"), ("offer", "c", "nowhere")],
            ["a", "c"],
            ["b"],
            id="longer chain to nowhere",
        ),
        pytest.param(
            [("offer", "x", "a"), ("offer", "a", "b"), ("offer", "b", "a")],
            ["a"],
            ["x", "b"],
            id="into a loop",
        ),
        pytest.param(
            [("offer", "a", "b"), ("offer", "b", "a")], ["a"], ["b"], id="loop: the first listed"
        ),
        pytest.param(
            [("offer", "a", "b"), ("offer", "b", "c"), ("offer", "c", "a")],
            ["a", "b"],  # c names a, which is listed; b names c, which is not
            ["c"],
            id="loop of three",
        ),
        pytest.param([("drop", "b"), ("offer", "a", "b")], ["a"], [], id="target dropped first"),
        pytest.param([("offer", "a", "b"), ("drop", "b")], ["a"], [], id="target dropped after"),
        pytest.param([("offer", "a", "nowhere")], ["a"], [], id="target never appears"),
        pytest.param(
            [("offer", "a", "t"), ("offer", "x", ""), ("offer", "b", "t"), ("offer", "t", "")],
            ["x", "t"],
            ["a", "b"],
            id="two wait on one",
        ),
        pytest.param(
            [("offer", "a", "b"), ("offer", "b", "c"), ("drop", "c")],
            ["b"],
            ["a"],
            id="chain to a dropped page",
        ),
    ],
)
def test_gate(steps: list[tuple[str, ...]], listed: list[str], skipped: list[str]) -> None:
    out, skips, _ = run_gate(steps)
    assert out == listed
    assert [path for path, _ in skips] == skipped


def test_order_is_kept_while_pages_wait() -> None:
    steps: list[tuple[str, ...]] = []
    for index in range(50):
        steps.append(("offer", f"p{index}", f"t{index % 7}" if index % 3 == 0 else ""))
    steps.extend(("offer", f"t{n}", "") for n in (1, 3, 5))
    out, skipped, _ = run_gate(steps)
    expected = [f"p{i}" for i in range(50) if i % 3 or f"t{i % 7}" not in {"t1", "t3", "t5"}] + [
        "t1",
        "t3",
        "t5",
    ]
    assert out == expected
    assert {path for path, _ in skipped} == {f"p{i}" for i in range(0, 50, 3) if i % 7 in (1, 3, 5)}


def test_entries_come_out_as_soon_as_they_are_decided() -> None:
    gate = CanonicalGate()
    assert list(gate.offer(Entry("a"), "a", "a", "t")) == []  # waits
    assert list(gate.offer(Entry("b"), "b", "b", None)) == []  # behind a
    assert [e.loc for e in gate.offer(Entry("t"), "t", "t", None)] == ["b", "t"]
    assert list(gate.finish()) == []


def test_two_waiting_pages_with_one_key_are_both_given_back() -> None:
    # url_style = file lists a/index.html and a/index.htm: two URLs, one key.
    gate = CanonicalGate()
    out = [*gate.offer(Entry("1"), "a/index.html", "k", "t1")]
    out += gate.offer(Entry("2"), "a/index.htm", "k", "t2")
    out += gate.offer(Entry("3"), "z.html", "z", None)
    out += gate.finish()
    assert [entry.loc for entry in out] == ["1", "2", "3"]


def test_the_counts_name_an_example() -> None:
    _, _, gate = run_gate([("offer", "a", "gone"), ("offer", "b", "gone")])
    assert gate.counts.unlisted == 2
    assert gate.counts.examples == {"unlisted": "a names gone"}


def wait_on_one_target(count: int) -> tuple[list[Entry], CanonicalGate]:
    gate = CanonicalGate()
    out = []
    for index in range(count):
        out += gate.offer(Entry(f"p{index}"), f"p{index}", f"p{index}", "target")
    out += gate.offer(Entry("target"), "target", "target", None)
    out += gate.finish()
    return out, gate


def test_many_pages_waiting_on_one_target_take_linear_time() -> None:
    out, gate = wait_on_one_target(10_000)
    assert [entry.loc for entry in out] == ["target"]
    assert len(gate.skipped) == 10_000
    # Eight times the pages take about eight times as long, 64 times if quadratic.
    assert timing.linear(wait_on_one_target, 2_500, 20_000, 20)


def wait_on_nothing(count: int) -> list[Entry]:
    gate = CanonicalGate()
    out = []
    for index in range(count):
        out += gate.offer(Entry(f"p{index}"), f"p{index}", f"p{index}", f"missing{index}")
    out += gate.finish()
    return out


def test_many_pages_waiting_on_nothing_take_linear_time() -> None:
    # Each names a URL that never appears: all are decided at the end, in linear time.
    assert len(wait_on_nothing(40_000)) == 40_000
    assert timing.linear(wait_on_nothing, 2_500, 20_000, 20)


def _capped_run(count: int) -> tuple[list[str], list[tuple[str, str]], int, int]:
    gate = CanonicalGate()
    out: list[str] = []
    most_held = most_waiting = 0
    for index in range(count):
        # Every even page names an odd page 31 places on: it waits longer than the cap.
        target = f"p{index + 31}" if index % 2 == 0 else None
        out.extend(e.loc for e in gate.offer(Entry(f"p{index}"), f"p{index}", f"p{index}", target))
        most_held = max(most_held, len(gate._queue))
        most_waiting = max(most_waiting, sum(map(len, gate._waiting.values())))
    out.extend(e.loc for e in gate.finish())
    return out, list(gate.skipped), most_held, most_waiting


def test_max_held_bounds_memory_and_stays_deterministic(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gate, "MAX_HELD", 8)
    first = _capped_run(500)
    out, skipped, most_held, most_waiting = first
    assert most_held <= 9 and most_waiting <= 9
    assert out == sorted(out, key=lambda loc: int(loc[1:]))  # in order
    assert set(out) | {path for path, _ in skipped} >= {f"p{i}" for i in range(500)}
    assert _capped_run(500) == first
    monkeypatch.setattr(gate, "MAX_HELD", 100_000)
    uncapped, uncapped_skipped, _, _ = _capped_run(500)
    # Without the cap, every even page is left out for its listed target (p0 -> p31 ...).
    assert [path for path, _ in uncapped_skipped] == [f"p{i}" for i in range(0, 469, 2)]
    assert len(out) >= len(uncapped)


# --- PageChecks: canonicals resolved against the page and the site --------------------------


def checks_for(base: str = "https://example.com/docs/", **values: object) -> PageChecks:
    return PageChecks(load_config({"base_url": base, **values}), Tally(Counter(), []))


def offer(checks: PageChecks, path: str, canonical_href: str | None) -> list[str]:
    loc = page_url(checks.config.base_url, path, checks.config.url_style)
    facts = PageFacts(canonical=canonical_href)
    return [entry.loc for entry in checks.offer(Entry(loc), path, facts)]


@pytest.mark.parametrize(
    "href",
    [
        "https://example.com/docs/a/",
        "https://EXAMPLE.com:443/docs/a/index.html",
        "/docs/a/",
        "./",
        "../a/",
        "index.html",
        "#main",
        "",
        "  ",
    ],
)
def test_a_self_canonical_is_the_page_itself(href: str) -> None:
    checks = checks_for()
    assert offer(checks, "a/index.html", href) == ["https://example.com/docs/a/"]
    assert checks.gate is not None
    assert checks.gate.counts.off_site == checks.gate.counts.unlisted == 0


@pytest.mark.parametrize(
    "href",
    [
        "https://example.com/docs/C/unicode(a)!/",  # Gatsby writes them raw
        "/docs/C/unicode(a)!/",
        "/docs/C/unicode%28a%29%21/",  # escaped: the same file on every static host
        "https://example.com/docs/C/unicode%28a%29!/index.html",
    ],
)
def test_a_self_canonical_with_delimiters_in_its_path_is_the_page_itself(href: str) -> None:
    checks = checks_for()
    listed = offer(checks, "C/unicode(a)!/index.html", href)
    assert listed == ["https://example.com/docs/C/unicode(a)!/"]
    assert checks.gate is not None
    assert checks.gate.counts.off_site == checks.gate.counts.unlisted == 0


def test_a_copy_naming_an_escaped_spelling_of_a_listed_page_is_left_out() -> None:
    checks = checks_for()
    # "+" is the one delimiter a loc escapes (S3 reads a raw "+" as a space)...
    assert offer(checks, "c++.html", None) == ["https://example.com/docs/c%2B%2B.html"]
    # ...and copies naming it either way are copies of it.
    assert offer(checks, "v1/c++.html", "/docs/c%2B%2B.html") == []
    assert offer(checks, "v2/c++.html", "https://example.com/docs/c++") == []
    assert offer(checks, "v3/a(b).html", "/docs/a%28b%29.html") == []  # waits for a(b)
    assert offer(checks, "a(b).html", "a(b).html") == ["https://example.com/docs/a(b).html"]
    assert list(checks.finish()) == []
    assert checks.tally.counts == {SkipReason.CANONICAL: 3}


@pytest.mark.parametrize(
    "href",
    [
        "https://example.com/docs",  # the site's root without its slash
        "https://example.com/docs/",
        "/docs/index.html",
    ],
)
def test_the_root_named_without_a_slash_is_the_root(href: str) -> None:
    checks = checks_for()
    assert offer(checks, "index.html", href) == ["https://example.com/docs/"]
    assert checks.gate is not None and checks.gate.counts.off_site == 0


@pytest.mark.parametrize(
    "href",
    [
        "https://other.example/docs/a/",
        "http://example.com/docs/a/",
        "https://www.example.com/docs/a/",
        "https://example.com/",  # the host, above the site
        "https://example.com/docsx/",
        "//cdn.example.org/a/",
        "javascript:void(0)",
        "http://[::1",
    ],
)
def test_off_site_canonicals_keep_the_page_and_are_counted(href: str) -> None:
    checks = checks_for()
    assert offer(checks, "a/index.html", href) == ["https://example.com/docs/a/"]
    assert checks.gate is not None and checks.gate.counts.off_site == 1
    (line,) = checks.summary()
    assert line.startswith("1 listed page(s) declare a canonical URL off this site")
    assert f"a/index.html names {href}" in line


def test_respect_canonical_false_has_no_gate() -> None:
    checks = checks_for(respect_canonical=False)
    assert checks.gate is None
    assert offer(checks, "a.html", "https://other.example/") == ["https://example.com/docs/a.html"]
    assert list(checks.finish()) == []
    assert checks.summary() == []


def test_many_pages_naming_one_canonical_give_a_warning() -> None:
    checks = checks_for()
    out = offer(checks, "index.html", None)
    for index in range(12):
        out += offer(checks, f"p{index}.html", "/docs/")
    out += [entry.loc for entry in checks.finish()]
    assert out == ["https://example.com/docs/"]
    assert checks.tally.counts[SkipReason.CANONICAL] == 12
    assert any("12 of 13 pages name another page" in line for line in checks.summary())


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.booleans(), st.none() | st.integers(min_value=0, max_value=12)),
        max_size=12,
    )
)
def test_any_graph_of_canonicals_is_decided_consistently(
    pages: list[tuple[bool, int | None]],
) -> None:
    # Page i is offered (True) or dropped (False); it names page j, or nothing.
    steps: list[tuple[str, ...]] = [
        ("offer", f"k{i}", "" if target is None else f"k{target}") if offered else ("drop", f"k{i}")
        for i, (offered, target) in enumerate(pages)
    ]
    out, skipped, gate = run_gate(steps)
    offered = [step[1] for step in steps if step[0] == "offer"]
    targets = {step[1]: step[2] for step in steps if step[0] == "offer"}
    skipped_keys = [path for path, _ in skipped]
    # Each offered page is listed or skipped, once; the listed ones keep their order.
    assert sorted(out + skipped_keys) == sorted(offered)
    assert out == [key for key in offered if key in set(out)]
    # A page is skipped only for a listed target; a listed page names no listed one, but
    # in a loop of odd length (a -> b -> c -> a) one of them must.
    assert all(targets[key] in out for key in skipped_keys)
    assert not any(targets[key] in out for key in out if not on_a_loop(key, targets))
    assert gate.skipped == skipped[len(skipped) - len(gate.skipped) :]


def on_a_loop(key: str, targets: dict[str, str]) -> bool:
    seen = {key}
    current = targets.get(key, "")
    while current in targets and current not in seen:
        seen.add(current)
        current = targets[current]
    return current == key


@pytest.mark.parametrize("shape", ["chain", "loop"])
def test_long_chains_and_loops_are_decided_in_linear_time(shape: str) -> None:
    count = 20_000
    steps: list[tuple[str, ...]] = [("offer", f"k{i}", f"k{i + 1}") for i in range(count)]
    if shape == "loop":
        steps[-1] = ("offer", f"k{count - 1}", "k0")
    out, skipped, _ = run_gate(steps)
    small = (
        steps[: count // 8]
        if shape == "chain"
        else [*steps[: count // 8 - 1], ("offer", f"k{count // 8 - 1}", "k0")]
    )
    assert timing.linear(run_gate, small, steps, 20)  # 8x the pages: 8x the time, not 64x
    # Alternately listed and left out: every other page names a listed one.
    if shape == "chain":  # the last names nothing listed: listed, the one before it not ...
        assert out == [f"k{i}" for i in range(count - 1, -1, -2)][::-1]
    else:  # the first of the loop is listed, the last names it
        assert out == [f"k{i}" for i in range(0, count, 2)]
    assert len(out) + len(skipped) == count
