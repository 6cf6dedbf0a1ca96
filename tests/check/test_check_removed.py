"""`sitemill check` asks the URLs the last build removed (the state's ``removed``), on the
site's origin only and without following a redirect: a removed URL that answers 404 or is still
served is a problem with its fix; one redirected where it should lead, or by a redirect page,
is fine. The live site is the stand on 127.0.0.1."""

from __future__ import annotations

from pathlib import Path

import pytest
from checkstand import QUICK, built_site, check, config

from enginestand import Stand
from sitemill.check.problems import REMOVED_URL
from sitemill.check.run import CheckOptions
from sitemill.cli.main import main
from sitemill.commands.check import check_tree
from sitemill.filenames.outputs import STATE_NAME
from sitemill.state.model import dump_state
from sitemill.state.parse import parse_state
from sitemill.state.removedurls import RemovedUrl
from sitemill.web.livesite import Limits

STUB = (
    b'<!doctype html><html><head><meta http-equiv="refresh" content="0; url=/docs/guide.html">'
    b"</head><body>Moved.</body></html>"
)


@pytest.fixture
def site(tmp_path: Path, stand: Stand) -> tuple[Path, str]:
    return built_site(tmp_path, stand)


def remember_removed(root: Path, removed: dict[str, RemovedUrl]) -> None:
    """The state beside the sitemaps, as a build that removed these URLs keeps it."""
    state = parse_state((root / STATE_NAME).read_bytes())
    state.removed = removed
    (root / STATE_NAME).write_bytes(dump_state(state))


def asked(stand: Stand) -> list[str]:
    return [path for method, path in stand.requests if method == "GET"]


def problems_at(report: object) -> dict[str, tuple[str, str, str]]:
    found = report.sorted_problems()  # type: ignore[attr-defined]
    return {p.url: (p.kind, p.what, p.fix) for p in found}


def test_a_gone_url_that_answers_404_is_a_problem_with_the_redirect_it_wants(
    site: tuple[Path, str], stand: Stand
) -> None:
    root, base = site
    remember_removed(
        root,
        {
            base + "old.html": RemovedUrl("gone"),
            base + "guide-old.html": RemovedUrl("renamed", base + "docs/guide.html"),
        },
    )
    report = check(root, base).report
    found = problems_at(report)
    kind, what, fix = found[base + "old.html"]
    assert kind == REMOVED_URL
    assert what == (
        "answers 404: the last build removed it with no redirect (a reader who follows a link "
        "to it gets nothing)"
    )
    assert fix.startswith("redirect it: /old.html -> the page that replaces it, in the host's")
    kind, what, fix = found[base + "guide-old.html"]
    assert what.endswith(f"and {base}docs/guide.html holds its content")
    assert fix.startswith("redirect it: /guide-old.html -> /docs/guide.html, in the host's own")
    assert report.removed == report.removed_kept == 2
    assert "and 2 of 2 removed URL(s) in " in report.summary()
    assert report.summary().endswith("2 problem(s) (removed 2)")


def test_a_redirect_where_the_build_leads_and_a_redirect_page_are_fine(
    site: tuple[Path, str], stand: Stand
) -> None:
    root, base = site
    stand.files["/moved.html"] = (301, b"", {"Location": "/docs/"})
    stand.files["/stub.html"] = (200, STUB, {"Content-Type": "text/html"})
    remember_removed(
        root,
        {
            base + "moved.html": RemovedUrl("redirected", base + "docs/"),
            base + "stub.html": RemovedUrl("redirected", base + "docs/guide.html"),
        },
    )
    stand.requests.clear()
    report = check(root, base).report
    assert report.ok, report.problems
    assert not [note for note in report.notes if "removed" in note or "redirected" in note]
    assert asked(stand).count("/moved.html") == asked(stand).count("/stub.html") == 1


def test_a_redirected_url_the_host_answers_404_for_is_a_problem(
    site: tuple[Path, str], stand: Stand
) -> None:
    root, base = site
    remember_removed(root, {base + "moved.html": RemovedUrl("redirected", base + "docs/")})
    ((kind, what, fix),) = problems_at(check(root, base).report).values()
    assert kind == REMOVED_URL
    assert what == f"answers 404, but the build serves a redirect for it (to {base}docs/)"
    assert fix.startswith("deploy the redirect: its redirect page was not uploaded")


def test_a_removed_url_still_served_is_a_stale_copy(site: tuple[Path, str], stand: Stand) -> None:
    root, base = site
    stand.files["/old.html"] = (200, b"<!doctype html><p>old</p>", {"Content-Type": "text/html"})
    remember_removed(root, {base + "old.html": RemovedUrl("renamed", base + "about.html")})
    ((kind, what, fix),) = problems_at(check(root, base).report).values()
    assert kind == REMOVED_URL
    assert what.startswith("still answers 200 though the last build removed it")
    assert "aws s3 sync --delete" in fix and "/old.html -> /about.html" in fix


def test_a_redirect_to_another_host_is_a_problem_and_that_host_is_never_asked(
    site: tuple[Path, str], stands: list[Stand]
) -> None:
    root, base = site
    stand, other = stands
    stand.files["/away.html"] = (302, b"", {"Location": other.origin + "/away.html"})
    remember_removed(
        root,
        {
            base + "away.html": RemovedUrl("gone"),
            other.origin + "/elsewhere.html": RemovedUrl("gone"),  # (in the state, off the site)
            base.replace("http://", "https://") + "tls.html": RemovedUrl("gone"),  # (scheme)
        },
    )
    stand.requests.clear()
    report = check(root, base).report
    ((url, (kind, what, _)),) = problems_at(report).items()
    assert url == base + "away.html" and kind == REMOVED_URL
    assert report.requests == len(stand.requests)  # (each one the site's: none to https://)
    assert (
        what
        == f"answers 302, a redirect to {other.origin}/away.html, on another host (not followed)"
    )
    assert other.requests == []
    assert report.removed == report.removed_kept == 1
    assert any(
        "2 URL(s) the last build removed, not on the site's origin" in n for n in report.notes
    )


def test_a_host_s_own_redirect_for_a_gone_url_is_a_note_and_its_target_is_asked_once(
    site: tuple[Path, str], stand: Stand
) -> None:
    root, base = site
    stand.files["/a.html"] = (301, b"", {"Location": "/about.html"})
    stand.files["/b.html"] = (301, b"", {"Location": "/about.html"})
    stand.files["/c.html"] = (308, b"", {"Location": "/nowhere/"})
    remember_removed(
        root, {base + name: RemovedUrl("gone") for name in ("a.html", "b.html", "c.html")}
    )
    stand.requests.clear()
    report = check(root, base).report
    ((url, (_, what, _)),) = problems_at(report).items()
    assert (
        url == base + "c.html" and what == f"leads to {base}nowhere/, which answers 404 (not found)"
    )
    assert (
        f"{base}a.html: redirected now, to {base}about.html (the build served no redirect for it)"
        in report.notes
    )
    assert asked(stand).count("/about.html") == 2  # (the page's own check, and one hop)
    assert asked(stand).count("/nowhere/") == 1


def test_no_removed_url_asks_nothing_more_and_says_nothing(
    site: tuple[Path, str], stand: Stand
) -> None:
    root, base = site
    stand.requests.clear()
    report = check(root, base).report
    before = sorted(asked(stand))
    remember_removed(root, {})
    stand.requests.clear()
    again = check(root, base).report
    assert sorted(asked(stand)) == before
    assert again.summary().split(" in ")[0] == report.summary().split(" in ")[0]
    assert "removed" not in again.summary() and "removed" not in again.to_json()
    assert again.notes == report.notes


def test_without_all_a_sample_is_asked_the_same_every_time(
    site: tuple[Path, str], stand: Stand
) -> None:
    root, base = site
    remember_removed(root, {f"{base}old/{n:03d}.html": RemovedUrl("gone") for n in range(40)})
    options = CheckOptions(every=False, sample=7)
    runs = []
    for _ in range(2):
        stand.requests.clear()
        report = check_tree(config(base), root, root, None, options, QUICK).report
        runs.append(sorted(p for p in asked(stand) if p.startswith("/old/")))
        assert report.removed == 7 and report.removed_kept == 40
        assert len(problems_at(report)) == 7
    assert runs[0] == runs[1] and len(runs[0]) == 7
    assert len(problems_at(check(root, base).report)) == 40  # (--all: each one)


def test_a_removed_url_that_answers_nothing_is_reported_as_pages_are(
    site: tuple[Path, str], stand: Stand
) -> None:
    root, base = site
    stand.files["/err.html"] = (503, b"", {})
    remember_removed(root, {base + "err.html": RemovedUrl("gone")})
    ((kind, what, _),) = problems_at(check(root, base).report).values()
    assert kind == REMOVED_URL and what.startswith("answers HTTP 503")


def test_a_url_also_pending_indexnow_as_removed_is_asked_once(
    site: tuple[Path, str], stand: Stand
) -> None:
    root, base = site
    state = parse_state((root / STATE_NAME).read_bytes())
    state.pending = {base + "old.html": "removed", base + "kept.html": "removed"}
    state.removed = {base + "old.html": RemovedUrl("gone")}
    (root / STATE_NAME).write_bytes(dump_state(state))
    stand.files["/kept.html"] = (200, b"<!doctype html><p>kept</p>", {"Content-Type": "text/html"})
    stand.requests.clear()
    report = check(root, base).report
    assert asked(stand).count("/old.html") == asked(stand).count("/kept.html") == 1
    assert [(p.url, p.kind) for p in report.sorted_problems()] == [
        (base + "kept.html", "page"),  # (pending alone: the IndexNow step's own line)
        (base + "old.html", REMOVED_URL),
    ]
    assert base + "old.html" in report.passed  # (gone: IndexNow may say so)


def test_the_command_line_prints_each_problem_and_exits_1(
    site: tuple[Path, str], stand: Stand, capsys: pytest.CaptureFixture[str]
) -> None:
    root, base = site
    remember_removed(root, {base + "old.html": RemovedUrl("renamed", base + "docs/")})
    assert main(["check", str(root), "--base-url", base]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        f"problem: {base}old.html: answers 404: the last build removed it with no redirect, "
        f"and {base}docs/ holds its content; redirect it: /old.html -> /docs/, in the host's "
        "own configuration (a _redirects line, an S3 routing rule, a redirect page)"
    )
    assert " and 1 of 1 removed URL(s) in " in out[-1] and out[-1].endswith("(removed 1)")
    assert main(["check", str(root), "--base-url", base, "--warn-only"]) == 0


def test_a_site_that_is_down_is_one_problem_not_one_per_removed_url(
    site: tuple[Path, str], stand: Stand
) -> None:
    root, base = site
    remember_removed(root, {f"{base}old/{n}.html": RemovedUrl("gone") for n in range(5)})
    stand.httpd.shutdown()  # (every connection refused)
    stand.httpd.server_close()
    report = check(root, base).report
    assert [(p.url, p.kind) for p in report.sorted_problems()] == [(base, "site")]
    assert " and 0 of 5 removed URL(s) in " in report.summary()


def test_a_removed_url_that_never_answers_is_not_asked_again_for_indexnow(
    site: tuple[Path, str], stand: Stand
) -> None:
    root, base = site
    state = parse_state((root / STATE_NAME).read_bytes())
    state.pending = {base + "slow.html": "removed"}
    state.removed = {base + "slow.html": RemovedUrl("gone")}
    (root / STATE_NAME).write_bytes(dump_state(state))
    stand.slow["/slow.html"] = 30.0  # (released when the test ends)
    stand.requests.clear()
    quick = Limits(concurrency=4, timeout=0.2, request_deadline=0.2, run_deadline=60.0)
    report = check(root, base, limits=quick).report
    assert asked(stand).count("/slow.html") == 1
    ((kind, what, _),) = problems_at(report).values()
    assert kind == REMOVED_URL and what.startswith("no answer (")
    assert base + "slow.html" not in report.passed
