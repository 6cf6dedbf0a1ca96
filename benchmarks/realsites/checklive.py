"""`sitemill check` on real built sites, served on loopback the way GitHub Pages serves them.

    python benchmarks/realsites/checklive.py --sites benchmarks/realsites/sites.json \
        --data /work/realsites-data [--only NAME] [--back 5] [--details out.json]

Per site: ``sitemill build <checkout> --base-url <url> --out <tmp>`` as a new user runs it, then
the site is served on 127.0.0.1 (a folder's index.html at the folder, ``/a`` -> 301 ``/a/`` for a
folder, ``/a`` for ``a.html``, 404.html with 404) and checked with ``--all``, its production
origin sent to the loopback server. Two deploys:

- **clean**: the build's own files. Every problem the check reports is held against an
  independent reading (http.client for the status, lxml for noindex, the canonical and the
  hreflang links, no sitemill code), which also looks for the problems the check missed.
- **stale**: every HTML page served as it was ``--back`` commits earlier, the sitemaps and state
  as built: a cache that kept every page. The oracle (oracle.content_key: the article text and
  the title's own part) says which pages a reader sees differ; the check's ``stale`` problems
  should be those, plus pages whose link targets changed (fingerprints count them by design).

A measuring tool run by hand on checkouts made by checkout.py; no test depends on it.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import http.server
import json
import mimetypes
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import unquote, urlsplit

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
import oracle

from livesite import serving  # (the tests' loopback server)
from sitemill.check.run import CheckOptions
from sitemill.commands.check import Checked, check_tree
from sitemill.config.model import load_config
from sitemill.state.parse import parse_state
from sitemill.urls import page_url, url_origin
from sitemill.urlstyle import rendering_style
from sitemill.web.livesite import Limits

ALTERNATES = "//link[translate(@rel,'ALTERNT','alternt')='alternate'][@hreflang]/@href"


class PagesHandler(http.server.BaseHTTPRequestHandler):
    """GitHub Pages' answers from ``roots`` (the first that holds a path wins)."""

    roots: ClassVar[list[Path]] = []
    prefix = "/"  # the base URL's path: where the site's root is served

    def do_GET(self) -> None:
        path = unquote(urlsplit(self.path).path)
        status, file, location = self.resolve(path)
        if location:
            self.send_response(301)
            self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = file.read_bytes() if file else b"not found"
        kind = (mimetypes.guess_type(file.name)[0] if file else None) or "text/html"
        if file and file.name.endswith(".gz"):
            kind = "application/gzip"
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def resolve(self, path: str) -> tuple[int, Path | None, str]:
        if not (path + "/").startswith(self.prefix):
            return 404, None, ""
        rel = path[len(self.prefix) :]
        for root in self.roots:
            target = root / rel
            if target.is_dir():
                if not path.endswith("/"):
                    return 301, None, path + "/"
                if (target / "index.html").is_file():
                    return 200, target / "index.html", ""
            elif target.is_file():
                return 200, target, ""
            elif (root / (rel + ".html")).is_file():
                return 200, root / (rel + ".html"), ""
        missing = next((r / "404.html" for r in self.roots if (r / "404.html").is_file()), None)
        return 404, missing, ""

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def served(roots: list[Path], base: str) -> Iterator[str]:
    prefix = urlsplit(base).path or "/"
    handler = type("Handler", (PagesHandler,), {"roots": roots, "prefix": prefix})
    with serving(handler) as origin:
        yield origin


def check(checkout: Path, out: Path, base: str, loopback: str) -> Checked:
    config = load_config({"base_url": base}, {}, {})
    limits = Limits(concurrency=8, timeout=20.0, request_deadline=30.0, run_deadline=1800.0)
    connect = {url_origin(base): loopback}
    return check_tree(
        config, checkout, out, None, CheckOptions(every=True), limits, connect=connect
    )


def url_paths(out: Path, base: str) -> dict[str, str]:
    """URL -> the file's path, as the build's state lists them."""
    state = parse_state((out / "sitemill-state.json.gz").read_bytes())
    config = load_config({"base_url": base}, {}, {})
    style = rendering_style(config.url_style, state.url_style)
    return {page_url(config.base_url, path, style): path for path in state.pages}


def norm(url: str) -> tuple[str, str, str, str]:
    try:
        parts = urlsplit(url)
    except ValueError:  # (a host no URL parser takes: its own key, on no origin)
        return "", url, "", ""
    host = parts.netloc.lower().removesuffix(":443").removesuffix(":80")
    return parts.scheme.lower(), host, unquote(parts.path or "/"), parts.query


def fetch(loopback: str, base: str, url: str) -> tuple[int, bytes]:
    """The status and body of ``url`` from the loopback server (http.client: no redirect)."""
    target = urlsplit(loopback)
    connection = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
    path = urlsplit(url).path or "/"
    try:
        connection.request("GET", path, headers={"Host": urlsplit(base).netloc})
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def oracle_problems(loopback: str, base: str, urls: list[str]) -> dict[str, set[str]]:
    """URL -> the kinds an independent reading finds: page (no 200, noindex), canonical,
    alternates (an on-site alternate not live or not naming the page back)."""
    found: dict[str, set[str]] = {}
    links: dict[str, list[str]] = {}
    origin = norm(base)[:2]
    for url in urls:
        status, body = fetch(loopback, base, url)
        kinds = found.setdefault(url, set())
        if status != 200:
            kinds.add("page")
            continue
        doc = oracle.parse(body)
        if doc is None:
            continue
        robots = " ".join(doc.xpath("//meta[translate(@name,'ROBTS','robts')='robots']/@content"))
        if "noindex" in robots.lower() or robots.strip().lower() == "none":
            kinds.add("page")
        base_href = doc.xpath("//base/@href")
        page_base = (oracle.joined(url, base_href[0].strip()) if base_href else None) or url
        canonical = doc.xpath("//link[translate(@rel,'CANONICAL','canonical')='canonical']/@href")
        said = oracle.joined(page_base, canonical[0].strip()) if canonical else None
        if canonical and (said is None or norm(said) != norm(url)):  # (no URL: off the page)
            kinds.add("canonical")
        hrefs = doc.xpath(
            "//link[translate(@rel,'ALTERNT','alternt')='alternate'][@hreflang]/@href"
        )
        links[url] = [t for h in hrefs if (t := oracle.joined(page_base, h.strip())) is not None]
    cache: dict[tuple[str, str, str, str], list[str] | None] = {}
    for url, targets in links.items():
        for target in targets:
            key = norm(target)
            if key[:2] != origin or key == norm(url):
                continue
            if key not in cache:
                status, body = fetch(loopback, base, target)
                doc = oracle.parse(body) if status == 200 else None
                if doc is None:
                    cache[key] = None
                else:
                    back = doc.xpath(ALTERNATES)
                    cache[key] = [
                        t for h in back if (t := oracle.joined(target, h.strip())) is not None
                    ]
            back_links = cache[key]
            if back_links is None or norm(url) not in {norm(b) for b in back_links}:
                found[url].add("alternates")
    return found


def compare(checked: Checked, truth: dict[str, set[str]]) -> dict[str, Counter[str]]:
    """Per kind: problems both found, the check alone, the oracle alone."""
    reported: dict[str, set[str]] = {}
    for problem in checked.report.sorted_problems():
        reported.setdefault(problem.url, set()).add(problem.kind)
    result: dict[str, Counter[str]] = {}
    for kind in ("page", "canonical", "alternates", "stale", "sitemap", "robots", "unchecked"):
        counts: Counter[str] = Counter()
        for url in set(reported) | set(truth):
            mine, theirs = kind in reported.get(url, set()), kind in truth.get(url, set())
            if mine and theirs:
                counts["both"] += 1
            elif mine:
                counts["check only"] += 1
            elif theirs:
                counts["oracle only"] += 1
        result[kind] = counts
    return result


def old_pages(checkout: Path, back: int, into: Path) -> str:
    """The HTML pages of the commit ``back`` first-parent steps behind HEAD, into ``into``
    (read blob by blob: a mirror may lack other files' blobs)."""
    count = int(oracle_git(checkout, "rev-list", "--first-parent", "--count", "HEAD"))
    rev = f"HEAD~{min(back, count - 1)}"
    listing = subprocess.run(
        ["git", "-C", str(checkout), "ls-tree", "-r", "-z", rev], capture_output=True, check=True
    ).stdout
    reader = oracle.BlobReader(checkout)
    try:
        for entry in listing.split(b"\0"):
            meta, _, name = entry.partition(b"\t")
            path = name.decode("utf-8", "surrogateescape")
            if not meta or not path.lower().endswith((".html", ".htm")):
                continue
            data = reader.read(meta.split()[2].decode())
            if data is not None:
                (into / path).parent.mkdir(parents=True, exist_ok=True)
                (into / path).write_bytes(data)
    finally:
        reader.close()
    return oracle_git(checkout, "rev-parse", "--short", rev)


def oracle_git(checkout: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(checkout), *args], capture_output=True, text=True, check=True
    ).stdout.strip()


def stale_figures(
    checked: Checked, paths: dict[str, str], checkout: Path, old: Path, xpath: str | None
) -> Counter[str]:
    """The check's stale problems against two readings of each page served old: its article
    (oracle.content_key: what dates a page) and everything a reader sees (visible_key: the
    title and the body's text, furniture and self-dates included)."""
    flagged = {p.url for p in checked.report.problems if p.kind == "stale"}
    missing = {p.url for p in checked.report.problems if p.kind == "page"}
    counts: Counter[str] = Counter()
    for url, path in paths.items():
        if not path.lower().endswith((".html", ".htm")):
            continue
        before = old / path
        if not before.is_file():
            fresh = "passed" if url in checked.report.passed else "flagged"
            counts[f"new since then, served from the origin: {fresh}"] += 1
            continue
        now, then = (checkout / path).read_bytes(), before.read_bytes()
        article = oracle.content_key(then, xpath) != oracle.content_key(now, xpath)
        visible = visible_key(then) != visible_key(now)
        said = "flagged" if url in flagged else "not flagged"
        if article:
            counts[f"article differs: {said}"] += 1
        elif visible:
            counts[f"only text outside the article differs: {said}"] += 1
        elif url in flagged:
            counts["no visible text differs: flagged (" + _why_else(then, now, xpath) + ")"] += 1
        else:
            counts["no visible text differs: not flagged"] += 1
        if url in missing:
            counts["(a page problem besides)"] += 1
    return counts


def visible_key(data: bytes) -> str:
    """The title and the body's visible text, white space aside."""
    doc = oracle.parse(data)
    if doc is None:
        return ""
    for node in doc.xpath("//script | //style | //noscript | //template"):
        node.drop_tree()
    body = doc.find("body")
    text = oracle.visible_text(body) if body is not None else ""
    return oracle.WHITE.sub("", oracle.page_title(doc) + "\n" + text)


def _why_else(then: bytes, now: bytes, xpath: str | None) -> str:
    """Why a page whose visible text is the same was flagged: its link targets, or else."""
    if oracle.link_key(then, xpath) != oracle.link_key(now, xpath):
        return "link targets"
    return "other"


def measure(site: dict[str, Any], data: Path, sitemill: str, back: int) -> dict[str, Any]:
    checkout, base = data / site["name"], site["base_url"]
    with tempfile.TemporaryDirectory() as tmp:
        out, old = Path(tmp) / "out", Path(tmp) / "old"
        old.mkdir()
        subprocess.run(
            [sitemill, "build", str(checkout), "--base-url", base, "--out", str(out), "-q"],
            check=True,
        )
        paths = url_paths(out, base)
        with served([out, checkout], base) as loopback:
            clean = check(checkout, out, base, loopback)
            truth = oracle_problems(loopback, base, sorted(paths))
        rev = old_pages(checkout, back, old)
        with served([out, old, checkout], base) as loopback:
            stale = check(checkout, out, base, loopback)
        examples = [p.line() for p in clean.report.sorted_problems()[:6]]
        return {
            "name": site["name"],
            "urls": len(paths),
            "clean": {k: dict(v) for k, v in compare(clean, truth).items() if v},
            "clean_requests": clean.report.requests,
            "clean_seconds": round(clean.report.seconds, 1),
            "examples": examples,
            "old": rev,
            "stale": dict(stale_figures(stale, paths, checkout, old, site.get("article_xpath"))),
        }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sites", type=Path, required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--sitemill", default=str(Path(sys.executable).with_name("sitemill")))
    parser.add_argument("--only")
    parser.add_argument("--back", type=int, default=5)
    parser.add_argument("--details", type=Path)
    args = parser.parse_args()
    results = []
    for site in json.loads(args.sites.read_text()):
        if args.only and site["name"] != args.only:
            continue
        if not (args.data / site["name"]).is_dir():
            print(f"{site['name']}: no checkout, skipped")
            continue
        result = measure(site, args.data, args.sitemill, args.back)
        results.append(result)
        print(json.dumps(result, ensure_ascii=False))
    if args.details:
        args.details.write_text(json.dumps(results, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
