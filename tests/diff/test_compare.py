"""The change report of two builds (diff.compare, diff.renames): pure, by URL."""

from __future__ import annotations

import random

from sitemill.diff.compare import compare_builds
from sitemill.diff.model import Verdict, diff_to_json
from sitemill.lastmod.fingerprint.resemblance import sketch_text
from sitemill.lastmod.proof import Proof, Rung
from sitemill.state.model import PageRecord

B = "https://example.org/"
WORDS = [f"w{n}" for n in range(3_000)]


def words(seed: int) -> list[str]:
    chooser = random.Random(seed)
    return [chooser.choice(WORDS) for _ in range(400)]


def page(seed: int, *, edit: float = 0.0, printed: str | None = None) -> PageRecord:
    text = words(seed)
    chooser = random.Random(seed + 1_000)
    text = [chooser.choice(WORDS) if chooser.random() < edit else word for word in text]
    fingerprint = printed or f"{seed:02d}{'e' if edit else ''}".ljust(32, "0")
    return PageRecord(None, None, fingerprint, "2024-01-01", sketch=sketch_text(" ".join(text)))


def no_redirects(url: str) -> tuple[str, str] | None:
    return None


def test_added_changed_removed_and_kept() -> None:
    old = {B + "a.html": page(1), B + "b.html": page(2), B + "c.html": page(3)}
    new = {B + "a.html": page(1), B + "b.html": page(2, edit=0.1), B + "d.html": page(4)}
    new[B + "b.html"] = PageRecord(
        None, None, "changed".ljust(32, "0"), "2024-02-02", Proof(Rung.GIT, "ab" * 20)
    )
    diff = compare_builds(old, new, no_redirects, same_fingerprints=True)
    assert diff.added == (B + "d.html",)
    assert [item.url for item in diff.changed] == [B + "b.html"]
    assert diff.changed[0].evidence == "2024-02-02 from the page's git history, commit abababababab"
    assert [(item.url, item.verdict) for item in diff.removed] == [(B + "c.html", Verdict.GONE)]
    assert diff_to_json(diff)["counts"] == {
        "added": 1, "changed": 1, "removed": 1, "redirected": 0, "renamed": 0, "gone": 1
    }  # fmt: skip


def test_a_moved_page_is_renamed_by_its_content_not_its_name() -> None:
    old = {B + "guide/install.html": page(1), B + "guide/usage.html": page(2)}
    new = {
        B + "docs/setup/install.html": page(2, edit=0.02),  # usage's text, install's name
        B + "docs/setup/usage.html": page(1),  # install's text (the same fingerprint)
    }
    diff = compare_builds(old, new, no_redirects, same_fingerprints=True)
    found = {item.url: (item.verdict, item.target) for item in diff.removed}
    assert found == {
        B + "guide/install.html": (Verdict.RENAMED, B + "docs/setup/usage.html"),
        B + "guide/usage.html": (Verdict.RENAMED, B + "docs/setup/install.html"),
    }
    assert diff.removed[0].resemblance == 1.0 and 0.6 <= (diff.removed[1].resemblance or 0) < 1


def test_an_edited_beyond_recognition_page_is_gone() -> None:
    old = {B + "a.html": page(1)}
    new = {B + "b.html": page(1, edit=0.6)}
    (item,) = compare_builds(old, new, no_redirects, same_fingerprints=True).removed
    assert item.verdict is Verdict.GONE and item.target is None


def test_equally_good_copies_are_told_apart_by_the_nearest_url() -> None:
    old = {B + "4/editor.html": page(1)}
    new = {B + "current/panes/editor.html": page(1), B + "4/panes/editor.html": page(1)}
    (item,) = compare_builds(old, new, no_redirects, same_fingerprints=True).removed
    assert item.target == B + "4/panes/editor.html"


def test_a_placeholder_is_renamed_only_by_a_fingerprint_no_other_page_shares() -> None:
    short = PageRecord(None, None, "p".ljust(32, "0"), "2024-01-01")  # (no sketch: no text)
    old = {B + "a/": short, B + "b/": short}
    new = {B + "x/": short}
    diff = compare_builds(old, new, no_redirects, same_fingerprints=True)
    assert {item.verdict for item in diff.removed} == {Verdict.GONE}
    diff = compare_builds({B + "a/": short}, new, no_redirects, same_fingerprints=True)
    assert diff.removed[0].verdict is Verdict.RENAMED


def test_a_redirect_counts_only_when_it_ends_on_a_page_served() -> None:
    old = {B + f"{name}.html": page(n) for n, name in enumerate("abcde")}
    new = {B + "new/a.html": page(0), B + "x/": page(9)}
    redirects = {
        B + "a.html": B + "new/a",  # (served by new/a.html)
        B + "b.html": B + "x/index.html",  # (served as x/)
        B + "c.html": B + "nowhere.html",
        B + "d.html": "https://other.example/d",
        B + "e.html": B + "c.html",  # (a chain that ends nowhere)
    }

    def redirect_of(url: str) -> tuple[str, str] | None:
        target = redirects.get(url)
        return None if target is None else (target, "a redirect stub")

    found = {
        item.url[len(B) :]: item
        for item in compare_builds(old, new, redirect_of, same_fingerprints=True).removed
    }
    assert {url: item.verdict for url, item in found.items()} == {
        "a.html": Verdict.REDIRECTED,
        "b.html": Verdict.REDIRECTED,
        "c.html": Verdict.GONE,
        "d.html": Verdict.REDIRECTED,
        "e.html": Verdict.GONE,
    }
    assert "which the new build does not serve" in found["c.html"].detail


def test_fingerprints_of_another_version_are_not_compared() -> None:
    old = {B + "a.html": page(1)}
    new = {B + "a.html": page(1, printed="other".ljust(32, "0")), B + "b.html": page(5)}
    diff = compare_builds(old, new, no_redirects, same_fingerprints=False)
    assert diff.changed == ()  # (the same date: not said to have changed)


def test_the_work_grows_with_the_pages_not_their_pairs() -> None:
    from sitemill.diff import _renames as renames

    calls = 0
    real = renames.resemblance

    def counted(one: str, other: str) -> float | None:
        nonlocal calls
        calls += 1
        return real(one, other)

    def run(size: int) -> int:
        nonlocal calls
        calls = 0
        old = {B + f"old/{n}.html": page(n) for n in range(size)}
        new = {B + f"new/{n}.html": page(n, edit=0.03) for n in range(size)}
        renames.resemblance = counted  # type: ignore[assignment]
        try:
            diff = compare_builds(old, new, no_redirects, same_fingerprints=True)
        finally:
            renames.resemblance = real  # type: ignore[assignment]
        assert sum(item.verdict is Verdict.RENAMED for item in diff.removed) >= 0.95 * size
        return calls

    small, large = run(100), run(400)
    assert large <= 5 * small  # (every pair: 16x)


def test_a_redirect_to_a_url_the_comparison_cannot_see_is_a_redirect() -> None:
    old = {B + "a.html": page(1)}
    new = {B + "x.html": page(2)}

    def redirect_of(url: str) -> tuple[str, str] | None:
        return (B + "far/away.html", "a redirect stub") if url == B + "a.html" else None

    def unseen(url: str) -> bool:
        return url.startswith(B + "far/")

    (gone,) = compare_builds(old, new, redirect_of, same_fingerprints=True).removed
    (kept,) = compare_builds(old, new, redirect_of, same_fingerprints=True, unseen=unseen).removed
    assert gone.verdict is Verdict.GONE and kept.verdict is Verdict.REDIRECTED
    assert kept.target == B + "far/away.html" and "did not read" in kept.detail
