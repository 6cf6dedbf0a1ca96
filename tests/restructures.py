"""An independent reading of two builds of a static site, to judge `sitemill diff` by.

It shares nothing with sitemill's reader: lxml.html parses each page, the main text is the first
<main>, [role=main], <article> or <body> without navigation, and "renamed" is difflib's
word-sequence ratio >= THRESHOLD between a removed page's text and an added page's (candidates: the
added pages sharing most word 5-shingles). A page is every *.html file but 404.html, noindex pages
and meta-refresh stubs; the URL of x/index.html is x/, of x.html x.html. "Redirected": a stub at
the removed URL's file, or a `_redirects` line. Written for issue 66 from the rules above, not
from sitemill's code; its limits: tests/diff/realsites/README.md."""

from __future__ import annotations

import difflib
import os
import re
from collections import Counter, defaultdict
from urllib.parse import urljoin, urlsplit

import lxml.html
from lxml import etree

THRESHOLD = 0.9
MIN_WORDS = 20  # below this a page's text is too thin to say "renamed" unless identical and unique
SHINGLE = 5
DROP_TAGS = {"script", "style", "noscript", "template", "nav", "header", "footer", "aside"}
DROP_ROLES = {"navigation", "banner", "contentinfo", "search"}
REFRESH_URL = re.compile(
    r"""^\s*\d*(?:\.\d*)?\s*[;,]?\s*(?:url\s*=\s*)?['"]?([^'"]*)['"]?\s*$""", re.I
)


def read_dir(root: str) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for d, _, names in os.walk(root):
        for n in names:
            rel = os.path.relpath(os.path.join(d, n), root).replace(os.sep, "/")
            if n.endswith(".html") or rel in ("_redirects", "CNAME"):
                with open(os.path.join(d, n), "rb") as fh:
                    files[rel] = fh.read()
    return files


def url_of(path: str) -> str:
    if path == "index.html":
        return "/"
    if path.endswith("/index.html"):
        return "/" + path[: -len("index.html")]
    return "/" + path


def parse(raw: bytes):
    try:
        return lxml.html.document_fromstring(raw)
    except (etree.ParserError, ValueError):
        return None


def refresh_target(doc) -> str | None:
    for m in doc.iter("meta"):
        if (m.get("http-equiv") or "").strip().lower() == "refresh":
            mt = REFRESH_URL.match(m.get("content") or "")
            if mt and mt.group(1).strip():
                return mt.group(1).strip()
    return None


def noindex(doc) -> bool:
    for m in doc.iter("meta"):
        if (m.get("name") or "").strip().lower() == "robots" and "noindex" in (
            m.get("content") or ""
        ).lower():
            return True
    return False


def main_text(doc) -> str:
    root = None
    for xp in ("//main", "//*[@role='main']", "//article", "//body"):
        found = doc.xpath(xp)
        if found:
            root = found[0]
            break
    if root is None:
        root = doc
    for el in list(root.iter()):
        if not isinstance(el.tag, str):
            if el.getparent() is not None:  # comments, processing instructions
                el.drop_tree()
            continue
        cls = " " + (el.get("class") or "") + " "
        if (
            (
                el.tag in DROP_TAGS
                or (el.get("role") or "").lower() in DROP_ROLES
                or " headerlink " in cls
            )
            and el is not root
            and el.getparent() is not None
        ):
            el.drop_tree()
    return " ".join(root.text_content().split())


class Build:
    def __init__(self, files: dict[str, bytes]):
        self.pages: dict[str, dict] = {}  # url -> {"file", "text"}
        self.stubs: dict[str, dict] = {}  # url -> {"file", "target"}
        self.skipped: dict[str, str] = {}  # file -> reason
        self.redirects: list[tuple[str, str]] = []
        self.cname = files.get("CNAME", b"").decode("utf-8", "replace").strip() or None
        for line in files.get("_redirects", b"").decode("utf-8", "replace").splitlines():
            parts = line.split("#", 1)[0].split()
            if len(parts) >= 2:
                self.redirects.append((parts[0], parts[1]))
        for path in sorted(files):
            if not path.endswith(".html"):
                continue
            if path.rsplit("/", 1)[-1] == "404.html":
                self.skipped[path] = "404"
                continue
            doc = parse(files[path])
            if doc is None:
                self.skipped[path] = "unparseable"
                continue
            url = url_of(path)
            tgt = refresh_target(doc)
            if tgt is not None:
                self.stubs[url] = {"file": path, "target": urljoin(url, tgt)}
                continue
            if noindex(doc):
                self.skipped[path] = "noindex"
                continue
            self.pages[url] = {"file": path, "text": main_text(doc)}

    def redirect_for(self, url: str) -> dict | None:
        if url in self.stubs:
            return {
                "via": "meta-refresh",
                "file": self.stubs[url]["file"],
                "target": self.stubs[url]["target"],
            }
        for frm, to in self.redirects:
            f = frm if not frm.startswith("http") else urlsplit(frm).path
            if f.endswith("*"):
                if url.startswith(f[:-1]):
                    return {"via": "_redirects", "rule": f"{frm} {to}"}
            elif url in (f, f.rstrip("/") + "/", f.rstrip("/")) or f in (url.rstrip("/"),):
                return {"via": "_redirects", "rule": f"{frm} {to}"}
        return None


# --------------------------------------------------------------------------- similarity


def shingles(words: list[str]) -> set:
    if len(words) < SHINGLE:
        return {tuple(words)} if words else set()
    return {tuple(words[i : i + SHINGLE]) for i in range(len(words) - SHINGLE + 1)}


def best_matches(removed: dict[str, str], added: dict[str, str], top: int = 5) -> dict[str, list]:
    """For each removed URL, difflib ratios against the `top` added pages sharing most shingles."""
    a_words = {u: t.split() for u, t in added.items()}
    a_sh = {u: shingles(w) for u, w in a_words.items()}
    index: dict[tuple, list[str]] = defaultdict(list)
    for u, sh in a_sh.items():
        for s in sh:
            index[s].append(u)
    out: dict[str, list] = {}
    for ru, text in removed.items():
        words = text.split()
        sh = shingles(words)
        common: Counter = Counter()
        for s in sh:
            for u in index.get(s, ()):
                common[u] += 1
        cands = [u for u, _ in common.most_common(top)]
        if not cands and not words:  # empty page: only an empty added page can match it
            cands = [u for u, w in a_words.items() if not w][:top]
        scored = []
        for u in cands:
            sm = difflib.SequenceMatcher(None, words, a_words[u], autojunk=False)
            union = len(sh | a_sh[u]) or 1
            scored.append(
                {
                    "url": u,
                    "ratio": round(sm.ratio(), 4),
                    "shingle_jaccard": round(len(sh & a_sh[u]) / union, 4),
                }
            )
        scored.sort(
            key=lambda d: (
                -d["ratio"],
                -difflib.SequenceMatcher(None, ru, d["url"]).ratio(),
                d["url"],
            )
        )
        out[ru] = scored
    return out


# --------------------------------------------------------------------------- diff


def diff(before: Build, after: Build, base_url: str | None) -> dict:
    b_urls, a_urls = set(before.pages), set(after.pages)
    removed = sorted(b_urls - a_urls)
    added = sorted(a_urls - b_urls)
    kept = sorted(b_urls & a_urls)
    matches = best_matches(
        {u: before.pages[u]["text"] for u in removed}, {u: after.pages[u]["text"] for u in added}
    )
    text_count_before = Counter(p["text"] for p in before.pages.values())
    text_count_added = Counter(after.pages[u]["text"] for u in added)
    verdicts = {}
    for u in removed:
        red = after.redirect_for(u)
        best = matches[u][0] if matches[u] else None
        if red is not None:
            v = {"status": "redirected", "redirect": red}
            if red.get("target"):
                t = urlsplit(red["target"])
                tp = t.path[: -len("index.html")] if t.path.endswith("/index.html") else t.path
                base_path = urlsplit(base_url).path if base_url else "/"
                if base_path not in ("", "/") and tp.startswith(base_path):
                    tp = (
                        "/" + tp[len(base_path) :]
                    )  # a project site's absolute links carry its path
                v["redirect"]["target_is_page"] = bool(
                    (
                        not t.netloc
                        or (base_url is not None and t.netloc == urlsplit(base_url).netloc)
                    )
                    and (
                        tp in after.pages or tp + "/" in after.pages or tp + ".html" in after.pages
                    )
                )
        elif (
            best
            and best["ratio"] >= THRESHOLD
            and (
                len(before.pages[u]["text"].split()) >= MIN_WORDS
                or (
                    best["ratio"] == 1.0
                    and before.pages[u]["text"]
                    and text_count_before[before.pages[u]["text"]] == 1
                    and text_count_added[before.pages[u]["text"]] == 1
                )
            )
        ):
            v = {"status": "renamed"}
        else:
            v = {"status": "gone"}
        v["best_match"] = best
        # other added pages exactly as good as the best one (identical copies in two folders)
        v["equally_good"] = [
            c["url"] for c in matches[u][1:] if best and c["ratio"] == best["ratio"]
        ]
        v["candidates"] = matches[u]
        v["words"] = len(before.pages[u]["text"].split())
        if best and best["ratio"] >= THRESHOLD and v["status"] != "renamed" and red is None:
            v["note"] = f"best match >= {THRESHOLD}, but under {MIN_WORDS} words or not unique"
        verdicts[u] = v
    # many-to-one: other removed URLs whose best match is the same added page
    by_best = defaultdict(list)
    for u, v in verdicts.items():
        if v["status"] == "renamed":
            by_best[v["best_match"]["url"]].append(u)
    for u, v in verdicts.items():
        if v["status"] == "renamed":
            v["same_best_match_as"] = [o for o in by_best[v["best_match"]["url"]] if o != u]
    counts = Counter(v["status"] for v in verdicts.values())
    return {
        "base_url": base_url,
        "threshold": THRESHOLD,
        "counts": {
            "pages_before": len(b_urls),
            "pages_after": len(a_urls),
            "stubs_before": len(before.stubs),
            "stubs_after": len(after.stubs),
            "added": len(added),
            "removed": len(removed),
            "kept": len(kept),
            "redirected": counts["redirected"],
            "renamed": counts["renamed"],
            "gone": counts["gone"],
        },
        "urls_before": sorted(b_urls),
        "urls_after": sorted(a_urls),
        "added": added,
        "removed": verdicts,
        "stubs_after": {u: s["target"] for u, s in sorted(after.stubs.items())},
        "skipped_before": before.skipped,
        "skipped_after": after.skipped,
    }
