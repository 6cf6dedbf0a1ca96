"""One deploy's judgement of its changed pages (lastmod.deploys): an edit on at least four
of them and more than half is template; a page with no parts remembered counts and is never
kept; an edit that took out and put in nothing (a reorder) is never template; a page whose
stamps alone changed is kept however few."""

from __future__ import annotations

from sitemill.lastmod.deploys.templateedits import DeployEdits, page_parts
from sitemill.lastmod.fingerprint.digest import reduction_fingerprint

WHEN = "2024-03-01T12:00:00+00:00"
LATER = "2024-06-02T08:30:00+00:00"


def text(n: int, version: str = "1.0", own: str = "") -> str:
    return f"Page {n}\x01T\x01Words of page {n}{own}. Release {version}"


def judged(before: dict[int, str], after: dict[int, str], remembered: int = 99) -> set[str]:
    deploy = DeployEdits()
    changed = []
    for n, reduction in after.items():
        deploy.parts[f"p{n}"] = page_parts(reduction, LATER)
        parts = page_parts(before[n], WHEN) if n < remembered else None
        changed.append((f"p{n}", parts, reduction_fingerprint(before[n])))
    deploy.judge(changed)
    return {path for path in deploy.times.keys() | deploy.parts.keys() if deploy.unchanged(path)}


def test_four_of_seven_is_template_three_of_five_is_not() -> None:
    before = {n: text(n) for n in range(7)}
    after = {n: text(n, "2.0") if n < 4 else text(n, own=f" {n}") for n in range(7)}
    assert judged(before, after) == {"p0", "p1", "p2", "p3"}
    fewer = {n: text(n, "2.0") if n < 3 else text(n, own=f" {n}") for n in range(5)}
    assert judged({n: before[n] for n in range(5)}, fewer) == set()


def test_half_is_no_majority_and_unnamed_pages_count() -> None:
    before = {n: text(n) for n in range(10)}
    after = {n: text(n, "2.0") if n < 5 else text(n, own=f" {n}") for n in range(10)}
    assert judged(before, after) == set()
    same = {n: text(n, "2.0") for n in range(10)}
    assert judged(before, same, remembered=6) == {f"p{n}" for n in range(6)}
    assert judged(before, same, remembered=5) == set()


def test_a_reorder_on_every_page_is_never_template() -> None:
    before = {n: f"Page {n}\x01T\x01alpha beta gamma {n}" for n in range(6)}
    after = {n: f"Page {n}\x01T\x01gamma beta alpha {n}" for n in range(6)}
    assert judged(before, after) == set()


def test_a_stamp_alone_is_no_content_on_one_page() -> None:
    before = {0: text(0, "(built 2024-03-01)")}
    assert judged(before, {0: text(0, "(built June 2, 2024)")}) == {"p0"}
    assert judged(before, {0: text(0, "(built June 3, 2024)")}) == set()
