"""The state as input from outside, through the real `sitemill` command: remembered dates that
cannot be true, `--previous-state none`, a state that cannot be written, a corrupt one."""

from __future__ import annotations

import gzip
import json
import os
import re
from pathlib import Path

import pytest

from clirun import run_sitemill
from conftest import BASE_URL, FIXED_MTIME, SiteMaker, page
from livesite import recording_server
from sitemill.filenames.outputs import STATE_NAME

NO_PROXY = {"no_proxy": "*", "NO_PROXY": "*"}
HOSTILE = [
    "2999-01-01T00:00:00+00:00",
    "yesterday",
    "<b>2024-01-01</b>",
    "2024-01-01T00:00:00+00:00\nsitemill: error: forged",
    "9" * 10_000_000,
]


def build(site: Path, out: Path, *extra: str) -> tuple[int, str, str]:
    done = run_sitemill(
        "build", str(site), "--base-url", BASE_URL, "--out", str(out), *extra, env=NO_PROXY
    )
    return done.returncode, done.stdout, done.stderr


def test_the_live_sites_dates_that_cannot_be_true_are_not_published(
    make_site: SiteMaker, tmp_path: Path, live_site: tuple[Path, str]
) -> None:
    served, url = live_site
    site = make_site({f"p{n}.html": page(f"page {n}") for n in range(len(HOSTILE) + 1)})
    for n in range(len(HOSTILE) + 1):  # written months apart: a first run dates them
        os.utime(site / f"p{n}.html", (FIXED_MTIME - n * 40 * 86_400,) * 2)
    assert build(site, served)[0] == 0
    first = (served / "sitemap.xml").read_text()
    # Whoever answers at the base URL rewrites every date but one (fingerprints kept).
    document = json.loads(gzip.decompress((served / STATE_NAME).read_bytes()))
    records = sorted(document["pages"].items())
    for (_, record), value in zip(records, HOSTILE, strict=False):
        record["lastmod"] = value
    (served / STATE_NAME).write_bytes(gzip.compress(json.dumps(document).encode()))
    out = tmp_path / "fresh"
    code, stdout, stderr = build(site, out, "--previous-state", url + STATE_NAME)
    assert code == 0
    (warning,) = stderr.splitlines()
    assert warning.startswith("sitemill: warning: ignoring 5 remembered lastmod value(s)")
    assert "(e.g. '2999-01-01T00:00:00+00:00')" in warning
    sitemap = (out / "sitemap.xml").read_text()
    # The refused dates are decided anew, by the ladder: the pages' own (spread) mtimes.
    assert sitemap.count("<lastmod>") == len(HOSTILE) + 1
    assert re.findall("<lastmod>.*?<", sitemap) == re.findall("<lastmod>.*?<", first)
    assert "2999" not in sitemap and "forged" not in sitemap
    assert "lastmod: 1 kept, 5 dated by their file times" in stdout


def test_previous_state_none_fetches_nothing(make_site: SiteMaker, tmp_path: Path) -> None:
    with recording_server() as (asked, base):
        site = make_site({"index.html": page()})
        config = tmp_path / "sitemill.toml"
        url = f"{base}{STATE_NAME}"
        config.write_text(f'previous_state = "{url}"\n')
        for spelling in (["--previous-state", "none"], ["--previous-state", "NONE"]):
            code, _stdout, stderr = build(
                site, tmp_path / "out", "--config", str(config), *spelling
            )
            assert (code, stderr) == (0, "")
        config.write_text('previous_state = "none"\n')
        code, _, stderr = build(site, tmp_path / "out2", "--config", str(config))
        assert (code, stderr) == (0, "")
        assert asked == []
        assert build(site, tmp_path / "out3", "--previous-state", url)[0] == 0
        assert asked == [f"/{STATE_NAME}"]  # the same server, when it is named


def test_a_state_that_cannot_be_written_is_one_warning(
    make_site: SiteMaker, tmp_path: Path
) -> None:
    site = make_site({"index.html": page()})
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    state = blocker / "state.json.gz"  # its folder cannot be made (root or not)
    code, _stdout, stderr = build(site, tmp_path / "out", "--state", str(state))
    assert code == 0
    # Reading it failed too (one warning for each), and the sitemaps are written all the same.
    read, written = stderr.splitlines()
    assert read.startswith(f"sitemill: warning: cannot read the state {state}")
    assert written.startswith(f"sitemill: warning: cannot write the state {state}")
    assert written.endswith("the sitemaps are published, but the next run starts over")
    assert (tmp_path / "out" / "sitemap.xml").is_file()


def test_a_corrupt_state_beside_earlier_sitemaps_is_one_warning(
    make_site: SiteMaker, tmp_path: Path
) -> None:
    site = make_site({"index.html": page()})
    out = tmp_path / "out"
    assert build(site, out)[0] == 0
    (out / STATE_NAME).write_bytes(b"\x1f\x8bnot gzip at all")
    code, _, stderr = build(site, out)
    assert code == 0
    (warning,) = stderr.splitlines()
    assert warning.startswith(f"sitemill: warning: ignoring the state {STATE_NAME}: ")
    assert "was the state deleted" not in stderr
    # A state that is gone is the other warning, alone.
    (out / STATE_NAME).unlink()
    code, _, stderr = build(site, out)
    assert code == 0
    (warning,) = stderr.splitlines()
    assert "was the state deleted?" in warning
    assert FIXED_MTIME


# Page names a state may hold that name no page of this site (issue 78): each is dropped at
# parse with one warning, never reported as a removed URL, never opened.
HOSTILE_NAMES = [
    "x\x00y.html",
    "p%00q.html",  # NUL once unquoted
    "../outside.html",
    "a/../../outside.html",
    "%2e%2e/outside.html",
    "/etc/passwd",
    "a\\b.html",
    "https://other.example/page.html",
    "//other.example/page.html",
    "new\nline.html",
    "tab\t.html",
    "del\x7f.html",
    "a//b.html",
    "./a.html",
]


def _with_page_name(state: Path, name: str) -> None:
    document = json.loads(gzip.decompress(state.read_bytes()))
    document["pages"][name] = document["pages"]["gone.html"]
    state.write_bytes(gzip.compress(json.dumps(document).encode()))


def _site_and_state(make_site: SiteMaker, tmp_path: Path, name: str) -> tuple[Path, Path]:
    """A site built once (its state naming gone.html too), then the hostile ``name`` added
    to that state's pages; gone.html is gone since: one URL truly removed."""
    site = make_site({"index.html": page("home"), "gone.html": page("gone")})
    assert build(site, site)[0] == 0
    (site / "gone.html").unlink()
    state = tmp_path / "state.json.gz"
    state.write_bytes((site / STATE_NAME).read_bytes())
    _with_page_name(state, name)
    return site, state


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_page_name_that_is_no_page_of_the_site_is_dropped_by_build(
    make_site: SiteMaker, tmp_path: Path, name: str
) -> None:
    site, state = _site_and_state(make_site, tmp_path, name)
    (site / STATE_NAME).write_bytes(state.read_bytes())
    code, _, stderr = build(site, site)
    assert code == 0, stderr
    assert "Traceback" not in stderr
    warning, removed = stderr.splitlines()  # (gone.html: issue 82, said before the deploy)
    assert removed.startswith("sitemill: warning: 1 URL removed that nothing redirects: /gone")
    assert warning.startswith(
        f"sitemill: warning: ignoring 1 page name(s) of the state {STATE_NAME} that name no "
        f"page of this site (e.g. {name!r})"
    ), warning
    kept = json.loads(gzip.decompress((site / STATE_NAME).read_bytes()))
    assert set(kept.get("removed", {})) == {f"{BASE_URL}gone.html"}
    assert name not in kept["pages"]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_page_name_that_is_no_page_of_the_site_is_dropped_by_diff(
    make_site: SiteMaker, tmp_path: Path, name: str
) -> None:
    site, state = _site_and_state(make_site, tmp_path, name)
    done = run_sitemill(
        "diff", str(site), "--base-url", BASE_URL, "--against", str(state), env=NO_PROXY
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    (warning,) = done.stderr.splitlines()
    assert warning.startswith("sitemill: warning: ignoring 1 page name(s) of the state")
    assert f"(e.g. {name!r})" in warning
    assert "0 added, 0 changed, 1 removed" in done.stdout, done.stdout
    assert "other.example" not in done.stdout and "outside" not in done.stdout
