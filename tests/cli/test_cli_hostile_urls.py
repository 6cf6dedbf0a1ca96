"""URLs a page, a file of the user's or a live site holds that urllib.parse refuses (a host NFKC
turns into a delimiter, a broken IPv6 literal, a port no number, control characters, a huge
host, another scheme) in every place sitemill reads one: every command ends as documented, with
no traceback, each warning one escaped line, and the good page listed with its date (issue 79)."""

from __future__ import annotations

import gzip
import http.server
import json
import re
from pathlib import Path
from typing import Any

import pytest

from clirun import run_sitemill
from gitutil import git, make_repo
from livesite import serving

HOSTILE = (
    "http://a／b.com/x",  # (NFKC: a solidus)
    "http://a？b/",
    "http://a＃b/",
    "//a／b.com/y",
    "http://[::1/",
    "https://[::1/p",
    "http://[zz]/",
    "http://a:99999/",
    "http://a:xx/",
    "http://a\x01b/x",
    "http://" + "a" * 10_000 + "/",
    "javascript:alert(1)",
    "\\\\host\\x",
)
BASE = "https://ex.org/"
GOOD_DATE = "2024-01-02T03:04:05+00:00"
# A line printed from outside is escaped: no C0 control but the newline ending it.
_RAW_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")


def _attr(url: str) -> str:
    return url.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def _page(i: int, url: str) -> str:
    a = _attr(url)
    crumbs = [
        {"@type": "ListItem", "position": 1, "item": url, "name": "x"},
        {"@type": "ListItem", "position": 2, "item": {"@id": url, "name": "y"}},
    ]
    data = {
        "@context": "https://schema.org",
        "@type": "Article",
        "url": url,
        "@id": url,
        "image": url,
        "mainEntityOfPage": url,
        "breadcrumb": {"@type": "BreadcrumbList", "itemListElement": crumbs},
    }
    ld = json.dumps(data).replace("</", "<\\/")
    return (
        f'<!doctype html><html lang="en"><head><title>Hostile {i}</title><base href="{a}">'
        f'<link rel="canonical" href="{a}"><link rel="alternate" hreflang="fr" href="{a}">'
        f'<link rel="alternate" hreflang="x-default" href="{a}">'
        f'<meta property="og:url" content="{a}"><meta property="og:image" content="{a}">'
        f'<script type="application/ld+json">{ld}</script></head><body><main>'
        f"<h1>Hostile {i}</h1><p>Words about things for page {i}. "
        f'<a href="{a}">link</a> <a href="{a}#f">two</a> <img src="{a}" alt="x" '
        f'srcset="{a} 2x, {a}/b.png 300w"><picture><source srcset="{a}"><img src="{a}">'
        '</picture> <a href="good.html">good</a></p></main></body></html>'
    )


def _stub(url: str) -> str:
    a = _attr(url)
    return (
        f'<!doctype html><html><head><title>Moved</title><meta http-equiv="refresh" '
        f'content="0; url={a}"><link rel="canonical" href="{a}"></head><body>moved</body></html>'
    )


def _hostile_site(root: Path) -> Path:
    """A git repository: good.html (2024-01-02), then pages, redirect stubs, a sitemap of the
    user's, robots.txt Sitemap: lines and _redirects rules naming HOSTILE (2024-02-03)."""
    make_repo(root)
    (root / "good.html").write_text(
        '<!doctype html><html lang="en"><head><title>Good</title></head><body><main>'
        '<h1>Good</h1><p>A good page with words.</p><img src="/i.png"></main></body></html>'
    )
    (root / "i.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "good", when="2024-01-02T03:04:05Z")
    for i, url in enumerate(HOSTILE):
        (root / f"h{i}.html").write_text(_page(i, url), encoding="utf-8")
        (root / f"r{i}.html").write_text(_stub(url), encoding="utf-8")
    locs = "".join(f"<url><loc>{_attr(u)}</loc></url>" for u in HOSTILE if "\x01" not in u)
    (root / "mine.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"<url><loc>{BASE}good.html</loc></url>{locs}</urlset>",
        encoding="utf-8",
    )
    sitemaps = "".join(f"Sitemap: {u}\n" for u in HOSTILE)
    (root / "robots.txt").write_text(f"User-agent: *\nAllow: /\n{sitemaps}", encoding="utf-8")
    rules = "".join(f"/gone{i}.html {u} 301\n" for i, u in enumerate(HOSTILE) if " " not in u)
    (root / "_redirects").write_text(rules, encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "hostile", when="2024-02-03T04:05:06Z")
    return root


def _assert_clean(done: Any, *codes: int) -> str:
    """No traceback, an exit status among ``codes``, every line printed escaped."""
    text = done.stdout + done.stderr
    assert "Traceback" not in text, text[-3000:]
    assert done.returncode in codes, text[-3000:]
    assert not _RAW_CONTROL.search(text)
    return text


def _good_listed(sitemap: Path) -> None:
    xml = sitemap.read_text(encoding="utf-8")
    assert f"<loc>{BASE}good.html</loc><lastmod>{GOOD_DATE}</lastmod>" in xml


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _hostile_site(tmp_path_factory.mktemp("hostile") / "site")


_EVERY_OUTPUT = (
    "--llms-txt",
    "on",
    "--llms-full",
    "--llms-pages",
    "--html-sitemap",
    "--images",
    "--alternates",
    "--robots-txt",
    "--sitemap",
    "mine.xml",
)


def _state(out: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(gzip.decompress((out / "state.json.gz").read_bytes()))
    return data


def test_build_why_validate_and_diff_read_hostile_urls_as_no_urls(
    site: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    common = ["--base-url", BASE, "--lastmod", "git"]
    state = str(out / "state.json.gz")
    done = run_sitemill(
        "build", str(site), *common, "--out", str(out), "--state", state, *_EVERY_OUTPUT
    )
    _assert_clean(done, 0)
    _good_listed(out / "sitemap-1.xml")
    assert {"llms.txt", "llms-full.txt", "sitemap.html", "good.html.md"} <= {
        p.name for p in out.iterdir()
    }
    for i in range(len(HOSTILE)):
        assert f"{BASE}h{i}.html" in (out / "sitemap-1.xml").read_text(encoding="utf-8")
    for page in ("h0.html", "h4.html", "h8.html", "h9.html"):
        _assert_clean(run_sitemill("why", page, *common, cwd=site), 0)
    stub = _assert_clean(run_sitemill("why", "r0.html", *common, cwd=site), 1)
    assert "r0.html: not listed: redirect (meta refresh to http://a／b.com/x)" in stub
    _assert_clean(run_sitemill("validate", str(out)), 0, 1)
    _assert_clean(run_sitemill("validate", str(site / "mine.xml")), 1)
    # A state that recorded hostile URLs and pages that are now gone, stubs or _redirects.
    recorded = _state(out)
    one = recorded["pages"]["h0.html"]
    for i, url in enumerate(HOSTILE):
        recorded["pages"].update({url: dict(one), f"gone{i}.html": dict(one), f"r{i}.html": one})
    against = tmp_path / "against.json.gz"
    against.write_bytes(gzip.compress(json.dumps(recorded).encode(), mtime=0))
    for form in ("netlify", "s3-rules", "hugo"):
        written = tmp_path / f"redirects-{form}"
        done = run_sitemill(
            "diff",
            str(site),
            *common,
            "--against",
            str(against),
            "--write-redirects",
            str(written),
            "--redirects-form",
            form,
        )
        text = _assert_clean(done, 0)
        assert "removed (" in text
    for odd_base in ("http://a／b.com/", "http://[::1/"):
        recorded["base_url"] = odd_base
        against.write_bytes(gzip.compress(json.dumps(recorded).encode(), mtime=0))
        _assert_clean(run_sitemill("diff", str(site), *common, "--against", str(against)), 0, 1)
    out2 = tmp_path / "out2"
    done = run_sitemill(
        "build",
        str(site),
        *common,
        "--out",
        str(out2),
        "--previous-state",
        str(against),
        "--llms-full",
    )
    _assert_clean(done, 0)
    _good_listed(out2 / "sitemap.xml")


@pytest.mark.parametrize("url", HOSTILE)
def test_urls_refuses_a_hostile_line_in_one_line(tmp_path: Path, url: str) -> None:
    listed = tmp_path / "list.txt"
    listed.write_text(f"{BASE}good.html\t2024-01-02\n{url}\n", encoding="utf-8")
    done = run_sitemill("urls", str(listed), "--base-url", BASE, "--out", str(tmp_path / "o"))
    text = _assert_clean(done, 0, 1)
    assert len(text.splitlines()) >= 1
    if done.returncode == 1:
        assert len(done.stderr.splitlines()) == 1


def _live_handler(site: Path, out: Path) -> type[http.server.BaseHTTPRequestHandler]:
    """Serves the build and the site; /rN.html redirects to HOSTILE[N], /hN.html carries it
    in a Link: canonical header as well."""

    class Live(http.server.BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_HEAD(self) -> None:
            self._answer(body=False)

        def do_GET(self) -> None:
            self._answer(body=True)

        def _answer(self, *, body: bool) -> None:
            path = self.path.partition("?")[0].lstrip("/")
            number = path[1:-5] if path.endswith(".html") and path[1:-5].isdigit() else ""
            header = HOSTILE[int(number)].replace("\x01", "%01").encode() if number else b""
            if path.startswith("r") and number:
                self.send_response(301)
                self.send_header("Location", header.decode("latin-1"))
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            for root in (out, site):
                found = root / (path or "index.html")
                if found.is_file():
                    data = found.read_bytes()
                    self.send_response(200)
                    kind = {".html": "text/html", ".xml": "application/xml"}
                    self.send_header("Content-Type", kind.get(found.suffix, "text/plain"))
                    if number:
                        link = b"<" + header + b'>; rel="canonical"'
                        self.send_header("Link", link.decode("latin-1"))
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    if body:
                        self.wfile.write(data)
                    return
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()

    return Live


def test_check_reads_a_live_site_full_of_hostile_urls(site: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    with serving(_live_handler(site, out)) as origin:
        common = ["--base-url", origin + "/", "--lastmod", "git", "--out", str(out)]
        _assert_clean(run_sitemill("build", str(site), *common, "--llms-full"), 0)
        for extra in ([], ["--all"]):
            done = run_sitemill("check", str(site), *common, *extra)
            text = _assert_clean(done, 0, 1)
            assert "live: checked 1 sitemap file(s)" in text


def test_s3_reads_a_bucket_full_of_hostile_urls(
    site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from s3util import BUCKET, moto_bucket

    for s3 in moto_bucket(monkeypatch):
        for path in sorted(site.iterdir()):
            if path.is_file():
                s3.put_object(Bucket=BUCKET, Key=path.name, Body=path.read_bytes())
        done = run_sitemill(
            "s3", "--bucket", BUCKET, "--base-url", BASE, "--llms-full", "--html-sitemap"
        )
        _assert_clean(done, 0)
        keys = {item["Key"] for item in s3.list_objects_v2(Bucket=BUCKET)["Contents"]}
        assert {"sitemap.xml", "llms-full.txt"} <= keys
        xml = "".join(
            s3.get_object(Bucket=BUCKET, Key=key)["Body"].read().decode()
            for key in keys
            if key.startswith("sitemap") and key.endswith(".xml")
        )
        assert f"<loc>{BASE}good.html</loc>" in xml
