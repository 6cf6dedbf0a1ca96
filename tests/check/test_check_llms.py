"""`sitemill check` and the llms files a build published: each llms file answers 200 itself
with a text type and the very bytes published (an older copy said with its age and the path
to invalidate, an HTML page in its place said plainly, compression in transit unpacked, reads
bounded); with llms_pages, the Markdown twins of the pages asked answer 200 as text; a build
that published none is asked nothing."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from checkstand import built_site, check

from enginestand import Stand
from llmsrecord import keep_llms_digests
from sitemill.check.problems import LLMS
from sitemill.cli.main import main
from sitemill.llms import _livecheck as livellms

PLAIN = "text/plain; charset=utf-8"
FILES = {
    "llms.txt": "# Example\n\n> The example site — in two languages.\n\n- [About](/about.html)\n",
    "fr/llms.txt": "# Exemple\n\n> Le site d'exemple.\n",
    "llms-full.txt": "# Example\n\n## About\n\nWho we are and what we do.\n",
}


@pytest.fixture
def site(tmp_path: Path, stand: Stand, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str]:
    """The example site built, its llms files published and recorded as a build keeps them."""
    root, base = built_site(tmp_path, stand)
    data = {name: text.encode() for name, text in FILES.items()}
    for name, body in data.items():
        stand.files["/" + name] = (200, body, {"Content-Type": PLAIN})
    keep_llms_digests(monkeypatch, data)
    return root, base


def problems(checked: object) -> list[tuple[str, str, str]]:
    report = checked.report  # type: ignore[attr-defined]
    return [(p.url, p.kind, p.what) for p in report.sorted_problems()]


def asked(stand: Stand, suffix: str) -> list[str]:
    return sorted(path for method, path in stand.requests if path.endswith(suffix))


def test_llms_files_served_right_are_no_problem(site: tuple[Path, str], stand: Stand) -> None:
    root, base = site
    checked = check(root, base, llms_txt="true")
    assert problems(checked) == []
    assert checked.report.llms == 3 and asked(stand, "llms.txt") == ["/fr/llms.txt", "/llms.txt"]
    assert ", 3 llms file(s) and 6 of 6 URL(s)" in checked.report.summary()
    assert checked.report.to_json()["llms"] == 3


def test_a_missing_llms_txt_answers_404(site: tuple[Path, str], stand: Stand) -> None:
    root, base = site
    del stand.files["/fr/llms.txt"]
    checked = check(root, base, llms_txt="true")
    ((url, kind, what),) = problems(checked)
    assert (url, kind) == (base + "fr/llms.txt", LLMS) and what == "answers 404 (not found)"
    assert "deploy the fr/llms.txt this build wrote" in checked.report.problems[0].fix


@pytest.mark.parametrize("kind", ["text/html", "text/plain", ""])
def test_an_html_page_served_with_200_in_its_place_is_said_plainly(
    site: tuple[Path, str], stand: Stand, kind: str
) -> None:
    """A single-page app's fallback: every path it does not hold answers its index.html (by
    its type, or by its first bytes when the host says text/plain or nothing)."""
    root, base = site
    del stand.files["/llms.txt"]
    headers = {"Content-Type": kind} if kind else {}
    stand.default = (200, b"\n<!DOCTYPE html><div id=app></div>", headers)
    checked = check(root, base, llms_txt="true")
    (problem,) = [p for p in checked.report.problems if p.kind == LLMS]
    assert problem.url == base + "llms.txt"
    assert problem.what.startswith(
        f"answers 200 with an HTML page ({kind or 'no Content-Type'}), not the file"
    )
    assert "fallback" in problem.what


def test_the_published_bytes_served_as_html_or_binary_are_a_wrong_type(
    site: tuple[Path, str], stand: Stand
) -> None:
    root, base = site
    _, body, _ = stand.files["/llms.txt"]
    stand.files["/llms.txt"] = (200, body, {"Content-Type": "text/html"})
    stand.files["/llms-full.txt"] = (200, body, {"Content-Type": "application/octet-stream"})
    whats = {url: what for url, kind, what in problems(check(root, base, llms_txt="true"))
             if kind == LLMS}  # fmt: skip
    assert whats[base + "llms.txt"] == "is served as text/html, not text/plain"
    assert whats[base + "llms-full.txt"] == "is served as application/octet-stream, not text/plain"


def test_an_older_copy_a_cache_serves_is_said_with_its_age_and_the_path(
    site: tuple[Path, str], stand: Stand
) -> None:
    root, base = site
    older = {"Content-Type": PLAIN, "Age": "600", "Via": "1.1 abc.cloudfront.net"}
    stand.files["/llms-full.txt"] = (200, b"# Example\n\nAn older text.\n", older)
    checked = check(root, base, llms_txt="true")
    ((url, kind, what),) = problems(checked)
    assert (url, kind) == (base + "llms-full.txt", LLMS)
    assert what == "is not the file this build published (a cached copy 600 s old)"
    fix = checked.report.problems[0].fix
    assert "create-invalidation" in fix and "--paths '/llms-full.txt'" in fix


def test_a_redirect_is_not_followed(site: tuple[Path, str], stand: Stand) -> None:
    root, base = site
    stand.files["/llms.txt"] = (301, b"", {"Location": "/docs/llms.txt"})
    checked = check(root, base, llms_txt="true")
    ((url, kind, what),) = problems(checked)
    assert (url, kind) == (base + "llms.txt", LLMS)
    assert what == f"answers 301, a redirect to {base}docs/llms.txt (not followed)"
    assert "without a redirect" in checked.report.problems[0].fix
    assert "/docs/llms.txt" not in asked(stand, ".txt")


@pytest.mark.parametrize(
    ("served", "what"),
    [
        (gzip.compress(FILES["llms.txt"].encode(), mtime=0), None),
        (gzip.compress(b"# Example\n\nolder\n", mtime=0), "is not the file this build published"),
        (b"plain bytes", "says Content-Encoding: gzip but "),
    ],
)
def test_content_encoding_gzip_is_compared_unpacked(
    site: tuple[Path, str], stand: Stand, served: bytes, what: str | None
) -> None:
    """Compression in transit: a client that asks llms.txt reads what it unpacks to."""
    root, base = site
    stand.files["/llms.txt"] = (200, served, {"Content-Type": PLAIN, "Content-Encoding": "gzip"})
    checked = check(root, base, llms_txt="true")
    assert checked.report.llms == 3
    found = problems(checked)
    if what is None:
        assert found == []
    else:
        ((url, kind, said),) = found
        assert (url, kind) == (base + "llms.txt", LLMS) and said.startswith(what)


def test_a_huge_answer_is_read_no_further_than_the_bound(
    site: tuple[Path, str], stand: Stand, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The read, and the unpacking of a gzip bomb, stop at the file's read limit."""
    root, base = site
    monkeypatch.setattr(livellms, "read_limit", lambda name: 64 * 1024)
    stand.files["/llms-full.txt"] = (200, b"x" * (4 * 1024 * 1024), {"Content-Type": PLAIN})
    bomb = gzip.compress(b"\0" * (8 * 1024 * 1024), mtime=0)
    stand.files["/llms.txt"] = (200, bomb, {"Content-Type": PLAIN, "Content-Encoding": "gzip"})
    whats = {url: what for url, _, what in problems(check(root, base, llms_txt="true"))}
    assert whats[base + "llms-full.txt"] == "is larger than 65,536 bytes"
    assert "inflates to more than 65,536 bytes" in whats[base + "llms.txt"]


def test_utf8_text_beyond_ascii_served_with_no_charset_is_read_wrong(
    site: tuple[Path, str], stand: Stand
) -> None:
    root, base = site
    for name in FILES:  # (llms.txt holds an em dash; the others are ASCII: any charset reads them)
        status, body, _ = stand.files["/" + name]
        stand.files["/" + name] = (status, body, {"Content-Type": "text/plain"})
    ((url, _, what),) = problems(check(root, base, llms_txt="true"))
    assert url == base + "llms.txt"
    assert what.startswith("holds UTF-8 text beyond ASCII served as text/plain with no charset")


def test_the_command_line_prints_one_line_per_llms_problem(
    site: tuple[Path, str], stand: Stand, capsys: pytest.CaptureFixture[str]
) -> None:
    root, base = site
    del stand.files["/llms-full.txt"]
    assert main(["check", str(root), "--base-url", base, "--llms-txt", "on", "--all"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert [line for line in out if line.startswith("problem: ")] == [
        f"problem: {base}llms-full.txt: answers 404 (not found); deploy the llms-full.txt this "
        "build wrote (did the upload leave .txt files out?)"
    ]
    assert out[-1].startswith("live: checked 1 sitemap file(s), 3 llms file(s) and 6 of 6 URL(s)")
    assert out[-1].endswith("1 problem(s) (llms 1)")


@pytest.mark.parametrize(
    ("body", "headers", "what"),
    [
        (b"# Example\n\xff\xfe\n", {}, "is not UTF-8 text"),
        (b"\x8b\x00\x01", {"Content-Encoding": "br"}, "is served with Content-Encoding: br, "),
    ],
)
def test_bytes_no_client_reads_as_the_published_text(
    site: tuple[Path, str], stand: Stand, body: bytes, headers: dict[str, str], what: str
) -> None:
    root, base = site
    stand.files["/llms.txt"] = (200, body, {"Content-Type": PLAIN, **headers})
    ((url, kind, said),) = problems(check(root, base, llms_txt="true"))
    assert (url, kind) == (base + "llms.txt", LLMS) and said.startswith(what)
