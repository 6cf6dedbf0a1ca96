"""IndexNow in tree runs: what each run records, where it keeps it, and what it never names."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from gitutil import commit, make_repo
from outputlist import build_from_tree
from sitemill.cli.main import main
from sitemill.config.model import load_config
from sitemill.errors import ConfigError
from sitemill.report import Report
from sitemill.sinks import LocalDirSink

BASE = "https://example.com/"
KEY = "tree-key-0123456789"


def write(site: Path, name: str, words: str, *, head: str = "", footer: str = "") -> None:
    (site / name).write_text(
        f"<html><head><title>{name}</title>{head}</head><body><nav>menu</nav>"
        f"<main><p>{words}</p></main><footer>{footer}</footer></body></html>",
        encoding="utf-8",
    )


def run(site: Path, state: Path | None, mode: str = "later") -> Report:
    env = {"SITEMILL_INDEXNOW": mode, "SITEMILL_LASTMOD": "mtime"}
    if state is not None:
        env["SITEMILL_STATE"] = str(state)
    config = load_config({"base_url": BASE}, env)
    return build_from_tree(config, site, LocalDirSink(site), output_dir=site)


def state_document(path: Path) -> dict:
    return json.loads(gzip.decompress(path.read_bytes()))


@pytest.fixture
def site(tmp_path: Path) -> Path:
    folder = tmp_path / "site"
    folder.mkdir()
    for name in ("a.html", "b.html", "c.html"):
        write(folder, name, f"words of {name}")
    return folder


def test_a_first_run_announces_nothing_and_a_second_exactly_the_changes(
    site: Path, tmp_path: Path
) -> None:
    private = tmp_path / "private" / "state.json.gz"
    first = run(site, private)
    assert first.indexnow is not None and first.indexnow.urls == {}
    write(site, "a.html", "new words")
    write(site, "d.html", "a new page")
    write(site, "c.html", "words of c.html", head='<meta name="robots" content="noindex">')
    (site / "b.html").unlink()
    second = run(site, private)
    expected = {
        BASE + "a.html": "changed",
        BASE + "d.html": "added",
        BASE + "b.html": "removed",
        BASE + "c.html": "removed",
    }
    assert second.indexnow is not None and second.indexnow.urls == expected
    assert state_document(private)["indexnow"]["pending"] == expected  # private: all kept
    assert "4 URL(s) to announce" in second.indexnow.line()


def test_furniture_and_a_rerender_announce_nothing(site: Path, tmp_path: Path) -> None:
    private = tmp_path / "state.json.gz"
    run(site, private)
    for name in ("a.html", "b.html", "c.html"):  # a new footer year, and every file rewritten
        write(site, name, f"words of {name}", footer="(c) 2031")
    again = run(site, private)
    assert again.indexnow is not None and again.indexnow.urls == {}
    assert "indexnow" not in state_document(private)


def test_pending_accumulates_until_sent_and_is_never_announced_twice_as_new(
    site: Path, tmp_path: Path
) -> None:
    private = tmp_path / "state.json.gz"
    run(site, private)
    write(site, "a.html", "edit one")
    run(site, private)
    write(site, "b.html", "edit two")
    third = run(site, private)
    assert third.indexnow is not None
    assert third.indexnow.urls == {BASE + "a.html": "changed", BASE + "b.html": "changed"}
    assert third.indexnow.carried == 1 and dict(third.indexnow.found) == {"changed": 1}


def test_a_public_state_names_no_removed_page(site: Path) -> None:
    run(site, None)
    write(site, "c.html", "secret", head='<meta name="robots" content="noindex">')
    report = run(site, None)
    assert report.indexnow is not None and report.indexnow.withheld == 1
    document = state_document(site / "sitemill-state.json.gz")
    assert BASE + "c.html" not in json.dumps(document)
    assert any("not kept pending" in warning for warning in report.warnings)


def test_a_state_file_inside_the_site_counts_as_public(site: Path) -> None:
    inside = site / "private-looking" / "state.json.gz"
    run(site, inside)
    (site / "b.html").unlink()
    report = run(site, inside)
    assert report.indexnow is not None and report.indexnow.withheld == 1
    assert "indexnow" not in state_document(inside)


def test_off_keeps_no_pending(site: Path, tmp_path: Path) -> None:
    private = tmp_path / "state.json.gz"
    run(site, private)
    write(site, "a.html", "edit")
    run(site, private)
    assert "indexnow" in state_document(private)
    report = run(site, private, mode="off")
    assert report.indexnow is None and "indexnow" not in state_document(private)


@pytest.mark.parametrize(
    ("env", "key"),
    [
        ({"SITEMILL_INDEXNOW": "send"}, "indexnow_key"),
        ({"SITEMILL_INDEXNOW": "later", "SITEMILL_CONTENT_DATES": "false"}, "indexnow"),
        ({"SITEMILL_INDEXNOW": "later", "SITEMILL_LASTMOD": "none"}, "indexnow"),
        ({"SITEMILL_INDEXNOW_WRITE_KEY_FILE": "true"}, "indexnow_write_key_file"),
        ({"SITEMILL_INDEXNOW": "maybe"}, "indexnow"),
        ({"SITEMILL_INDEXNOW_KEY": "short"}, "indexnow_key"),
        ({"SITEMILL_INDEXNOW_KEY": "bad key with spaces"}, "indexnow_key"),
        ({"SITEMILL_INDEXNOW_ENDPOINT": "ftp://x/"}, "indexnow_endpoint"),
        ({"SITEMILL_INDEXNOW_ENDPOINT": "https://user:pw@x/"}, "indexnow_endpoint"),
    ],
)
def test_bad_settings_are_one_config_error_naming_the_key(env: dict, key: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config({"base_url": BASE}, env)
    assert caught.value.key == key


def test_a_bad_key_is_not_quoted_and_a_good_one_is_never_in_a_repr() -> None:
    with pytest.raises(ConfigError) as caught:
        load_config({"base_url": BASE}, {"SITEMILL_INDEXNOW_KEY": "wrong!key!value"})
    assert "wrong!key!value" not in str(caught.value)
    config = load_config({"base_url": BASE}, {"SITEMILL_INDEXNOW_KEY": KEY})
    assert config.indexnow_key == KEY and KEY not in repr(config)


def test_booleans_spell_the_modes() -> None:
    on = load_config(
        {"base_url": BASE}, {"SITEMILL_INDEXNOW": "true", "SITEMILL_INDEXNOW_KEY": KEY}
    )
    off = load_config({"base_url": BASE}, {"SITEMILL_INDEXNOW": "no"})
    assert (on.indexnow.value, off.indexnow.value) == ("send", "off")


def test_the_cli_writes_the_key_file_and_never_lists_it(
    site: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SITEMILL_INDEXNOW_KEY", KEY)
    args = ["build", str(site), "--base-url", BASE, "--lastmod", "mtime"]
    also_text = ["--include", "**/*.html", "--include", "**/*.txt"]
    for _ in range(2):  # (the second run finds the key file in the site)
        assert main([*args, "--indexnow-write-key-file", *also_text]) == 0
    assert (site / f"{KEY}.txt").read_text() == KEY
    sitemap = (site / "sitemap.xml").read_text()
    assert ".txt" not in sitemap
    captured = capsys.readouterr()
    assert KEY not in captured.out + captured.err
    assert KEY not in gzip.decompress((site / "sitemill-state.json.gz").read_bytes()).decode()


def test_sitemill_indexnow_dry_run_prints_the_pending_urls(
    site: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    private = tmp_path / "state.json.gz"
    run(site, private)
    write(site, "a.html", "edit")
    run(site, private)
    before = private.read_bytes()
    args = ["indexnow", str(site), "--base-url", BASE, "--state", str(private), "--dry-run"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "dry run: nothing was sent (1 URL(s) pending)" in out
    assert f"changed: {BASE}a.html" in out
    assert private.read_bytes() == before  # a dry run keeps everything pending


def html(words: str, footer: str) -> str:
    return (
        f"<html><head><title>t</title></head><body><nav>menu</nav><main><p>{words}</p></main>"
        f"<footer>{footer}</footer></body></html>"
    )


def test_in_git_a_theme_rerender_of_every_page_announces_only_the_edited_article(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "repo")
    pages = {f"p{n}.html": f"article {n}" for n in range(5)}
    commit(repo, {name: html(words, "2024") for name, words in pages.items()}, "2024-01-01")
    private = tmp_path / "state.json.gz"

    def build() -> Report:
        env = {"SITEMILL_INDEXNOW": "later", "SITEMILL_STATE": str(private)}
        config = load_config({"base_url": BASE}, env)
        return build_from_tree(config, repo, LocalDirSink(repo), output_dir=repo)

    build()
    pages["p3.html"] = "article 3, rewritten"
    rerender = {name: html(words, "2025 new theme") for name, words in pages.items()}
    commit(repo, rerender, "2025-01-01")
    report = build()
    assert report.indexnow is not None
    assert report.indexnow.urls == {BASE + "p3.html": "changed"}


def test_a_url_list_refuses_indexnow_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listing = tmp_path / "urls.txt"
    listing.write_text(BASE + "a\n")
    args = ["urls", str(listing), "--base-url", BASE, "--out", str(tmp_path), "--indexnow=later"]
    assert main(args) == 2  # a configuration the command cannot take: a usage error
    assert "indexnow: a URL list keeps no state" in capsys.readouterr().err
    assert not (tmp_path / "sitemap.xml").exists()


def test_sitemill_indexnow_sends_no_url_a_public_state_does_not_list(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The state beside the sitemaps is served with the site (issue 39, item 9): pending URLs
    added to it by hand are sent only when its own pages list them."""
    run(site, None)
    write(site, "a.html", "edit")
    run(site, None)
    path = site / "sitemill-state.json.gz"
    document = state_document(path)
    assert document["indexnow"]["pending"] == {f"{BASE}a.html": "changed"}
    document["indexnow"]["pending"] |= {
        f"{BASE}never-listed.html": "added",
        f"{BASE}../outside.html": "added",
        f"{BASE}b.html": "removed",
    }
    path.write_bytes(gzip.compress(json.dumps(document).encode()))
    assert main(["indexnow", str(site), "--base-url", BASE, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "dry run: nothing was sent (1 URL(s) pending)" in out
    assert f"changed: {BASE}a.html" in out


def test_the_indexnow_command_lists_a_public_state_in_the_style_auto_decided(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = tmp_path / "clean"
    site.mkdir()
    for n in range(12):  # x.html declaring x: auto lists the site in the clean style
        write(site, f"p{n}.html", f"words {n}", head=f'<link rel="canonical" href="{BASE}p{n}">')
    assert run(site, None).url_style is not None
    write(site, "p1.html", "an edit", head=f'<link rel="canonical" href="{BASE}p1">')
    report = run(site, None)
    assert report.indexnow is not None and report.indexnow.urls == {f"{BASE}p1": "changed"}
    capsys.readouterr()
    assert main(["indexnow", str(site), "--base-url", BASE, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert f"changed: {BASE}p1" in out and "(1 URL(s) pending)" in out
