"""`sitemill why` names a date's root evidence also when the state kept it: the state records per
dated page its rung and commit (never a file's name: it may be public), and `why` finds the
source again and names the commit; an older state's record says the evidence is not recorded,
until a run that changes the page records it (docs/lastmod.md, "Why this date?")."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest

from conftest import BASE_URL, write_site
from gitutil import commit, make_repo
from sitemill.cli.main import main
from sitemill.filenames.outputs import STATE_NAME
from sitemill.state.model import dump_document

WHEN = "2021-04-05T06:07:08"
MODIFIED = '<meta property="article:modified_time" content="{0}">'
TEXT = " ".join(f"word{n} of the home page that its source holds" for n in range(12))


@pytest.fixture(autouse=True)
def _no_sitemill_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [name for name in os.environ if name.startswith("SITEMILL_")]:
        monkeypatch.delenv(name)


def html(title: str, text: str, head: str = "") -> str:
    return (
        f"<!doctype html><html><head><title>{title}</title>{head}</head>"
        f"<body><main><h1>{title}</h1><p>{text}</p></main></body></html>"
    )


def build(site: Path) -> None:
    assert main(["build", str(site), "--base-url", BASE_URL, "-q"]) == 0


def why(capsys: pytest.CaptureFixture[str], page: str, site: Path) -> list[str]:
    capsys.readouterr()
    assert main(["why", page, str(site), "--base-url", BASE_URL]) == 0
    return capsys.readouterr().out.splitlines()


def document(site: Path) -> dict[str, object]:
    found = json.loads(gzip.decompress((site / STATE_NAME).read_bytes()))
    assert isinstance(found, dict)
    return found


def records(site: Path) -> dict[str, dict[str, object]]:
    pages = document(site)["pages"]
    assert isinstance(pages, dict)
    return pages


def mkdocs_site(tmp_path: Path) -> tuple[Path, str]:
    """MkDocs' own output folder (site/, untracked), its home page from docs/README.md."""
    repo = make_repo(tmp_path / "repo")
    files = {".gitignore": "site/\n", "mkdocs.yml": "site_name: S\n"}
    sha = commit(
        repo, {**files, "docs/README.md": f"# Home\n\n{TEXT}\n"}, WHEN, "Write the home page"
    )
    site = write_site(repo / "site", {"index.html": html("Home", TEXT)})
    return site, sha


def test_a_kept_source_date_names_its_source_and_commit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site, sha = mkdocs_site(tmp_path)
    build(site)
    assert records(site)["index.html"]["evidence"] == {"rung": "source", "commit": 0}
    assert document(site)["commits"] == [sha]
    state = (site / STATE_NAME).read_bytes()
    sitemap = (site / "sitemap.xml").read_bytes()
    build(site)  # the state kept the date
    assert (site / STATE_NAME).read_bytes() == state  # (deterministic: nothing to write)
    assert (site / "sitemap.xml").read_bytes() == sitemap
    lines = why(capsys, "index.html", site)
    assert lines[1].startswith("  why: kept: the state at ")
    assert lines[2:4] == [
        "  evidence: rung 2, its source in the repository, docs/README.md, as a reader sees it",
        f'  text since: {sha[:10]} 2021-04-05 06:07 UTC "Write the home page"',
    ]


def test_a_kept_source_date_whose_source_changed_since_names_its_commit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site, sha = mkdocs_site(tmp_path)
    build(site)
    commit(site.parent, {"docs/README.md": "# Home\n\nRewritten.\n"}, "2022-01-01T00:00:00")
    lines = why(capsys, "index.html", site)  # (the page itself is unchanged: kept)
    assert lines[2:4] == [
        "  evidence: rung 2, its source in the repository, as a reader sees it",
        f'  text since: {sha[:10]} 2021-04-05 06:07 UTC "Write the home page"',
    ]


def declared_site(tmp_path: Path) -> Path:
    """A fresh build outside any repository (one build's file times), each page declaring."""
    dates = ["2023-01-02T03:04:05+00:00", "2023-05-06T07:08:09+00:00", "2023-09-10T11:12:13+00:00"]
    pages = {
        f"p{n}.html": html(f"P{n}", f"page {n}", MODIFIED.format(d)) for n, d in enumerate(dates)
    }
    return write_site(tmp_path / "site", pages)


def test_a_kept_declared_date_names_its_declaration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = declared_site(tmp_path)
    build(site)
    kind = "meta article:modified_time"
    assert records(site)["p1.html"]["evidence"] == {"rung": "declared", "kind": kind}
    lines = why(capsys, "p1.html", site)
    assert lines[0] == "p1.html: <lastmod>2023-05-06T07:08:09+00:00</lastmod>"
    assert lines[2] == (
        f"  evidence: rung 3, its own declared modification date 2023-05-06T07:08:09+00:00 ({kind})"
    )


def test_an_older_state_says_the_evidence_is_not_recorded_until_the_page_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = declared_site(tmp_path)
    build(site)
    document = json.loads(gzip.decompress((site / STATE_NAME).read_bytes()))
    for record in document["pages"].values():
        record.pop("evidence", None)  # as an earlier sitemill wrote it
    older = dump_document(document)  # (the bytes sitemill writes)
    (site / STATE_NAME).write_bytes(older)
    assert why(capsys, "p1.html", site)[2] == (
        "  evidence: not recorded (a state of an earlier sitemill; "
        "the next run that changes the page records it)"
    )
    build(site)  # nothing changed: the state stays as it was
    assert (site / STATE_NAME).read_bytes() == older
    write_site(site, {"p1.html": html("P1", "page 1, rewritten")}, mtime=1_720_000_000)
    build(site)
    assert records(site)["p1.html"]["evidence"] == {"rung": "deploy"}
    assert "evidence" not in records(site)["p0.html"]
