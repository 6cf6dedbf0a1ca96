"""`sitemill build --indexnow` and `sitemill indexnow` against a local engine and site on
127.0.0.1: exactly the changed URLs, sent once they are live, kept while they cannot be, and
the key in no output, log or state."""

from __future__ import annotations

import gzip
import json
import time
from pathlib import Path

import pytest

from enginestand import KEY, Reply, Stand
from sitemill.cli.main import main


def write(site: Path, name: str, words: str, *, head: str = "", footer: str = "") -> None:
    (site / name).write_text(
        f"<html><head><title>{name}</title>{head}</head><body><main><p>{words}</p></main>"
        f"<footer>{footer}</footer></body></html>",
        encoding="utf-8",
    )


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SITEMILL_INDEXNOW_KEY", KEY)
    folder = tmp_path / "site"
    folder.mkdir()
    for name in ("a.html", "b.html", "c.html"):
        write(folder, name, f"words of {name}")
    return folder


def run(command: str, site: Path, stand: Stand, state: Path, *extra: str) -> int:
    """`sitemill build` or `sitemill indexnow` of ``site`` served by the stand."""
    options = ["--base-url", stand.origin + "/", "--state", str(state)]
    options += ["--indexnow-endpoint", stand.origin + "/indexnow"]
    lastmod = ["--lastmod", "mtime"] if command == "build" else []
    return main([command, str(site), *options, *lastmod, *extra])


def build(site: Path, stand: Stand, state: Path, *extra: str) -> int:
    return run("build", site, stand, state, *extra)


def announce(site: Path, stand: Stand, state: Path, *extra: str) -> int:
    return run("indexnow", site, stand, state, *extra)


def sent_urls(stand: Stand) -> list[str]:
    return [url for post in stand.posts for url in post["urlList"]]


def test_a_run_sends_exactly_its_changes_once_live(
    site: Path, stand: Stand, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "private" / "state.json.gz"
    assert build(site, stand, state, "--indexnow") == 0
    assert stand.posts == []  # a first run announces nothing
    write(site, "a.html", "new words")
    write(site, "b.html", "words of b.html", footer="(c) 2031")  # furniture: not a change
    write(site, "c.html", "words of c.html", head='<meta name="robots" content="noindex">')
    write(site, "d.html", "a new page")
    assert build(site, stand, state, "--indexnow") == 0
    origin = stand.origin
    assert sorted(sent_urls(stand)) == [f"{origin}/a.html", f"{origin}/c.html", f"{origin}/d.html"]
    (post,) = stand.posts
    assert post["host"] == "127.0.0.1" and post["keyLocation"] == f"{origin}/{KEY}.txt"
    assert stand.requests[0] == ("GET", f"/{KEY}.txt")  # the key file first
    out = capsys.readouterr()
    assert "3 sent, 0 pending" in out.out
    assert KEY not in out.out + out.err
    assert KEY not in gzip.decompress(state.read_bytes()).decode()
    assert b"indexnow" not in gzip.decompress(state.read_bytes())  # nothing left pending
    assert build(site, stand, state, "--indexnow") == 0
    assert len(stand.posts) == 1  # nothing changed: nothing sent


def test_not_live_yet_then_later_sent_once(
    site: Path, stand: Stand, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state.json.gz"
    build(site, stand, state, "--indexnow=later")
    write(site, "a.html", "edited")
    assert build(site, stand, state, "--indexnow=later") == 0
    assert stand.requests == []  # later: nothing contacted
    stand.files.clear()  # the deploy has not happened: no key file
    assert announce(site, stand, state) == 0
    assert stand.posts == [] and "is not live (HTTP 404)" in capsys.readouterr().err
    stand.files[f"/{KEY}.txt"] = (200, KEY.encode(), {})
    stand.replies = [Reply(503), Reply(200)]
    assert announce(site, stand, state) == 0
    assert "1 pending (503 server error 1)" in capsys.readouterr().out
    assert announce(site, stand, state) == 0
    assert announce(site, stand, state) == 0  # nothing left: no POST
    assert sent_urls(stand) == [f"{stand.origin}/a.html", f"{stand.origin}/a.html"]
    assert [reply.status for reply in stand.replies] == [200]


def test_a_429_is_waited_out_within_the_run(site: Path, stand: Stand, tmp_path: Path) -> None:
    state = tmp_path / "state.json.gz"
    build(site, stand, state, "--indexnow")
    write(site, "b.html", "edited")
    stand.replies = [Reply(429, headers={"Retry-After": "1"}), Reply(202)]
    started = time.monotonic()
    assert build(site, stand, state, "--indexnow") == 0
    assert time.monotonic() - started >= 1.0  # (Retry-After honoured: the waits themselves
    # are tested with an injected sleep in test_send.py)
    assert [post["urlList"] for post in stand.posts] == [[f"{stand.origin}/b.html"]] * 2
    assert b"indexnow" not in gzip.decompress(state.read_bytes())


def test_a_refusal_is_one_error_and_not_kept(
    site: Path, stand: Stand, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state.json.gz"
    build(site, stand, state, "--indexnow=later")
    write(site, "c.html", "edited")
    build(site, stand, state, "--indexnow=later")
    stand.replies = [Reply(422)]
    assert announce(site, stand, state) == 1
    out = capsys.readouterr()
    assert "422" in out.err
    assert "0 sent, 0 pending, 1 refused (422 URLs not for this host or key 1)" in out.out
    assert announce(site, stand, state) == 0 and len(stand.posts) == 1  # dropped for good


def test_the_written_key_file_of_a_project_site_is_its_key_location(
    site: Path, stand: Stand, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    state = tmp_path / "state.json.gz"
    base = stand.origin + "/project/"
    args = ["--base-url", base, "--indexnow", "--indexnow-write-key-file"]
    assert build(site, stand, state, *args) == 0
    write(site, "a.html", "edited")
    stand.files = {f"/project/{KEY}.txt": (200, (site / f"{KEY}.txt").read_bytes(), {})}
    assert build(site, stand, state, *args) == 0
    (post,) = stand.posts
    assert post["keyLocation"] == f"{base}{KEY}.txt" and post["urlList"] == [base + "a.html"]
    assert "below its host's root" in caplog.text and KEY not in caplog.text


def test_sending_rewrites_only_the_pending_table_of_the_state(
    site: Path, stand: Stand, tmp_path: Path
) -> None:
    state = tmp_path / "state.json.gz"
    build(site, stand, state, "--indexnow=later")
    write(site, "a.html", "edited")
    build(site, stand, state, "--indexnow=later")
    before = json.loads(gzip.decompress(state.read_bytes()))
    assert announce(site, stand, state) == 0
    after = json.loads(gzip.decompress(state.read_bytes()))
    assert before.pop("indexnow") == {"pending": {f"{stand.origin}/a.html": "changed"}}
    assert after == before
