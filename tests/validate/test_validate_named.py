"""`sitemill validate` of an output folder reads the user's sitemaps sitemill's index names, as
it reads sitemill's own children: each found in the folder is checked (XSD, location rule); one
not there is a note only when the state beside the index proves the index is sitemill's."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from sitemill.cli.main import main
from sitemill.validate import _ownindex as ownindex

BASE = "https://example.com/"
NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
PAGE = "<!doctype html><title>home</title><main><p>Hello</p></main>"


def user_sitemap(loc: str) -> str:
    head = '<?xml version="1.0" encoding="UTF-8"?>\n'
    return f"{head}<urlset {NS}><url><loc>{loc}</loc></url></urlset>\n"


def test_the_named_sitemaps_found_in_the_folder_are_validated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "index.html").write_text(PAGE)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "sitemap.xml").write_text(user_sitemap(f"{BASE}blog/"))  # above it
    argv = ["build", str(tmp_path), "--base-url", BASE, "--sitemap", "docs/sitemap.xml", "-q"]
    assert main([*argv, "--lastmod", "mtime"]) == 0
    assert f"<loc>{BASE}docs/sitemap.xml</loc>" in (tmp_path / "sitemap.xml").read_text()
    capsys.readouterr()
    assert main(["validate", str(tmp_path), "--base-url", BASE]) == 1
    out = capsys.readouterr()
    assert f"{tmp_path / 'docs' / 'sitemap.xml'}:2: loc {BASE}blog/ is outside" in out.out + out.err
    (tmp_path / "docs" / "sitemap.xml").write_text(user_sitemap(f"{BASE}docs/a/"))
    assert main(["validate", str(tmp_path), "--base-url", BASE]) == 0


BLOG = f"{BASE}blog-sitemap.xml"
NOTE = (
    f"child {BLOG} is not in {{out}}: one of your own sitemaps, which sitemill's index names on "
    "purpose (another app on the host may serve it); `sitemill check` asks it live"
)


def build_naming_the_blog(tmp_path: Path, *more: str) -> Path:
    """A build of one page into ``out`` whose index names blog-sitemap.xml, which no folder
    holds (another app serves it): the build names it all the same."""
    site, out = tmp_path / "site", tmp_path / "out"
    site.mkdir()
    (site / "index.html").write_text(PAGE)
    argv = ["build", str(site), "--base-url", BASE, "--out", str(out), "-q", *more]
    assert main([*argv, "--sitemap", "blog-sitemap.xml"]) == 0
    assert f"<loc>{BLOG}</loc>" in (out / "sitemap.xml").read_text()
    return out


def validate(out: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    capsys.readouterr()
    code = main(["validate", str(out)])
    found = capsys.readouterr()
    assert found.err == ""  # (never a traceback)
    return code, found.out.splitlines()


def edit_state(out: Path, edit: dict[str, Any]) -> None:
    path = out / "sitemill-state.json.gz"
    document = json.loads(gzip.decompress(path.read_bytes()))
    path.write_bytes(gzip.compress(json.dumps({**document, **edit}).encode(), mtime=0))


def missing(out: Path, name: str) -> str:
    return f"child {BASE}{name} is missing: no file {out / name}"


def test_a_users_sitemap_another_app_serves_is_a_note_in_sitemills_own_index(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A build and a validate of its output: the index names the user's sitemap on purpose.
    out = build_naming_the_blog(tmp_path)
    code, lines = validate(out, capsys)
    assert (code, lines) == (
        0,
        [f"{out / 'sitemap.xml'}:4: note: {NOTE.format(out=out)}", f"valid: {out} (with 1 note)"],
    )
    capsys.readouterr()
    assert main(["-q", "validate", str(out)]) == 0
    assert capsys.readouterr().out == ""


def test_an_index_edited_by_hand_stays_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = build_naming_the_blog(tmp_path)
    index = out / "sitemap.xml"
    index.write_bytes(index.read_bytes() + b"\n")  # the same document, other bytes
    code, lines = validate(out, capsys)
    assert code == 1
    assert lines == [f"{index}:4: {missing(out, 'blog-sitemap.xml')}"]


def test_a_missing_child_of_sitemills_own_name_stays_a_violation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An index the state proves sitemill's, naming a missing sitemap-2.xml and a missing child
    # of a group the state says sitemill wrote (sitemap-news.xml): both violations; the
    # user's sitemap beside them a note.
    out = build_naming_the_blog(tmp_path)
    index = out / "sitemap.xml"
    text = index.read_text()
    for name in ("sitemap-2.xml", "sitemap-news.xml"):
        text = text.replace(
            "<sitemap><loc>", f"<sitemap><loc>{BASE}{name}</loc></sitemap>\n<sitemap><loc>", 1
        )
    index.write_text(text)
    digest = hashlib.md5(index.read_bytes(), usedforsecurity=False).hexdigest()
    outputs = ["sitemap-1.xml", "sitemap-news.xml", "sitemap.xml"]
    edit_state(out, {"outputs": outputs, "digests": {"sitemap.xml": digest}})
    code, lines = validate(out, capsys)
    assert code == 1
    assert [line.split(": ", 1)[1] for line in lines] == [
        missing(out, "sitemap-news.xml"),
        missing(out, "sitemap-2.xml"),
        f"note: {NOTE.format(out=out)}",
    ]


@pytest.mark.parametrize(
    "state",
    [
        None,  # none in the folder: a build whose state is kept elsewhere (--state)
        {"digests": {"sitemap.xml": "0" * 32}},  # another index's digest
        {"digests": {"sitemap.xml": 5}},  # not a digest
        {"format": "another"},  # not a sitemill state
        b"not gzip",
        gzip.compress(b"{" * 100_000, mtime=0),
        gzip.compress(b"\xff\xfe garbage", mtime=0),
        "a folder",
    ],
    ids=["elsewhere", "digest", "not-a-digest", "format", "not-gzip", "nested", "binary", "dir"],
)
def test_without_a_state_that_proves_the_index_sitemills_validate_stays_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], state: object
) -> None:
    more = ["--state", str(tmp_path / "elsewhere.json.gz")] if state is None else []
    out = build_naming_the_blog(tmp_path, *more)
    path = out / "sitemill-state.json.gz"
    if isinstance(state, dict):
        edit_state(out, state)
    elif isinstance(state, bytes):
        path.write_bytes(state)
    elif state == "a folder":
        path.unlink()
        path.mkdir()
    assert path.exists() == (state is not None)
    code, lines = validate(out, capsys)
    assert code == 1
    assert lines == [f"{out / 'sitemap.xml'}:4: {missing(out, 'blog-sitemap.xml')}"]


def test_the_state_is_read_only_when_an_index_names_a_missing_child(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = build_naming_the_blog(tmp_path)
    (out / "blog-sitemap.xml").write_text(user_sitemap(f"{BASE}blog/"))
    reads: list[Path] = []
    monkeypatch.setattr(ownindex, "_read_state", reads.append)
    assert validate(out, capsys) == (0, [f"valid: {out}"])
    assert reads == []
