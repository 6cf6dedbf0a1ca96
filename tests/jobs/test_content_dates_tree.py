"""Content dates on a tree that git does not date: a CI build folder rebuilt from scratch keeps
its dates (new mtimes, new asset names), an edited page moves only its own date, a
build stamp is left out with fingerprint_ignore, and a "Last updated on" footer without being
told (fingerprint version 3: a self-date in a page-level footer)."""

from __future__ import annotations

import gzip
import json
import os
import re
from pathlib import Path
from typing import Any

from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.filenames.outputs import STATE_NAME
from sitemill.lastmod.fingerprint.digest import FINGERPRINT_VERSION, fingerprint_html
from sitemill.report import Report
from sitemill.sinks import LocalDirSink
from sitemill.state.parse import parse_state

BASE = "https://example.com/"
T1, T2, T3 = 1_700_000_000, 1_710_000_000, 1_720_000_000
W1, W2, W3 = "2023-11-14T22:13:20+00:00", "2024-03-09T16:00:00+00:00", "2024-07-03T09:46:40+00:00"
# A first build whose files were written weeks apart (a site uploaded page by page): its
# mtimes are no build's stamp, so a first run dates each page by its own (FIRST).
SPREAD = 45 * 86_400
FIRST = {
    "": W1,
    "a/": "2023-09-30T22:13:20+00:00",
    "b.html": "2023-08-16T22:13:20+00:00",
    "manual.pdf": "2023-07-02T22:13:20+00:00",
}


def render(title: str, text: str, build: str, updated: str = "2024-01-01") -> bytes:
    """A page as a static site generator writes it: asset names and a generator tag change
    with every build; what a reader sees does not."""
    return (
        f'<!DOCTYPE html>\n<html lang="en">\n<head>\n  <meta charset="utf-8">\n'
        f'  <meta name="generator" content="Hugo 0.12{build}">\n'
        f"  <title>{title}</title>\n"
        f'  <link rel="stylesheet" href="/css/site.{build}a1f.css">\n'
        f'  <script src="/js/app.{build}.js"></script>\n</head>\n<body>\n'
        f'  <h1>{title}</h1>\n  <p>{text}</p>\n  <img src="/img/logo.png?v={build}">\n'
        f"  <p>Built {updated}</p>\n  <footer>Last updated on {updated}</footer>\n"
        "</body>\n</html>\n"
    ).encode()


PAGES = {
    "index.html": ("Home", "Welcome."),
    "a/index.html": ("A", "Alpha."),
    "b.html": ("B", "Beta."),
}


def build_site(root: Path, build: str, when: int, *, spread: bool = False, **changes: Any) -> None:
    """Write every page fresh, as a CI build does, all with the mtime ``when``; ``spread``:
    each file SPREAD earlier than the one before (FIRST, from T1)."""
    for index, (path, (title, text)) in enumerate(PAGES.items()):
        file = root / path
        file.parent.mkdir(parents=True, exist_ok=True)
        body = changes.get(path.replace("/", "_").replace(".", "_"), text)
        file.write_bytes(render(title, body, build, updated=changes.get("updated", "2024-01-01")))
        stamp = when - index * SPREAD if spread else when
        os.utime(file, (stamp, stamp))
    pdf = root / "manual.pdf"
    pdf.write_bytes(changes.get("pdf", b"%PDF-1.4 manual"))
    stamp = when - len(PAGES) * SPREAD if spread else when
    os.utime(pdf, (stamp, stamp))


def run(site: Path, out: Path, **values: Any) -> Report:
    config = load_config({"base_url": BASE, "lastmod": "mtime", **values})
    return build_from_tree(config, site, LocalDirSink(out), output_dir=out)


def lastmods(out: Path) -> dict[str, str]:
    text = (out / "sitemap.xml").read_text()
    return dict(re.findall(r"<loc>https://example.com/(.*?)</loc><lastmod>(.*?)</lastmod>", text))


def snapshot(out: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(out.iterdir())}


def test_a_fresh_ci_build_keeps_every_date_and_rewrites_no_file(tmp_path: Path) -> None:
    site, out = tmp_path / "public", tmp_path / "out"
    build_site(site, "1", T1, spread=True)
    first = run(site, out)
    assert lastmods(out) == FIRST
    assert first.dates == {"file time": 4}
    before = snapshot(out)
    # The next CI run: every file new (mtime T2), new asset names and generator version.
    build_site(site, "2", T2)
    second = run(site, out)
    assert second.dates == {"kept": 4}
    assert snapshot(out) == before  # not one byte, not one mtime
    assert not second.result.written and not second.state_written


def test_an_edited_page_moves_only_its_own_date(tmp_path: Path) -> None:
    site, out = tmp_path / "public", tmp_path / "out"
    build_site(site, "1", T1, spread=True)
    run(site, out)
    build_site(site, "2", T2, a_index_html="Alpha, with one more sentence.")
    report = run(site, out)
    assert lastmods(out) == {**FIRST, "a/": W2}
    assert report.dates == {"kept": 3, "content changed": 1}
    build_site(site, "3", T3, a_index_html="Alpha, with one more sentence.", pdf=b"%PDF v2")
    run(site, out)
    assert lastmods(out) == {**FIRST, "a/": W2, "manual.pdf": W3}


def test_a_last_updated_footer_moves_dates_unless_ignored(tmp_path: Path) -> None:
    site, out = tmp_path / "public", tmp_path / "out"
    build_site(site, "1", T1, spread=True)
    run(site, out)
    build_site(site, "2", T2, updated="2024-05-05")
    run(site, out)
    assert lastmods(out)["a/"] == W2  # the build stamp is text a reader sees
    footer = {"fingerprint_ignore": [r"Built [0-9-]+"]}
    ignored_out = tmp_path / "ignored"
    build_site(site, "1", T1, spread=True)
    run(site, ignored_out, **footer)
    build_site(site, "2", T2, updated="2024-05-05")
    report = run(site, ignored_out, **footer)
    assert lastmods(ignored_out) == FIRST
    assert report.dates == {"kept": 4}


def test_a_new_page_gets_its_mtime(tmp_path: Path) -> None:
    site, out = tmp_path / "public", tmp_path / "out"
    build_site(site, "1", T1, spread=True)
    run(site, out)
    build_site(site, "2", T2)
    (site / "c.html").write_bytes(render("C", "Gamma.", "2"))
    os.utime(site / "c.html", (T2, T2))
    report = run(site, out)
    assert lastmods(out)["c.html"] == W2
    assert report.dates == {"kept": 4, "new page": 1}


def test_the_state_is_deterministic_and_beside_the_sitemaps(tmp_path: Path) -> None:
    site = tmp_path / "public"
    build_site(site, "1", T1, spread=True)
    run(site, tmp_path / "o1")
    run(site, tmp_path / "o2")
    one, two = (tmp_path / name / STATE_NAME for name in ("o1", "o2"))
    assert one.read_bytes() == two.read_bytes()
    records = parse_state(one.read_bytes()).pages
    assert sorted(records) == ["a/index.html", "b.html", "index.html", "manual.pdf"]
    assert {record.lastmod for record in records.values()} == set(FIRST.values())


def test_a_lost_state_is_a_warning_and_a_first_run_that_dates_no_build_stamp(
    tmp_path: Path,
) -> None:
    site, out = tmp_path / "public", tmp_path / "out"
    build_site(site, "1", T1, spread=True)
    run(site, out)
    (out / STATE_NAME).unlink()
    build_site(site, "2", T2)  # a fresh build: one instant on every file
    report = run(site, out)
    assert lastmods(out) == {}  # (before: the build's time W2 on every page)
    assert report.dates == {"no date (file times are one build's)": 4}
    assert any("no state at" in warning for warning in report.warnings)


def test_a_corrupt_state_is_a_warning_and_a_first_run(tmp_path: Path) -> None:
    site, out = tmp_path / "public", tmp_path / "out"
    build_site(site, "1", T1, spread=True)
    run(site, out)
    (out / STATE_NAME).write_bytes(b"not gzip at all")
    report = run(site, out)
    assert any("ignoring the state" in warning for warning in report.warnings)
    assert report.dates == {"file time": 4}
    assert parse_state((out / STATE_NAME).read_bytes()).pages  # replaced by a good one


def test_content_dates_off_keeps_no_state_and_gives_mtimes(tmp_path: Path) -> None:
    site, out = tmp_path / "public", tmp_path / "out"
    build_site(site, "1", T1)
    report = run(site, out, content_dates=False)
    assert not (out / STATE_NAME).exists()
    assert report.dates == {}
    assert set(lastmods(out).values()) == {W1}


def test_a_state_elsewhere(tmp_path: Path) -> None:
    site, out = tmp_path / "public", tmp_path / "out"
    state = tmp_path / "keep" / "site-state.json.gz"
    build_site(site, "1", T1, spread=True)
    run(site, out, state=str(state))
    assert state.is_file() and not (out / STATE_NAME).exists()
    build_site(site, "2", T2)
    report = run(site, out, state=str(state))
    assert report.dates == {"kept": 4}


def test_the_state_names_no_page_the_sitemap_leaves_out_on_purpose(tmp_path: Path) -> None:
    # The state is published with the site (GitHub Pages): a noindex draft's path stays out.
    site, out = tmp_path / "public", tmp_path / "out"
    build_site(site, "1", T1)
    draft = b'<!DOCTYPE html><html><head><meta name="robots" content="noindex"></head></html>'
    (site / "drafts").mkdir()
    (site / "drafts" / "secret.html").write_bytes(draft)
    run(site, out)
    assert "drafts/secret.html" not in parse_state((out / STATE_NAME).read_bytes()).pages


def downgrade_state(site: Path, out: Path) -> None:
    """Make the state in ``out`` what sitemill with the previous fingerprint version wrote: the
    version marker and every HTML page's fingerprint by that algorithm."""
    path = out / STATE_NAME
    document = json.loads(gzip.decompress(path.read_bytes()))
    document["fingerprint_version"] = previous = FINGERPRINT_VERSION - 1
    for name, record in document["pages"].items():
        if name.endswith(".html"):
            data = (site / name).read_bytes()
            record["fingerprint"] = fingerprint_html(data, version=previous, url=BASE + name)
    path.write_bytes(gzip.compress(json.dumps(document).encode(), mtime=0))


def test_an_upgrade_of_the_fingerprint_moves_no_date(tmp_path: Path) -> None:
    # A state of the previous fingerprint version is compared by that version's fingerprint:
    # an upgrade that changes every fingerprint keeps every date.
    site, out = tmp_path / "public", tmp_path / "out"
    build_site(site, "1", T1, spread=True, b_html="Run <code>sitemill</code>.")
    run(site, out)
    downgrade_state(site, out)
    assert parse_state((out / STATE_NAME).read_bytes()).fingerprint_version == (
        FINGERPRINT_VERSION - 1
    )
    build_site(site, "2", T2, b_html="Run <code>sitemill</code>.", a_index_html="Alpha, edited.")
    report = run(site, out)
    assert lastmods(out) == {**FIRST, "a/": W2}
    assert report.dates == {"kept": 3, "content changed": 1}
    state = parse_state((out / STATE_NAME).read_bytes())
    assert state.fingerprint_version == FINGERPRINT_VERSION  # written anew, in this version
    assert state.pages["b.html"].fingerprint == fingerprint_html(
        (site / "b.html").read_bytes(), url=BASE + "b.html"
    )
    build_site(site, "3", T3, b_html="Run <code>sitemill</code>.", a_index_html="Alpha, edited.")
    assert run(site, out).dates == {"kept": 4}


def test_a_state_of_an_unknown_fingerprint_version_takes_the_ladder_once(tmp_path: Path) -> None:
    # Fingerprints no version this sitemill computes (State.outdated): the HTML pages of a
    # folder, which has no blob to say they are unchanged, take the evidence ladder, as on a
    # first run (a CI build's one mtime: no date); the PDF's bytes say it is unchanged.
    site, out = tmp_path / "public", tmp_path / "out"
    build_site(site, "1", T1, spread=True)
    run(site, out)
    path = out / STATE_NAME
    document = json.loads(gzip.decompress(path.read_bytes()))
    document["fingerprint_version"] = 99  # a newer sitemill's, or a hand-made value
    path.write_bytes(gzip.compress(json.dumps(document).encode(), mtime=0))
    build_site(site, "2", T2)
    report = run(site, out)
    assert report.dates == {"kept": 1, "no date (file times are one build's)": 3}
    assert lastmods(out) == {"manual.pdf": FIRST["manual.pdf"]}
    build_site(site, "3", T3)
    again = run(site, out)  # once: compared from now on
    assert again.dates == {"kept": 1, "no date (unchanged, none remembered)": 3}
    assert not again.state_written
