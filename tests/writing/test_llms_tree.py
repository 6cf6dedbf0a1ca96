"""llms.txt and its kin from `sitemill build` of a tree (issue 67): exactly the pages the sitemap
lists (a language's in its folder's file), nothing that names a page it leaves out, the same
bytes from two fresh runs, and nothing written by a second run; the site root a wall (a folder
or a file at an llms name that is a link, a FIFO: refused, said, nothing written outside)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from clirun import run_sitemill
from hidden import CONFIG_TOML, assert_names_no_hidden_page
from hidden import SITE as HIDDEN_SITE
from llmssite import (
    BASE,
    LLMS_FILES,
    SITE,
    TWINS,
    files_below,
    hidden_words,
    links,
    sitemap_locs,
    write_site,
)

ALL = ("--llms-txt", "--llms-full", "--llms-pages")


def build(site: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    done = run_sitemill("build", str(site), "--base-url", BASE, *flags)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def test_llms_txt_links_exactly_the_pages_the_sitemap_lists(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", SITE)
    build(site, *ALL)
    root, french = (site / "llms.txt").read_text(), (site / "fr/llms.txt").read_text()
    locs = sitemap_locs((site / "sitemap.xml").read_bytes())
    assert len(locs) == 4  # home, fr/, the guide, the PDF
    assert sorted(links(root) + links(french)) == sorted(locs)  # each page once, in one file
    assert links(french) == [BASE + "fr/"]
    assert BASE + "manual.pdf" in links(root)
    written = {name for name in files_below(site) if name.endswith(".md") or "llms" in name}
    assert written == LLMS_FILES | TWINS  # a twin of each listed HTML page, none of the PDF
    full = (site / "llms-full.txt").read_text()
    assert "How to use Acme, step by step." in full and "Bienvenue chez Acme." in full
    assert "Menu" not in full  # the site's furniture is not the content
    for name in written:
        text = (site / name).read_text()
        for word in hidden_words():
            assert word not in text and word not in name, (name, word)


def test_a_second_run_writes_nothing(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", SITE)
    build(site, *ALL)
    before = files_below(site)
    assert set(before) >= LLMS_FILES | TWINS
    done = build(site, *ALL)
    assert files_below(site) == before  # no file's bytes, inode or time changed
    assert "nothing changed" in done.stdout
    assert "written:" not in done.stdout


def test_two_fresh_runs_write_the_same_bytes(tmp_path: Path) -> None:
    made = []
    for name in ("one", "two"):  # each process its own hash seed
        site = write_site(tmp_path / name / "site", SITE)
        build(site, *ALL)
        made.append({name: data for name, (_, _, data) in files_below(site).items()})
    assert made[0] == made[1]
    assert set(made[0]) >= LLMS_FILES | TWINS


def test_no_llms_file_names_a_page_of_any_kind_left_out(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", HIDDEN_SITE)
    config = tmp_path / "sitemill.toml"
    config.write_text(CONFIG_TOML, encoding="utf-8")
    for _ in range(2):  # the second run from the first one's state
        done = run_sitemill("build", str(site), "--config", str(config), *ALL)
        assert done.returncode == 0, done.stderr
        files = {
            name: data
            for name, (_, _, data) in files_below(site).items()
            if name.endswith(".md") or "llms" in name
        }
        assert {"llms.txt", "llms-full.txt", "index.html.md", "about.html.md"} <= set(files)
        names = {"(the names)": "\n".join(files).encode()}  # a twin's name names its page
        assert_names_no_hidden_page(files | names, sitemaps=False)


# --- the site root is a wall -----------------------------------------------------------------


def test_a_folder_linked_out_of_the_output_gets_no_twin_and_a_warning(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", SITE)
    out, outside = tmp_path / "out", tmp_path / "outside"
    out.mkdir()
    outside.mkdir()
    (out / "docs").symlink_to(outside)  # the twin of docs/guide.html would go through it
    done = run_sitemill("build", str(site), "--base-url", BASE, "--out", str(out), *ALL)
    assert done.returncode == 0, done.stderr
    assert list(outside.iterdir()) == []
    (line,) = [line for line in done.stderr.splitlines() if "docs/guide.html.md" in line]
    assert "is not written" in line and "not a directory of the site's own" in line
    assert (out / "index.html.md").is_file() and (out / "fr/index.html.md").is_file()
    assert BASE + "docs/guide.html" in links((out / "llms.txt").read_text())  # still listed


def test_a_page_folder_linked_out_of_the_site_is_no_page_and_has_no_twin(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", {"index.html": SITE["index.html"]})
    outside = write_site(tmp_path / "outside", {"guide.html": SITE["docs/guide.html"]})
    (site / "docs").symlink_to(outside)
    done = build(site, *ALL)
    assert "not followed: docs" in done.stderr
    assert sorted(os.listdir(outside)) == ["guide.html"]
    assert "guide" not in (site / "llms.txt").read_text()


def test_links_at_llms_names_are_refused_and_never_followed(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", SITE)
    secret = tmp_path / "secret.txt"
    secret.write_text("not the site's\n")
    (site / "llms.txt").symlink_to(secret)
    (site / "docs/guide.html.md").symlink_to(secret)
    done = build(site, *ALL, "--llms-txt", "replace")
    assert secret.read_text() == "not the site's\n"
    assert (site / "llms.txt").is_symlink() and (site / "docs/guide.html.md").is_symlink()
    for name in ("llms.txt", "docs/guide.html.md"):
        (line,) = [line for line in done.stderr.splitlines() if f"{name} is not written" in line]
        assert "symbolic link" in line
    assert (site / "fr/llms.txt").is_file()


def test_a_fifo_at_llms_txts_place_is_refused_without_hanging(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", SITE)
    os.mkfifo(site / "llms.txt")
    done = build(site, *ALL)  # (run_sitemill's timeout fails a run that hangs)
    (line,) = [line for line in done.stderr.splitlines() if "llms.txt is not written" in line]
    assert "FIFO" in line
    assert (site / "fr/llms.txt").is_file() and (site / "llms-full.txt").is_file()


def test_an_include_of_text_files_never_lists_sitemills_own(tmp_path: Path) -> None:
    """A site that lists its .txt and .md files: llms.txt, llms-full.txt and the twins are
    sitemill's outputs, never pages (the second run listed them, and llms.txt itself)."""
    site = write_site(tmp_path / "site", {**SITE, "notes.txt": "Plain notes.\n"})
    include = ("--include", "**/*.html", "--include", "**/*.txt", "--include", "**/*.md")
    build(site, *ALL, *include)
    first = files_below(site)
    done = build(site, *ALL, *include)
    assert files_below(site) == first and "nothing changed" in done.stdout
    locs = sitemap_locs((site / "sitemap.xml").read_bytes())
    assert BASE + "notes.txt" in locs  # a text file of the site's is still a page
    assert not [loc for loc in locs if "llms" in loc or loc.endswith(".md")]
