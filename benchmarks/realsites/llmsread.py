"""The independent reading behind llmseval.py: sitemaps, llms.txt, llms-full.txt, twins, pages.

No sitemill code: lxml for the pages and sitemaps (oracle.py's article reading), the reference
parser (``llms_txt.miniparse``) and a line reading of our own for llms.txt.
"""

from __future__ import annotations

import gzip
import html
import re
from collections import Counter
from pathlib import Path
from statistics import median
from typing import Any
from urllib.parse import unquote

import lxml.etree
import lxml.html
import oracle
from llms_txt.miniparse import parse_llms_txt

WORD = re.compile(r"[^\W\d_]{3,}")
ITEM = re.compile(r"^- \[((?:[^\]\\]|\\.)*)\]\(([^)\s]+)\)(?:: (.*))?$")
ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
BLOCK_HEAD = re.compile(r"^---\n\n# \[(.*)\]\((\S+)\)\n", re.MULTILINE)
STOP = "llms-full.txt stops here"
LINK_TARGET = re.compile(r"\]\([^)\s]*(?:\s+\"[^\"]*\")?\)")
COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
FENCE_INFO = re.compile(r"^([\s>]*(?:`{3,}|~{3,}))[^`\n]*$", re.MULTILINE)
SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
WORST = 5


def words(text: str) -> Counter[str]:
    return Counter(word.casefold() for word in WORD.findall(text))


def markdown_words(markdown: str) -> Counter[str]:
    """The words a reader of the Markdown reads: link and image targets, code fences' info
    strings and comments left out (a URL written as text, in code or an autolink, is read);
    backticks join what they touch, as the page's inline <code> does (`a`s is one word)."""
    text = FENCE_INFO.sub(r"\1", COMMENT.sub(" ", markdown))
    text = LINK_TARGET.sub("] ", text).replace("`", "")
    return words(html.unescape(text))


def norm_url(url: str) -> str:
    return url.replace("%28", "(").replace("%29", ")").replace("%20", " ")


def one_line(text: str | None) -> str:
    return " ".join((text or "").split())


# -- the sitemap and the pages --------------------------------------------------------------


def sitemap_locs(out: Path) -> list[str]:
    locs: list[str] = []
    for path in sorted(out.glob("*.xml")) + sorted(out.glob("*.xml.gz")):
        data = path.read_bytes()
        if path.suffix == ".gz":
            data = gzip.decompress(data)
        root = lxml.etree.fromstring(data)
        if root.tag == f"{SITEMAP_NS}urlset":
            locs += [one_line(loc.text) for loc in root.iter(f"{SITEMAP_NS}loc")]
    return locs


def page_file(checkout: Path, base: str, url: str) -> Path | None:
    if not url.startswith(base):
        return None
    rel = unquote(url[len(base) :].split("#")[0].split("?")[0])
    candidates = [rel] if rel and not rel.endswith("/") else []
    candidates += [rel + "index.html", rel + ".html", rel + "/index.html", rel + "index.htm"]
    for candidate in candidates:
        path = checkout / candidate
        if path.is_file():
            return path
    return None


class Page:
    """The facts of one page, read with lxml."""

    def __init__(self, url: str, path: Path, article_xpath: str | None) -> None:
        self.url, self.path, self.xpath = url, path, article_xpath
        self.data = path.read_bytes()
        doc = oracle.parse(self.data)
        self.html = doc is not None and path.suffix in (".html", ".htm")
        self.title = oracle.page_title(doc) if doc is not None else ""
        self.description = self._meta(doc, "//meta[@name='description']/@content")
        self.site_name = self._meta(doc, "//meta[@property='og:site_name']/@content")
        self.refresh = self._meta(
            doc, "//meta[@http-equiv='refresh' or @http-equiv='Refresh']/@content"
        )
        self.language = self._own_hreflang(doc)

    @staticmethod
    def _meta(doc: Any, xpath: str) -> str:
        found = doc.xpath(xpath) if doc is not None else []
        return one_line(str(found[0])) if found else ""

    def _own_hreflang(self, doc: Any) -> str | None:
        if doc is None:
            return None
        for link in doc.xpath("//link[@rel='alternate'][@hreflang][@href]"):
            target = oracle.joined(self.url, link.get("href"))
            same = target is not None and target.rstrip("/") == self.url.rstrip("/")
            if same and link.get("hreflang") != "x-default":
                return str(link.get("hreflang"))
        return None

    def article_words(self) -> Counter[str]:
        doc = oracle.parse(self.data)
        if doc is None:
            return Counter()
        article = oracle.find_article(doc, self.xpath)
        oracle.strip_furniture(article)
        oracle.strip_self_dates(article)
        return words(oracle.visible_text(article))

    def all_words(self, attributes: bool = True) -> Counter[str]:
        """Every word a reader may see on the page: its title, body text (and with
        ``attributes``, its alt, title and aria-label texts)."""
        doc = oracle.parse(self.data)
        if doc is None:
            return Counter()
        for node in doc.xpath("//script | //style | //template"):
            node.drop_tree()
        body = doc.find("body")
        text = oracle.visible_text(body if body is not None else doc)
        found = doc.xpath("//@alt | //@title | //@aria-label") if attributes else []
        extra = " ".join(str(value) for value in found)
        return words(self.title + " " + text + " " + extra)


def home_page(checkout: Path, base: str, xpath: str | None) -> Page | None:
    url = base
    for _ in range(3):
        path = page_file(checkout, base, url)
        if path is None:
            return None
        page = Page(url, path, xpath)
        target = re.search(r"url\s*=\s*['\"]?([^'\";]+)", page.refresh, re.IGNORECASE)
        if not target:
            return page
        joined = oracle.joined(url, target.group(1).strip())
        if joined is None:  # (a refresh to no URL: no page)
            return None
        url = joined
    return None


# -- titles ---------------------------------------------------------------------------------


def shared_part(titles: list[str]) -> str:
    """The title part most of the site's titles hold (split where oracle.py splits a title)."""
    counts: Counter[str] = Counter()
    for title in titles:
        counts.update({part.strip() for part in oracle.TITLE_JOIN.split(title) if part.strip()})
    if not counts:
        return ""
    part, count = counts.most_common(1)[0]
    return part if count * 2 > len(titles) and len(titles) > 1 else ""


def without_part(title: str, part: str) -> str:
    if not part:
        return title
    pieces = re.split(f"({oracle.TITLE_JOIN.pattern})", title)
    kept = [p for p in pieces[::2] if p.strip() != part]
    if len(kept) == len(pieces[::2]):
        return title
    seps = [s for s in pieces[1::2]]
    joined = kept[0] if kept else ""
    for piece, sep in zip(kept[1:], seps, strict=False):
        joined += sep + piece
    return joined.strip()


def title_verdict(item_title: str, page: Page, part: str) -> str:
    if item_title == page.title:
        return "exact"
    if item_title == without_part(page.title, part):
        return "stripped"
    parts = [p.strip() for p in oracle.TITLE_JOIN.split(page.title)]
    if item_title in parts or item_title in (without_part(page.title, p) for p in parts):
        return "other part"  # (a part of the title, or the title less another of its parts)
    return "other"


# -- llms.txt -------------------------------------------------------------------------------


def unescape(text: str) -> str:
    return html.unescape(ESCAPE.sub(r"\1", text))


def read_llms_txt(text: str) -> dict[str, Any]:
    """Our own line reading: the H1, the first '> ' line before any section, H2s, items."""
    name: str | None = None
    summary: str | None = None
    section: str | None = None
    items: list[dict[str, str | None]] = []
    stray: list[str] = []
    for line in text.split("\n"):
        if line.startswith("# ") and name is None and section is None:
            name = line[2:].strip()
        elif line.startswith("> ") and section is None and summary is None:
            summary = line[2:].strip()
        elif line.startswith("## "):
            section = line[3:].strip()
        elif section is not None and line.strip():
            match = ITEM.match(line)
            if match is None:
                stray.append(line)
                continue
            title, url, desc = match.groups()
            items.append(
                {
                    "section": section,
                    "title": unescape(title),
                    "url": url,
                    "raw_title": title,
                    "desc": unescape(desc) if desc else None,
                }
            )
    return {"name": name, "summary": summary, "items": items, "stray": stray}


def reference_items(text: str) -> list[tuple[str, str]]:
    parsed = parse_llms_txt(text)
    return [(item["title"], item["url"]) for links in parsed["sections"].values() for item in links]


# -- the judgement --------------------------------------------------------------------------


def judge(checkout: Path, out: Path, base: str, xpath: str | None) -> dict[str, Any]:
    locs = sitemap_locs(out)
    pages: dict[str, Page] = {}
    for loc in locs:
        path = page_file(checkout, base, loc)
        if path is not None:
            pages[loc] = Page(loc, path, xpath)
    result: dict[str, Any] = {"listed": len(locs), "unmapped": len(locs) - len(pages)}
    result["links"], items = judge_links(out, locs, pages)
    result["titles"] = judge_titles(items, pages)
    result["head"] = judge_head(out, checkout, base, xpath, pages)
    result["full"] = judge_full(out, pages)
    result["twins"] = judge_twins(out, checkout, pages)
    result["asks"] = judge_asks(out, locs, pages)
    return result


# -- what issue 82 asked of llms.txt and llms-full.txt ----------------------------------------

# A listing page by its URL, as a reader of the URL list tells it: a taxonomy, archive or search
# folder, a pager ("page/N"), or the folder a pager pages.
LISTING_URL = re.compile(
    r"/(?:tags?|categor(?:y|ies)|series|archives?|search)(?:/|\.html?$|$)|/page-?/?[0-9]+/?$"
)
DATE_LINE = re.compile(
    r"^(?:\d{4}-\d\d-\d\d|[A-Z][a-z]+ \d{1,2}, \d{4})(?:[ \t\u00a0]*[-·|][ \t\u00a0]*.*)?$"
    r"|^ *- \d+ (?:minutes read|words)$",
    re.MULTILINE,
)


def judge_asks(out: Path, locs: list[str], pages: dict[str, Page]) -> dict[str, Any]:
    """Issue 82's asks, counted: listing pages linked and left out of llms.txt (others left
    out), items titled with a path, descriptions over 200 characters, backticks as references;
    llms-full.txt's block titles still holding the site's part, "Table of Contents" lines,
    date and reading-time lines, skip links."""
    items: list[dict[str, Any]] = []
    text_all = ""
    for path in sorted(out.rglob("llms.txt")):
        text = path.read_text(encoding="utf-8")
        text_all += text
        items += read_llms_txt(text)["items"]
    linked = {norm_url(i["url"]) for i in items}
    listings = {norm_url(loc) for loc in locs if LISTING_URL.search(urlsplit_path(loc))}
    paged = {re.sub(r"page/[0-9]+/?$", "", loc) for loc in listings if "/page/" in loc}
    listings |= {loc for loc in map(norm_url, locs) if loc in paged}
    missing = {norm_url(loc) for loc in locs} - linked
    full_path = out / "llms-full.txt"
    full = full_path.read_text(encoding="utf-8") if full_path.is_file() else ""
    heads = [title for title, _ in BLOCK_HEAD.findall(full)]
    part = shared_part([p.title for p in pages.values() if p.html])
    return {
        "listings": len(listings),
        "listings_linked": len(listings & linked),
        "others_left_out": len(missing - listings),
        "others_left_out_examples": sorted(missing - listings)[:WORST],
        "items": len(items),
        "path_titles": sum(1 for i in items if i["title"].startswith("/")),
        "long_descriptions": sum(1 for i in items if len(one_line(i["desc"])) > 200),
        "backtick_references": text_all.count("&#96;"),
        "full_heads_with_site_part": sum(
            1 for t in heads if part and html.unescape(t).endswith(part)
        ),
        "full_heads": len(heads),
        "full_toc_lines": len(
            re.findall(
                r"^(?:Table of Contents|Contents|On this page)$", full, re.MULTILINE | re.IGNORECASE
            )
        ),
        "full_date_lines": len(DATE_LINE.findall(full)),
        "full_skip_links": len(re.findall(r"\[Skip to[^\]]*\]", full, re.IGNORECASE)),
    }


def urlsplit_path(url: str) -> str:
    return "/" + url.split("://", 1)[-1].partition("/")[2]


def judge_links(
    out: Path, locs: list[str], pages: dict[str, Page]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    items: list[dict[str, Any]] = []
    files: dict[str, Any] = {}
    disagree = 0
    for path in sorted(out.rglob("llms.txt")):
        text = path.read_text(encoding="utf-8")
        own = read_llms_txt(text)
        ref = reference_items(text)
        if [(i["raw_title"], i["url"]) for i in own["items"]] != ref:
            disagree += 1
        rel = str(path.relative_to(out))
        langs = Counter(
            str(pages[i["url"]].language) if i["url"] in pages else "?" for i in own["items"]
        )
        files[rel] = {
            "items": len(own["items"]),
            "stray_lines": len(own["stray"]),
            "languages": dict(langs.most_common()),
            "name": own["name"],
            "summary": own["summary"],
        }
        items += [dict(i, file=rel) for i in own["items"]]
    linked = Counter(norm_url(i["url"]) for i in items)
    loc_set = {norm_url(loc) for loc in locs}
    missing = sorted(loc_set - set(linked))
    extra = sorted(set(linked) - loc_set)
    mixed = sum(
        sum(f["languages"].values()) - max(f["languages"].values(), default=0)
        for f in files.values()
    )
    site_langs = {p.language for p in pages.values() if p.language}
    return {
        "files": files,
        "linked": len(linked),
        "missing": len(missing),
        "extra": len(extra),
        "missing_examples": missing[:WORST],
        "extra_examples": extra[:WORST],
        "twice": sum(1 for n in linked.values() if n > 1),
        "titles_with_escapes": sum(1 for i in items if i["raw_title"] != i["title"]),
        "readings_disagree": disagree,
        "pages_not_of_file_language": mixed,
        "hreflang_languages": sorted(site_langs),
    }, items


def judge_titles(items: list[dict[str, Any]], pages: dict[str, Page]) -> dict[str, Any]:
    part = shared_part([p.title for p in pages.values() if p.html])
    verdicts: Counter[str] = Counter()
    desc: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}
    page_descs = Counter(p.description for p in pages.values() if p.description)
    # Titles that tell no page from another: the same title on several items of one section.
    same = Counter((i["file"], i["section"], i["title"]) for i in items)
    repeated = [i for i in items if same[i["file"], i["section"], i["title"]] > 1]
    examples["repeated"] = sorted(
        (f"{n}x {t!r} ({f} ## {s})" for (f, s, t), n in same.items() if n > 1),
        key=lambda line: -int(line.split("x", 1)[0]),
    )
    for item in items:
        page = pages.get(item["url"])
        if page is None or not page.html:
            continue
        verdict = title_verdict(item["title"], page, part)
        verdicts[verdict] += 1
        if verdict == "other":
            examples.setdefault("title", []).append(
                f"{item['title']!r} vs {page.title!r} ({page.url})"
            )
        want = page.description if page.description not in ("", "None") else None
        shared = want is not None and page_descs[want] * 2 > len(pages) and len(pages) > 1
        got = one_line(item["desc"]) or None
        kind = (
            "both none"
            if want is None and got is None
            else "same"
            if got == want
            else "cut"
            if got and got.endswith("…") and want and want.startswith(got[:-1].rstrip())
            else "left out (shared)"
            if got is None and shared
            else "left out"
            if got is None
            else "invented"
            if want is None
            else "differs"
        )
        desc[kind] += 1
        if kind in ("left out", "invented", "differs"):
            examples.setdefault("desc", []).append(f"{kind}: {got!r} vs {want!r} ({page.url})")
    return {
        "shared_part": part,
        "titles": dict(verdicts),
        "descriptions": dict(desc),
        "items_with_a_repeated_title": len(repeated),
        "repeated_example_urls": [i["url"] for i in repeated[:WORST]],
        "examples": {k: v[:WORST] for k, v in examples.items()},
    }


def name_verdict(name: str | None, home: Page | None, part: str) -> str:
    """og:site_name when the home page has one; else the titles' shared part or a part of the
    home page's title (the site's name in a title of several parts)."""
    if home is not None and home.site_name:
        return "og:site_name" if name == home.site_name else "not og:site_name"
    if name and name == part:
        return "shared part"
    home_parts = [p.strip() for p in oracle.TITLE_JOIN.split(home.title)] if home else []
    if name and name in home_parts:
        return "home title part"
    if name and part and name in part:
        return "within shared part"
    return "other"


def judge_head(
    out: Path, checkout: Path, base: str, xpath: str | None, pages: dict[str, Page]
) -> dict[str, Any]:
    home = home_page(checkout, base, xpath)
    root = out / "llms.txt"
    own = read_llms_txt(root.read_text(encoding="utf-8")) if root.is_file() else {}
    part = shared_part([p.title for p in pages.values() if p.html])
    want_summary = home.description if home and home.description not in ("", "None") else None
    return {
        "name": own.get("name"),
        "home_og_site_name": home.site_name if home else None,
        "titles_shared_part": part,
        "summary": own.get("summary"),
        "home_description": want_summary,
        "name_ok": name_verdict(own.get("name"), home, part),
        "summary_ok": own.get("summary") == want_summary,
    }


def full_blocks(text: str) -> tuple[dict[str, str], bool]:
    """llms-full.txt's page blocks by URL (their Markdown, the heading line left out); whether
    it stopped at its limit."""
    stopped = f"---\n\n{STOP}" in text
    if stopped:
        text = text[: text.index(f"---\n\n{STOP}")]
    heads = list(BLOCK_HEAD.finditer(text))
    blocks: dict[str, str] = {}
    for index, head in enumerate(heads):
        end = heads[index + 1].start() if index + 1 < len(heads) else len(text)
        blocks[norm_url(head.group(2))] = text[head.end() : end]
    return blocks, stopped


def judge_full(out: Path, pages: dict[str, Page]) -> dict[str, Any]:
    path = out / "llms-full.txt"
    if not path.is_file():
        return {"error": "no llms-full.txt"}
    blocks, stopped = full_blocks(path.read_text(encoding="utf-8"))
    recalls: list[tuple[float, str]] = []
    furniture: list[tuple[int, str, list[str]]] = []
    for url, block in blocks.items():
        page = pages.get(url)
        if page is None or not page.html:
            continue
        article = page.article_words()
        got = markdown_words(block)
        total = sum(article.values())
        if total:
            found = sum(min(n, got[w]) for w, n in article.items())
            recalls.append((found / total, url))
        furn = set(page.all_words(attributes=False)) - set(article)
        leaked = sorted(furn & set(got))
        furniture.append((len(leaked), url, leaked[:12]))
    recalls.sort()
    furniture.sort(key=lambda row: -row[0])
    values = [r for r, _ in recalls]
    leaks = [n for n, _, _ in furniture]
    return {
        "blocks": len(blocks),
        "stopped_at_limit": stopped,
        "bytes": path.stat().st_size,
        "html_pages_listed": sum(1 for p in pages.values() if p.html),
        "recall_median": round(median(values), 3) if values else None,
        "recall_min": round(values[0], 3) if values else None,
        "pages_recall_below_0.9": sum(1 for v in values if v < 0.9),
        "worst_recall": [f"{r:.2f} {u}" for r, u in recalls[:WORST]],
        "furniture_words_median": median(leaks) if leaks else None,
        "furniture_words_max": leaks[0] if leaks else None,
        "pages_with_furniture": sum(1 for n in leaks if n),
        "worst_furniture": [f"{n} {u} {w}" for n, u, w in furniture[:WORST] if n],
    }


def judge_twins(out: Path, checkout: Path, pages: dict[str, Page]) -> dict[str, Any]:
    """A twin of the page in file F (below the checkout) is F plus .md below the output."""
    by_rel = {str(p.path.relative_to(checkout)): p for p in pages.values() if p.html}
    twins = [t for t in out.rglob("*.md") if t.name not in ("llms.txt", "llms-full.txt")]
    matched: set[str] = set()
    outside: list[str] = []
    extra_words: list[tuple[int, str, list[str]]] = []
    for twin in twins:
        rel = str(twin.relative_to(out))[: -len(".md")]
        page = by_rel.get(rel)
        if page is None:
            outside.append(rel)
            continue
        matched.add(rel)
        got = set(markdown_words(twin.read_text(encoding="utf-8")))
        extra = sorted(got - set(page.all_words()))
        extra_words.append((len(extra), page.url, extra[:10]))
    extra_words.sort(key=lambda row: -row[0])
    return {
        "twins": len(twins),
        "html_pages_listed": len(by_rel),
        "pages_without_twin": len(by_rel) - len(matched),
        "twins_of_no_listed_page": len(outside),
        "outside_examples": outside[:WORST],
        "twins_with_words_not_in_page": sum(1 for n, _, _ in extra_words if n),
        "worst_twins": [f"{n} {u} {w}" for n, u, w in extra_words[:WORST] if n],
    }


# -- report ---------------------------------------------------------------------------------


def summary_line(name: str, r: dict[str, Any]) -> str:
    if "error" in r:
        return f"{name}: ERROR {r['error'][:300]}"
    if "links" not in r:
        return f"{name}: cost {r.get('cost')}"
    links, titles, full, twins = r["links"], r["titles"], r["full"], r["twins"]
    parts = [
        f"{name}: listed {r['listed']} linked {links['linked']} missing {links['missing']}",
        f"extra {links['extra']} twice {links['twice']} files {len(links['files'])} |",
        f"titles {titles['titles']} desc {titles['descriptions']} |",
        f"recall med {full.get('recall_median')} min {full.get('recall_min')}",
        f"furniture med {full.get('furniture_words_median')}",
        f"max {full.get('furniture_words_max')} |",
        f"twins {twins['twins']}/{twins['html_pages_listed']}",
        f"foreign {twins['twins_with_words_not_in_page']} |",
        f"build {r['build_s']} s {r['build_rss_mb']} MB",
    ]
    if "asks" in r:
        parts.append(f"| asks {r['asks']}")
    if "cost" in r:
        parts.append(f"| cost {r['cost']}")
    return " ".join(parts)


# The tables: (heading, a cell's reading of one site's result).
Column = tuple[str, Any]
TABLES: list[list[Column]] = [
    [
        ("listed", lambda r: r["listed"]),
        ("linked", lambda r: r["links"]["linked"]),
        ("missing", lambda r: r["links"]["missing"]),
        ("extra", lambda r: r["links"]["extra"]),
        ("linked twice", lambda r: r["links"]["twice"]),
        ("llms.txt files", lambda r: ", ".join(r["links"]["files"])),
        ("pages' hreflang languages", lambda r: ", ".join(r["links"]["hreflang_languages"])),
        ("pages not of the file's language", lambda r: r["links"]["pages_not_of_file_language"]),
        ("files the two readings differ on", lambda r: r["links"]["readings_disagree"]),
    ],
    [
        ("titles exact", lambda r: r["titles"]["titles"].get("exact", 0)),
        ("w/o shared part", lambda r: r["titles"]["titles"].get("stripped", 0)),
        ("a part of it", lambda r: r["titles"]["titles"].get("other part", 0)),
        ("other", lambda r: r["titles"]["titles"].get("other", 0)),
        (
            "items titled as another of its section",
            lambda r: r["titles"]["items_with_a_repeated_title"],
        ),
        ("desc same", lambda r: r["titles"]["descriptions"].get("same", 0)),
        ("cut …", lambda r: r["titles"]["descriptions"].get("cut", 0)),
        ("both none", lambda r: r["titles"]["descriptions"].get("both none", 0)),
        ("left out (shared)", lambda r: r["titles"]["descriptions"].get("left out (shared)", 0)),
        ("left out", lambda r: r["titles"]["descriptions"].get("left out", 0)),
        ("invented", lambda r: r["titles"]["descriptions"].get("invented", 0)),
        ("differs", lambda r: r["titles"]["descriptions"].get("differs", 0)),
        ("name", lambda r: f"{r['head']['name']!r} ({r['head']['name_ok']})"),
        ("summary ok", lambda r: r["head"]["summary_ok"]),
    ],
    [
        (
            "blocks / HTML pages",
            lambda r: f"{r['full']['blocks']}/{r['full']['html_pages_listed']}",
        ),
        ("limit hit", lambda r: r["full"]["stopped_at_limit"]),
        ("recall median", lambda r: r["full"]["recall_median"]),
        ("recall min", lambda r: r["full"]["recall_min"]),
        ("pages < 0.9", lambda r: r["full"]["pages_recall_below_0.9"]),
        ("furniture words median", lambda r: r["full"]["furniture_words_median"]),
        ("max", lambda r: r["full"]["furniture_words_max"]),
        ("pages with any", lambda r: r["full"]["pages_with_furniture"]),
        (
            "twins / HTML pages",
            lambda r: f"{r['twins']['twins']}/{r['twins']['html_pages_listed']}",
        ),
        ("twins with words not in the page", lambda r: r["twins"]["twins_with_words_not_in_page"]),
    ],
    [
        ("plain build s", lambda r: r["cost"]["plain_s"]),
        ("llms build s", lambda r: r["cost"]["llms_s"]),
        ("ratio", lambda r: r["cost"]["ratio"]),
        ("plain RSS MB", lambda r: r["cost"]["plain_rss_mb"]),
        ("llms RSS MB", lambda r: r["cost"]["llms_rss_mb"]),
        ("load (1 min)", lambda r: f"{r['cost']['load']:.1f}"),
    ],
]


def tables(results: dict[str, Any]) -> str:
    """The per-site tables, in Markdown: links, titles and descriptions, content, cost."""
    out: list[str] = []
    for columns in TABLES:
        rows = ["| site | " + " | ".join(head for head, _ in columns) + " |"]
        rows.append("|---" * (len(columns) + 1) + "|")
        for name, result in results.items():
            if "error" in result:
                rows.append(f"| {name} | error: {result['error'][:120]!r} |")
            elif ("cost" if columns is TABLES[-1] else "links") in result:
                rows.append(f"| {name} | " + " | ".join(str(c(result)) for _, c in columns) + " |")
        if len(rows) > 2:
            out.append("\n".join(rows))
    return "\n\n".join(out) + "\n"
