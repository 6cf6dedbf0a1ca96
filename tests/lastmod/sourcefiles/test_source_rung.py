"""Rung 2 end to end: a first run over a built site inside its source repository dates each
page by its source's last text change (never the build's time), a second run moves nothing,
a shallow checkout says one line, and the history pass is one git log."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sourcerepo import BASE, TableMap, build_site, page, source_repo

from gitutil import git, git_env
from outputlist import build_from_tree
from sitemill.cli.main import main
from sitemill.config.model import load_config
from sitemill.filenames.outputs import STATE_NAME
from sitemill.lastmod.sourcefiles import rung
from sitemill.report import Report, dates_line, summary_counts
from sitemill.sinks import LocalDirSink

T1, T2, T3 = "2021-03-01T10:00:00", "2021-06-01T10:00:00", "2022-01-01T10:00:00"
URL = re.compile(r"<url><loc>(.*?)</loc>(?:<lastmod>(.*?)</lastmod>)?")
HISTORY = [
    (T1, {"content/a.md": page("A", "First.", date="2021"), "content/b.md": page("B", "B.")}),
    (T2, {"content/a.md": page("A", "Second.", date="2021")}),
    (T3, {"content/a.md": page("A", "Second.", date="2022", tags="[x]")}),  # front matter only
]
TABLE = {
    "a.html": ("content/a.md",),
    "b.html": ("content/b.md",),
    "both.html": ("content/a.md", "content/b.md"),
}


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> Iterator[TableMap]:
    found = TableMap(TABLE)
    monkeypatch.setattr(rung, "source_map", found.mapper())
    yield found


def build(site: Path) -> Report:
    config = load_config({"base_url": BASE})
    return build_from_tree(config, site, LocalDirSink(site), output_dir=site)


def listed(site: Path) -> dict[str, str | None]:
    text = (site / "sitemap.xml").read_text()
    return {loc.removeprefix(BASE): lastmod or None for loc, lastmod in URL.findall(text)}


def forget(site: Path) -> None:
    """The sitemaps and the state gone: the next run is a first run again."""
    for name in ("sitemap.xml", STATE_NAME):
        (site / name).unlink()


def with_both(repo: Path) -> Path:
    site = build_site(repo)
    (site / "both.html").write_text((site / "a.html").read_text().replace(">a<", ">both<"))
    return site


def test_a_first_run_dates_pages_by_their_sources_and_the_next_moves_nothing(
    tmp_path: Path, table: TableMap
) -> None:
    site = with_both(source_repo(tmp_path, HISTORY))
    report = build(site)
    assert listed(site) == {
        "a.html": f"{T2}+00:00",  # the body edit, not the front-matter-only commit (T3)
        "b.html": f"{T1}+00:00",
        "both.html": f"{T2}+00:00",  # two sources: the newest
    }
    assert table.site_dir == "public" and "content/a.md" in table.files
    assert report.dates == {"source": 3}
    assert "3 dated by their source's last change" in dates_line(report)
    assert summary_counts(report)["dates"] == {"source": 3}
    assert not any("shallow" in warning for warning in report.warnings)
    again = build(site)
    assert not again.result.written
    assert again.dates == {"kept": 3}


def test_a_hugo_site_is_dated_by_its_sources_with_the_real_map(tmp_path: Path) -> None:
    hugo = {"hugo.toml": 'baseURL = "https://www.example.com/"\n'}
    repo = source_repo(tmp_path, [(T1, {**hugo, **HISTORY[0][1]}), *HISTORY[1:]])
    site = repo / "public"
    for name in ("a", "b"):  # Hugo's pretty URLs: content/a.md -> public/a/index.html
        (site / name).mkdir()
        (site / f"{name}.html").rename(site / name / "index.html")
    report = build(site)
    assert listed(site) == {"a/": f"{T2}+00:00", "b/": f"{T1}+00:00"}
    assert report.dates == {"source": 2}


def test_without_a_known_source_the_next_rungs_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rung, "source_map", TableMap({}).mapper())
    site = source_repo(tmp_path, HISTORY) / "public"
    report = build(site)
    assert set(listed(site).values()) == {None}
    assert report.dates == {"no date (file times are one build's)": 2}


def clone(source: Path, target: Path, *options: str) -> Path:
    done = subprocess.run(
        ["git", "clone", "-q", *options, f"file://{source}", str(target)],
        env=git_env(),
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return target


def test_a_shallow_checkout_dates_nothing_by_sources_and_says_how_in_one_line(
    tmp_path: Path, table: TableMap
) -> None:
    repo = source_repo(tmp_path, HISTORY)
    shallow = clone(repo, tmp_path / "shallow", "--depth", "1")
    site = with_both(shallow)
    report = build(site)
    assert set(listed(site).values()) == {None}
    said = [warning for warning in report.warnings if "shallow" in warning]
    assert said == [
        "the checkout is shallow: 3 page(s) could be dated by their sources' history: run "
        "`git fetch --unshallow` (actions/checkout: fetch-depth: 0) first"
    ]
    git(shallow, "fetch", "-q", "--unshallow")
    forget(site)
    fetched = build(site)
    assert listed(site)["a.html"] == f"{T2}+00:00"
    assert fetched.dates == {"source": 3}


def test_the_shallow_line_counts_only_the_pages_the_run_lists(
    tmp_path: Path, table: TableMap
) -> None:
    shallow = clone(source_repo(tmp_path, HISTORY), tmp_path / "shallow", "--depth", "1")
    site = with_both(shallow)
    hidden = (
        (site / "both.html")
        .read_text()
        .replace("<head>", '<head><meta name="robots" content="noindex">')
    )
    (site / "both.html").write_text(hidden)
    report = build(site)
    assert set(listed(site)) == {"a.html", "b.html"}
    said = [warning for warning in report.warnings if "shallow" in warning]
    assert len(said) == 1 and said[0].startswith("the checkout is shallow: 2 page(s)")


class Processes:
    """Counts the git commands started (every subprocess goes through Popen)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.commands: list[list[str]] = []
        original = subprocess.Popen

        def counting(args: Any, *rest: Any, **options: Any) -> Any:
            self.commands.append([str(arg) for arg in args])
            return original(args, *rest, **options)

        monkeypatch.setattr(subprocess, "Popen", counting)

    def git(self, command: str) -> int:
        return sum(1 for args in self.commands if args[:1] == ["git"] and command in args)

    def counts(self) -> tuple[int, int]:
        """The ``git log`` and ``git cat-file`` processes started so far."""
        return self.git("log"), self.git("cat-file")


def test_the_sources_history_is_one_git_log_and_one_cat_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    days = range(1, 13)
    many = [
        (f"2021-01-{day:02}T10:00:00", {f"content/p{day}.md": page("P", f"{day}")}) for day in days
    ]
    many.append((T2, {f"content/p{day}.md": page("P", f"{day}", date="2") for day in days}))
    many.append((T3, {f"content/p{day}.md": page("P", f"{day}.", date="3") for day in days}))
    site = source_repo(tmp_path, many) / "public"
    monkeypatch.setattr(rung, "source_map", TableMap({}).mapper())  # a map of no source
    started = Processes(monkeypatch)
    build(site)
    without = started.counts()
    assert without == (0, 0)  # untracked pages: no git log of their own history either
    forget(site)
    table = TableMap({f"p{day}.html": (f"content/p{day}.md",) for day in days})
    monkeypatch.setattr(rung, "source_map", table.mapper())
    started.commands.clear()
    report = build(site)
    assert set(listed(site).values()) == {f"{T3}+00:00"} and report.dates == {"source": 12}
    assert started.counts() == (without[0] + 1, without[1] + 1)  # one git log, one cat-file
    # The second run remembers every date: the sources' history is not read again.
    started.commands.clear()
    build(site)
    assert started.counts() == without


def test_why_names_the_source_and_the_commit_escaped(
    tmp_path: Path, table: TableMap, capsys: pytest.CaptureFixture[str]
) -> None:
    history = [*HISTORY, (T3, {"content/b.md": page("B", "B, edited.")})]
    repo = source_repo(tmp_path, history)
    git(repo, "commit", "-q", "--amend", "-m", "Edit b \x1b[31mred", when=T3)
    site = build_site(repo)
    code = main(["why", "b.html", str(site), "--base-url", BASE])
    out = capsys.readouterr().out
    sha = git(repo, "rev-parse", "HEAD").decode()[:10]
    assert code == 0
    assert out.splitlines() == [
        f"b.html: <lastmod>{T3}+00:00</lastmod>",
        "  why: its source in the repository, content/b.md, as a reader sees it",
        f'  text since: {sha} {T3[:10]} {T3[11:16]} UTC "Edit b \\x1b[31mred"',
    ]


def test_a_shallow_checkout_of_a_committed_site_says_it_once(
    tmp_path: Path, table: TableMap
) -> None:
    repo = source_repo(tmp_path, HISTORY)
    (repo / ".gitignore").write_text("")  # the built site is committed
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "commit the site", when="2022-02-02T00:00:00")
    shallow = clone(repo, tmp_path / "shallow", "--depth", "1")
    (shallow / "public" / "new.html").write_text("<p>not committed</p>")
    table.table["new.html"] = ("content/a.md",)
    report = build(shallow / "public")
    said = [warning for warning in report.warnings if "shallow" in warning]
    assert len(said) == 1 and said[0].startswith("this is a shallow clone")


def test_a_committed_site_dated_by_its_own_history_reads_no_source_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = source_repo(tmp_path, HISTORY)
    (repo / ".gitignore").write_text("")  # the built site is committed: rung 1 dates it
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "commit the site", when="2022-02-02T00:00:00")
    started = Processes(monkeypatch)
    report = build(repo / "public")
    without = started.counts()
    assert set(report.dates) == {"the last commit"}
    forget(repo / "public")
    monkeypatch.setattr(rung, "source_map", TableMap(TABLE).mapper())
    started.commands.clear()
    assert build(repo / "public").dates == report.dates
    assert started.counts() == without  # no git log, no cat-file of rung 2


def test_a_partial_clone_builds_without_its_remote(tmp_path: Path, table: TableMap) -> None:
    moved = "2022-03-03T00:00:00"
    d = page("C", "C.\n" * 29 + "D.\n")
    history = [*HISTORY, (T3, {"content/c.md": page("C", "C.\n" * 30)})]
    history.append((moved, {"content/c.md": None, "content/b.md": None, "content/d.md": d}))
    repo = source_repo(tmp_path, history)
    bare = tmp_path / "bare.git"
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(bare))
    git(bare, "config", "uploadpack.allowFilter", "true")
    partial = clone(bare, tmp_path / "partial", "--filter=blob:none")
    shutil.rmtree(bare)  # a fetch could only fail now: the build must neither fail nor hang
    objects = git(partial, "count-objects", "-v")
    site = with_both(partial)
    table.table["d.html"] = ("content/d.md",)
    report = build(site)
    # a.md's older versions are not in the clone: unknown, no date (nor for both.html); d.md
    # has one version there (its rename with an edit is no exact rename): added at ``moved``.
    assert listed(site) == {"a.html": None, "both.html": None, "d.html": f"{moved}+00:00"}
    assert report.dates == {"source": 1, "no date (file times are one build's)": 2}
    assert git(partial, "count-objects", "-v") == objects  # nothing fetched
