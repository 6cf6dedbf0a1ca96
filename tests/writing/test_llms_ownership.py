"""Whose llms files a tree's build writes, replaces and deletes (issue 67): a user's llms.txt is
kept byte for byte and said once (llms_txt = "replace" writes over it), a user's Markdown twin
never; once off, sitemill's own files the state records are deleted, a user's and one edited
since are not; a page gone noindex loses its twin and its line."""

from __future__ import annotations

import gzip
import json
import subprocess
from pathlib import Path

from clirun import run_sitemill
from llmsrecord import md5
from llmssite import BASE, LLMS_FILES, SITE, TWINS, links, page, write_site

ALL = ("--llms-txt", "--llms-full", "--llms-pages")
OFF = ("--llms-txt", "off", "--no-llms-full", "--no-llms-pages")
MINE = b"# Our site\n\n> Written by hand.\n\n## Docs\n\n- [Guide](https://example.com/docs/guide.html)\n"


def build(site: Path, *flags: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = run_sitemill("build", str(site), "--base-url", BASE, *flags)
    assert done.returncode == 0 or not check, done.stdout + done.stderr
    return done


def warnings(done: subprocess.CompletedProcess[str], about: str) -> list[str]:
    return [line for line in done.stderr.splitlines() if "warning" in line and about in line]


def recorded(site: Path) -> dict[str, str]:
    state = json.loads(gzip.decompress((site / "sitemill-state.json.gz").read_bytes()))
    llms: dict[str, str] = state.get("llms", {})
    return llms


def test_a_users_llms_txt_is_kept_byte_for_byte_and_said_once(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", {**SITE, "llms.txt": MINE})
    done = build(site, *ALL)
    assert (site / "llms.txt").read_bytes() == MINE
    (line,) = warnings(done, "llms.txt")
    assert "llms.txt is there already and sitemill did not write it" in line
    assert 'llms_txt = "replace"' in line
    assert (site / "fr/llms.txt").is_file()  # the rest is written
    assert "llms.txt" not in recorded(site)
    again = build(site, *ALL)
    assert (site / "llms.txt").read_bytes() == MINE and len(warnings(again, "llms.txt")) == 1


def test_replace_writes_over_a_users_llms_txt_and_keeps_it_as_sitemills(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", {**SITE, "llms.txt": MINE})
    build(site, "--llms-txt", "replace")
    text = (site / "llms.txt").read_text()
    assert text != MINE.decode() and BASE + "docs/guide.html" in links(text)
    assert "llms.txt" in recorded(site)
    done = build(site, "--llms-txt")  # sitemill's now: no word
    assert warnings(done, "llms.txt") == [] and (site / "llms.txt").read_text() == text


def test_a_users_markdown_twin_is_never_replaced(tmp_path: Path) -> None:
    mine = b"# The guide, by hand\n"
    for mode in ("on", "replace"):
        site = write_site(tmp_path / mode, {**SITE, "docs/guide.html.md": mine})
        done = build(site, "--llms-txt", mode, "--llms-pages")
        assert (site / "docs/guide.html.md").read_bytes() == mine, mode
        assert len(warnings(done, "docs/guide.html.md")) == 1, mode
        assert (site / "index.html.md").is_file()
        assert "docs/guide.html.md" not in recorded(site)
        build(site, *OFF)
        assert (site / "docs/guide.html.md").read_bytes() == mine


def test_turned_off_sitemills_own_files_go_and_a_users_stay(tmp_path: Path) -> None:
    mine = b"# About, by hand\n"
    site = write_site(tmp_path / "site", {**SITE, "about.html.md": mine})
    build(site, *ALL)
    assert set(recorded(site)) == LLMS_FILES | TWINS
    done = build(site, *OFF)
    for name in LLMS_FILES | TWINS:
        assert not (site / name).exists(), name
    assert (site / "about.html.md").read_bytes() == mine
    assert "deleted: fr/llms.txt, llms-full.txt, llms.txt, 3 Markdown twins" in done.stdout
    assert recorded(site) == {}
    assert "nothing changed" in build(site, *OFF).stdout


def test_a_page_gone_noindex_loses_its_twin_and_its_line(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", SITE)
    build(site, *ALL)
    assert BASE + "docs/guide.html" in links((site / "llms.txt").read_text())
    noindex = '<meta name="robots" content="noindex">'
    write_site(site, {"docs/guide.html": page("Guide", "Withdrawn.", noindex)}, mtime=1_709_380_800)
    done = build(site, *ALL)
    assert not (site / "docs/guide.html.md").exists()
    assert BASE + "docs/guide.html" not in links((site / "llms.txt").read_text())
    assert "Withdrawn" not in (site / "llms-full.txt").read_text()
    assert "docs/guide.html.md" not in recorded(site)
    assert "deleted: 1 Markdown twin" in done.stdout


def test_an_own_file_the_user_edited_since_is_not_deleted(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", SITE)
    build(site, *ALL)
    edited = {
        name: (site / name).read_bytes() + b"\nA line of mine.\n"
        for name in ("llms-full.txt", "docs/guide.html.md")
    }
    write_site(site, edited)
    build(site, *OFF)
    for name, data in edited.items():
        assert (site / name).read_bytes() == data, name
    assert not (site / "llms.txt").exists() and not (site / "index.html.md").exists()


def test_without_content_dates_twins_are_refused_in_one_line(tmp_path: Path) -> None:
    """--no-content-dates keeps no state, so no record of what sitemill wrote: the twin of a
    page gone noindex would stay published (its name and text those of a hidden page). The
    run says so in one line and writes nothing."""
    site = write_site(tmp_path / "site", SITE)
    before = sorted(path.name for path in site.rglob("*"))
    done = build(site, *ALL, "--no-content-dates", check=False)
    assert done.returncode == 2
    assert "llms_pages" in done.stderr and "content dates" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert sorted(path.name for path in site.rglob("*")) == before


def test_a_state_naming_a_users_file_is_no_licence_to_delete_it(tmp_path: Path) -> None:
    """A state is input from outside: one whose record names the user's README.md with its
    very MD5 deleted it (sitemill deletes only a file its own text says it wrote)."""
    readme = b"# Our project\n"
    site = write_site(tmp_path / "site", {**SITE, "README.md": readme, "x/y.html.md": readme})
    build(site, *ALL)
    path = site / "sitemill-state.json.gz"
    state = json.loads(gzip.decompress(path.read_bytes()))
    state["llms"] |= {"README.md": md5(readme), "x/y.html.md": md5(readme)}
    path.write_bytes(gzip.compress(json.dumps(state).encode()))
    done = build(site, *ALL)
    assert (site / "README.md").read_bytes() == readme
    assert (site / "x/y.html.md").read_bytes() == readme
    assert "deleted" not in done.stdout


def test_a_state_naming_a_users_twin_is_no_licence_to_replace_it(tmp_path: Path) -> None:
    """Nor to write over the user's twin (sitemill writes over a file its own text says it
    wrote)."""
    mine = b"# The guide, by hand\n"
    site = write_site(tmp_path / "site", {**SITE, "docs/guide.html.md": mine})
    build(site, *ALL)
    path = site / "sitemill-state.json.gz"
    state = json.loads(gzip.decompress(path.read_bytes()))
    state["llms"] |= {"docs/guide.html.md": md5(mine)}
    path.write_bytes(gzip.compress(json.dumps(state).encode()))
    changed = {"index.html": SITE["index.html"].replace("Welcome", "Hello")}
    write_site(site, changed, mtime=1_709_380_800)  # (a page changed: the twins made again)
    build(site, *ALL)
    assert (site / "docs/guide.html.md").read_bytes() == mine


def test_an_own_llms_txt_the_user_edited_since_is_kept_when_it_would_change(
    tmp_path: Path,
) -> None:
    """Its mark stays in a file the user added to; its bytes are not the ones recorded: the
    user's now, left as it is and said."""
    site = write_site(tmp_path / "site", SITE)
    build(site, *ALL)
    edited = (site / "llms.txt").read_bytes() + b"\n## Mine\n\n- [Ours](https://example.org/x)\n"
    (site / "llms.txt").write_bytes(edited)
    changed = {"index.html": SITE["index.html"].replace("Welcome", "Hello")}
    write_site(site, changed, mtime=1_709_380_800)
    done = build(site, *ALL)
    assert (site / "llms.txt").read_bytes() == edited
    assert len(warnings(done, "llms.txt")) == 1
