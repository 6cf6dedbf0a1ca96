"""`command: diff`'s summary, annotations and outputs (github/diffsummary): what the pull
request's pages say (a URL, a redirect's target, a detail) is data, and stays in its cell, its
line and its fenced block; long lists are cut with a count."""

from __future__ import annotations

import re

import pytest

from sitemill.diff.model import Changed, Removed, SiteDiff, Verdict
from sitemill.diff.suggested import Suggested
from sitemill.github._diff import (
    MAX_ANNOTATED,
    MAX_REDIRECT_CHARS,
    MAX_REMOVED_ROWS,
    MAX_URLS_LISTED,
    cell,
    diff_outputs,
    gone_annotations,
    render_diff_summary,
)

SITE = "https://example.com/"
AGAINST = SITE + "sitemill-state.json.gz"
UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


def removed(url: str, verdict: Verdict = Verdict.GONE, **more: object) -> Removed:
    return Removed(url, verdict, **more)  # type: ignore[arg-type]


def rows(summary: str, heading: str) -> list[str]:
    """The table rows under ``heading`` (its header and rule left out)."""
    after = summary.split(heading, 1)[1].split("\n\n")[1]
    return after.splitlines()[2:]


HOSTILE = [
    SITE + "a|b.html",
    SITE + "a`b``c.html",
    SITE + "a<img src=x onerror=alert(1)>.html",
    SITE + "[x](javascript:alert(1)).html",
    SITE + "a\nb|c\r.html",
    "| not | a | url |",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_what_the_pages_say_stays_in_its_cell(text: str) -> None:
    diff = SiteDiff((), (), (removed(text, Verdict.RENAMED, target=text, detail=text),))
    (row,) = rows(render_diff_summary(diff, AGAINST, None), "#### Removed URLs")
    assert len(UNESCAPED_PIPE.findall(row)) == 5  # four cells, whatever the text holds
    assert "<" not in row and "`" not in row.replace("\\`", "")
    assert "](" not in row.replace("\\](", "")


def test_a_url_keeps_its_meaning_percent_encoded() -> None:
    assert cell(SITE + "a|b`c") == SITE + "a%7Cb%60c"
    assert cell(SITE + "ok/x.html") == SITE + "ok/x.html"  # (for GitHub to link)
    assert cell("a | b *c*") == r"a \| b \*c\*"


def test_gone_urls_come_first_then_renamed_then_redirected() -> None:
    diff = SiteDiff((), (), (
        removed(SITE + "a", Verdict.REDIRECTED, target=SITE), removed(SITE + "b"),
        removed(SITE + "c", Verdict.RENAMED, target=SITE + "d", resemblance=0.93),
    ))  # fmt: skip
    found = rows(render_diff_summary(diff, AGAINST, None), "#### Removed URLs")
    assert [row.split(" | ")[1] for row in found] == ["gone", "renamed", "redirected"]
    assert f"| {SITE}d (93% alike) |" in found[1]


def test_long_lists_are_cut_with_a_count() -> None:
    extra = 7
    diff = SiteDiff(
        tuple(f"{SITE}new/{n}" for n in range(MAX_URLS_LISTED + extra)),
        tuple(Changed(f"{SITE}c/{n}", None, "content") for n in range(MAX_URLS_LISTED + 1)),
        tuple(removed(f"{SITE}old/{n:04}") for n in range(MAX_REMOVED_ROWS + extra)),
    )
    summary = render_diff_summary(diff, AGAINST, None)
    assert len(rows(summary, "#### Removed URLs")) == MAX_REMOVED_ROWS
    assert summary.count(f"… and {extra:,} more.") == 2  # removed, added
    assert summary.count("… and 1 more.") == 1  # changed
    assert summary.count(f"- {SITE}new/") == MAX_URLS_LISTED


def test_the_suggested_redirects_are_one_fenced_block_whatever_they_hold() -> None:
    text = "/a /b 301\n```\n/c ```` /d 301\n"
    diff = SiteDiff((), (), (removed(SITE + "a", Verdict.RENAMED, target=SITE + "b"),))
    summary = render_diff_summary(diff, AGAINST, Suggested("net_lify", text, 2))
    block = summary.split("#### 2 suggested redirects, in the net\\_lify form\n\n", 1)[1]
    assert block.startswith("`````text\n/a /b 301\n```\n/c ```` /d 301\n`````\n")


def test_notes_a_form_has_no_comments_for_are_said_above_its_block() -> None:
    notes = ("Suggested by sitemill diff.", "S3: merge <RoutingRules> into the bucket's.")
    said = Suggested("s3-rules", '{"RoutingRules": []}', 1, notes)
    summary = render_diff_summary(SiteDiff((), (), ()), AGAINST, said)
    assert "form\n\nSuggested by sitemill diff. S3: merge \\<RoutingRules\\>" in summary
    commented = Suggested("netlify", f"# {notes[0]}\n/a /b 301", 1, notes[:1])
    summary = render_diff_summary(SiteDiff((), (), ()), AGAINST, commented)
    assert summary.count(notes[0]) == 1  # (in the text's own comment)


def test_suggested_redirects_past_the_cap_are_cut_on_a_line_with_a_pointer() -> None:
    line = "/old/page /new/page 301\n"
    text = line * (MAX_REDIRECT_CHARS // len(line) + 10)
    summary = render_diff_summary(SiteDiff((), (), ()), AGAINST, Suggested("netlify", text))
    block = summary.split("```text\n", 1)[1].split("\n```", 1)[0]
    assert len(block) <= MAX_REDIRECT_CHARS and block.endswith(line.strip())
    assert "--write-redirects" in summary


def test_one_annotation_per_gone_url_escaped_as_the_runner_reads_it() -> None:
    diff = SiteDiff((), (), (
        removed(SITE + "a%2Fb\r\n::error::x"), removed(SITE + "c", Verdict.RENAMED, target=SITE),
        removed(SITE + "d", detail="no redirect, no page with its content"),
    ))  # fmt: skip
    warnings = list(gone_annotations(diff, fail=False))
    assert len(warnings) == 2 and all("\n" not in line for line in warnings)
    assert warnings[0].startswith("::warning title=sitemill diff::")
    assert f"{SITE}a%252Fb\\x0d\\x0a::error::x is removed" in warnings[0]  # (shown, then %)
    assert all("\r" not in line for line in warnings)
    assert warnings[1].endswith("(no redirect, no page with its content)")
    errors = list(gone_annotations(diff, fail=True))
    assert [line.split("::", 2)[1] for line in errors] == ["error title=sitemill diff"] * 2


def test_the_outputs_are_counts_of_urls() -> None:
    diff = SiteDiff(
        (SITE + "n",),
        (Changed(SITE + "c", "2024-01-01", "content"),),
        (removed(SITE + "a"), removed(SITE + "b", Verdict.REDIRECTED, target=SITE)),
    )
    assert diff_outputs(diff) == {"added": "1", "changed": "1", "removed": "2", "gone": "1"}
    empty = render_diff_summary(SiteDiff((), (), ()), AGAINST, None)
    assert "(0 gone)" in empty and "####" not in empty and "[!CAUTION]" not in empty


def test_gone_urls_past_the_runner_s_limit_are_counted_in_one_more_annotation() -> None:
    diff = SiteDiff((), (), tuple(removed(f"{SITE}{n:03}") for n in range(MAX_ANNOTATED + 12)))
    lines = list(gone_annotations(diff, fail=False))
    assert len(lines) == MAX_ANNOTATED + 1
    assert lines[-1].endswith("::12 more removed URLs without a redirect: see the job summary")


def test_a_changed_url_is_listed_with_its_evidence_once() -> None:
    evidence = "2024-05-02T10:00:00+00:00 from the page's git history, commit 3f2a9c1b4d5e"
    diff = SiteDiff((), (Changed(SITE + "c", "2024-05-02T10:00:00+00:00", evidence),), ())
    summary = render_diff_summary(diff, AGAINST, None)
    assert f"- {SITE}c (2024-05-02T10:00:00+00:00 from the page's git history, commit" in summary
    assert summary.count("2024-05-02") == 1
