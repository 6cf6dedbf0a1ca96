"""The floor of `sitemill urls` (issue 24): a plain Python loop that writes the same bytes as
`sitemill urls` does for a generated list (each line a URL under the base, a TAB and a canonical
UTC datetime), with none of sitemill's checks: no escaping, no location rule, no duplicate check,
no date check, no byte limit. Files of 50,000 URLs and the index, as sitemill names them.

    python benchmarks/urls_floor.py LIST OUT_DIR BASE_URL

`make bench` (urls-1m) runs it beside `sitemill urls` and checks that both folders hold the same
bytes, so the floor is a floor for the very same output.
"""

from __future__ import annotations

import sys
from pathlib import Path

HEADER = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
)
INDEX_HEADER = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
)
PER_FILE = 50_000


def main(list_path: str, out_dir: str, base_url: str) -> None:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    children: list[tuple[str, str]] = []
    parts: list[str] = []
    newest = ""

    def flush() -> None:
        name = f"sitemap-{len(children) + 1}.xml"
        (out / name).write_text(HEADER + "".join(parts) + "</urlset>\n", encoding="utf-8")
        children.append((name, newest))

    with open(list_path, encoding="utf-8") as lines:
        for line in lines:
            url, _, stamp = line.rstrip("\n").partition("\t")
            parts.append(f"  <url><loc>{url}</loc><lastmod>{stamp}</lastmod></url>\n")
            newest = max(newest, stamp)
            if len(parts) == PER_FILE:
                flush()
                parts, newest = [], ""
    if parts:
        flush()
    index = [INDEX_HEADER]
    for name, stamp in children:
        loc = base_url + name
        index.append(f"  <sitemap><loc>{loc}</loc><lastmod>{stamp}</lastmod></sitemap>\n")
    index.append("</sitemapindex>\n")
    (out / "sitemap.xml").write_text("".join(index), encoding="utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:4])
