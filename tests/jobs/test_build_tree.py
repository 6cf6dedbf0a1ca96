"""Building from a site directory: filters, rules, url styles, lastmod modes, odd names."""

from __future__ import annotations

import os
import re
from datetime import datetime, tzinfo
from pathlib import Path

import pytest

from conftest import BASE_URL, FIXED_MTIME, SiteMaker, page
from outputlist import build_from_tree
from sitemill.config.model import LastmodMode, load_config
from sitemill.entries import SkipReason
from sitemill.errors import ConfigError, SourceError
from sitemill.sinks import LocalDirSink, MemorySink
from xsd import assert_valid_sitemaps, assert_xsd_valid


def build(site: Path, **values: object) -> tuple[MemorySink, object]:
    config = load_config({"base_url": BASE_URL, "lastmod": "mtime", **values})
    sink = MemorySink()
    report = build_from_tree(config, site, sink)
    return sink, report


def locs(sink: MemorySink, name: str = "sitemap.xml") -> list[str]:
    text = sink.files[name].decode()
    return [part.split("</loc>")[0] for part in text.split("<loc>")[1:]]


def test_default_include_and_builtin_excludes(make_site: SiteMaker) -> None:
    site = make_site(
        {
            "index.html": page(),
            "a/index.htm": page(),
            "a/b.html": page(),
            "doc.pdf": b"%PDF",
            "style.css": "x",
            "404.html": page(),
            # The 404 page in every spelling, at any depth (Gatsby and Next.js: 404/index.html).
            "404/index.html": page(),
            "fr/404.htm": page(),
            "fr/404/index.htm": page(),
            # Sphinx's theme assets: a theme's PDF and HTML under _static/, at any depth.
            "_static/theme.pdf": b"%PDF",
            "v2/_static/x.html": page(),
            # Not the 404 page, nor _static/: listed.
            "x404.html": page(),
            "404/more.html": page(),
            "my_static/y.pdf": b"%PDF",
            ".hidden.html": page(),
            ".git/x.html": page(),
            "a/.secret/x.html": page(),
            "sitemap-1.xml": "old",
            "sitemap.xml": "old",
        }
    )
    sink, report = build(site)
    # sorted walk: names ordered by their bytes, depth first
    assert locs(sink) == [
        f"{BASE_URL}404/more.html",
        f"{BASE_URL}a/b.html",
        f"{BASE_URL}a/",
        f"{BASE_URL}doc.pdf",
        f"{BASE_URL}",
        f"{BASE_URL}my_static/y.pdf",
        f"{BASE_URL}x404.html",
    ]
    assert_xsd_valid(sink.files["sitemap.xml"])
    # The 404 pages and the theme assets are counted; dot-files and own outputs are not.
    assert report.skipped == {SkipReason.EXCLUDED: 6}
    details = sorted((skip.path, skip.detail) for skip in report.skips)
    assert details[0] == ("404.html", "the 404 page")
    assert ("v2/_static/x.html", "a theme asset under _static/") in details


def test_lastmod_from_mtime(make_site: SiteMaker) -> None:
    site = make_site({"index.html": page(), "old.html": page()})
    # Months apart, no build's stamp: the mtimes are evidence on a first run.
    os.utime(site / "old.html", (FIXED_MTIME - 200 * 86_400,) * 2)
    sink, _ = build(site)
    assert "<lastmod>2023-08-14T12:00:00+00:00</lastmod>" in sink.files["sitemap.xml"].decode()
    assert "<lastmod>2024-03-01T12:00:00+00:00</lastmod>" in sink.files["sitemap.xml"].decode()
    sink, _ = build(site, lastmod_precision="date")
    assert "<lastmod>2024-03-01</lastmod>" in sink.files["sitemap.xml"].decode()
    sink, _ = build(site, lastmod="none")
    assert "<lastmod>" not in sink.files["sitemap.xml"].decode()


def test_auto_lastmod_outside_git_is_mtime(make_site: SiteMaker) -> None:
    site = make_site({"index.html": page()})
    config = load_config({"base_url": BASE_URL})
    report = build_from_tree(config, site, MemorySink())
    assert report.lastmod is LastmodMode.MTIME


def test_lastmod_git_outside_a_work_tree_is_an_error(make_site: SiteMaker) -> None:
    site = make_site({"index.html": page()})
    with pytest.raises(ConfigError, match="lastmod: git needs"):
        build(site, lastmod="git")


@pytest.mark.parametrize(
    ("style", "expected"),
    [
        ("directory", ["a/b.html", "a/"]),
        ("clean", ["a/b", "a/"]),
        ("file", ["a/b.html", "a/index.html"]),
    ],
)
def test_url_styles(make_site: SiteMaker, style: str, expected: list[str]) -> None:
    site = make_site({"a/index.html": page(), "a/b.html": page()})
    sink, _ = build(site, url_style=style)
    assert locs(sink) == [BASE_URL + path for path in expected]


def test_include_exclude_and_rules(make_site: SiteMaker) -> None:
    site = make_site(
        {
            "index.html": page(),
            "blog/post.html": page(),
            "blog/drafts/wip.html": page(),
            "docs/a.txt": "x",
            "tmp/x.html": page(),
        }
    )
    config = load_config(
        {
            "base_url": BASE_URL,
            "lastmod": "none",
            "include": ["*.html", "docs/*.txt"],
            "exclude": ["tmp/"],
        },
        {},
        {
            "rules": [
                {"pattern": "blog/drafts/**", "exclude": True},
                {"pattern": "blog/**", "changefreq": "weekly", "priority": 0.8},
                {"pattern": "*", "priority": 0.3},
            ]
        },
    )
    sink = MemorySink()
    report = build_from_tree(config, site, sink)
    text = sink.files["sitemap.xml"].decode()
    assert locs(sink) == [f"{BASE_URL}blog/post.html", f"{BASE_URL}docs/a.txt", BASE_URL]
    assert (
        f"<loc>{BASE_URL}blog/post.html</loc><changefreq>weekly</changefreq><priority>0.8</priority>"
        in text
    )
    assert f"<loc>{BASE_URL}</loc><priority>0.3</priority>" in text
    assert report.skipped[SkipReason.EXCLUDED] == 1
    assert_xsd_valid(sink.files["sitemap.xml"])


def test_noindex_pages_are_skipped(make_site: SiteMaker) -> None:
    site = make_site(
        {
            "a.html": page(head='<meta name="robots" content="noindex">'),
            "b.html": page(head="<META CONTENT=none NAME='GoogleBot'>"),
            "c.html": page(head='<!-- <meta name="robots" content="noindex"> -->'),
            "d.html": page(head='<meta name="robots" content="nofollow">'),
        }
    )
    sink, report = build(site)
    assert locs(sink) == [f"{BASE_URL}c.html", f"{BASE_URL}d.html"]
    assert report.skipped[SkipReason.NOINDEX] == 2  # type: ignore[attr-defined]
    sink, _ = build(site, respect_noindex=False)
    assert len(locs(sink)) == 4


def test_robots_txt_is_honoured(make_site: SiteMaker) -> None:
    site = make_site(
        {
            "robots.txt": "User-agent: *\nDisallow: /private/\nAllow: /private/ok.html\n"
            "Disallow: /*.pdf$\n\nUser-agent: bingbot\nDisallow: /\n",
            "index.html": page(),
            "private/a.html": page(),
            "private/ok.html": page(),
            "x.pdf": b"%PDF",
        }
    )
    sink, report = build(site)
    assert locs(sink) == [BASE_URL, f"{BASE_URL}private/ok.html"]
    assert report.skipped[SkipReason.ROBOTS_TXT] == 2  # type: ignore[attr-defined]
    sink, _ = build(site, respect_robots_txt=False)
    assert len(locs(sink)) == 4


def test_robots_txt_paths_include_the_base_path(make_site: SiteMaker) -> None:
    site = make_site(
        {
            "robots.txt": "User-agent: *\nDisallow: /blog/private/\n",
            "private/a.html": page(),
            "b.html": page(),
        }
    )
    config = load_config({"base_url": "https://example.com/blog/", "lastmod": "none"})
    sink = MemorySink()
    build_from_tree(config, site, sink)
    assert locs(sink) == ["https://example.com/blog/b.html"]


def test_two_files_one_url_keeps_the_first_and_warns(
    make_site: SiteMaker, caplog: pytest.LogCaptureFixture
) -> None:
    site = make_site({"a/index.html": page(), "a/index.htm": page()})
    sink, report = build(site)
    assert locs(sink) == [f"{BASE_URL}a/"]
    assert report.skipped[SkipReason.DUPLICATE] == 1  # type: ignore[attr-defined]
    assert "already listed" in caplog.text


def test_too_long_urls_are_skipped_with_a_warning(make_site: SiteMaker) -> None:
    long_dir = "d" * 200
    deep = "/".join([long_dir] * 11) + "/x.html"
    site = make_site({deep: page(), "ok.html": page()})
    sink, report = build(site)
    assert locs(sink) == [f"{BASE_URL}ok.html"]
    assert report.skipped[SkipReason.TOO_LONG] == 1  # type: ignore[attr-defined]


ODD_NAMES = [
    "a & b.html",
    "less<than>.html",
    'quote\'s "double".html',
    "hash#.html",
    "question?.html",
    "percent%41.html",
    "plus+sign.html",
    "space name.html",
    "café/crème brûlée.html",
    "日本語.html",
    "emoji😀.html",
]
# Names no URL reaches as they are (issue 78): a browser reads a backslash as a slash, and a
# state that names a control character is not trusted with it (sitemill.filenames.pagenames).
NO_PAGE_NAMES = ["tab\tname.html", "new\nline.html", "ctrl\x01\x1f.html", "back\\slash.html"]


def test_odd_file_names_give_valid_escaped_output(
    make_site: SiteMaker, caplog: pytest.LogCaptureFixture
) -> None:
    site = make_site({name: page() for name in ODD_NAMES + NO_PAGE_NAMES})
    os.makedirs(site / "raw", exist_ok=True)
    with open(os.fsencode(site / "raw") + b"/latin1-\xe9.html", "wb") as handle:
        handle.write(page().encode())
    sink, report = build(site)
    found = locs(sink)
    assert len(found) == len(ODD_NAMES) + 1
    # The least encoding: "&" stays raw in the URL ("&amp;" in XML), "+" is "%2B" (S3).
    assert f"{BASE_URL}a%20&amp;%20b.html" in found
    assert f"{BASE_URL}plus%2Bsign.html" in found
    assert f"{BASE_URL}percent%2541.html" in found
    assert f"{BASE_URL}raw/latin1-%E9.html" in found
    assert_xsd_valid(sink.files["sitemap.xml"])
    # A control character or a backslash names no page (issue 78): left out, counted as
    # excluded, one warning with an escaped example, never one line per file.
    assert not any("line" in url or "slash" in url or "ctrl" in url for url in found)
    assert report.skipped[SkipReason.EXCLUDED] == len(NO_PAGE_NAMES)  # type: ignore[attr-defined]
    lines = [line for line in report.warnings if "can name no page" in line]  # type: ignore[attr-defined]
    assert lines == [
        "excluded 4 file(s) whose name can name no page of the site (a control character "
        "such as a newline or a tab, a backslash, an empty, '.' or '..' segment), "
        "e.g. 'back\\\\slash.html'"
    ]
    assert caplog.text.count("can name no page") == 1


def test_symlink_loop_is_skipped(make_site: SiteMaker, caplog: pytest.LogCaptureFixture) -> None:
    site = make_site({"a/index.html": page()})
    (site / "a" / "loop").symlink_to(site / "a")
    (site / "self").symlink_to(site / "self")
    (site / "broken.html").symlink_to(site / "missing.html")
    sink, _ = build(site)
    assert locs(sink) == [f"{BASE_URL}a/"]
    assert "loop" in caplog.text


def test_missing_site_dir(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="does not exist"):
        build(tmp_path / "nope")


def test_site_dir_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    with pytest.raises(SourceError, match="not a directory"):
        build(tmp_path / "f")


def test_unreadable_directory(make_site: SiteMaker, monkeypatch: pytest.MonkeyPatch) -> None:
    # CI runs as root, for whom chmod 0 blocks nothing: make scandir fail as it would.
    site = make_site({"a/x.html": page()})
    real_scandir = os.scandir

    def scandir(path):  # type: ignore[no-untyped-def]
        if str(path).endswith("/a"):
            raise PermissionError(13, "Permission denied")
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    with pytest.raises(SourceError, match=r"cannot read directory .*/a: Permission denied"):
        build(site)


def test_empty_site_is_a_clear_error_and_writes_nothing(
    make_site: SiteMaker, tmp_path: Path
) -> None:
    site = make_site({"style.css": "x"})
    out = tmp_path / "out"
    config = load_config({"base_url": BASE_URL})
    with pytest.raises(SourceError, match="no pages"):
        build_from_tree(config, site, LocalDirSink(out))
    assert not out.exists()


def test_a_site_of_only_left_out_pages_says_why(make_site: SiteMaker, tmp_path: Path) -> None:
    """Every page noindex (a staging build deployed by mistake): the error says so."""
    noindex = page(head='<meta name="robots" content="noindex">')
    site = make_site({f"p{n}.html": noindex for n in range(3)})
    config = load_config({"base_url": BASE_URL})
    with pytest.raises(SourceError) as raised:
        build_from_tree(config, site, LocalDirSink(tmp_path / "out"))
    assert str(raised.value) == (
        "no pages to list: every page found was left out (noindex 3); nothing was written"
    )


class _OneInstant(datetime):
    """The run's clock, stopped: an index child's lastmod is when its bytes last changed
    (docs/output.md), a first run's time, so two first runs a second apart differ there."""

    @classmethod
    def now(cls, tz: tzinfo | None = None) -> _OneInstant:
        return cls(2024, 3, 2, 12, 0, tzinfo=tz)


def test_full_build_to_disk_is_valid_and_deterministic(
    make_site: SiteMaker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sitemill.jobs import treedating

    monkeypatch.setattr(treedating, "datetime", _OneInstant)
    site = make_site({f"s{i % 7}/p{i}.html": page() for i in range(120)})
    config = load_config({"base_url": BASE_URL, "max_urls": 50, "gzip": True, "lastmod": "mtime"})
    out1, out2 = tmp_path / "o1", tmp_path / "o2"
    build_from_tree(config, site, LocalDirSink(out1))
    build_from_tree(config, site, LocalDirSink(out2))
    files1 = {p.name: p.read_bytes() for p in out1.iterdir()}
    assert files1 == {p.name: p.read_bytes() for p in out2.iterdir()}
    names = sorted(files1)
    # Three shards of at most 50 pages, each named by its boundary (sitemill.shards).
    assert [name for name in names if re.fullmatch(r"sitemap-r[a-z2-7]{8}\.xml\.gz", name)] == (
        names[:3]
    )
    assert names[3:] == [
        "sitemap.xml",
        "sitemill-state.json.gz",  # content dates: what this run saw, for the next one
    ]
    assert_valid_sitemaps(out1, BASE_URL)


def test_progress_tells_each_phase_with_its_counts(
    make_site: SiteMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 41: a 3,119-page site's first run was 40 s of blank terminal, as the pages were
    # told only every 5,000 and nothing else was told at all.
    from sitemill import pipeline

    monkeypatch.setattr(pipeline, "PROGRESS_EVERY", 2)
    site = make_site({f"p{i}.html": page() for i in range(5)})
    seen: list[tuple[str, int, int | None]] = []
    config = load_config({"base_url": BASE_URL, "lastmod": "mtime", "max_urls": 2})
    build_from_tree(config, site, MemorySink(), progress=lambda *tick: seen.append(tick))
    phases = {phase: [(done, total) for p, done, total in seen if p == phase] for phase, *_ in seen}
    assert phases["listing"][0] == (0, None) and phases["listing"][-1] == (5, 5)
    assert phases["reading"][0] == (0, 5) and phases["reading"][-1] == (5, 5)
    assert phases["pages"] == [(0, 5), (2, 5), (4, 5), (5, 5)]  # each PROGRESS_EVERY, and done
    assert phases["writing"] == [(2, None), (4, None), (5, None)]  # as each file is done
    assert list(phases) == ["listing", "reading", "pages", "writing"]


def test_outputs_in_a_folder_inside_the_site_are_not_pages(make_site: SiteMaker) -> None:
    site = make_site({"a.txt": "x", "out/b.txt": "y"})
    config = load_config(
        {"base_url": BASE_URL, "include": ["**/*.txt"], "format": "txt", "lastmod": "none"}
    )
    out = site / "out"
    first = build_from_tree(config, site, LocalDirSink(out), output_dir=out)
    second = build_from_tree(config, site, LocalDirSink(out), output_dir=out)
    assert (out / "sitemap.txt").read_text() == f"{BASE_URL}a.txt\n{BASE_URL}out/b.txt\n"
    assert first.result.written == ["sitemap.txt"]
    assert not second.result.changed


def test_clean_urls_drop_html_only(make_site: SiteMaker) -> None:
    # GitHub Pages, Netlify and Cloudflare Pages serve /post from post.html, never post.htm.
    site = make_site(
        {"a/index.htm": page(), "b.html": page(), "post.htm": page(), "c/index.html": page()}
    )
    sink, _ = build(site, url_style="clean")
    assert locs(sink) == [f"{BASE_URL}a/", f"{BASE_URL}b", f"{BASE_URL}c/", f"{BASE_URL}post.htm"]


def test_what_the_walk_skips_is_one_warning_per_reason(
    make_site: SiteMaker, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    site = make_site({"v2/a.html": page(), "index.html": page()})
    (tmp_path / "shared").mkdir()
    for number in range(50):
        (site / f"out{number}").symlink_to("../shared")
        (site / f"again{number}").symlink_to("v2")
    _, report = build(site)
    assert report.warnings == [
        "skipped 50 symbolic links leading outside the site (or into hidden paths), "
        "not followed: out0",
        "skipped 50 symbolic links to directories of the site, not followed (each directory "
        "is listed under its own path): again0",
    ]
    assert caplog.text.count("skipped 50") == 2


def test_a_page_replaced_by_a_fifo_after_the_walk_is_not_read(
    make_site: SiteMaker, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from sitemill.jobs import tree

    site = make_site({"index.html": page(), "a.html": page()})
    walk = tree.walk_tree

    def walk_then_swap(root: Path, skipped: object) -> object:
        files = list(walk(root, skipped))  # type: ignore[arg-type]
        (site / "a.html").unlink()
        os.mkfifo(site / "a.html")  # a race: what the walk saw is gone
        return iter(files)

    monkeypatch.setattr(tree, "walk_tree", walk_then_swap)
    sink, _ = build(site)
    assert "not reading" in caplog.text and "FIFO" in caplog.text
    assert f"{BASE_URL}a.html" in locs(sink)
