"""The `sitemill` command as a user runs it: exit codes, one-line errors, outputs."""

from __future__ import annotations

import io
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from clirun import run_sitemill
from conftest import BASE_URL, FIXED_MTIME, SiteMaker, page
from sitemill.cli._report import print_report
from sitemill.config.model import LastmodMode
from sitemill.entries import SkipReason
from sitemill.report import Report, WriteResult, dates_line
from xsd import assert_valid_sitemaps


def run(
    *args: str,
    cwd: Path | None = None,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
    process: bool = False,
) -> subprocess.CompletedProcess[str]:
    return run_sitemill(*args, cwd=cwd, stdin=stdin, env=env, process=process)


def test_a_source_trees_layouts_and_includes_are_no_pages(make_site: SiteMaker) -> None:
    """Jekyll's _layouts/ and _includes/, Hugo's layouts/ partials committed beside the built
    pages are left out as "not a page" (issue 82: they were listed)."""
    site = make_site({
        "index.html": page("home"),
        "_layouts/default.html": "<!DOCTYPE html>\n<html>\n{% include head.html %}\n</html>\n",
        "_includes/analytics.html": "<script>\n  track('{{ site.analytics.id }}');\n</script>\n",
        "layouts/partials/meta.html": '<meta charset="utf-8">\n<meta name="a" content="{{ .A }}">',
    })  # fmt: skip
    result = run("build", str(site), "--base-url", BASE_URL)
    assert result.returncode == 0, result.stderr
    assert re.findall(r"<loc>([^<]*)</loc>", (site / "sitemap.xml").read_text()) == [BASE_URL]
    assert "skipped: not a page 3" in result.stdout.splitlines()


def test_build_writes_and_reports(make_site: SiteMaker, tmp_path: Path) -> None:
    site = make_site({"index.html": page(), "a/b.html": page()})
    out = tmp_path / "out"
    result = run("build", str(site), "--base-url", BASE_URL, "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "2 URLs in one sitemap" in result.stdout
    assert "written: sitemap.xml" in result.stdout
    assert_valid_sitemaps(out, BASE_URL)
    again = run("build", str(site), "--base-url", BASE_URL, "--out", str(out))
    assert "nothing changed" in again.stdout


def test_env_and_config_file(make_site: SiteMaker, tmp_path: Path) -> None:
    site = make_site({"a/index.html": page()})
    (tmp_path / "sitemill.toml").write_text(
        'base_url = "https://file.example/"\nurl_style = "file"\n'
    )
    result = run(
        "build", str(site), "--out", "out", cwd=tmp_path, env={"SITEMILL_URL_STYLE": "directory"}
    )
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "out" / "sitemap.xml").read_text()
    assert "<loc>https://file.example/a/</loc>" in text


def test_urls_from_stdin(tmp_path: Path) -> None:
    lines = "".join(f"{BASE_URL}p{i}\t2024-01-01\n" for i in range(5))
    result = run(
        "urls", "-", "--base-url", BASE_URL, "--out", str(tmp_path), "--max-urls", "2", stdin=lines
    )
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "sitemap-1.xml",
        "sitemap-2.xml",
        "sitemap-3.xml",
        "sitemap.xml",
    ]
    assert_valid_sitemaps(tmp_path, BASE_URL)
    # Where the dates come from: the list's column (issue 41: it said "lastmod: mtime").
    assert "5 URLs in an index of 3 sitemaps in " in result.stdout
    assert result.stdout.splitlines()[1].endswith("(lastmod: the list's second column)")
    undated = run("urls", "-", "--base-url", BASE_URL, "--out", str(tmp_path), stdin=BASE_URL)
    assert undated.returncode == 0, undated.stderr
    first = undated.stdout.splitlines()[1]
    assert first.endswith("(lastmod: none: no line of the list has a date (URL, TAB, date))")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["build", "{site}", "--base-url", "/relative"],
            "base_url: '/relative' must be an absolute",
        ),
        (["build", "{site}"], "base_url: is required"),
        (["build", "{missing}", "--base-url", BASE_URL], "does not exist"),
        (["build", "{site}", "--base-url", "https://e.com/?x=1"], "must not have a query"),
        (["build", "{site}", "--base-url", BASE_URL, "--include", "[x"], "include: invalid glob"),
        (
            ["build", "{site}", "--base-url", BASE_URL, "--max-urls", "50001"],
            "max_urls: 50001 is out of range",
        ),
        (["build", "{site}", "--base-url", BASE_URL, "--config", "{missing}"], "config:"),
        (["urls", "{missing}", "--base-url", BASE_URL], "cannot read"),
    ],
)
def test_a_mistake_is_one_line_and_exit_2_bad_input_exit_1(
    make_site: SiteMaker, tmp_path: Path, args: list[str], message: str
) -> None:
    site = make_site({"index.html": page()})
    values = {"site": str(site), "missing": str(tmp_path / "missing")}
    result = run(*[arg.format(**values) for arg in args])
    # A configuration or command line that is wrong: 2; an input that cannot be read: 1.
    assert result.returncode == (1 if message == "cannot read" else 2)
    assert message in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert not (site / "sitemap.xml").exists()


def test_bad_url_list_line_writes_nothing(tmp_path: Path) -> None:
    urls = tmp_path / "urls.txt"
    urls.write_text(f"{BASE_URL}a\nnot a url\n", encoding="utf-8")
    out = tmp_path / "out"
    result = run("urls", str(urls), "--base-url", BASE_URL, "--out", str(out))
    assert result.returncode == 1
    assert f"{urls}:2: 'not a url' is not an absolute http(s) URL" in result.stderr
    assert not out.exists()


def test_url_list_that_is_not_utf8(tmp_path: Path) -> None:
    urls = tmp_path / "urls.txt"
    urls.write_bytes(b"https://example.com/\xff\n")
    result = run("urls", str(urls), "--base-url", BASE_URL, "--out", str(tmp_path / "out"))
    assert result.returncode == 1
    assert "not UTF-8" in result.stderr


def test_usage_error_is_exit_2() -> None:
    assert run("build", "--no-such-flag").returncode == 2
    assert run().returncode == 2
    assert run("build", ".", "--url-style", "pretty").returncode == 2


def test_validate_exit_codes(make_site: SiteMaker, tmp_path: Path) -> None:
    site = make_site({"index.html": page()})
    assert run("build", str(site), "--base-url", BASE_URL).returncode == 0
    ok = run("validate", str(site), "--base-url", BASE_URL)
    assert ok.returncode == 0, ok.stdout
    bad = tmp_path / "bad.xml"
    bad.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        "<url><loc>https://example.com/</loc><priority>1.5</priority></url>\n</urlset>\n"
    )
    failed = run("validate", str(bad))
    assert failed.returncode == 1
    assert f"{bad}:3:" in failed.stdout


def test_quiet_and_version(make_site: SiteMaker) -> None:
    site = make_site({"index.html": page()})
    result = run("-q", "build", str(site), "--base-url", BASE_URL)
    assert result.returncode == 0 and result.stdout == ""
    assert run("--version").stdout.startswith("sitemill ")


@pytest.mark.parametrize(
    "args",
    [
        ["-q", "build", "{site}"],
        ["build", "-q", "{site}"],
        ["build", "{site}", "-q"],
        ["build", "{site}", "--quiet"],
        ["--quiet", "build", "{site}", "-q"],
    ],
)
def test_global_options_go_before_or_after_the_command(
    make_site: SiteMaker, args: list[str]
) -> None:
    site = make_site({"index.html": page()})
    result = run(*[arg.format(site=site) for arg in args], "--base-url", BASE_URL)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert (site / "sitemap.xml").exists()


def test_not_quiet_unless_asked(make_site: SiteMaker) -> None:
    site = make_site({"index.html": page()})
    result = run("build", str(site), "--base-url", BASE_URL)
    assert "1 URL in one sitemap" in result.stdout  # (issue 41: "1 URLs")


@pytest.mark.parametrize("command", ["build", "urls", "s3", "validate"])
def test_version_after_the_command(command: str) -> None:
    result = run(command, "--version")
    assert result.returncode == 0
    assert result.stdout.startswith("sitemill ")


def test_validate_takes_quiet_after_the_command(make_site: SiteMaker) -> None:
    site = make_site({"index.html": page()})
    assert run("build", str(site), "--base-url", BASE_URL).returncode == 0
    result = run("validate", "-q", str(site / "sitemap.xml"))
    assert result.returncode == 0 and result.stdout == ""


def test_a_deep_config_is_one_line(make_site: SiteMaker) -> None:
    site = make_site({"index.html": page(), "sitemill.toml": "a = " + "[" * 50_000})
    result = run("build", str(site), "--base-url", BASE_URL)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "config: cannot read" in result.stderr and "nested too deeply" in result.stderr


def test_a_discovered_config_leading_out_of_its_folder_is_skipped(
    make_site: SiteMaker, tmp_path: Path
) -> None:
    site = make_site({"index.html": page()})
    outside = tmp_path / "outside.toml"
    outside.write_text('base_url = "https://attacker.example/"\n')
    (site / "sitemill.toml").symlink_to(outside)
    result = run("build", str(site))
    assert result.returncode == 2 and "base_url: is required" in result.stderr
    assert "sitemill: warning: ignoring" in result.stderr and "leads outside" in result.stderr
    result = run("build", str(site), "--base-url", BASE_URL)
    assert result.returncode == 0, result.stderr
    assert "attacker" not in (site / "sitemap.xml").read_text()
    # Named on the command line, the same file is the operator's choice: it is read.
    result = run("build", str(site), "--config", str(outside))
    assert result.returncode == 0, result.stderr
    assert "attacker.example" in (site / "sitemap.xml").read_text()


def test_a_discovered_config_linked_inside_its_folder_is_read(make_site: SiteMaker) -> None:
    site = make_site({"index.html": page(), "conf/real.toml": f'base_url = "{BASE_URL}"\n'})
    (site / "sitemill.toml").symlink_to("conf/real.toml")
    result = run("build", str(site))
    assert result.returncode == 0, result.stderr


def test_templates_dir_of_a_discovered_config_stays_in_the_site(
    make_site: SiteMaker, tmp_path: Path
) -> None:
    site = make_site(
        {
            "index.html": page(),
            "sitemill.toml": f'base_url = "{BASE_URL}"\ntemplates_dir = "../t"\n',
        }
    )
    (tmp_path / "t").mkdir()
    result = run("build", str(site))
    assert result.returncode == 2
    assert "templates_dir: '../t' in" in result.stderr and "leads outside" in result.stderr


def test_an_explicit_config_must_be_a_regular_file(make_site: SiteMaker, tmp_path: Path) -> None:
    site = make_site({"index.html": page()})
    fifo = tmp_path / "conf.toml"
    os.mkfifo(fifo)
    result = run("build", str(site), "--base-url", BASE_URL, "--config", str(fifo), process=True)
    assert result.returncode == 2
    assert "config: cannot read" in result.stderr and "is a FIFO" in result.stderr
    assert result.stderr.count("\n") == 1


# --- which pages are listed ----------------------------------------------------------------

CHECKED_SITE = {
    "index.html": page("Home"),
    # mkdocs-redirects: a stub at an old address
    "old/index.html": page("Redirecting", '<meta http-equiv="refresh" content="1; url=../">'),
    # Hugo's paginator: page 2 names the section as its canonical
    "posts/index.html": page("Posts"),
    "posts/page/2/index.html": page("Posts", f'<link rel="canonical" href="{BASE_URL}posts/">'),
    # the shape of the Jinja macro file pydata-sphinx-theme ships in every site
    "theme/webpack-macros.html": (
        "<!--\n  AUTO-GENERATED from webpack.config.js, do **NOT** edit by hand.\n-->\n"
        "{# Load FontAwesome icons #}\n{% macro head_pre_icons() %}\n"
        '  <link href="{{ pathto(\'_static/styles/theme.css\', 1) }}" rel="stylesheet">\n'
        "{% endmacro %}\n"
    ),
    "google0123456789abcdef.html": "google-site-verification: google0123456789abcdef.html",
    "node_modules/pkg/README.html": page("readme"),
    "guide.html": page("Guide", '<link rel="canonical" href="https://old.example/guide.html">'),
}


def locs(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [part.split("</loc>")[0] for part in text.split("<loc>")[1:]]


def test_page_checks_are_counted_and_warned_once(make_site: SiteMaker, tmp_path: Path) -> None:
    site = make_site(CHECKED_SITE)
    out = tmp_path / "out"
    result = run("build", str(site), "--base-url", BASE_URL, "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "skipped: excluded 1, not a page 1, redirect 1, canonical 1\n" in result.stdout
    assert locs(out / "sitemap.xml") == [
        f"{BASE_URL}guide.html",
        BASE_URL,
        f"{BASE_URL}node_modules/pkg/README.html",
        f"{BASE_URL}posts/",
    ]
    warnings = result.stderr.splitlines()
    assert warnings == [
        "sitemill: warning: 1 listed page(s) declare a canonical URL off this site "
        f"({BASE_URL}), e.g. guide.html names https://old.example/guide.html: check the "
        "generator's site URL setting (site_url, baseURL, html_baseurl, url)",
        "sitemill: warning: listed 1 page(s) under node_modules/, e.g. "
        "node_modules/pkg/README.html: third-party files? exclude them with "
        'exclude = ["**/node_modules/**"]',
    ]
    # Counted in the first line, not repeated (each was said on stderr as it was found).
    assert result.stdout.startswith("needs you: 1 page left out (not a page 1), 2 other warnings\n")
    assert not any(warning.split(": ", 2)[2] in result.stdout for warning in warnings)
    quiet = run("-q", "build", str(site), "--base-url", BASE_URL, "--out", str(out))
    assert quiet.returncode == 0 and quiet.stdout == quiet.stderr == ""


@pytest.mark.parametrize(
    ("args", "env", "toml", "redirect_listed", "paginator_listed"),
    [
        ([], {}, "", False, False),
        (["--no-respect-redirects"], {}, "", True, False),
        (["--no-respect-canonical"], {}, "", False, True),
        (["--no-respect-redirects", "--no-respect-canonical"], {}, "", True, True),
        ([], {"SITEMILL_RESPECT_REDIRECTS": "false"}, "", True, False),
        ([], {}, "respect_canonical = false\n", False, True),
        # a flag beats the environment, the environment beats the config file
        (["--respect-redirects"], {"SITEMILL_RESPECT_REDIRECTS": "false"}, "", False, False),
        ([], {"SITEMILL_RESPECT_CANONICAL": "on"}, "respect_canonical = false\n", False, False),
    ],
)
def test_respect_redirects_and_canonical_switches(
    make_site: SiteMaker,
    tmp_path: Path,
    args: list[str],
    env: dict[str, str],
    toml: str,
    redirect_listed: bool,
    paginator_listed: bool,
) -> None:
    site = make_site({**CHECKED_SITE, "sitemill.toml": toml})
    out = tmp_path / "out"
    result = run("build", str(site), "--base-url", BASE_URL, "--out", str(out), *args, env=env)
    assert result.returncode == 0, result.stderr
    listed = locs(out / "sitemap.xml")
    assert (f"{BASE_URL}old/" in listed) is redirect_listed
    assert (f"{BASE_URL}posts/page/2/" in listed) is paginator_listed
    assert ("redirect 1" in result.stdout) is not redirect_listed
    assert ("canonical 1" in result.stdout) is not paginator_listed


def test_a_project_site_robots_txt_is_warned_about_once(
    make_site: SiteMaker, tmp_path: Path
) -> None:
    site = make_site({"index.html": page(), "robots.txt": "User-agent: *\nDisallow: /x/\n"})
    out = tmp_path / "out"
    base = "https://user.github.io/project/"
    result = run("build", str(site), "--base-url", base, "--out", str(out), "--robots-txt")
    assert result.returncode == 0, result.stderr
    # --out elsewhere: the site's robots.txt is the starting point
    assert (out / "robots.txt").read_text() == (
        f"User-agent: *\nDisallow: /x/\nSitemap: {base}sitemap.xml\n"
    )
    warnings = result.stderr.splitlines()
    assert len(warnings) == 2, warnings
    assert warnings[0].startswith(
        "sitemill: warning: robots_txt: crawlers read only https://user.github.io/robots.txt"
    )
    assert f"submit {base}sitemap.xml in Search Console" in warnings[0]
    assert "respect_robots_txt = false lists them" in warnings[1]


def test_the_report_shows_page_heads_read_and_remembered() -> None:
    report = Report(WriteResult(files=["sitemap.xml"], url_count=3), LastmodMode.MTIME)
    report.heads_read, report.heads_reused = 12, 19_988
    report.skipped.update({SkipReason.CANONICAL: 2, SkipReason.NOT_A_PAGE: 1500})
    stream = io.StringIO()
    print_report(report, "s3://site/", stream)
    assert stream.getvalue().splitlines()[-2:] == [
        "page heads: 12 read, 19,988 remembered from the last run",
        "skipped: not a page 1,500, canonical 2",
    ]


# --- content dates: flags, the state elsewhere, a previous state from the live site ------


def test_content_date_flags_reach_the_config(tmp_path: Path) -> None:
    from sitemill.cli._options import config_from_args
    from sitemill.cli.main import build_parser

    args = build_parser().parse_args(
        [
            "build",
            str(tmp_path),
            "--base-url",
            BASE_URL,
            "--no-content-dates",
            "--fingerprint-ignore",
            "Last updated on [^<]*",
            "--fingerprint-ignore",
            r"build \d+",
            "--state",
            "states/site.json.gz",
            "--previous-state",
            "https://example.com/sitemill-state.json.gz",
        ]
    )
    config = config_from_args(args, {})
    assert config.content_dates is False
    assert [p.pattern for p in config.fingerprint_ignore] == ["Last updated on [^<]*", r"build \d+"]
    assert config.state == "states/site.json.gz"
    assert config.previous_state == "https://example.com/sitemill-state.json.gz"
    defaults = config_from_args(build_parser().parse_args(["build", "--base-url", BASE_URL]), {})
    assert (defaults.content_dates, defaults.fingerprint_ignore) == (True, ())
    assert (defaults.state, defaults.previous_state) == (None, None)


def lastmods(path: Path) -> dict[str, str]:
    text = path.read_text(encoding="utf-8")
    found = re.findall(r"<loc>([^<]*)</loc>\s*<lastmod>([^<]*)</lastmod>", text)
    return dict(found)


def spread(site: Path) -> None:
    """Each page written 40 days before the next: no build's stamp, a first run's dates."""
    for number, path in enumerate(sorted(site.rglob("*.html"))):
        os.utime(path, (FIXED_MTIME - number * 40 * 86_400,) * 2)


def retouch(site: Path, when: int) -> None:
    for path in site.rglob("*.html"):
        os.utime(path, (when, when))


NO_PROXY = {"no_proxy": "*", "NO_PROXY": "*"}


def test_a_fresh_build_keeps_the_dates_of_the_live_sites_state(
    make_site: SiteMaker, tmp_path: Path, live_site: tuple[Path, str]
) -> None:
    served, url = live_site
    pages = {"index.html": page("home"), "a/index.html": page("a")}
    site = make_site(pages)
    spread(site)
    first = run("build", str(site), "--base-url", BASE_URL, "--out", str(served))
    assert first.returncode == 0, first.stderr
    assert "lastmod: 2 dated by their file times" in first.stdout
    assert (served / "sitemill-state.json.gz").is_file()
    published = lastmods(served / "sitemap.xml")
    # CI builds the site again: every file is new, the output folder is empty.
    retouch(site, FIXED_MTIME + 86_400)
    fresh = tmp_path / "fresh"
    args = ["build", str(site), "--base-url", BASE_URL, "--out", str(fresh)]
    result = run(*args, "--previous-state", url + "sitemill-state.json.gz", env=NO_PROXY)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "lastmod: 2 kept" in result.stdout
    assert lastmods(fresh / "sitemap.xml") == published
    # Without it, a first run over one build's files: no evidence, no date (before: the build's
    # time on every page).
    plain = run("build", str(site), "--base-url", BASE_URL, "--out", str(tmp_path / "plain"))
    assert plain.returncode == 0, plain.stderr
    assert lastmods(tmp_path / "plain" / "sitemap.xml") == {}
    assert "without a date: no evidence on a first run" in plain.stdout


def test_a_previous_state_named_but_not_there_is_one_warning_and_a_first_run(
    make_site: SiteMaker, tmp_path: Path, live_site: tuple[Path, str]
) -> None:
    site = make_site({"index.html": page()})
    _, url = live_site
    for named in (url + "sitemill-state.json.gz", str(tmp_path / "missing.json.gz")):
        out = tmp_path / "out" / str(len(named))
        args = ["build", str(site), "--base-url", BASE_URL, "--out", str(out)]
        result = run(*args, "--previous-state", named, env=NO_PROXY)
        assert result.returncode == 0, result.stderr
        assert result.stderr.startswith(f"sitemill: warning: no previous state at {named} (")
        assert result.stderr.endswith("; a first run\n") and result.stderr.count("\n") == 1
        assert "no evidence on a first run" in result.stdout


def test_a_previous_state_that_cannot_be_fetched_is_one_warning(
    make_site: SiteMaker, tmp_path: Path
) -> None:
    site = make_site({"index.html": page()})
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/sitemill-state.json.gz"
    args = ["build", str(site), "--base-url", BASE_URL, "--out", str(tmp_path / "out")]
    result = run(*args, "--previous-state", url, env=NO_PROXY)
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"sitemill: warning: cannot fetch the previous state {url}")
    assert (tmp_path / "out" / "sitemap.xml").is_file()


@pytest.mark.parametrize(
    ("flag", "message"),
    [
        (
            ["--previous-state", "ftp://example.com/s.gz"],
            "previous_state: 'ftp://example.com/s.gz'",
        ),
        (["--state", "https://example.com/s.gz"], "state: 'https://example.com/s.gz'"),
        (["--state", "s3://Bad_Bucket/s.gz"], "state: 's3://Bad_Bucket/s.gz'"),
        (["--fingerprint-ignore", "(unclosed"], "fingerprint_ignore: invalid regular expression"),
    ],
)
def test_bad_state_locations_are_one_line_errors_before_anything_is_written(
    make_site: SiteMaker, flag: list[str], message: str
) -> None:
    site = make_site({"index.html": page()})
    result = run("build", str(site), "--base-url", BASE_URL, *flag)
    assert result.returncode == 2
    assert result.stderr.startswith(f"sitemill: error: {message}")
    assert result.stderr.count("\n") == 1
    assert not (site / "sitemap.xml").exists()


def test_the_state_can_live_elsewhere(make_site: SiteMaker, tmp_path: Path) -> None:
    site = make_site({"index.html": page(), "b.html": page("b")})
    spread(site)
    state = tmp_path / "cache" / "site-state.json.gz"
    args = ["build", str(site), "--base-url", BASE_URL, "--out", str(tmp_path / "out")]
    first = run(*args, "--state", str(state))
    assert first.returncode == 0, first.stderr
    assert state.is_file()
    assert not (tmp_path / "out" / "sitemill-state.json.gz").exists()
    dates = lastmods(tmp_path / "out" / "sitemap.xml")
    retouch(site, FIXED_MTIME + 3_600)
    again = run(*args, "--state", str(state))
    assert "lastmod: 2 kept" in again.stdout
    assert "nothing changed" in again.stdout
    assert lastmods(tmp_path / "out" / "sitemap.xml") == dates


def test_no_content_dates_is_the_plain_dates_and_no_state(
    make_site: SiteMaker, tmp_path: Path
) -> None:
    site = make_site({"index.html": page()})
    out = tmp_path / "out"
    args = ["build", str(site), "--base-url", BASE_URL, "--out", str(out)]
    result = run(*args, "--no-content-dates")
    assert result.returncode == 0, result.stderr
    assert "lastmod: " not in result.stdout.replace("(lastmod: mtime)", "")
    assert not (out / "sitemill-state.json.gz").exists()


@pytest.mark.parametrize(
    ("dates", "line"),
    [
        ({}, ""),
        ({"kept": 9_880, "new page": 100, "content changed": 20},
         "lastmod: 9,880 kept, 120 moved (new page 100, content changed 20)"),
        ({"kept": 3}, "lastmod: 3 kept"),
        ({"content changed": 1}, "lastmod: 0 kept, 1 moved (content changed 1)"),
        ({"no date (file times are one build's)": 10_000},
         "lastmod: 10,000 without a date: no evidence on a first run (file times are one "
         "build's)"),
        ({"kept": 1, "file time": 2, "other": 4},
         "lastmod: 1 kept, 4 moved (other 4), 2 dated by their file times (a first run; the "
         "times are spread, no stamp)"),
        # A git tree's first run, dated by content (issue 41: "0 kept older than the last
        # commit, 61 equal" did not say what it meant).
        ({"the last commit": 61},
         "lastmod: 61 pages dated by their last commit; none kept an older date, since no "
         "commit changed a page without changing its content"),
        ({"older than the last commit": 232, "the last commit": 1_308},
         "lastmod: 232 pages dated by an earlier commit (the later ones only re-rendered "
         "them), 1,308 by their last commit"),
        ({"older than the last commit": 1, "the last commit": 1},
         "lastmod: 1 page dated by an earlier commit (the later ones only re-rendered it), "
         "1 by its last commit"),
    ],
)  # fmt: skip
def test_the_report_shows_how_dates_were_decided(dates: dict[str, int], line: str) -> None:
    report = Report(WriteResult(files=["sitemap.xml"], url_count=3), LastmodMode.MTIME)
    report.dates.update(dates)
    assert dates_line(report) == line
    stream = io.StringIO()
    print_report(report, "out", stream)
    lines = stream.getvalue().splitlines()
    assert (line in lines) if line else not any(text.startswith("lastmod: ") for text in lines)


def test_s3_keeps_its_state_in_another_bucket(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from s3util import BASE, BUCKET, moto_bucket, put_pages
    from sitemill.cli.main import main

    for s3 in moto_bucket(monkeypatch):
        s3.create_bucket(Bucket="state-bucket")
        put_pages(s3, "index.html", "a/index.html")
        state = "s3://state-bucket/site-bucket/sitemill-state.json.gz"
        argv = ["s3", "--bucket", BUCKET, "--base-url", BASE, "--state", state]
        assert main([*argv, "--dry-run"]) == 0
        assert s3.list_objects_v2(Bucket="state-bucket")["KeyCount"] == 0
        capsys.readouterr()
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert "lastmod: 2 dated by their file times" in out  # (uploaded one by one)
        keys = [item["Key"] for item in s3.list_objects_v2(Bucket=BUCKET)["Contents"]]
        assert "sitemill-state.json.gz" not in keys
        # In parts (docs/s3-lambda.md), under the state key without its .json.gz.
        stored = {item["Key"] for item in s3.list_objects_v2(Bucket="state-bucket")["Contents"]}
        assert {"site-bucket/sitemill-state/index-state.json"} < stored
        assert all(key.startswith("site-bucket/sitemill-state/") for key in stored)
        # An identical re-upload of every page: every date kept, nothing written.
        put_pages(s3, "index.html", "a/index.html")
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert "lastmod: 2 kept" in out
        assert "nothing changed" in out


def test_the_report_shows_images_and_the_site_chrome_left_out() -> None:
    report = Report(WriteResult(files=["sitemap.xml"], url_count=30), LastmodMode.MTIME)
    report.images, report.image_chrome = 30, 60
    stream = io.StringIO()
    print_report(report, "out", stream)
    assert stream.getvalue().splitlines()[-1] == (
        "extensions: 30 images, 60 site-chrome images left out"
    )


def test_the_counts_line_says_what_dated_the_pages(make_site: SiteMaker, tmp_path: Path) -> None:
    # A first run over a fresh build: one page declares its date, the other has no evidence.
    # Before, the line said "(lastmod: mtime)", though no page had its file time.
    modified = '<meta property="article:modified_time" content="2024-03-01T10:00:00+00:00">'
    site = make_site({"a.html": page("a", modified), "b.html": page("b"), "c.html": page("c")})
    out = tmp_path / "out"
    result = run("build", str(site), "--base-url", BASE_URL, "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[1].endswith("(lastmod: declared 1, none 2)")
    again = run("build", str(site), "--base-url", BASE_URL, "--out", str(out))
    assert again.stdout.splitlines()[1].endswith("(lastmod: kept 1, none 2)")
    plain = run("build", str(site), "--base-url", BASE_URL, "--out", str(tmp_path / "plain"),
                "--no-content-dates")  # fmt: skip
    assert plain.stdout.splitlines()[1].endswith("(lastmod: mtime)")  # each page's file time


@pytest.mark.parametrize(
    ("mode", "dates", "said"),
    [
        (LastmodMode.MTIME, {}, "mtime"),  # content dates off: each page's file time
        (LastmodMode.GIT, {"older than the last commit": 2, "the last commit": 53}, "git 55"),
        (LastmodMode.GIT, {"the last commit": 3, "new page": 1, "declared": 1},
         "git 4, declared 1"),
        (LastmodMode.MTIME, {"kept": 5, "content changed": 2, "no date (no evidence)": 1},
         "mtime 2, kept 5, none 1"),
        (LastmodMode.MTIME, {"source": 7, "file time": 1, "no date (a time after the run)": 2,
                             "no date (file times are one build's)": 3},
         "source 7, file time 1, none 5"),
    ],
)  # fmt: skip
def test_the_counts_line_names_each_source_of_dates_once(
    mode: LastmodMode, dates: dict[str, int], said: str
) -> None:
    report = Report(WriteResult(files=["sitemap.xml"], url_count=3), mode)
    report.dates.update(dates)
    stream = io.StringIO()
    print_report(report, "out", stream)
    assert stream.getvalue().splitlines()[1] == f"3 URLs in one sitemap in out (lastmod: {said})"


def test_python_dash_m_sitemill_is_the_command(tmp_path: Path) -> None:
    """issue 82: `python -m sitemill` runs the command, as the script does."""
    ran = subprocess.run(
        [sys.executable, "-m", "sitemill", "--version"], capture_output=True, text=True, check=False
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith("sitemill ")
    asked = subprocess.run(
        [sys.executable, "-m", "sitemill", "build", str(tmp_path / "nowhere"), "--base-url", "x"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert asked.returncode == 2
    assert asked.stderr.startswith("sitemill")
    assert "Traceback" not in asked.stderr


def test_an_index_of_one_sitemap_is_said_in_the_singular() -> None:
    """issue 82: "an index of 1 sitemaps" (an index beside the user's, naming sitemill's one)."""
    files = ["sitemap.xml", "sitemap-1.xml"]
    written = WriteResult(files=files, entry_files=["sitemap.xml"], url_count=3, users_named=1)
    stream = io.StringIO()
    print_report(Report(written, LastmodMode.MTIME), "out", stream)
    first = stream.getvalue().splitlines()[1]
    assert first.startswith("3 URLs in an index of 1 sitemap and 1 of yours in out ")


@pytest.mark.parametrize("spelling", ["true", "yes", "on"])
def test_llms_txt_flag_takes_the_config_files_spellings(
    make_site: SiteMaker, spelling: str
) -> None:
    """issue 82: --llms-txt refused true/yes while the config file took them: one parser."""
    root = make_site({"index.html": page("Home")})
    done = run("build", str(root), "--base-url", BASE_URL, "--llms-txt", spelling)
    assert done.returncode == 0, done.stderr
    assert (root / "llms.txt").is_file()


def test_a_mode_flags_wrong_value_is_one_line_naming_the_values(make_site: SiteMaker) -> None:
    root = make_site({"index.html": page("Home")})
    done = run("build", str(root), "--base-url", BASE_URL, "--llms-txt", "maybe")
    assert done.returncode == 2
    assert done.stderr == "sitemill: error: llms_txt: 'maybe' is not one of: off, on, replace\n"
    assert not (root / "llms.txt").exists()
