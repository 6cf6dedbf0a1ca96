"""A page's article as a tree of blocks, each with its text and its link and image targets.

The oracle's version 6 reads an article as a careful reader does: a block the site repeats on
most pages of a version is not the page's own (template.py finds them), and the page's link and
image targets are part of what it says. A block is an element a browser does not render inline
(``p``, ``li``, ``div``, ``section``, ...); its key is its visible text (white space left out)
with its targets, resolved against the page's address and spelled one way (``x``, ``x/``,
``x/index.html`` and ``./x/`` are one target). lxml only, no sitemill code.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import unquote, urlsplit, urlunsplit

import lxml.html
import oracle
import selfdates

SITE = "https://site.invalid/"  # the base pages are resolved against (their own path under it)
WHITE = re.compile(r"\s+")
INDEX = re.compile(r"(?:^|/)index\.html?$")
HTML = re.compile(r"\.html?$")
LISTS = frozenset(["ul", "ol", "dl", "menu"])
LIST_ITEMS = 4  # a list of fewer items is never the site's for its items


@dataclass(frozen=True)
class Target:
    """A link or image target, resolved and spelled one way."""

    url: str


@dataclass(frozen=True)
class Block:
    """A block of the article: its key (None when it holds neither text nor a target; the
    article itself is never left out) and its parts in order: text, targets, inner blocks."""

    key: int | None
    parts: tuple[str | Target | Block, ...]
    tag: str = ""


@dataclass(frozen=True)
class Reading:
    """What version 6 reads of one page: its title, its article's blocks, every block key the
    article holds (to count repeated blocks), whether it is a page at all (not a redirect
    stub nor a fragment: those do not count among a version's pages), and the words of the
    whole page (to find a word a commit replaced on most pages: commitedits.py)."""

    title: str
    article: Block
    keys: frozenset[int]
    page: bool
    words: tuple[str, ...] = ()  # the whole page's visible words, title and furniture too
    listing: frozenset[int] = frozenset()  # the keys of blocks that link to a page of the site
    linked: frozenset[str] = frozenset()  # the words of the article's links to the site's pages
    description: frozenset[str] = frozenset()  # its descriptions' texts (descriptions())


def spell(target: str, base: str, own: re.Pattern[str] | None = None) -> str | None:
    """The target resolved against the page's address, one spelling (percent-encoding read:
    ``%E5%88%86`` is ``分``); None for a fragment, for the page itself (a heading's
    permalink, ``page.html#part``, leads nowhere else) and for a link whose query carries the
    page's own URL (``own``, own_url: a share button; docs/lastmod.md counts it as no link)."""
    target = target.strip()
    if not target or target.startswith("#"):
        return None
    query = target.partition("?")[2].partition("#")[0]
    if own is not None and query and own.search(unquote(unquote(query))):
        return None
    written = target.split("#", 1)[0]
    # (a host no URL parser takes, ``a／b.com``: NFKC makes it a path: as written)
    spelled = _spelled(oracle.joined(base, written) or written)
    return None if spelled in _own(base) else spelled


@lru_cache(maxsize=4096)
def _own(base: str) -> tuple[str, str]:
    """The page's own address, spelled, with and without its ``.html`` (a host that serves
    ``x.html`` at ``x`` is linked so: Next.js's headings link ``/articles/x#part``)."""
    own = _spelled(base)
    return own, HTML.sub("", own)


@lru_cache(maxsize=4096)
def own_url(site_url: str, path: str) -> re.Pattern[str] | None:
    """How the page at ``path`` of the site at ``site_url`` reads inside another URL's query:
    its host and path, any scheme, case ignored, with or without a trailing slash, its
    ``index.html`` or its ``.html``, then the URL's end, another parameter or a fragment
    (``/posts/1/`` is not ``/posts/10/``). None without the site's URL."""
    parts = urlsplit(site_url)
    if not parts.netloc:
        return None
    own = (parts.netloc + parts.path.rstrip("/") + "/" + INDEX.sub("", path)).rstrip("/")
    spellings = {own, HTML.sub("", own)}
    either = "|".join(re.escape(spelling) for spelling in sorted(spellings))
    return re.compile(
        rf"(?:^|[/=])(?:{either})(?:/(?:index\.html?)?|\.html?)?(?:$|[&#;\"'\s])", re.IGNORECASE
    )


@lru_cache(maxsize=4096)
def _spelled(url: str) -> str:
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    path = INDEX.sub("/", unquote(parts.path)).rstrip("/") or "/"
    return urlunsplit((parts.scheme, parts.netloc.lower(), path, unquote(parts.query), ""))


def _target(
    node: lxml.html.HtmlElement, base: str, own: re.Pattern[str] | None = None
) -> str | None:
    tag = node.tag.lower() if isinstance(node.tag, str) else ""
    if tag == "a":
        return spell(node.get("href") or "", base, own)
    if tag == "img":
        return spell(node.get("src") or "", base)
    return None


def _build(
    element: lxml.html.HtmlElement,
    base: str,
    own: re.Pattern[str] | None = None,
    marked: dict[int, Block] | None = None,
) -> tuple[Block, str, tuple[str, ...]]:
    """The element as a block: (block, its text without white space, its targets); the block
    of each element whose id is a key of ``marked`` is put there."""
    parts: list[str | Target | Block] = []
    texts: list[str] = []
    targets: list[str] = []

    def text(value: str | None) -> None:
        if value:
            value = oracle.unseen_out(value)
            parts.append(value)
            texts.append(WHITE.sub("", value))

    def fill(node: lxml.html.HtmlElement) -> None:
        text(node.text)
        for child in node:
            if isinstance(child.tag, str):
                if child.tag.lower() in oracle.INLINE_TAGS:
                    found = _target(child, base, own)
                    if found is not None:
                        parts.append(Target(found))
                        targets.append(found)
                    fill(child)
                else:
                    block, inner, inner_targets = _build(child, base, own, marked)
                    parts.append(block)
                    texts.append(inner)
                    targets.extend(inner_targets)
            text(child.tail)

    found = _target(element, base, own)
    if found is not None:  # (an <img>: not inline, a block of its own)
        parts.append(Target(found))
        targets.append(found)
    fill(element)
    flat = "".join(texts)
    key = hash((flat, tuple(targets))) if flat or targets else None
    tag = element.tag.lower() if isinstance(element.tag, str) else ""
    block = Block(key, tuple(parts), tag)
    if marked is not None and id(element) in marked:
        marked[id(element)] = block
    return block, flat, tuple(targets)


def _lists(block: Block, into: set[int]) -> bool:
    """Whether ``block`` links to a page of the site (another: a link to the page itself is
    none); the keys of those that do, ``into``."""
    found = False
    for part in block.parts:
        if isinstance(part, Target):
            found = found or part.url.startswith(SITE)
        elif isinstance(part, Block):
            found = _lists(part, into) or found
    if found and block.key is not None:
        into.add(block.key)
    return found


def _keys(block: Block, into: set[int]) -> None:
    stack = [block]
    while stack:
        for part in stack.pop().parts:
            if isinstance(part, Block):
                if part.key is not None:
                    into.add(part.key)
                stack.append(part)


def read(
    data: bytes,
    path: str,
    article_xpath: str | None,
    site_url: str | None = None,
    prune: Callable[[lxml.html.HtmlElement], None] | None = None,
) -> Reading | None:
    """Version 6's reading of one page at ``path`` (None when lxml cannot read it) of the site
    at ``site_url`` (when known: a link whose query carries the page's own URL is no target);
    ``prune`` rewrites its article before it is read (teasers.py: its teasers). Its keys are
    those of the whole page's blocks, read as its article is: a block the site repeats counts
    on each page that shows it, whether or not it stands in that page's article (a masthead
    outside each post's one article, inside a list page's body)."""
    doc = oracle.parse(data)
    if doc is None:
        return None
    refresh = doc.xpath("//meta[translate(@http-equiv,'REFSH','refsh')='refresh']/@content")
    page = bool(oracle.HTML_DOCUMENT.search(data[:65536])) and not (
        refresh and "url=" in refresh[0].lower()
    )
    title = oracle.page_title(doc)
    described = descriptions(doc)
    for node in doc.xpath("//script | //style"):
        node.drop_tree()
    body = doc.find("body")
    texts = (doc if body is None else body).itertext()  # (an inline element's edge parts words)
    words = tuple(" ".join([title, *sorted(described), *texts]).split())
    article = oracle.find_article(doc, article_xpath)
    whole = body if body is not None else doc
    selfdates.strip_apart(whole)
    oracle.strip_furniture(whole)
    if prune is not None:
        prune(article)
    own = own_url(site_url, path) if site_url else None
    marked: dict[int, Block] = {id(article): Block(None, ())}
    page_root, _, _ = _build(whole, SITE + path, own, marked)
    keys: set[int] = set()
    _keys(page_root, keys)
    root = marked[id(article)]
    if article is not whole and not any(a is whole for a in article.iterancestors()):
        root, _, _ = _build(article, SITE + path, own)  # (left out with furniture: read alone)
        _keys(root, keys)
    linked: set[str] = set()  # (the words of the article's links to the site's pages)
    for link in article.iter("a"):
        if (spell(link.get("href") or "", SITE + path, own) or "").startswith(SITE):
            linked.update(" ".join(link.itertext()).split())
    listing: set[int] = set()
    _lists(root, listing)
    reading = Reading(
        title,
        Block(None, root.parts),
        frozenset(keys),
        page,
        words,
        frozenset(listing),
        frozenset(linked),
    )
    said = (_alnum(title), _alnum(title + " " + _spaced(reading, frozenset())[0]))
    own = frozenset(text for text in described if not _cut_short(text, *said))
    return dataclasses.replace(reading, description=own)


def _alnum(text: str) -> str:
    """The letters and digits of ``text``, case ignored (where a description stands)."""
    return "".join(c for c in text.casefold() if c.isalnum())


def _cut_short(description: str, title: str, said: str) -> bool:
    """Whether a description adds nothing, as sitemill's contract reads one (docs/lastmod.md):
    the page's own text cut short (its letters and digits, five words at least, stand in the
    title and text ``said``: Hugo's and Hexo's auto-excerpts, re-cut by an upgrade), or the
    page's title (its letters and digits all stand in ``title``)."""
    letters = _alnum(description)
    if not letters:
        return False
    return letters in title or (len(description.split()) >= 5 and letters in said)


DESCRIBING = (
    "//meta[translate(@name,'DESCRIPTON','descripton')='description']/@content"
    " | //meta[translate(@property,'OGDESCRIPTN','ogdescriptn')='og:description']/@content"
    " | //meta[translate(@name,'TWIERDSCPON','twierdscpon')='twitter:description']/@content"
)


def descriptions(doc: lxml.html.HtmlElement) -> frozenset[str]:
    """What the page says of itself in its descriptions (``<meta name=description>``, Open
    Graph's, Twitter's): each distinct text once, white space collapsed. The issue measures a
    page against the last commit that changed "its article's visible text, its description
    or its own link targets"; a description written twice, or once more for Open Graph, says
    nothing new."""
    found = (" ".join(str(text).split()) for text in doc.xpath(DESCRIBING))
    return frozenset(text for text in found if text)


def article(reading: Reading, left_out: frozenset[int]) -> tuple[str, tuple[str, ...]]:
    """The article's text (no white space) and targets, without the blocks ``left_out``."""
    text, targets = _spaced(reading, left_out)
    return WHITE.sub("", text), targets


def _spaced(reading: Reading, left_out: frozenset[int]) -> tuple[str, tuple[str, ...]]:
    """The article's text as a reader sees it (a space where a block begins or ends) and its
    targets, without the blocks ``left_out``."""
    texts: list[str] = []
    targets: list[str] = []
    stack: list[str | Target | Block] = [reading.article]
    while stack:
        part = stack.pop()
        if isinstance(part, Block):
            if part.key is None or not (part.key in left_out or _site_list(part, left_out)):
                stack.extend((" ", *reversed(part.parts), " "))
        elif isinstance(part, Target):
            targets.append(part.url)
        else:
            texts.append(part)
    return "".join(texts), tuple(targets)


def _site_list(block: Block, left_out: frozenset[int]) -> bool:
    """Whether ``block`` is a list whose items are mostly blocks the site repeats (more than
    half of them, at least 4): a navigation tree that opens the page's own section (Lektor's
    docs), its other entries on most pages. The site's too, the open section with it."""
    if block.tag not in LISTS or not left_out:
        return False
    items = [part.key for part in block.parts if isinstance(part, Block) and part.key is not None]
    return len(items) >= LIST_ITEMS and 2 * sum(key in left_out for key in items) > len(items)


def content(reading: Reading, left_out: frozenset[int]) -> tuple[str, tuple[str, ...]]:
    """What version 6 compares: the title's own part and the article's text; its targets."""
    spaced, targets = _spaced(reading, left_out)
    text = WHITE.sub("", spaced)
    return WHITE.sub("", own_title(reading.title, spaced)) + "\n" + text, targets


# A letter or digit of an alphabetic script: where one stands on both sides of a part's edge,
# the part stands inside a word ("6" in "x86"); other scripts (Chinese) have no word edges.
WORDISH = "0-9a-z\u00c0-\u024f"


def own_title(title: str, text: str) -> str:
    """The title's own part (oracle.own_title): the parts that stand in the article's text
    (``text``, white space kept) as words, not inside a longer word or number: a release
    number "6" is not found in "x86" or "2016" (the part most pages share is template)."""
    article = oracle.NOT_ALNUM.sub(" ", text.casefold())
    own = []
    for part in (part.strip() for part in oracle.TITLE_JOIN.split(title)):
        words = oracle.NOT_ALNUM.sub(" ", part.casefold()).split()
        if not words:
            continue
        spelled = " ?".join(re.escape(word) for word in words)
        if re.search(rf"(?<![{WORDISH}]){spelled}(?![{WORDISH}])", article):
            own.append(part)
    return " | ".join(sorted(own))
