"""The `sitemill` command as a user runs it: exit codes, one-line errors, outputs."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from clirun import run_sitemill
from conftest import BASE_URL, SiteMaker, page
from xsd import assert_valid_sitemaps


def run(
    *args: str, cwd: Path | None = None, stdin: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return run_sitemill(*args, cwd=cwd, stdin=stdin, env=env)


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
def test_bad_input_is_one_line_and_exit_1(
    make_site: SiteMaker, tmp_path: Path, args: list[str], message: str
) -> None:
    site = make_site({"index.html": page()})
    values = {"site": str(site), "missing": str(tmp_path / "missing")}
    result = run(*[arg.format(**values) for arg in args])
    assert result.returncode == 1
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
    assert "1 URLs in one sitemap" in result.stdout


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
    assert result.returncode == 1
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
    assert result.returncode == 1 and "base_url: is required" in result.stderr
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
    assert result.returncode == 1
    assert "templates_dir: '../t' in" in result.stderr and "leads outside" in result.stderr


def test_an_explicit_config_must_be_a_regular_file(make_site: SiteMaker, tmp_path: Path) -> None:
    site = make_site({"index.html": page()})
    fifo = tmp_path / "conf.toml"
    os.mkfifo(fifo)
    result = run("build", str(site), "--base-url", BASE_URL, "--config", str(fifo))
    assert result.returncode == 1
    assert "config: cannot read" in result.stderr and "is a FIFO" in result.stderr
    assert result.stderr.count("\n") == 1
