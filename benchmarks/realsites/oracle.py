"""An independent oracle for content dates: when did each page's article text last change?

For every HTML page of a git checkout, the oracle walks the page's own history (one ``git log``
pass over the branch, one ``git cat-file --batch`` for the blobs) and finds the commit time of the
oldest commit in the unbroken run of versions at the tip whose *article text* (plus the page's
``<title>``) equals today's. It reads HTML with lxml and shares no code with sitemill: it is a
measuring tool that plays a careful human reader, not a rule of the product.

The article: the element an ``article_xpath`` of the site names (when the theme's article is
unmistakable), else the single ``<article>`` inside the main region, else the main region
(``<main>``, ``[role=main]``), else ``<body>``. Left out wherever they stand: ``script``, ``style``,
``nav``, ``aside``, ``header``, ``footer``, ``noscript``, ``template``, ``svg`` and the navigation,
complementary, search, banner and contentinfo roles; a ``header`` that holds an ``<h1>`` stays (the
article's headline block: Docusaurus 3.8 wraps the h1 in one), and so does one inside an
``<article>`` that holds a heading of any rank (a teaser's: which page a list page lists, under
which title). Text is what a reader sees: inline elements join their text, block elements separate
it, whitespace is collapsed. A self-date is not
article text either (docs/lastmod.md, self-dates): an element whose text is "Last updated on
<date>", "Last modified <date>: <commit>", "Page last updated ..." says when the page changed, not
what it says. A page moved to a new path keeps its history: git's rename detection (``-M``) chains
the old path's versions behind the new one's, as a reader of the moved article would (its text did
not change when its address did).

That is the reading of version 5 (``reading="v5"``). Version 6, the default (the dates issue's
decision 3), compares each version with the one before it, leaves out the blocks the site
repeats on most pages of that version and the self-dates whose label stands apart or is an
icon, and counts the article's link and image targets, a template target edit excepted
(blocks.py, selfdates.py, template.py; README.md, "The oracle").
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urljoin

import lxml.etree
import lxml.html

HTML_SUFFIXES = (".html", ".htm")
DROP_TAGS = ("script", "style", "nav", "aside", "header", "footer", "noscript", "template", "svg")
DROP_ROLES = ("navigation", "complementary", "search", "banner", "contentinfo")
# Elements whose text runs into its neighbours' (no word boundary): what a browser renders inline.
INLINE_TAGS = frozenset(
    [
        "a",
        "abbr",
        "b",
        "bdi",
        "bdo",
        "cite",
        "code",
        "data",
        "del",
        "dfn",
        "em",
        "font",
        "i",
        "ins",
        "kbd",
        "mark",
        "q",
        "s",
        "samp",
        "small",
        "span",
        "strong",
        "sub",
        "sup",
        "time",
        "tt",
        "u",
        "var",
        "wbr",
        "label",
    ]
)
SPACE = re.compile(r"\s+")
# What no reader sees is no word (docs/lastmod.md, "What no reader sees"): control characters and
# the zero-width ones, a zero-width space, a word joiner, a byte-order mark, a soft hyphen; the
# joiners that change how a word is drawn (U+200C, U+200D) stay. odoc 2.0 writes a word joiner
# after an optional argument's "?" (``?\u2060print_outcome``) and dropped it later (heldout91).
UNSEEN = dict.fromkeys(
    [0x00AD, 0x200B, 0x2060, 0xFEFF, 0x7F, *range(0x80, 0xA0)]
    + [code for code in range(0x20) if chr(code) not in "\t\n\r\f\v"]
)


def unseen_out(text: str) -> str:
    """``text`` without the characters no reader sees (UNSEEN)."""
    return text.translate(UNSEEN)


HTML_DOCUMENT = re.compile(rb"<(?:!doctype|html|head|body|title)\b", re.IGNORECASE)
# The text of an element that only says when the page changed (left out; short, so an article
# that happens to start so is not).
SELF_DATE = re.compile(r"^(?:page )?last (?:updated|modified|update|edited)\b", re.IGNORECASE)
SELF_DATE_CHARS = 300
NOT_FOUND_TITLE = re.compile(r"\b404\b|page not found|not found", re.IGNORECASE)


@dataclass(frozen=True)
class Version:
    """One commit that touched a file: the blob it left there (None when it deleted the file)."""

    commit: str
    time: int
    subject: str
    status: str  # A, M, D, T, R (git's raw status letter)
    blob: str | None
    renamed_from: str | None = None  # R: the path the file had before this commit
    order: int = 0  # the commit's place in the log, 0 for the newest


@dataclass
class PageFacts:
    """What the current version of a page says about itself."""

    skip: str | None = None  # why the oracle does not date it: redirect, noindex, 404, empty
    canonical: str | None = None
    title: str = ""


@dataclass
class OracleDate:
    """The oracle's verdict for one page."""

    path: str
    facts: PageFacts
    time: int | None = None  # the commit time sitemill should give; None when skipped
    commit: str | None = None
    versions: list[Version] = field(default_factory=list)  # newest first, as git log lists them


def parse_log(
    raw: bytes,
) -> Iterator[tuple[str, int, str, list[tuple[str, str | None, str, str | None]]]]:
    """Yield (commit, time, subject, [(path, blob, status, old path)]) from ``git log --raw -z``
    output; a rename (R) or copy (C) names the old path, then the new one."""
    for chunk in raw.split(b"\x01")[1:]:
        header, _, rest = chunk.partition(b"\0")
        sha, time, subject = [*header.decode("utf-8", "replace").split(" ", 2), ""][:3]
        tokens = iter(rest.lstrip(b"\n").split(b"\0"))
        changes = []
        for meta in tokens:
            if not meta.startswith(b":"):
                continue
            fields = meta[1:].split()
            new_mode, new_blob, status = fields[1], fields[3], fields[4][:1]
            old = next(tokens, b"") if status in (b"R", b"C") else None
            path = next(tokens, b"")
            blob = None if status == b"D" or set(new_blob) == {ord("0")} else new_blob.decode()
            if new_mode == b"160000":
                continue
            renamed = old.decode("utf-8", "surrogateescape") if status == b"R" and old else None
            changes.append(
                (path.decode("utf-8", "surrogateescape"), blob, status.decode(), renamed)
            )
        yield sha, int(time), subject, changes


def file_histories(checkout: Path) -> dict[str, list[Version]]:
    """Every HTML path's versions on the checked-out branch, newest first (first-parent).

    A site in a folder of its branch (``docs/`` of a source branch, ``content/`` of an ASF
    ``asf-site`` branch: ``checkout`` is that folder) has its paths from that folder; a path
    outside it (the folder's pages before a commit moved them there: ``_site/x.html`` made
    ``docs/x.html``) is kept from the top with a leading ``/``, so a rename into the folder
    still chains the page's older versions (``chained``)."""
    prefix = (
        subprocess.run(
            ["git", "-C", str(checkout), "rev-parse", "--show-prefix"],
            check=True,
            capture_output=True,
        )
        .stdout.decode("utf-8", "surrogateescape")
        .strip()
    )
    raw = subprocess.run(
        [
            "git",
            "-C",
            str(checkout),
            "log",
            "--first-parent",
            "-m",
            "-M",
            "--raw",
            "--no-abbrev",
            "-z",
            "--format=%x01%H %ct %s",
            "HEAD",
            "--",
            *(f":(top)*{suffix}" for suffix in HTML_SUFFIXES),
        ],
        check=True,
        capture_output=True,
    ).stdout

    def local(path: str) -> str:
        if not prefix:
            return path
        return path[len(prefix) :] if path.startswith(prefix) else "/" + path

    histories: dict[str, list[Version]] = {}
    for order, (sha, time, subject, changes) in enumerate(parse_log(raw)):
        for path, blob, status, renamed in changes:
            moved = local(renamed) if renamed is not None else None
            version = Version(sha, time, subject, status, blob, moved, order)
            histories.setdefault(local(path), []).append(version)
    return histories


def chained(histories: dict[str, list[Version]], path: str) -> list[Version]:
    """The versions of ``path``, newest first, followed through renames to its older paths
    (an old path may be used again later: only its versions before the rename count)."""
    versions: list[Version] = []
    seen, after = {path}, -1
    while True:
        renamed = None
        for version in histories.get(path, []):
            if version.order <= after:
                continue
            versions.append(version)
            if version.renamed_from is not None:
                renamed = version
                break
        if renamed is None or renamed.renamed_from in seen:
            return versions
        path, after = str(renamed.renamed_from), renamed.order
        seen.add(path)


class BlobReader:
    """One ``git cat-file --batch`` kept open: blob id in, bytes out (None when git lacks it)."""

    def __init__(self, checkout: Path) -> None:
        self._proc = subprocess.Popen(
            ["git", "-C", str(checkout), "cat-file", "--batch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )

    def read(self, blob: str) -> bytes | None:
        assert self._proc.stdin and self._proc.stdout
        self._proc.stdin.write(blob.encode() + b"\n")
        self._proc.stdin.flush()
        header = self._proc.stdout.readline().split()
        if len(header) < 3 or header[1] == b"missing":
            return None
        data = self._proc.stdout.read(int(header[2]))
        self._proc.stdout.read(1)
        return data

    def close(self) -> None:
        if self._proc.stdin:
            self._proc.stdin.close()
        self._proc.wait()
        if self._proc.stdout:
            self._proc.stdout.close()


PARSER = lxml.html.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True)


def joined(base: str, target: str) -> str | None:
    """``urljoin(base, target)``, or None where urllib refuses either (a host that NFKC makes a
    delimiter, ``a\uff0fb.com``; ``http://[::1/``): no URL, never a stop of the reading."""
    try:
        return urljoin(base, target)
    except ValueError:
        return None


def parse(data: bytes) -> lxml.html.HtmlElement | None:
    try:
        return lxml.html.document_fromstring(data, parser=PARSER)
    except (lxml.etree.ParserError, ValueError):
        return None


def visible_text(element: lxml.html.HtmlElement) -> str:
    """The element's text as a reader sees it: block boundaries are spaces, inline ones are not."""
    parts: list[str] = []
    for event, node in lxml.etree.iterwalk(element, events=("start", "end")):
        tag = node.tag.lower() if isinstance(node.tag, str) else ""
        block = tag not in INLINE_TAGS
        if event == "start":
            parts.append(" " if block else "")
            parts.append(node.text or "")
        else:
            parts.append(" " if block else "")
            if node is not element:
                parts.append(node.tail or "")
    text = unseen_out("".join(parts))
    return SPACE.sub(" ", text).strip()


def strip_self_dates(article: lxml.html.HtmlElement) -> None:
    """Leave out the outermost elements whose whole text is a self-date (see the docstring)."""
    for node in list(article.iter()):
        if node is article or not isinstance(node.tag, str):
            continue
        if not any(ancestor is article for ancestor in node.iterancestors()):
            continue  # (inside an element left out already)
        if _first_letter(node) not in ("l", "p"):
            continue  # (its text is read whole only where it may be a self-date)
        text = visible_text(node)
        if len(text) <= SELF_DATE_CHARS and SELF_DATE.match(text):
            node.drop_tree()


def _first_letter(node: lxml.html.HtmlElement) -> str:
    """The first character of visible_text(node), lower-cased: its texts in order, the
    first one that is not all white space (nor zero-width)."""
    for text in node.itertext():
        kept = unseen_out(text).lstrip()
        if kept:
            return kept[0].lower()
    return ""


def strip_furniture(article: lxml.html.HtmlElement) -> None:
    xpath = " | ".join(
        [f".//{tag}" for tag in DROP_TAGS]
        + [f".//*[@role='{role}']" for role in DROP_ROLES]
        + [".//*[local-name()='svg']"]
    )
    for node in article.xpath(xpath):
        if node.tag == "header" and _headline_block(node, article):
            continue  # an article's headline block (Docusaurus wraps the h1 so): content
        parent = node.getparent()
        if parent is not None:
            node.drop_tree()
    strip_permalinks(article)


def strip_permalinks(article: lxml.html.HtmlElement) -> None:
    """Leave out a heading's permalink glyph (``#``, ``¶``, ``🔗``): a link to a place on this
    page, or one hidden from screen readers, whose text has no letter or digit. The contract:
    heading permalink anchors are no words (issue 79, cluster 8); VuePress 2 moved its ``#``
    into CSS and Sphinx moved its ``¶`` across a colon, each on every page, and no reader saw a
    word change. A footnote's ``<a href="#fn1">1</a>`` stays (a digit), and so does the text
    after the link (lxml's drop_tree keeps the tail)."""
    for node in list(article.iter("a")):
        href = (node.get("href") or "").strip()
        if not href.startswith("#") and node.get("aria-hidden") != "true":
            continue
        if not any(char.isalnum() for char in node.text_content()):
            node.drop_tree()


def _headline_block(header: lxml.html.HtmlElement, article: lxml.html.HtmlElement) -> bool:
    """Whether a ``header`` is an article's headline block: it holds an ``<h1>``, or it stands
    inside an ``<article>`` and holds a heading of any rank (a list page's teaser headed by an
    ``<h2>``: which page it lists, under which title; Hexo NexT made its list pages' ``<h1>``
    an ``<h2>`` in one upgrade, a change no reader sees)."""
    if header.xpath(".//h1"):
        return True
    inside = article.tag == "article"
    for node in header.iterancestors():
        if node is article:
            break
        inside = inside or node.tag == "article"
    return inside and bool(header.xpath(".//h2 | .//h3 | .//h4 | .//h5 | .//h6"))


def find_article(doc: lxml.html.HtmlElement, article_xpath: str | None) -> lxml.html.HtmlElement:
    if article_xpath:
        found = doc.xpath(article_xpath)
        if found:
            return found[0]
    regions = doc.xpath("//main") or doc.xpath("//*[@role='main']")
    region = regions[0] if regions else (doc.find("body") if doc.find("body") is not None else doc)
    articles = region.xpath(".//article")
    return articles[0] if len(articles) == 1 else region


def page_title(doc: lxml.html.HtmlElement) -> str:
    titles = doc.xpath("//head/title") or doc.xpath("//title")
    return SPACE.sub(" ", titles[0].text_content()).strip() if titles else ""


def content_key(data: bytes, article_xpath: str | None) -> str:
    """What a reader compares between two versions: the title and the article's visible text."""
    doc = parse(data)
    if doc is None:
        return ""
    title = page_title(doc)
    article = find_article(doc, article_xpath)
    strip_furniture(article)
    strip_self_dates(article)
    text = visible_text(article)
    # White space alone is no change (the contract: "whitespace and indentation" do not count):
    # a code highlighter that puts a "[docs]" link on its own line inside <pre> changes none.
    return WHITE.sub("", own_title(title, text) + "\n" + text)


# Where a title's parts are joined: a dash, a bar, a dot, a chevron, spaced on both sides.
TITLE_JOIN = re.compile(r"(?<!\s)\s+(?:[-\u2013\u2014|\u00b7\u2022\u00bb]|::)\s+")
NOT_ALNUM = re.compile(r"[\W_]+")
WHITE = re.compile(r"\s+")


def own_title(title: str, text: str) -> str:
    """The part of a title that is the page's own (the contract: the part most pages share,
    the site's name with its separator wherever it stands, is template): the parts that stand
    in the article's text, as a reader finds the page's headline there, in sorted order."""
    article = NOT_ALNUM.sub("", text.casefold())
    parts = [part.strip() for part in TITLE_JOIN.split(title)]
    own = [part for part in parts if part and NOT_ALNUM.sub("", part.casefold()) in article]
    return " | ".join(sorted(own))


def link_key(data: bytes, article_xpath: str | None) -> str:
    """The targets of the article's links and images, in order: a change here that leaves the
    text alone (a fixed URL, a re-hashed image) is invisible to a reader but not to a crawler."""
    doc = parse(data)
    if doc is None:
        return ""
    article = find_article(doc, article_xpath)
    strip_furniture(article)
    targets = []
    for node in article.iter("a", "img"):
        target = node.get("href") if node.tag == "a" else node.get("src")
        if target and not target.startswith("#"):
            targets.append(target.split("#", 1)[0])
    return "\n".join(targets)


def page_facts(path: str, data: bytes) -> PageFacts:
    doc = parse(data)
    if doc is None:
        return PageFacts(skip="empty")
    if not HTML_DOCUMENT.search(data[:65536]):
        return PageFacts(skip="not a page")  # a template or fragment (mkdocs overrides/main.html)
    facts = PageFacts(title=page_title(doc))
    canonical = doc.xpath("//link[translate(@rel,'CANONICAL','canonical')='canonical']/@href")
    facts.canonical = canonical[0].strip() if canonical else None
    refresh = doc.xpath("//meta[translate(@http-equiv,'REFSH','refsh')='refresh']/@content")
    robots = " ".join(doc.xpath("//meta[translate(@name,'ROBTS','robts')='robots']/@content"))
    name = path.rsplit("/", 1)[-1]
    if refresh and "url=" in refresh[0].lower():
        facts.skip = "redirect"
    elif "noindex" in robots.lower():
        facts.skip = "noindex"
    elif name in ("404.html", "404.htm") or path.endswith("404/index.html"):
        facts.skip = "404"
    elif NOT_FOUND_TITLE.search(facts.title) and len(visible_text(find_article(doc, None))) < 400:
        facts.skip = "404"  # a not-found page under another name: short, and titled so
    return facts


def tracked_pages(checkout: Path) -> list[str]:
    out = subprocess.run(
        [
            "git",
            "-C",
            str(checkout),
            "ls-files",
            "-z",
            "-t",
            "--",
            *(f"*{s}" for s in HTML_SUFFIXES),
        ],
        check=True,
        capture_output=True,
    ).stdout
    pages = []
    for entry in out.split(b"\0"):
        if entry[:2] == b"H ":  # tracked and in the work tree (S: left out of a sparse checkout)
            pages.append(entry[2:].decode("utf-8", "surrogateescape"))
    return pages


READINGS = ("v6", "v5")  # the oracle's readings, the newest first (see the module docstring)


def date_pages(
    checkout: Path,
    article_xpath: str | None = None,
    reading: str = "v6",
    base_url: str | None = None,
) -> dict[str, OracleDate]:
    """The oracle's date for every tracked HTML page of the checkout (see the module docstring):
    ``reading`` v6 leaves out repeated blocks and self-dates that stand apart and counts the
    article's targets (template.py), a link whose query carries the page's own URL (the site
    at ``base_url``) as none; v5 is the reading before the dates issue's decision 3."""
    if reading == "v6":
        import template  # (a module of this folder that imports this one)

        return template.date_pages(checkout, article_xpath, base_url)
    if reading != "v5":
        raise ValueError(f"no oracle reading {reading!r} (one of {', '.join(READINGS)})")
    histories = file_histories(checkout)
    reader = BlobReader(checkout)
    keys: dict[str, str] = {}

    def key(blob: str | None) -> str | None:
        if blob is None:
            return None
        if blob not in keys:
            data = reader.read(blob)
            keys[blob] = "\0missing" + blob if data is None else content_key(data, article_xpath)
        return keys[blob]

    results: dict[str, OracleDate] = {}
    try:
        for path in tracked_pages(checkout):
            versions = chained(histories, path)
            current = (checkout / path).read_bytes()
            verdict = OracleDate(path, page_facts(path, current), versions=versions)
            results[path] = verdict
            if verdict.facts.skip or not versions or versions[0].blob is None:
                if not verdict.facts.skip:
                    verdict.facts.skip = "no history"
                continue
            today = key(versions[0].blob)
            for version in versions:
                if version.blob is None or key(version.blob) != today:
                    break
                verdict.time, verdict.commit = version.time, version.commit
                if version.status in ("A", "C"):
                    break
    finally:
        reader.close()
    return results
