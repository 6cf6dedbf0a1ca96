"""A canonical naming a redirect stub names the stub's target (docs/pages.md, "Canonicals that
name a redirect stub"): the gate's order of events, chains, loops and stubs that lead
off the site or back to the page itself; then whole trees shaped like a multi-version docs site."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import BASE_URL, SiteMaker, page
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.entries import Entry, SkipReason
from sitemill.listing import _gate as gate_module
from sitemill.listing._gate import CanonicalGate
from sitemill.report import Report
from sitemill.sinks import MemorySink

Step = tuple[str, ...]


def run(steps: list[Step]) -> tuple[list[str], list[str]]:
    """("offer", key, target or ""), ("stub", key, target or "") and ("drop", key): the
    listed keys in order and the keys left out by their canonical."""
    gate = CanonicalGate()
    out: list[str] = []
    for step in steps:
        if step[0] == "drop":
            gate.drop(step[1])
        elif step[0] == "stub":
            gate.redirect(step[1], step[2] or None)
        else:
            out.extend(
                entry.loc for entry in gate.offer(Entry(step[1]), step[1], step[1], step[2] or None)
            )
    out.extend(entry.loc for entry in gate.finish())
    return out, [path for path, _ in gate.skipped]


def every_order(steps: list[Step]) -> list[list[Step]]:
    return [list(order) for order in itertools.permutations(steps)]


# A multi-version docs site: the old copy names /x, a stub to /stable/x, which is listed.
VERSIONS = [("offer", "old/x", "x"), ("stub", "x", "stable/x"), ("offer", "stable/x", "")]


@pytest.mark.parametrize("steps", every_order(VERSIONS))
def test_a_canonical_through_a_stub_names_its_target(steps: list[Step]) -> None:
    assert run(steps) == (["stable/x"], ["old/x"])


CHAIN = [
    ("offer", "old/x", "x"),
    ("stub", "x", "y"),
    ("stub", "y", "stable/x"),
    ("offer", "stable/x", ""),
]


@pytest.mark.parametrize("steps", every_order(CHAIN))
def test_a_chain_of_stubs_is_followed(steps: list[Step]) -> None:
    assert run(steps) == (["stable/x"], ["old/x"])


LOOP = [("offer", "old/x", "x"), ("stub", "x", "y"), ("stub", "y", "x"), ("offer", "z", "")]


@pytest.mark.parametrize("steps", every_order(LOOP))
def test_a_loop_of_stubs_leads_nowhere(steps: list[Step]) -> None:
    out, skipped = run(steps)
    assert sorted(out) == ["old/x", "z"] and skipped == []


@pytest.mark.parametrize(
    "steps",
    every_order([("offer", "old/x", "x"), ("stub", "x", ""), ("offer", "stable/x", "")]),
)
def test_a_stub_off_the_site_leads_nowhere(steps: list[Step]) -> None:
    out, skipped = run(steps)
    assert sorted(out) == ["old/x", "stable/x"] and skipped == []


@pytest.mark.parametrize(
    "steps",
    every_order([("offer", "old/x", "x"), ("stub", "x", "gone"), ("offer", "stable/x", "")]),
)
def test_a_stub_to_a_page_that_is_not_listed_leads_nowhere(steps: list[Step]) -> None:
    out, skipped = run(steps)
    assert sorted(out) == ["old/x", "stable/x"] and skipped == []


# The current page names /x too: the stub leads back to it, it is its own canonical.
CURRENT = [("offer", "stable/x", "x"), ("stub", "x", "stable/x"), ("offer", "old/x", "x")]


@pytest.mark.parametrize("steps", every_order(CURRENT))
def test_a_stub_back_to_the_page_itself_keeps_it(steps: list[Step]) -> None:
    assert run(steps) == (["stable/x"], ["old/x"])


def test_a_chain_longer_than_the_bound_leads_nowhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gate_module, "MAX_STUB_HOPS", 3)
    short = [("stub", f"s{i}", f"s{i + 1}") for i in range(3)] + [("stub", "s3", "t")]
    assert run([("offer", "a", "s0"), *short, ("offer", "t", "")]) == (["t"], ["a"])
    long = [("stub", f"s{i}", f"s{i + 1}") for i in range(4)] + [("stub", "s4", "t")]
    out, skipped = run([*long, ("offer", "a", "s0"), ("offer", "t", "")])
    assert out == ["a", "t"] and skipped == []


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["offer", "stub", "drop"]), st.none() | st.integers(0, 9)),
        max_size=10,
    ),
    st.randoms(use_true_random=False),
)
def test_stubs_decide_as_their_resolved_targets_would(
    pages: list[tuple[str, int | None]], random: object
) -> None:
    # Page i is offered naming page j, a stub to page j, or left out. The gate must decide as
    # if every canonical named where its stubs lead (a loop, off the site: nowhere) and each
    # stub were a page left out, in any order of events.
    steps: list[Step] = [
        (kind, f"k{i}") if kind == "drop" else (kind, f"k{i}", "" if to is None else f"k{to}")
        for i, (kind, to) in enumerate(pages)
    ]
    stubs = {step[1]: step[2] for step in steps if step[0] == "stub"}

    def resolved(target: str, own: str) -> str:
        seen = set()
        while target in stubs and target not in seen:
            seen.add(target)
            target = stubs[target]
        if target in stubs or target == "":
            return "nowhere"
        return "" if target == own else target

    expected_steps: list[Step] = [
        ("drop", step[1])
        if step[0] != "offer"
        else ("offer", step[1], resolved(step[2], step[1]) if step[2] else "")
        for step in steps
    ]
    shuffled = list(steps)
    random.shuffle(shuffled)  # type: ignore[attr-defined]
    order = [step[1] for step in shuffled]
    expected_steps.sort(key=lambda step: order.index(step[1]))
    out, skipped = run(shuffled)
    want_out, want_skipped = run(expected_steps)
    assert out == want_out
    assert sorted(skipped) == sorted(want_skipped)


# --- trees ----------------------------------------------------------------------------------


def stub(url: str, *, noscript: bool = False) -> str:
    meta = f'<meta http-equiv="refresh" content="0; url={url}">'
    if noscript:
        meta = f"<noscript>{meta}</noscript><script>window.location.replace('{url}')</script>"
    return f"<!DOCTYPE html><html><head>{meta}</head><body><a href='{url}'>moved</a></body></html>"


def canonical(href: str) -> str:
    return f'<link rel="canonical" href="{href}">'


def build(site: Path, **values: object) -> tuple[list[str], Report]:
    config = load_config({"base_url": BASE_URL, "lastmod": "mtime", **values})
    sink = MemorySink()
    report = build_from_tree(config, site, sink)
    text = sink.files["sitemap.xml"].decode()
    return [part.split("</loc>")[0] for part in text.split("<loc>")[1:]], report


def test_a_multi_version_sphinx_tree_lists_the_current_pages(make_site: SiteMaker) -> None:
    # Sphinx's html_baseurl names /x.html on every version; /x.html is a stub to the current.
    site = make_site(
        {
            "index.html": stub("stable/index.html"),
            "x.html": stub("stable/x.html"),
            "y.html": stub("https://example.com/stable/y.html"),
            "old/index.html": page("home 1.0", canonical(f"{BASE_URL}index.html")),
            "old/x.html": page("x 1.0", canonical(f"{BASE_URL}x.html")),
            "old/y.html": page("y 1.0", canonical(f"{BASE_URL}y.html")),
            "old/only.html": page("only in 1.0", canonical(f"{BASE_URL}only.html")),
            "stable/index.html": page("home", canonical(f"{BASE_URL}index.html")),
            "stable/x.html": page("x", canonical(f"{BASE_URL}x.html")),
            "stable/y.html": page("y", canonical(f"{BASE_URL}y.html")),
        }
    )
    listed, report = build(site)
    assert listed == [
        f"{BASE_URL}old/only.html",  # its canonical names no page: kept, and counted
        f"{BASE_URL}stable/",
        f"{BASE_URL}stable/x.html",
        f"{BASE_URL}stable/y.html",
    ]
    assert report.skipped[SkipReason.CANONICAL] == 3
    assert report.skipped[SkipReason.REDIRECT] == 3
    unlisted = [w for w in report.warnings if "canonical URL that this sitemap does not" in w]
    assert len(unlisted) == 1 and unlisted[0].startswith("1 listed page(s)")


def test_stubs_off_the_site_looping_or_too_long_keep_the_copy(make_site: SiteMaker) -> None:
    site = make_site(
        {
            "a.html": stub("https://other.example/a.html"),
            "b.html": stub("c.html"),
            "c.html": stub("b.html"),
            "old/a.html": page("a 1.0", canonical("/a.html")),
            "old/b.html": page("b 1.0", canonical("/b.html")),
            "stable/a.html": page("a"),
        }
    )
    listed, report = build(site)
    assert listed == [f"{BASE_URL}{p}" for p in ("old/a.html", "old/b.html", "stable/a.html")]
    assert report.skipped[SkipReason.CANONICAL] == 0


def test_a_chain_of_stubs_in_a_tree(make_site: SiteMaker) -> None:
    site = make_site(
        {
            "x.html": stub("moved/x.html"),
            "moved/x.html": stub("../stable/x/"),
            "old/x.html": page("x 1.0", canonical("/x.html")),
            "stable/x/index.html": page("x", canonical("/x.html")),
        }
    )
    listed, report = build(site)
    assert listed == [f"{BASE_URL}stable/x/"]
    assert report.skipped[SkipReason.CANONICAL] == 1


def test_a_mike_root_in_noscript_is_a_stub_and_the_versions_follow_it(
    make_site: SiteMaker,
) -> None:
    # mike (Material for MkDocs): the root redirects to latest/ inside <noscript> and by script.
    site = make_site(
        {
            "index.html": stub("latest/", noscript=True),
            "latest/index.html": page("home", canonical(BASE_URL)),
            "1.0/index.html": page("home 1.0", canonical(BASE_URL)),
        }
    )
    listed, report = build(site)
    assert listed == [f"{BASE_URL}latest/"]
    assert report.skipped[SkipReason.REDIRECT] == 1
    assert report.skipped[SkipReason.CANONICAL] == 1


def test_respect_redirects_false_lists_the_stubs_and_follows_none(make_site: SiteMaker) -> None:
    site = make_site(
        {
            "x.html": stub("stable/x.html"),
            "old/x.html": page("x 1.0", canonical("/x.html")),
            "stable/x.html": page("x"),
        }
    )
    listed, _ = build(site, respect_redirects=False)
    # The stub is a listed page now: the copy names it, and is left out for it.
    assert listed == [f"{BASE_URL}stable/x.html", f"{BASE_URL}x.html"]


# Hugo's alias template: a stub that is noindex too. A crawler follows it all the same.
def hugo_alias(url: str) -> str:
    return (
        f"<!DOCTYPE html><html><head><title>{url}</title>"
        f'<link rel="canonical" href="{url}"><meta name="robots" content="noindex">'
        f'<meta charset="utf-8"><meta http-equiv="refresh" content="0; url={url}"></head></html>'
    )


def test_a_noindex_stub_is_followed_and_counted_as_noindex(make_site: SiteMaker) -> None:
    site = make_site(
        {
            "docs/x/index.html": hugo_alias(f"{BASE_URL}docs/v2/x/"),
            "docs/v1/x/index.html": page("x 1", canonical(f"{BASE_URL}docs/x/")),
            "docs/v2/x/index.html": page("x 2", canonical(f"{BASE_URL}docs/x/")),
        }
    )
    listed, report = build(site)
    assert listed == [f"{BASE_URL}docs/v2/x/"]
    assert report.skipped[SkipReason.NOINDEX] == 1 and report.skipped[SkipReason.CANONICAL] == 1


def test_a_canonical_without_the_slash_names_a_folder_stub(make_site: SiteMaker) -> None:
    # /docs/x names the folder page /docs/x/ (x/index.html), which is a stub.
    site = make_site(
        {
            "docs/x/index.html": stub("../v2/x/"),
            "docs/v1/x/index.html": page("x 1", canonical("/docs/x")),
            "docs/v2/x/index.html": page("x 2", canonical("/docs/x")),
        }
    )
    listed, report = build(site)
    assert listed == [f"{BASE_URL}docs/v2/x/"]
    assert report.skipped[SkipReason.CANONICAL] == 1
