"""Read a built site's pages as llms.txt needs them, with lxml and nothing of sitemill's: each
<loc> of its sitemap.xml, the page's <title>, meta description, and the hreflang its own
alternates give it. Writes the small JSON fixtures of tests/llms/sites/ (run by hand):

    python tests/llms/realpages.py /work/rs-speed/archcraft https://wiki.archcraft.io/ archcraft
    python tests/llms/realpages.py /work/rs-final/dazwilkin https://pretired.dazwilkin.com/ \
        dazwilkin 80

(the sitemap.xml at the root and those one folder down, as Docusaurus writes /fr/sitemap.xml;
the first LIMIT pages when a fourth argument gives it: a fixture stays small.)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

from lxml import etree, html

SITES = Path(__file__).resolve().parent / "sites"
LOC = "{http://www.sitemaps.org/schemas/sitemap/0.9}loc"
DESCRIPTION_CHARS = 40  # enough to tell "None" and "" from a description; a fixture stays small


def page_file(root: Path, loc: str, base_path: str) -> Path | None:
    below = unquote(urlsplit(loc).path)[len(base_path) :]
    names = [below + "index.html", below] if below.endswith("/") or not below else [below]
    names += [below + "/index.html", below + ".html"]
    return next((root / name for name in names if (root / name).is_file()), None)


def read_page(path: Path, loc: str) -> dict[str, str | None]:
    document = html.fromstring(path.read_bytes())
    title = document.findtext(".//title")
    description = document.xpath('string((//meta[@name="description"])[1]/@content)')
    language = ""
    for link in document.xpath('//link[@rel="alternate"][@hreflang]'):
        if link.get("href") == loc and link.get("hreflang") != "x-default":
            language = link.get("hreflang")
    has_description = bool(document.xpath('//meta[@name="description"]'))
    return {
        "url": loc,
        "title": " ".join(title.split()) if title else None,
        "description": description[:DESCRIPTION_CHARS] if has_description else None,
        "hreflang": language,
    }


def read_site(root: Path, base_url: str, limit: int | None = None) -> dict[str, object]:
    base_path = urlsplit(base_url).path
    sitemaps = [root / "sitemap.xml", *sorted(root.glob("*/sitemap.xml"))]
    locs = [
        (element.text or "").strip()
        for sitemap in sitemaps
        for element in etree.parse(sitemap).iter(LOC)
    ][:limit]
    pages = [read_page(path, loc) for loc in locs if (path := page_file(root, loc, base_path))]
    home = html.fromstring((root / "index.html").read_bytes())
    name = home.xpath('string((//meta[@property="og:site_name"])[1]/@content)') or None
    summary = home.xpath('string((//meta[@name="description"])[1]/@content)') or None
    return {"base_url": base_url, "name": name, "summary": summary, "pages": pages}


if __name__ == "__main__":
    root, base_url, name = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    site = read_site(root, base_url, int(sys.argv[4]) if len(sys.argv) > 4 else None)
    pages = site.pop("pages")
    assert isinstance(pages, list)
    head = json.dumps(site, ensure_ascii=False)[:-1]
    lines = ",\n".join(json.dumps(page, ensure_ascii=False) for page in pages)
    text = f'{head}, "pages": [\n{lines}\n]}}\n'
    (SITES / f"{name}.json").write_text(text, encoding="utf-8")
