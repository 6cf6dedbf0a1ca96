"""What reaches the terminal, through the real `sitemill` command: names and argv that carry
terminal sequences (an OSC 52 clipboard write, a screen clear, an OSC 8 link) are escaped,
and no URL's user info is shown, however the password is spelt and whichever command is given
it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import boto3
import pytest

from clirun import run_sitemill
from conftest import BASE_URL, SiteMaker, page
from motoserver import moto_server
from sitemill.cli.main import _Shown, main

# What a terminal obeys: ESC (7-bit sequences), BEL, the 8-bit CSI/OSC/ST, a bidi override.
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]")
CLIPBOARD = "\x1b]52;c;SGVsbG8=\x07"  # OSC 52: writes "Hello" to the clipboard
CLEAR = "\x1b[2J\x1b[H"
LINK = "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\"  # OSC 8: a hidden link
# In XML 1.0 (a sitemap a generator wrote) only the 8-bit forms can be: CSI, OSC ... ST.
EIGHT_BIT = "x\x9b2J\x9d52;c;SGk=\x9c\u202e"


def assert_escaped(text: str) -> None:
    assert RAW_CONTROL.search(text) is None, repr(text)


@pytest.mark.parametrize(
    "argv",
    [
        ["build", "site", "--base-url", BASE_URL, f"--bogus{CLIPBOARD}"],  # unrecognized
        ["build", "site", "--base-url", BASE_URL, f"extra{CLEAR}"],  # an extra argument
        ["build", "site", "--base-url", BASE_URL, f"--out={LINK}", f"--x{LINK}"],
        ["build", "site", "--url-style", f"clean{CLEAR}"],  # invalid choice
        [f"bu{CLIPBOARD}ild"],  # invalid command
        ["s3", "--bucket", f"b{LINK}"],  # a value a type refuses
        ["validate", "site", f"--{CLIPBOARD}"],
    ],
)
def test_argv_in_a_usage_error_is_escaped(tmp_path: Path, argv: list[str]) -> None:
    (tmp_path / "site").mkdir()
    done = run_sitemill(*argv, cwd=tmp_path)
    assert done.returncode == 2
    assert_escaped(done.stdout + done.stderr)
    assert done.stderr.count("\n") == 1 and "error:" in done.stderr
    assert "\\x1b" in done.stderr  # (said, escaped: the user sees what was typed)


def hugo_index_naming(child: str) -> dict[str, str]:
    """A Hugo-shaped index that names ``child``/sitemap.xml, a sitemap Hugo wrote there."""
    declaration = '<?xml version="1.0" encoding="utf-8" standalone="yes"?>'
    namespace = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
    return {
        "sitemap.xml": f"{declaration}<sitemapindex {namespace}><sitemap>"
        f"<loc>/{child}/sitemap.xml</loc></sitemap></sitemapindex>",
        f"{child}/sitemap.xml": f"{declaration}<urlset {namespace}><url><loc>{BASE_URL}</loc>"
        "<lastmod>2026-03-09T20:36:34+08:00</lastmod></url></urlset>",
    }


def test_a_kept_file_name_is_escaped(make_site: SiteMaker) -> None:
    """A child a Hugo index names under no language's folder is not Hugo's own: it stays, and
    the takeover line names it (only names of a generator's own pattern are ever deleted, and
    those carry no terminal sequence)."""
    site = make_site({"index.html": page("home"), **hugo_index_naming(EIGHT_BIT)})
    kept = (site / EIGHT_BIT / "sitemap.xml").read_bytes()
    done = run_sitemill("build", str(site), "--base-url", BASE_URL)
    assert done.returncode == 0, done.stderr
    assert (site / EIGHT_BIT / "sitemap.xml").read_bytes() == kept
    assert "keeping and naming x\\x9b2J\\x9d52;c;SGk=\\x9c\\u202e/sitemap.xml" in done.stderr
    assert_escaped(done.stdout + done.stderr)


def test_the_output_folder_named_in_the_report_is_escaped(make_site: SiteMaker) -> None:
    site = make_site({"index.html": page("home")})
    out = site.parent / f"out{CLEAR}"
    done = run_sitemill("build", str(site), "--base-url", BASE_URL, "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "out\\x1b[2J\\x1b[H" in done.stdout
    assert_escaped(done.stdout + done.stderr)


# User info in every spelling: KEYUSER1 the user, PASS1 and WORD2 the parts of a password
# (urlsplit reads a password holding "#" or "/" as a host and port).
SPELLINGS = [
    "ftp://KEYUSER1:PASS1WORD2@h.example/",
    "https://KEYUSER1:PASS1WORD2",  # no "@": the password is read as a port
    "https://KEYUSER1:PASS1WORD2@h.example/",
    "https://KEYUSER1:PASS1#WORD2@h.example/",
    "https://KEYUSER1:PASS1/WORD2@h.example/",
    "https://KEYUSER1:PASS1?WORD2@h.example/",
    "https://KEYUSER1:PASS1@WORD2@h.example/",
    "KEYUSER1:PASS1WORD2@h.example",
]
COMMANDS = {
    "build": ["build", "site"],
    "urls": ["urls", "list.txt"],
    "s3": ["s3", "--bucket", "site-bucket"],
    "indexnow": ["indexnow", "site", "--dry-run"],
    "validate": ["validate", "site/sitemap.xml"],
}
FLAGS = [
    "--endpoint-url",  # s3's and indexnow's, and one build, urls and validate do not know
    "--base-url",
    "--previous-state",
    "--indexnow-endpoint",
    "--indexnow-key-location",
]


def said_by(argv: list[str], capsys: pytest.CaptureFixture[str], caplog: Any) -> str:
    """What `sitemill ARGV` writes to the terminal, run in this process (the table below is
    too long for a process a case): its output, and its warnings as its formatter shows them."""
    try:
        code = main(argv)
    except SystemExit as exc:  # (argparse's error: exit 2)
        code = exc.code
    captured = capsys.readouterr()
    warnings = "".join(f"{_Shown().format(record)}\n" for record in caplog.records)
    assert code in (1, 2), captured  # (refused before anything is read or sent)
    return captured.out + captured.err + warnings


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("flag", FLAGS)
@pytest.mark.parametrize("url", SPELLINGS)
def test_no_user_info_in_any_message(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    command: str,
    flag: str,
    url: str,
) -> None:
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text(page("home"))
    (tmp_path / "list.txt").write_text(f"{BASE_URL}a\n")
    monkeypatch.chdir(tmp_path)
    for name, value in AWS_ENV.items():
        monkeypatch.setenv(name, value)
    base = [] if flag == "--base-url" or command == "validate" else ["--base-url", BASE_URL]
    for given in ([flag, url], [f"{flag}={url}"]):
        said = said_by([*COMMANDS[command], *base, *given], capsys, caplog)
        for part in ("KEYUSER1", "PASS1", "WORD2"):
            assert part not in said, said


AWS_ENV = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_CONFIG_FILE": "/dev/null",
    "AWS_SHARED_CREDENTIALS_FILE": "/dev/null",
}


@pytest.mark.parametrize(
    "argv",
    [
        ["build", "site", "--base-url", BASE_URL, "--endpoint-url", SPELLINGS[3]],  # echoed
        ["s3", "--bucket", "site-bucket", "--base-url", BASE_URL, "--endpoint-url", SPELLINGS[1]],
        ["build", "site", "--base-url", SPELLINGS[4]],
    ],
)
def test_no_user_info_reaches_the_terminal(tmp_path: Path, argv: list[str]) -> None:
    (tmp_path / "site").mkdir()
    done = run_sitemill(*argv, cwd=tmp_path, env=AWS_ENV)
    said = done.stdout + done.stderr
    assert done.returncode == 2 and said.count("\n") == 1, said
    for part in ("KEYUSER1", "PASS1", "WORD2"):
        assert part not in said, said


def test_a_key_that_is_kept_is_escaped() -> None:
    """`sitemill s3 --dry-run` over a bucket (moto's server) whose Hugo index names a child
    sitemap under a key that carries terminal sequences: not Hugo's own, kept and named."""
    with moto_server() as endpoint:
        client = boto3.client("s3", endpoint_url=endpoint, **BOTO_ENV)
        client.create_bucket(Bucket="site-bucket")
        files = {"index.html": page("home"), **hugo_index_naming(EIGHT_BIT)}
        for key, text in files.items():
            client.put_object(Bucket="site-bucket", Key=key, Body=text.encode())
        argv = ["s3", "--bucket", "site-bucket", "--endpoint-url", endpoint, "--dry-run"]
        done = run_sitemill(*argv, "--base-url", BASE_URL, env=AWS_ENV)
    assert done.returncode == 0, done.stderr
    assert "would delete" not in done.stdout
    assert "keeping and naming x\\x9b2J\\x9d52;c;SGk=\\x9c\\u202e/sitemap.xml" in done.stderr
    assert_escaped(done.stdout + done.stderr)


BOTO_ENV = {
    "aws_access_key_id": "testing",
    "aws_secret_access_key": "testing",
    "region_name": "us-east-1",
}
