"""Content dates from git history through the tree job: a re-render keeps the date of the last
edit, an edit moves it, and plain git dates come back with content_dates = false."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from gitutil import commit, git, make_repo, unix
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.filenames.outputs import STATE_NAME
from sitemill.jobs import _treehistory as treehistory
from sitemill.jobs import _treereads as treereads
from sitemill.lastmod.history import blobs
from sitemill.protocol import Precision, lastmod_from_timestamp
from sitemill.report import Report, dates_line
from sitemill.sinks import LocalDirSink, MemorySink
from sitemill.state.parse import parse_state

BASE = "https://example.com/"
T1, T2, T3, T4 = (
    "2024-01-10 09:00:00",
    "2024-02-20 10:00:00",
    "2024-03-30 11:00:00",
    "2024-05-05 12:00:00",
)


def page(text: str, build: str) -> str:
    return (
        f'<!DOCTYPE html>\n<html><head><meta name="generator" content="MkDocs 1.{build}">'
        f'<link rel="stylesheet" href="/assets/main.{build}.css"><title>Guide</title></head>'
        f"<body>{'  ' * int(build)}<h1>Guide</h1><p>{text}</p></body></html>\n"
    )


def w3c(when: str) -> str:
    return lastmod_from_timestamp(unix(when), Precision.DATETIME)


def build(repo: Path, **values: Any) -> tuple[dict[str, str], Report]:
    sink = MemorySink()
    config = load_config({"base_url": BASE, "lastmod": "git", **values})
    report = build_from_tree(config, repo, sink)
    text = sink.files["sitemap.xml"].decode()
    found = re.findall(r"<loc>https://example.com/(.*?)</loc><lastmod>(.*?)</lastmod>", text)
    return dict(found), report


def test_a_re_render_keeps_the_date_of_the_last_edit(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    commit(repo, {"guide.html": page("First words.", "1"), "other.html": page("Other.", "1")}, T1)
    commit(repo, {"guide.html": page("Better words.", "1")}, T2)  # an edit
    # A theme upgrade re-renders every page: new asset names, generator, indentation.
    commit(repo, {"guide.html": page("Better words.", "2"), "other.html": page("Other.", "2")}, T3)
    dates, report = build(repo)
    assert dates == {"guide.html": w3c(T2), "other.html": w3c(T1)}
    # No state yet, a first run: dated by content all the same, and said so.
    assert report.dates == {"older than the last commit": 2}
    assert dates_line(report) == (
        "lastmod: 2 pages dated by an earlier commit (the later ones only re-rendered them)"
    )
    plain, _ = build(repo, content_dates=False)
    assert plain == {"guide.html": w3c(T3), "other.html": w3c(T3)}
    commit(repo, {"guide.html": page("Best words.", "2")}, T4)  # an edit after it
    dates, _ = build(repo)
    assert dates == {"guide.html": w3c(T4), "other.html": w3c(T1)}


def test_an_uncommitted_edit_is_dated_by_the_state_and_mtime(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    commit(repo, {"guide.html": page("First words.", "1"), "other.html": page("Other.", "1")}, T1)
    (repo / "guide.html").write_text(page("Edited, not committed.", "1"))
    sink = MemorySink()  # (keeps the state between the runs)
    config = load_config({"base_url": BASE, "lastmod": "git"})
    report = build_from_tree(config, repo, sink)
    # A first run: newer than git's, but its mtime alone (just written) is no evidence.
    assert "guide.html</loc><lastmod>" not in sink.files["sitemap.xml"].decode()
    assert report.dates == {"the last commit": 1, "no date (file times are one build's)": 1}
    (repo / "guide.html").write_text(page("Edited once more.", "1"))
    os.utime(repo / "guide.html", (unix(T2),) * 2)
    report = build_from_tree(config, repo, sink)
    # A run that saw the site: the edit is dated by its mtime, as the deploy that brought it.
    assert f"guide.html</loc><lastmod>{w3c(T2)}</lastmod>" in sink.files["sitemap.xml"].decode()
    assert report.dates == {"kept": 1, "content changed": 1}


def test_a_missing_blob_keeps_that_pages_plain_date_and_the_run_succeeds(tmp_path: Path) -> None:
    # A blobless clone or a pruned mirror lacks old objects: `git log -M` used to fail with
    # "fatal: unable to read" and `sitemill build` exited 1.
    repo = make_repo(tmp_path / "site")
    words = " ".join(f"word{n}" for n in range(300))
    commit(repo, {"old.html": page(words, "1"), "guide.html": page("Guide.", "1")}, T1)
    commit(repo, {"old.html": None, "moved.html": page(words + " more", "1")}, T2)
    commit(repo, {"guide.html": page("Guide.", "2")}, T3)  # a re-render
    commit(repo, {"guide.html": page("Guide.", "3")}, T4)  # another
    for rev in ("HEAD~3:old.html", "HEAD~1:guide.html"):
        blob = git(repo, "rev-parse", rev).decode().strip()
        (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    dates, report = build(repo)
    assert dates == {"guide.html": w3c(T4), "moved.html": w3c(T2)}
    assert report.dates == {"the last commit": 2}  # guide.html's plain date, moved.html's own
    (line,) = [text for text in report.warnings if "git does not have" in text]
    assert "1 file(s) keep their plain git dates, e.g. guide.html" in line
    assert "only renames that kept a file's bytes are followed" in line


def test_a_second_run_reads_no_old_blob(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Fingerprints are remembered per git blob id in the state (a blob id names its bytes):
    # after one new commit, the next run fingerprints only the work tree, no older version.
    asked: list[bytes] = []
    request = blobs._request
    monkeypatch.setattr(
        blobs, "_request", lambda batch, blobs: (asked.extend(blobs), request(batch, blobs))
    )
    repo = make_repo(tmp_path / "site")
    out = tmp_path / "out"
    for build_number, when in enumerate((T1, T2, T3), start=1):
        commit(repo, {"guide.html": page("Words.", str(build_number))}, when)
    config = load_config({"base_url": BASE, "lastmod": "git"})
    build_from_tree(config, repo, LocalDirSink(out), output_dir=out)
    assert len(asked) == 2  # T2's and T1's versions, once
    state = parse_state((out / STATE_NAME).read_bytes())
    assert len(state.blobs) == 3 and re.fullmatch("[0-9a-f]{32}", state.blob_key)
    asked.clear()
    commit(repo, {"guide.html": page("Words.", "4")}, T4)  # a fourth re-render
    report = build_from_tree(config, repo, LocalDirSink(out), output_dir=out)
    assert asked == []  # T3's version is remembered, so are the rest
    assert report.dates == {"kept": 1}
    # Another fingerprint_ignore is another key: nothing remembered is used.
    other = load_config({"base_url": BASE, "lastmod": "git", "fingerprint_ignore": ["x"]})
    build_from_tree(other, repo, LocalDirSink(out), output_dir=out)
    assert len(asked) == 3


def themed(
    article: str, *, nav: str = "Home Guide", footer: str = "2024", tags: str = "HTML"
) -> str:
    """A page as a themed generator writes it: furniture around a <main> article."""
    return (
        "<!DOCTYPE html><html><head><title>T</title></head><body>"
        f"<header><nav>{nav}</nav><input placeholder='Search'></header>"
        f"<main><article><h1>T</h1>{article}</article></main>"
        f"<aside>{tags}</aside><footer>© {footer} Me</footer></body></html>\n"
    )


def test_the_sites_furniture_moves_no_date(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    code = "<pre><code>curl 127.0.0.1:<span>3000</span></code></pre>"
    articles = {f"p{n}.html": f"<p>Article {n}.</p>{code}" for n in range(4)}
    commit(repo, {name: themed(text) for name, text in articles.items()}, T1)
    # A theme upgrade: a nav label gains a word, the footer's year, the tag cloud's spelling,
    # and a highlighter that now wraps the colon too: no article changed a word.
    highlighted = "<pre><code>curl 127.0.0.1<span>:</span><span>3000</span></code></pre>"
    upgraded = {
        name: themed(
            text.replace(code, highlighted), nav="Home Guide API", footer="2025", tags="Html"
        )
        for name, text in articles.items()
    }
    upgraded["p1.html"] = upgraded["p1.html"].replace("Article 1.", "Article 1, edited.")
    # A page without a main region is fingerprinted whole but its page-level furniture (a
    # footer: fingerprint version 3), so its footer's year moves no date; its text does.
    upgraded["plain.html"] = "<html><body><p>Plain.</p><footer>2025</footer></body></html>"
    commit(repo, {**upgraded}, T2)
    commit(repo, {"plain.html": "<html><body><p>Plain!</p><footer>2026</footer></body></html>"}, T3)
    dates, _ = build(repo)
    assert dates == {
        "p0.html": w3c(T1),
        "p1.html": w3c(T2),  # its article changed
        "p2.html": w3c(T1),
        "p3.html": w3c(T1),
        "plain.html": w3c(T3),
    }
    body, _ = build(repo, content_scope="body")
    # The whole body: the upgrade is an edit on most pages of its commit, held whole in p1's
    # beside its own (issue 79: template, whatever it touches), so it moves only p1.
    assert body == dates


def test_unchanged_pages_are_not_fingerprinted_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A page whose work tree bytes are its HEAD blob, fingerprinted by an earlier run, keeps
    # that fingerprint: only new, edited or uncommitted pages are fingerprinted.
    # (The current fingerprint of a page with history is taken by the walk through it.)
    fingerprinted: list[int] = []
    fingerprint_html = treereads.fingerprint_html_reduced
    fingerprint_file = treehistory.fingerprint_reduced

    def counting(data: bytes, *args: Any, **values: Any) -> tuple[str, str]:
        fingerprinted.append(len(data))
        return fingerprint_html(data, *args, **values)

    def counting_file(path: str, data: bytes, *args: Any, **values: Any) -> tuple[str, str | None]:
        fingerprinted.append(len(data))
        return fingerprint_file(path, data, *args, **values)

    monkeypatch.setattr(treereads, "fingerprint_html_reduced", counting)
    monkeypatch.setattr(treehistory, "fingerprint_reduced", counting_file)
    repo = make_repo(tmp_path / "site")
    out = tmp_path / "out"
    names = [f"p{n}.html" for n in range(5)]
    commit(repo, {name: page(f"Page {name}.", "1") for name in names}, T1)
    config = load_config({"base_url": BASE, "lastmod": "git"})
    build_from_tree(config, repo, LocalDirSink(out), output_dir=out)
    assert len(fingerprinted) == 5
    fingerprinted.clear()
    commit(repo, {"p0.html": page("Page p0, edited.", "1")}, T2)  # a commit
    (repo / "p1.html").write_text(page("Page p1, not committed.", "1"))  # a dirty file
    dates, report = build(repo, state=str(out / STATE_NAME))
    assert len(fingerprinted) == 2  # p0 (a new blob) and p1 (dirty); the rest remembered
    assert dates["p0.html"] == w3c(T2) and dates["p2.html"] == w3c(T1)
    assert report.dates["kept"] == 3


@pytest.mark.parametrize("lines", ["one line", "a line a tag"])
def test_the_walk_takes_the_current_fingerprints_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lines: str
) -> None:
    # On a big site the walk through git takes each page's current fingerprint just before its
    # older versions: the same dates, the same state.
    def render(text: str, **furniture: str) -> str:
        html = themed(text, **furniture)
        return html if lines == "one line" else html.replace("><", ">\n<")

    repo = make_repo(tmp_path / "site")
    articles = {f"s{n % 3}/p{n}.html": f"<p>Article {n}.</p><p>More.</p>" for n in range(12)}
    commit(repo, {name: render(text) for name, text in articles.items()}, T1)
    commit(repo, {name: render(text, footer="2025") for name, text in articles.items()}, T2)
    articles["s1/p4.html"] = articles["s1/p4.html"].replace("More.", "More, edited.")
    commit(repo, {"s1/p4.html": render(articles["s1/p4.html"], footer="2025")}, T3)
    commit(repo, {name: render(text, nav="Home API") for name, text in articles.items()}, T4)
    results = []
    for threshold in (treehistory.MIN_POOL_BYTES, 0):
        monkeypatch.setattr(treehistory, "MIN_POOL_BYTES", threshold)
        monkeypatch.setattr(treehistory, "DEFER_MEAN_BYTES", threshold)  # (these pages: small)
        out = tmp_path / f"out-{threshold}"
        config = load_config({"base_url": BASE, "lastmod": "git", "workers": 1})
        build_from_tree(config, repo, LocalDirSink(out), output_dir=out)
        state = parse_state((out / STATE_NAME).read_bytes())
        results.append(((out / "sitemap.xml").read_bytes(), state.pages, state.blobs))
    assert results[0] == results[1]
    sitemap = results[0][0].decode()
    assert sitemap.count(f"<lastmod>{w3c(T1)}</lastmod>") == 11
    assert f"s1/p4.html</loc><lastmod>{w3c(T3)}</lastmod>" in sitemap  # its article's edit


def test_progress_tells_the_commits_read_and_the_files_dated(tmp_path: Path) -> None:
    # Issue 41: git log and the walk through older versions were the long, silent part of a
    # first run (powertools-python: 14 s and 27 s); each now tells its count.
    repo = make_repo(tmp_path / "site")
    commit(repo, {"guide.html": page("First words.", "1"), "other.html": page("Other.", "1")}, T1)
    commit(repo, {"guide.html": page("Better words.", "1")}, T2)
    commit(repo, {"guide.html": page("Better words.", "2"), "other.html": page("Other.", "2")}, T3)
    seen: list[tuple[str, int, int | None]] = []
    config = load_config({"base_url": BASE, "lastmod": "git"})
    build_from_tree(config, repo, MemorySink(), progress=lambda *tick: seen.append(tick))
    ends = {phase: (done, total) for phase, done, total in seen if done == total}
    assert ends["history"] == (3, 3)  # the three commits
    assert ends["dates"] == (2, 2)  # both pages have older versions to walk back through
    assert ends["reading"] == (2, 2) and ends["pages"] == (2, 2)
    assert ("history", 0, None) in seen and ("dates", 0, 2) in seen  # each told as it starts


def test_a_commit_time_is_made_a_lastmod_once_for_all_the_pages_it_dates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 12 pages in 2 commits: 2 commit times made lastmods, not one for each page (10,000 pages
    # written by 1,000 commits made 10,000).
    from sitemill.lastmod import pagedate

    made: list[float] = []

    def counted(moment: float, run_time: Any) -> str | None:
        made.append(moment)
        return evidence_lastmod(moment, run_time)

    evidence_lastmod = pagedate.evidence_lastmod
    monkeypatch.setattr(pagedate, "evidence_lastmod", counted)
    repo = make_repo(tmp_path / "site")
    for when, names in (("2024-01-10 09:00:00", "abcdef"), ("2024-02-11 09:00:00", "ghijkl")):
        commit(repo, {f"{name}.html": f"<p>Page {name}.</p>" for name in names}, when)
    sink = MemorySink()
    build_from_tree(load_config({"base_url": "https://example.org/", "lastmod": "git"}), repo, sink)
    assert sink.files["sitemap.xml"].count(b"<lastmod>") == 12
    assert sorted(made) == [unix("2024-01-10 09:00:00"), unix("2024-02-11 09:00:00")]
