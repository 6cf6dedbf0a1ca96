"""A second, independent reading of when each page's content last changed: trafilatura's.

    python benchmarks/realsites/textoracle.py CHECKOUT BASE_URL [PAGE ...]

oracle.py plays a careful reader with rules written here (the article, the blocks the site
repeats, self-dates, teasers, ...). This reading was written by nobody here: a page's content is
what a well-kept extraction library, trafilatura, takes for its main text, plus the link and image
targets inside that text and the page's structured data (JSON-LD) less its date fields. Pages are
dated as oracle.py dates them (``oracle.file_histories`` and ``oracle.chained``: one first-parent
``git log -M`` pass, renames followed): the commit time of the oldest commit in the unbroken run
of versions at the tip whose reading equals today's. Redirect stubs, ``noindex`` and 404 pages
are not dated (``oracle.page_facts``), as there.

The reading, per version of a page:

- ``trafilatura.extract`` with fixed options (XML output, tables, links and images kept, no
  comments, no metadata, no deduplication across pages: its LRU cache would make one page's
  reading depend on the pages read before it; no network, no time limit), without the page's
  URL: given one, trafilatura resolves a link against the site's root, not the page
  (``../x/`` from ``/p/q/`` read as ``/x/``, a heading's ``#a`` as the root), so the targets
  are resolved here;
- the text of that XML, white space left out (white space alone is no change, as the contract
  says);
- the targets of its ``<ref>`` and ``<graphic>`` elements, resolved against the page's current
  address (a moved page's relative targets are read at its new address), without fragments, a
  folder and its ``index.html`` one target, a link to the page itself none;
- each ``<script type="application/ld+json">`` of the page parsed, every key that names a date
  (``datePublished``, ``dateModified``, ``uploadDate``, ...: a key holding ``date``) left out at
  any depth, written back with sorted keys (a block that is not JSON is read as its text).

trafilatura is a dependency of this folder only (the ``realsites`` extra of pyproject.toml), never
of the package. A page trafilatura finds no main text in reads as its JSON-LD alone (or nothing).
"""

from __future__ import annotations

import json
import re
import sys
from configparser import ConfigParser
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit, urlunsplit

import lxml.etree
import lxml.html

sys.path.insert(0, str(Path(__file__).parent))
import oracle

READING = "text"
WHITE = re.compile(r"\s+")
DATE_KEY = re.compile("date", re.IGNORECASE)


def _config() -> ConfigParser:
    from trafilatura.settings import DEFAULT_CONFIG

    config = ConfigParser()
    config.read_dict({"DEFAULT": dict(DEFAULT_CONFIG["DEFAULT"])})
    config["DEFAULT"]["extraction_timeout"] = "0"  # (no signal.alarm of its own: run.py has one)
    return config


CONFIG: ConfigParser | None = None


def main_text(data: bytes) -> lxml.etree._Element | None:
    """trafilatura's main text of the page, as its XML tree (None: it found none)."""
    import trafilatura

    global CONFIG
    if CONFIG is None:
        CONFIG = _config()
    xml = trafilatura.extract(
        data.replace(b"\0", b""),
        output_format="xml",
        include_comments=False,
        include_tables=True,
        include_links=True,
        include_images=True,
        deduplicate=False,
        with_metadata=False,
        config=CONFIG,
    )
    if not xml:
        return None
    return lxml.etree.fromstring(xml.encode("utf-8"))


def one_target(target: str, url: str) -> str | None:
    """A target in one spelling: absolute, no fragment, ``x/index.html`` read as ``x/``; None
    for a link to the page itself (a heading's permalink) or no target at all."""
    target = target.strip()
    if not target:
        return None
    resolved = oracle.joined(url, target)
    if resolved is None:  # (a host no URL parser takes: as written, as blocks.spell reads it)
        return target.split("#", 1)[0]
    parts = urlsplit(resolved)
    path = parts.path
    for index in ("index.html", "index.htm"):
        if path.endswith("/" + index):
            path = path[: -len(index)]
    spelled = urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, parts.query, ""))
    own = urlsplit(url)
    own_path = own.path
    for index in ("index.html", "index.htm"):
        if own_path.endswith("/" + index):
            own_path = own_path[: -len(index)]
    if spelled == urlunsplit((own.scheme.lower(), own.netloc.lower(), own_path, own.query, "")):
        return None
    return spelled


def without_dates(value: Any) -> Any:
    """JSON with every key that names a date left out, at any depth."""
    if isinstance(value, dict):
        return {k: without_dates(v) for k, v in value.items() if not DATE_KEY.search(str(k))}
    if isinstance(value, list):
        return [without_dates(v) for v in value]
    return value


def structured_data(data: bytes) -> list[str]:
    """The page's JSON-LD blocks less their dates, each in one spelling."""
    try:
        doc = lxml.html.document_fromstring(data.replace(b"\0", b""))
    except (lxml.etree.ParserError, ValueError):
        return []
    blocks = []
    for script in doc.xpath("//script[@type]"):
        if script.get("type", "").strip().lower() != "application/ld+json":
            continue
        text = script.text or ""
        try:
            parsed = json.loads(text)
        except ValueError:
            blocks.append(WHITE.sub(" ", text).strip())
            continue
        blocks.append(json.dumps(without_dates(parsed), sort_keys=True, ensure_ascii=False))
    return blocks


def text_key(data: bytes, url: str) -> str:
    """The reading of one version of a page at ``url`` (see the module docstring)."""
    tree = main_text(data)
    text, targets = "", []
    if tree is not None:
        text = WHITE.sub("", "".join(tree.itertext()))
        for node in tree.iter("ref", "graphic"):
            raw = node.get("target") if node.tag == "ref" else node.get("src")
            target = one_target(raw or "", url)
            if target is not None:
                targets.append(target)
    return "\n".join([text, "\x1f".join(targets), "\x1f".join(structured_data(data))])


def page_url(base_url: str, path: str) -> str:
    """The address a page is served at: ``x/index.html`` at ``x/``."""
    for index in ("index.html", "index.htm"):
        if path == index or path.endswith("/" + index):
            path = path[: -len(index)]
    return urljoin(base_url if base_url.endswith("/") else base_url + "/", path)


def date_pages(checkout: Path, base_url: str) -> dict[str, oracle.OracleDate]:
    """This reading's date for every tracked HTML page of the checkout."""
    histories = oracle.file_histories(checkout)
    reader = oracle.BlobReader(checkout)
    keys: dict[tuple[str, str], str] = {}

    def key(blob: str | None, url: str) -> str | None:
        if blob is None:
            return None
        if (blob, url) not in keys:
            data = reader.read(blob)
            keys[blob, url] = "\0missing" + blob if data is None else text_key(data, url)
        return keys[blob, url]

    results: dict[str, oracle.OracleDate] = {}
    try:
        for path in oracle.tracked_pages(checkout):
            versions = oracle.chained(histories, path)
            current = (checkout / path).read_bytes()
            verdict = oracle.OracleDate(path, oracle.page_facts(path, current), versions=versions)
            results[path] = verdict
            if verdict.facts.skip or not versions or versions[0].blob is None:
                if not verdict.facts.skip:
                    verdict.facts.skip = "no history"
                continue
            url = page_url(base_url, path)
            today = key(versions[0].blob, url)
            for version in versions:
                if version.blob is None or key(version.blob, url) != today:
                    break
                verdict.time, verdict.commit = version.time, version.commit
                if version.status in ("A", "C"):
                    break
    finally:
        reader.close()
    return results


def main() -> int:
    import time

    checkout, base_url, *pages = sys.argv[1:]
    dates = date_pages(Path(checkout), base_url)
    for path, verdict in sorted(dates.items()):
        if pages and path not in pages:
            continue
        stamp = time.gmtime(verdict.time) if verdict.time else None
        when = time.strftime("%Y-%m-%dT%H:%M:%SZ", stamp) if stamp else "-"
        print(f"{when}  {(verdict.commit or '')[:10]:10}  {verdict.facts.skip or '':10}  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
