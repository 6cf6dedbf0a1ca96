"""`sitemill why PAGE [SITE_DIR]`: one page's date and its evidence, from a dry run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from clirun import run_sitemill
from conftest import BASE_URL, FIXED_MTIME, write_site
from gitutil import checkout, commit, commit_at_seconds, git, make_repo, merge
from sitemill.cli.main import main

DAY = 86_400


@pytest.fixture(autouse=True)
def _no_sitemill_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [name for name in os.environ if name.startswith("SITEMILL_")]:
        monkeypatch.delenv(name)


def why(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["why", *args, "--base-url", BASE_URL])
    return code, capsys.readouterr().out


def html(title: str, text: str, head: str = "") -> str:
    return (
        f"<!doctype html><html><head><title>{title}</title>{head}</head>"
        f"<body><main><h1>{title}</h1><p>{text}</p></main></body></html>"
    )


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``folder`` (.git too): its bytes and mtime."""
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            name = path.relative_to(folder).as_posix()
            found[name] = (path.read_bytes(), path.stat().st_mtime_ns)
    return found


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, str, str]:
    """A built site committed twice: the post written, then a theme change nobody reads."""
    site = make_repo(tmp_path / "repo")
    first = commit(
        site,
        {
            "index.html": html("Home", "welcome"),
            "blog/post/index.html": html("Post", "hello world"),
            "hidden.html": html("Hidden", "x", '<meta name="robots" content="noindex">'),
        },
        "2024-01-05T10:00:00",
        "Write the post",
    )
    theme = html("Post", "hello world").replace("<main>", '<main class="v2">  ')
    last = commit(site, {"blog/post/index.html": theme}, "2024-03-01T09:00:00", "Theme upgrade")
    return site, first, last


def test_a_page_dated_by_history_names_its_commits(
    repo: tuple[Path, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    site, first, last = repo
    code, out = why(capsys, "blog/post/index.html", str(site))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "blog/post/index.html: <lastmod>2024-01-05T10:00:00+00:00</lastmod>"
    assert "git history" in lines[1]
    assert f'content since: {first[:10]} 2024-01-05 10:00 UTC "Write the post"' in out
    assert f'last commit:   {last[:10]} 2024-03-01 09:00 UTC "Theme upgrade"' in out


def test_a_page_a_merge_published_names_the_merge(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A pull request's branch adds the page days before its merge publishes it; a later
    commit moves it unchanged."""
    site = make_repo(tmp_path / "repo")
    commit(site, {"index.html": html("Home", "welcome")}, "2024-01-02T10:00:00", "Start")
    checkout(site, "pull", create=True)
    commit(site, {"html/guide.html": html("Guide", "how to")}, "2024-01-05T10:00:00", "Build")
    checkout(site, "main")
    merged = merge(site, "pull", when="2024-01-09T10:00:00", message="Merge pull request")
    git(site, "mv", "html", "v1")
    commit(site, {"index.html": html("Home", "v1 docs")}, "2024-02-01T10:00:00", "Move to v1")

    code, out = why(capsys, "v1/guide.html", str(site))

    assert code == 0
    assert out.splitlines()[0] == "v1/guide.html: <lastmod>2024-01-09T10:00:00+00:00</lastmod>"
    assert f'content since: {merged[:10]} 2024-01-09 10:00 UTC "Merge pull request"' in out


def test_a_url_and_a_folder_name_the_page(
    repo: tuple[Path, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    site, first, _ = repo
    for name in (f"{BASE_URL}blog/post/", "blog/post/", "/blog/post"):
        code, out = why(capsys, name, str(site))
        assert code == 0, name
        assert out.startswith("blog/post/index.html: <lastmod>2024-01-05T10:00:00+00:00"), name
        assert first[:10] in out


def test_a_noindex_page_is_not_a_listed_page(
    repo: tuple[Path, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    site, _, _ = repo
    code, out = why(capsys, "hidden.html", str(site))
    assert code == 1
    assert out.startswith("hidden.html: not listed: noindex")


def test_a_near_miss_is_named(
    repo: tuple[Path, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    site, _, _ = repo
    code, out = why(capsys, "blog/pots/", str(site))
    assert code == 1
    assert "no page of the site has this name; did you mean blog/post/index.html?" in out
    code, out = why(capsys, "blog/post/", str(site), "--exclude", "blog/**")
    assert code == 1
    assert out.startswith("blog/post/index.html: not listed: excluded")
    code, out = why(capsys, "https://elsewhere.example/blog/post/", str(site))
    assert code == 1
    assert "not under the base URL" in out


def test_a_fresh_build_gets_no_date_and_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = write_site(tmp_path / "public", {f"p{i}.html": html(f"P{i}", f"t{i}") for i in range(8)})
    code, out = why(capsys, "p3.html", str(site))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "p3.html: no <lastmod>"
    assert "no evidence" in lines[1] and "one build's" in lines[1]
    assert "8 of 8 pages' times fall within 10 minutes" in lines[2]


def test_a_page_kept_by_the_state_says_the_remembered_date(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = tmp_path / "public"
    for i in range(4):  # a first run over spread times: each page dated by its file time
        write_site(site, {f"p{i}.html": html(f"P{i}", f"t{i}")}, mtime=FIXED_MTIME + i * 30 * DAY)
    assert main(["build", str(site), "--base-url", BASE_URL, "-q"]) == 0
    for i in range(4):  # rebuilt: new file times, the same content
        write_site(site, {f"p{i}.html": html(f"P{i}", f"t{i}")}, mtime=FIXED_MTIME + 400 * DAY)
    code, out = why(capsys, "p2", str(site))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "p2.html: <lastmod>2024-04-30T12:00:00+00:00</lastmod>"
    assert "kept" in lines[1] and "sitemill-state.json.gz" in lines[1]
    assert "remembers 2024-04-30T12:00:00+00:00 and the same content fingerprint" in lines[1]


def test_why_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = make_repo(tmp_path / "repo")
    commit(site, {"a.html": html("A", "a"), "b.html": html("B", "b")}, "2024-01-05T10:00:00")
    assert main(["build", str(site), "--base-url", BASE_URL, "-q"]) == 0
    (site / "a.html").write_text(html("A", "changed"))  # a run would write the sitemaps again
    (site / "c.html").write_text(html("C", "new"))
    (site / "sitemap.xml").unlink()  # ... and replace a lost one
    before = snapshot(site)
    code, out = why(capsys, "a.html", str(site))
    assert code == 0 and out.startswith("a.html: ")
    assert snapshot(site) == before
    state = tmp_path / "elsewhere.json.gz"
    code, _ = why(capsys, "c.html", str(site), "--state", str(state))
    assert code == 0
    assert not state.exists()
    assert snapshot(site) == before


def test_a_state_not_kept_yet_is_said_so_not_asked_whether_it_was_deleted(
    tmp_path: Path,
) -> None:
    """`why --state NEW` beside sitemaps of an earlier run: no state there yet, and the page is
    dated as a first run dates it (issue 82), not "was the state deleted?"."""
    site = write_site(tmp_path / "public", {f"p{i}.html": html(f"P{i}", f"t{i}") for i in range(3)})
    assert main(["build", str(site), "--base-url", BASE_URL, "-q"]) == 0
    new = tmp_path / "new.json.gz"
    asked = run_sitemill("why", "p1.html", str(site), "--state", str(new), "--base-url", BASE_URL)
    assert asked.returncode == 0 and asked.stdout.startswith("p1.html: no <lastmod>")
    assert asked.stderr == (
        f"sitemill: warning: no state at {new} yet: pages are dated as on a first run, from "
        "evidence only (git history, source files, declared dates); a build keeps the state "
        "there\n"
    )
    assert not new.exists()


def test_a_hostile_file_name_is_shown_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = "x\x1b]52;c;aGk=\x07\nfake: <lastmod>2099<lastmod>.html"
    site = write_site(tmp_path / "public", {name: html("X", "x"), "y.html": html("Y", "y")})
    code, out = why(capsys, name, str(site))
    # (issue 78: a name with a control character can name no page: excluded, said escaped)
    assert code == 1
    assert "\x1b" not in out and "\x07" not in out
    assert len(out.splitlines()) == 1  # the name's line break starts no line of its own
    assert out.startswith(
        "x\\x1b]52;c;aGk=\\x07\\x0afake: <lastmod>2099<lastmod>.html: not listed: excluded"
    )


def test_why_after_a_build_with_twins_in_folders_says_nothing_of_them(tmp_path: Path) -> None:
    # (its dry run read the twins beside pages in folders through a sink of plain names only:
    # "could not delete sitemill's old posts/a.html.md", one warning per twin, on every why)
    pages = {"posts/a.html": html("A", "a"), "b.html": html("B", "b")}
    site = write_site(tmp_path / "public", pages)
    built = run_sitemill(
        "build", str(site), "--base-url", BASE_URL, "--llms-txt", "on", "--llms-pages"
    )
    assert built.returncode == 0, built.stderr
    assert (site / "posts" / "a.html.md").is_file()
    before = snapshot(site)
    asked = run_sitemill("why", "posts/a.html", str(site), "--base-url", BASE_URL)
    assert asked.returncode == 0, asked.stderr
    assert asked.stdout.startswith("posts/a.html: no <lastmod>")
    assert asked.stderr == ""
    assert snapshot(site) == before


def test_usage_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["why"])
    assert exit_.value.code == 2
    assert main(["why", "a.html", str(tmp_path / "missing"), "--base-url", BASE_URL]) == 2
    with pytest.raises(SystemExit) as exit_:
        main(["why", "", str(tmp_path), "--base-url", BASE_URL])
    assert exit_.value.code == 2
    assert "PAGE is empty" in capsys.readouterr().err


def test_a_page_and_site_given_swapped_is_one_line_naming_the_order(
    repo: tuple[Path, str, str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`why . blog/post/` from the site's folder: the site's own post would be read as a site
    of one page; the command says the order instead, and writes nothing."""
    site, _, _ = repo
    monkeypatch.chdir(site)
    before = snapshot(site)
    assert main(["why", ".", "blog/post/", "--base-url", BASE_URL]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        "sitemill: error: SITE_DIR blog/post is inside PAGE .: the page comes first "
        "(sitemill why blog/post .)"
    ]
    assert snapshot(site) == before
    # the right order, and a page folder beside the site, are no mistake
    assert main(["why", "blog/post/", ".", "--base-url", BASE_URL]) == 0
    assert main(["why", str(site / "blog"), str(site), "--base-url", BASE_URL]) != 2


def test_a_changed_page_is_dated_by_the_deploy_and_says_what_was_remembered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = tmp_path / "public"
    for i in range(4):
        write_site(site, {f"p{i}.html": html(f"P{i}", f"t{i}")}, mtime=FIXED_MTIME + i * 30 * DAY)
    assert main(["build", str(site), "--base-url", BASE_URL, "-q"]) == 0
    write_site(site, {"p1.html": html("P1", "rewritten")}, mtime=FIXED_MTIME + 400 * DAY)
    code, out = why(capsys, "p1.html", str(site))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "p1.html: <lastmod>2025-04-05T12:00:00+00:00</lastmod>"
    assert "the content changed since the state at" in lines[1]
    assert "dated by this deploy, its file time 2025-04-05 12:00 UTC" in lines[1]
    assert "(it remembered 2024-03-31T12:00:00+00:00)" in lines[1]


def test_a_page_kept_from_history_says_so(
    repo: tuple[Path, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    site, first, _ = repo
    assert main(["build", str(site), "--base-url", BASE_URL, "-q"]) == 0
    code, out = why(capsys, "blog/post/", str(site))
    assert code == 0
    assert "kept: the state at" in out and "from the git history" in out
    assert first[:10] in out


def test_a_link_leading_outside_is_no_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = write_site(tmp_path / "outside", {"secret.html": html("S", "s")})
    site = write_site(tmp_path / "public", {"a.html": html("A", "a")})
    (site / "link.html").symlink_to(outside / "secret.html")
    code, out = why(capsys, "link.html", str(site))
    assert code == 1
    assert out.startswith("link.html: not listed: excluded (the build does not read it: a link")


def test_a_declared_date_refused_is_named_with_its_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Minimal Mistakes without last_modified_at: "Updated:" shows the post's own date.
    post = html(
        "Post",
        'hello <span>Updated:</span> <time datetime="2021-05-09T00:00:00-04:00">May 9</time>',
        '<meta property="article:published_time" content="2021-05-09T00:00:00-04:00">',
    )
    pages = {f"p{i}.html": html(f"P{i}", f"t{i}") for i in range(5)} | {"post.html": post}
    site = write_site(tmp_path / "public", pages)
    code, out = why(capsys, "post.html", str(site))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "post.html: no <lastmod>"
    assert lines[2] == (
        "  declared: 2021-05-09T04:00:00Z (<time> of a 'last updated' line), refused: not "
        "after the page's publication date"
    )


def test_an_accepted_declared_date_names_its_declaration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    meta = '<meta property="article:modified_time" content="2024-0{0}-1{0}T08:30:00Z">'
    pages = {f"p{i}.html": html(f"P{i}", f"t{i}", meta.format(i + 1)) for i in range(4)}
    site = write_site(tmp_path / "public", pages)  # a fresh build: every mtime this minute
    code, out = why(capsys, "p2.html", str(site))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "p2.html: <lastmod>2024-03-13T08:30:00+00:00</lastmod>"
    assert lines[2] == "  declared: 2024-03-13T08:30:00Z (meta article:modified_time), accepted"


def test_the_cli_loads_no_dating_code_until_why_runs() -> None:
    """`sitemill --version` and every command's start load the why command's parser only: its
    explanation (and the ladder it explains) is imported when `why` runs."""
    code = (
        "import sys\n"
        "import sitemill.cli.main\n"
        "print(sorted(m for m in sys.modules if m.startswith('sitemill.')))\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    assert "'sitemill.cli._why'" in loaded
    for module in ("sitemill.cli._whylines", "sitemill.cli.whybucket", "sitemill.lastmod.decide"):
        assert f"'{module}'" not in loaded


@pytest.mark.parametrize("length", [256, 300, 4096, 100_000])
def test_a_name_longer_than_the_system_allows_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], length: int
) -> None:
    site = write_site(tmp_path / "site", {"a.html": html("A", "a")})
    name = "p" * (length - 5) + ".html"
    code, out = why(capsys, name, str(site))  # (before: OSError, File name too long)
    assert code == 1
    assert out == f"{name}: no page of the site has this name\n"


def test_a_name_outside_the_site_gets_one_answer_whether_or_not_it_exists(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = write_site(tmp_path / "outside", {"secret.html": html("S", "s")})
    site = write_site(tmp_path / "public", {"a.html": html("A", "a")})
    (site / "door").symlink_to(outside, target_is_directory=True)
    (site / "link.html").symlink_to(outside / "secret.html")
    (site / "broken.html").symlink_to(outside / "gone.html")
    pairs = [
        ("../outside/secret.html", "../outside/gone.html"),
        (f"{tmp_path}/outside/secret.html", f"{tmp_path}/outside/gone.html"),
        ("door/secret.html", "door/gone.html"),
        ("link.html", "broken.html"),  # a link of the site: said alike, whatever it leads to
    ]
    for there, missing in pairs:
        answers = []
        for name in (there, missing):
            code, out = why(capsys, name, str(site))
            answers.append((code, out.replace(name.lstrip("/"), "NAME").replace(name, "NAME")))
        assert answers[0] == answers[1], (there, answers)
        assert answers[0][0] == 1
    code, out = why(capsys, "../outside/secret.html", str(site))
    assert out == "../outside/secret.html: no page of the site has this name\n"
    code, out = why(capsys, "broken.html", str(site))
    assert out.startswith("broken.html: not listed: excluded (the build does not read it: a link")


def test_a_commit_subject_of_a_megabyte_is_cut_to_one_short_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = make_repo(tmp_path / "repo")
    (tmp_path / "message").write_text("\x1b]52;c;" + "x" * 1_000_000 + "\n\nbody")
    (site / "a.html").write_text(html("A", "a"))
    git(site, "add", "a.html")
    git(site, "commit", "-q", "-F", str(tmp_path / "message"), when="2024-01-05T10:00:00")
    first = git(site, "rev-parse", "HEAD").decode().strip()
    code, out = why(capsys, "a.html", str(site))
    assert code == 0
    assert f'content since: {first[:10]} 2024-01-05 10:00 UTC "\\x1b]52;c;xxx' in out
    assert len(out) < 500 and "\x1b" not in out and "body" not in out


def test_a_last_commit_past_the_year_9999_is_named_without_its_date(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = make_repo(tmp_path / "repo")
    first = commit(site, {"a.html": html("A", "a")}, "2024-01-05T10:00:00", "Write A")
    spaced = html("A", "a").replace("<main>", "<main>  ")  # (nothing a reader sees)
    last = commit_at_seconds(site, {"a.html": spaced}, 253_402_300_800, "Reformat")
    code, out = why(capsys, "a.html", str(site))  # (before: ValueError, year 10000)
    assert code == 0
    assert out.splitlines()[0] == "a.html: <lastmod>2024-01-05T10:00:00+00:00</lastmod>"
    assert f'content since: {first[:10]} 2024-01-05 10:00 UTC "Write A"' in out
    assert f'last commit:   {last[:10]} (no date: 253,402,300,800 s since 1970) "Reformat"' in out


def test_a_page_whose_commit_is_after_the_run_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = make_repo(tmp_path / "repo")
    commit(site, {"a.html": html("A", "a")}, "2099-01-01T00:00:00", "A clock set to 2099")
    code, out = why(capsys, "a.html", str(site))  # (before: <lastmod>2099-01-01T00:00:00…)
    assert code == 0
    assert out.splitlines()[:3] == [
        "a.html: no <lastmod>",
        "  why: no evidence: its git history is after the run, no remembered date, no source or "
        "declared date; the file times are one build's",
        "  git history: its content's commit, 2099-01-01 00:00 UTC, is after the run: no evidence",
    ]


def test_a_hand_written_sitemap_html_is_a_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 82: a site's own "Sitemap" page, html_sitemap off, is listed like any page."""
    site = write_site(tmp_path / "site", {"index.html": html("Home", "h")})
    write_site(site, {"sitemap.html": html("Sitemap", "every page we have")})
    code, out = why(capsys, "sitemap.html", str(site))
    assert code == 0  # listed: its date, and no reason it is not
    assert out.startswith("sitemap.html: no <lastmod>\n") and "not listed" not in out


def test_sitemills_own_sitemap_html_says_why_it_is_no_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 82: sitemill's own sitemap.html is excluded for that reason, not for rules the
    user never wrote: while html_sitemap is on, and as an earlier run's leftover once off."""
    site = write_site(tmp_path / "site", {"index.html": html("Home", "h")})
    args = ["--base-url", BASE_URL, "-q"]
    assert main(["build", str(site), *args, "--html-sitemap"]) == 0
    capsys.readouterr()
    code, out = why(capsys, "sitemap.html", str(site), "--html-sitemap")
    assert code == 1
    assert out.startswith(
        "sitemap.html: not listed: excluded (sitemill's own sitemap.html (html_sitemap is on))"
    )
    code, out = why(capsys, "sitemap.html", str(site))
    assert code == 1
    assert out.startswith(
        "sitemap.html: not listed: excluded (sitemill's own sitemap.html of an earlier run "
        "(its head's generator meta says so), which this run deletes)"
    )
    assert (site / "sitemap.html").exists()  # (why writes nothing)


def test_a_dry_run_over_a_sitemap_sitemill_did_not_write_warns_of_no_writing(
    tmp_path: Path,
) -> None:
    """issue 82: why writes nothing, so it never says it replaces the folder's sitemap.xml."""
    theirs = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"<url><loc>{BASE_URL}/</loc></url></urlset>\n"
    )
    site = make_repo(tmp_path / "repo")  # (a checkout: the run dates pages, a first run)
    files = {"index.html": html("Home", "welcome"), "sitemap.xml": theirs}
    commit(site, files, "2024-01-05T10:00:00", "Build")
    asked = run_sitemill("why", "index.html", str(site), "--base-url", BASE_URL)
    assert asked.returncode == 0, asked.stderr
    assert asked.stdout.startswith("index.html: <lastmod>2024-01-05T10:00:00+00:00</lastmod>")
    assert asked.stderr == ""  # (was "replacing a sitemap.xml sitemill did not write ...")
    assert (site / "sitemap.xml").read_text() == theirs


def test_a_page_whose_log_git_cannot_finish_names_its_commit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A mirror that lacks the blob of a page deleted beside a page's first version: ``git
    log --follow`` reads it to look for a rename and stops with "unable to read". The dates
    follow no rename there (sitemill warns), and neither does the commit ``why`` names."""
    site = make_repo(tmp_path / "repo")
    commit(site, {"old.html": html("Old", "words nobody keeps")}, "2024-01-01T10:00:00", "Old")
    added = {"old.html": None, "page.html": html("Page", "first"), "b.html": html("B", "b")}
    first = commit(site, added, "2024-02-01T10:00:00", "Add")
    commit(site, {"b.html": html("B", "b, again")}, "2024-03-01T10:00:00")
    last = commit(site, {"b.html": html("B", "c")}, "2024-04-01T10:00:00")
    blob = git(site, "rev-parse", "HEAD~3:old.html").decode().strip()
    (site / ".git" / "objects" / blob[:2] / blob[2:]).unlink()

    page = why(capsys, "page.html", str(site))
    other = why(capsys, "b.html", str(site))

    assert page[0] == other[0] == 0
    assert page[1].splitlines()[0] == "page.html: <lastmod>2024-02-01T10:00:00+00:00</lastmod>"
    assert f'content since: {first[:10]} 2024-02-01 10:00 UTC "Add"' in page[1]
    assert f'content since: {last[:10]} 2024-04-01 10:00 UTC "change"' in other[1]
