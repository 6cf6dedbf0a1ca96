"""A user's mistake is one line on stderr and exit 2, never a traceback: every option of
every command (read from the parser itself, so a new option is covered or this fails) given
a bad value; "did you mean …?" for a near miss; --out inside SITE_DIR; no boto3."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sitemill.cli.main import build_parser, main

BASE_URL = "https://example.com/"

# A bad value for every option or argument that takes one: by "command dest" where the
# commands differ, else by dest. {site} is a site folder, {file} a regular file, {missing} a
# path that does not exist. An option whose choices are fixed gets "bogus".
BAD_VALUES = {
    "build site_dir": "{file}",
    "indexnow site_dir": "{file}",
    "check site_dir": "{file}",
    "why site_dir": "{file}",
    "diff site_dir": "{file}",
    "diff out": "{site}/sub",
    "against": "ftp://example.com/s.gz",
    "write_redirects": "{site}",
    "why page": "{file}",  # (after "--", the site folder comes first: it lands on SITE_DIR)
    "build out": "{site}/sub",
    "indexnow out": "{site}/sub",
    "check out": "{site}/sub",
    "sample": "0",
    "concurrency": "many",
    "timeout": "-1",
    "deadline": "0",
    "why out": "{site}/sub",
    "urls out": "{file}",
    "url_file": "{missing}",
    "paths": "{missing}",
    "base_url": "example.com",
    "config": "{missing}",
    "include": "[x",
    "exclude": "[[:digit:]]",
    "max_urls": "50001",
    "max_bytes": "1",
    "max_sitemaps_per_index": "0",
    "templates_dir": "{missing}",
    "fingerprint_ignore": "(",
    "image_hosts": "https://cdn.example.com/images",
    "sitemaps": "sitemap.xml",  # (sitemill's own output)
    "indexnow_endpoint": "ftp://example.com/",
    "indexnow_key_location": "example.com/key.txt",
    "shard_fill": "0",
    "llms_txt": "sometimes",
    "indexnow": "bogus",  # (a mode flag: its values are the config's parser's)
    "llms_full_max_bytes": "1000",
    "workers": "many",
    "image_chrome_share": "2",
    "state": "s3://Bad_Bucket/s.gz",
    "previous_state": "ftp://example.com/s.gz",
    "bucket": "s3://my-site",
    "prefix": "/site/",
    "endpoint_url": "localhost:9000",
    "function": "",
}
# An input that cannot be read is invalid input (exit 1), as a sitemap failing validation is;
# every other mistake is in the command line or the configuration (exit 2).
INVALID_INPUT = {"url_file", "paths"}

# What each command needs to get as far as its options: the bad one comes last and wins.
GOOD = {
    "build": ["{site}", "--base-url", BASE_URL],
    "urls": ["{urls}", "--base-url", BASE_URL, "--out", "{out}"],
    "s3": ["--bucket", "my-site", "--base-url", BASE_URL],
    "indexnow": ["{site}", "--base-url", BASE_URL, "--dry-run"],
    "validate": ["{sitemap}"],
    "why": ["index.html", "{site}", "--base-url", BASE_URL],
    "check": ["{site}", "--base-url", BASE_URL],
    "diff": ["{site}", "--base-url", BASE_URL, "--against", "{missing}"],
}


def commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no commands")


def mistakes() -> Iterator[tuple[str, list[str], str]]:
    """(command, the bad argv's tail, the dest) for every argument of every command."""
    for command, parser in commands().items():
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction | argparse._VersionAction):
                continue  # (--help and --version end a run before any value is read)
            flag = action.option_strings[0] if action.option_strings else None
            if action.nargs == 0 or (flag and action.const is not None and action.choices):
                yield command, [f"{flag}=bogus"], action.dest  # a value for a switch
                if action.nargs == 0:
                    continue
            if action.choices:
                bad = "bogus"
            else:
                key = f"{command} {action.dest}"
                bad = BAD_VALUES.get(key, BAD_VALUES.get(action.dest, f"<no bad value: {key}>"))
            yield command, [flag, bad] if flag else ["--", bad], action.dest


MISTAKES = list(mistakes())


def test_the_commands_are_all_here() -> None:
    assert set(commands()) == set(GOOD)


def test_every_argument_has_a_bad_value() -> None:
    missing = [f"{command} {dest}" for command, tail, dest in MISTAKES if "<no bad" in tail[-1]]
    assert missing == [], "add a bad value to BAD_VALUES"
    assert len(MISTAKES) > 80  # (every flag of every command: not a handful)


@pytest.fixture
def places(tmp_path: Path) -> dict[str, str]:
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<title>Home</title>", encoding="utf-8")
    (site / "sub").mkdir()
    urls = tmp_path / "urls.txt"
    urls.write_text(BASE_URL + "\n", encoding="utf-8")
    sitemap = tmp_path / "sitemap.xml"
    sitemap.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"<url><loc>{BASE_URL}</loc></url></urlset>\n",
        encoding="utf-8",
    )
    file = tmp_path / "file.txt"
    file.write_text("not a folder", encoding="utf-8")
    return {
        "site": str(site),
        "urls": str(urls),
        "out": str(tmp_path / "out"),
        "sitemap": str(sitemap),
        "file": str(file),
        "missing": str(tmp_path / "missing"),
    }


@pytest.mark.parametrize(
    ("command", "tail", "dest"), MISTAKES, ids=[f"{c}-{' '.join(t)}" for c, t, _ in MISTAKES]
)
def test_a_bad_value_is_one_line_and_exit_2(
    command: str,
    tail: list[str],
    dest: str,
    places: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in [name for name in os.environ if name.startswith("SITEMILL_")]:
        monkeypatch.delenv(name)
    monkeypatch.chdir(places["site"])
    good = GOOD[command][1:] if tail[0] == "--" and command != "s3" else GOOD[command]
    argv = [command, *[arg.format(**places) for arg in (*good, *tail)]]
    try:
        code = main(argv)
    except SystemExit as exit:  # argparse's refusals
        code = exit.code
    captured = capsys.readouterr()
    if command == "validate" and dest in INVALID_INPUT:  # a violation: one line on stdout
        assert captured.out.endswith(": no such file or directory\n")
        assert captured.err == "" and code == 1
        return
    err = captured.err
    assert code == (1 if dest in INVALID_INPUT else 2), err
    assert err.count("\n") == 1 and err.startswith("sitemill"), err
    assert "Traceback" not in err
    assert not (Path(places["site"]) / "sitemap.xml").exists()


@pytest.mark.parametrize(
    ("argv", "hint"),
    [
        (["biuld", "."], "did you mean build?"),
        (["build", ".", "--bse-url", BASE_URL], "did you mean --base-url?"),
        (["build", ".", "--max-url5=5"], "did you mean --max-urls?"),
        (["build", ".", "--url-style", "dirctory"], "did you mean directory?"),
        (["s3", "--bucket", "my-site", "--dryrun"], "did you mean --dry-run?"),
    ],
)
def test_a_near_miss_on_the_command_line_is_named(
    argv: list[str], hint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit:
        main(argv)
    err = capsys.readouterr().err
    assert exit.value.code == 2
    assert hint in err and err.count("\n") == 1


def test_a_near_miss_in_the_config_file_and_env_is_named(
    places: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    site = Path(places["site"])
    (site / "sitemill.toml").write_text(f'base_url = "{BASE_URL}"\nlast_mod = "git"\n')
    assert main(["build", str(site)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"sitemill: error: last_mod: unknown key in {site}/sitemill.toml; did you mean lastmod?\n"
    )
    (site / "sitemill.toml").unlink()
    monkeypatch.setenv("SITEMILL_BASEURL", BASE_URL)
    assert main(["build", str(site)]) == 2  # (the base URL is still missing)
    assert caplog.messages == [
        "SITEMILL_BASEURL is not a sitemill setting and is ignored; did you mean SITEMILL_BASE_URL?"
    ]
    assert "base_url: is required" in capsys.readouterr().err


def test_out_inside_the_site_is_refused_naming_the_rule(
    places: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    site = places["site"]
    assert main(["build", site, "--base-url", BASE_URL, "--out", f"{site}/sub"]) == 2
    err = capsys.readouterr().err
    assert "inside SITE_DIR" in err and "a sitemap lists only URLs at or below its own" in err
    # SITE_DIR itself (spelt another way) and a folder outside it are fine.
    assert main(["-q", "build", site, "--base-url", BASE_URL, "--out", f"{site}/sub/.."]) == 0
    assert main(["-q", "build", site, "--base-url", BASE_URL, "--out", places["out"]]) == 0
    assert (Path(places["out"]) / "sitemap.xml").exists()


# No boto3 (nor botocore): an import of either fails, as in an install without the s3 extra.
_WITHOUT_BOTO3 = (
    "import sys; sys.modules['boto3'] = sys.modules['botocore'] = None; "
    "from sitemill.cli.main import main; sys.exit(main(sys.argv[1:]))"
)


@pytest.mark.parametrize(
    "argv",
    [
        ["s3", "--bucket", "my-site", "--base-url", BASE_URL],
        ["indexnow", "--bucket", "my-site", "--base-url", BASE_URL, "--dry-run"],
        ["build", ".", "--base-url", BASE_URL, "--state", "s3://my-state/s.json.gz"],
    ],
)
def test_without_boto3_one_line_says_how_to_install_it(argv: list[str], tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<title>Home</title>", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-c", _WITHOUT_BOTO3, *argv],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "needs boto3" in result.stderr
    assert "(the s3 extra; in a sitemill checkout: pip install -e '.[s3]')" in result.stderr
