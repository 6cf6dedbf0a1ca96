"""Teasers: an entry of a list for another page of the site (the oracle's version 6).

The dates issue's decision 2: a list page's content is its own text plus which pages it lists,
in which order, under which titles; a teaser's excerpt, date and metadata belong to the page it
teases, which carries its own date; teasers beside a post (related, recent, previous/next) are
furniture. A careful reader tells a teaser by what it says, not by its class names:

- a teaser is an element of the article that links to another page of the site (and to no
  other page) and whose remaining text, past its links' own words, stands in that page's own
  text or description at the same version of the site (an excerpt), or is a date (a year
  alone too: an archive's heading over its year's posts); the largest
  such element around the link is the teaser, and it counts only as (target, link text);
- the teasers of a page that has its own article (a headline, an ``<h1>``, outside them, and
  more text of its own than its teasers hold) stand beside it: they are left out entirely;
- a link whose ``rel`` names the page before or after this one in a sequence (HTML's ``prev``
  and ``next`` link types: a post's previous/next links, a list's next page) is a neighbour:
  left out, its target and its words (the neighbour's title), as sitemill's fingerprint
  reads it (fingerprint/reduction.py, read_neighbours), whatever the theme calls it.

The proof is the cross-page check: the excerpt is the teased page's own words at that version
(white space and case aside, a trailing ellipsis cut). What it cannot tell: an excerpt rewritten
by hand (a front-matter summary that is no description and stands nowhere in the page), an
excerpt of a page that changed in another commit than the list (each is read at its own
version), a page served outside the tree (its address's host is neither the site's nor the one
its canonical names); and a short post beside a long related panel reads as a list page, a list
page whose intro outweighs its teasers as a post. lxml only, no sitemill code.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import urlsplit, urlunsplit

import blocks
import lxml.html
import oracle
import selfdates

WHITE = re.compile(r"\s+")
# What a list puts around an excerpt: an ellipsis, a separator between metadata.
TRIM = re.compile(r"^[\W_]+|(?:\.\.\.|…|\[…\]|\[\.\.\.\]|[\W_])+$")
SEPARATORS = re.compile(r"[·•|\u00a0]")
YEAR = re.compile(r"^\W*(?:1[89]|2[0-9])[0-9]{2}\W*$")
DESCRIPTIONS = "//meta[@name='description' or @property='og:description']/@content"
# A link to the page before or after this one: a token of its rel is "prev" or "next".
_REL = "concat(' ', translate(normalize-space(@rel), 'PREVNXT', 'prevnxt'), ' ')"
NEIGHBOURS = f".//a[contains({_REL}, ' prev ') or contains({_REL}, ' next ')]"
CANONICAL = (
    "//link[translate(@rel,'CANONICAL','canonical')='canonical']/@href"
    " | //meta[@property='og:url']/@content"
)

Texts = Callable[[str], str | None]  # a page's address (spelled) -> its own text at a version
Links = Callable[[str], frozenset[str]]  # -> its own links to other sites, spelled


def own_text(data: bytes, article_xpath: str | None) -> str:
    """A page's own words: its article's visible text (the site's article, and the page's one
    ``<article>`` or main region around it: a headline's date and reading time stand in its
    header), and its descriptions; white space left out, case folded (an excerpt is cut so)."""
    texts: list[str] = []
    for xpath in dict.fromkeys([article_xpath, None]):
        doc = oracle.parse(data)  # (each reading leaves its furniture out of its own tree)
        if doc is None:
            return ""
        article = oracle.find_article(doc, xpath)
        oracle.strip_furniture(article)
        texts.append(oracle.visible_text(article))
    texts.extend(str(d) for d in doc.xpath(DESCRIPTIONS))
    return fold(" ".join(texts))


def own_links(data: bytes, article_xpath: str | None) -> frozenset[str]:
    """A page's own links to other sites (its article's, and its one ``<article>`` or main
    region's), spelled: what a teaser that copies the page's words whole links to too."""
    found: set[str] = set()
    for xpath in dict.fromkeys([article_xpath, None]):
        doc = oracle.parse(data)
        if doc is None:
            return frozenset()
        article = oracle.find_article(doc, xpath)
        oracle.strip_furniture(article)
        for link in article.iter("a"):
            spelled = blocks.spell(link.get("href") or "", blocks.SITE)
            if spelled is not None and not spelled.startswith(blocks.SITE):
                found.add(spelled)
    return frozenset(found)


def fold(text: str) -> str:
    return WHITE.sub("", text).casefold()


def address(path: str) -> str:
    """A tree path as the address blocks.spell gives a link to it."""
    return blocks.spell(blocks.SITE + path, blocks.SITE + "\0") or blocks.SITE


def prune(
    article: lxml.html.HtmlElement,
    path: str,
    texts: Texts,
    left_out: frozenset[int],
    links: Links | None = None,
) -> None:
    """Read the article's teasers as (target, link text), and leave out those beside the
    page's own article (see the module docstring). A block of ``left_out`` (the site repeats
    it) is left as it is: it is left out of the comparison whole."""
    for link in article.xpath(NEIGHBOURS):
        link.drop_tree()  # (its tail stays: the words after it are the page's)
    base = blocks.SITE + path
    hosts = _hosts(article, path)
    found: list[lxml.html.HtmlElement] = []  # (lxml's proxies are one per element while held)
    for link in list(article.iter("a")):
        target = _page(link.get("href") or "", base, hosts, texts)
        if target is None or any(a in found for a in link.iterancestors()):
            continue
        teaser = _teaser(article, link, target, base, hosts, (texts, links))
        if teaser is None or teaser in found:
            continue
        if blocks._build(teaser, base)[0].key in left_out:
            continue
        found.append(teaser)
    if not found:
        return
    if _beside(article, found, left_out, base):
        for teaser in found:
            teaser.drop_tree()
        return
    for teaser in found:
        # (its links to the page it teases: those to other sites are that page's words)
        listed = [a for a in teaser.iter("a") if _page(a.get("href") or "", base, hosts, texts)]
        words = " ".join(_words(a) for a in listed)
        href = listed[0].get("href") if listed else ""
        tail = teaser.tail
        teaser.clear()
        teaser.tag = "div"
        teaser.tail = tail
        kept = lxml.html.Element("a", href=href or "")
        kept.text = words
        teaser.append(kept)


def _words(link: lxml.html.HtmlElement) -> str:
    """A link's own words: its text, else what it says to a screen reader (an empty link over
    the whole entry: ``aria-label="post link to <title>"``)."""
    return oracle.visible_text(link) or (link.get("aria-label") or link.get("title") or "")


def _hosts(article: lxml.html.HtmlElement, path: str) -> tuple[set[str], str]:
    """The hosts the site's own links may name (its canonical's) and the path its canonical
    puts before the tree's paths (a project site: ``/patterns/``)."""
    hosts = {urlsplit(blocks.SITE).netloc}
    prefix = ""
    for url in article.getroottree().xpath(CANONICAL):
        parts = urlsplit(str(url).strip())
        if parts.netloc:
            hosts.add(parts.netloc.lower())
            own = urlsplit(address(path)).path
            spelled = urlsplit(blocks._spelled(str(url).strip())).path
            if own != "/" and spelled.endswith(own):
                prefix = spelled[: len(spelled) - len(own)]
    return hosts, prefix


def _page(href: str, base: str, hosts: tuple[set[str], str], texts: Texts) -> str | None:
    """The address of the site's page a link leads to (None: elsewhere, or the page itself)."""
    spelled = blocks.spell(href, base)
    if spelled is None:
        return None
    parts = urlsplit(spelled)
    names, prefix = hosts
    if parts.netloc not in names:
        return None
    where = parts.path[len(prefix) :] if prefix and parts.path.startswith(prefix) else parts.path
    site = urlsplit(blocks.SITE)
    local = urlunsplit((site.scheme, site.netloc, where or "/", "", ""))
    for candidate in (local, local + ".html"):
        if texts(candidate) is not None:
            return candidate
    return None


def _teaser(
    article: lxml.html.HtmlElement,
    link: lxml.html.HtmlElement,
    target: str,
    base: str,
    hosts: tuple[set[str], str],
    reads: tuple[Texts, Links | None],
) -> lxml.html.HtmlElement | None:
    """The largest element around ``link`` that links to ``target`` and to no other page (but
    the other sites ``target`` links to itself: a post copied whole) and whose remaining text
    is proved (an excerpt of it, or a date): inside the article, or the article itself when
    it has no headline (a list of one entry, which the article is)."""
    texts, links = reads
    own = texts(target) or ""
    theirs = links(target) if links is not None else frozenset()
    best = None
    node = link.getparent()
    while node is not None:
        if node is article and node.find(".//h1") is not None:
            break  # (the article itself may be one entry, the list's only: never a headline)
        others = {
            _page(a.get("href") or "", base, hosts, texts) or a.get("href")
            for a in node.iter("a")
            if blocks.spell(a.get("href") or "", base) is not None
        }
        if others - {target} - theirs:
            break
        runs = _runs(node)
        if runs and all(_proved(run, own) for run in runs):
            best = node
        node = None if node is article else node.getparent()
    return best


def _runs(node: lxml.html.HtmlElement) -> list[str]:
    """The element's text past its links' own words, cut at blocks, links and separators."""
    runs: list[str] = []
    current: list[str] = []

    def cut() -> None:
        for run in SEPARATORS.split("".join(current)):
            if fold(run):
                runs.append(run)
        current.clear()

    def walk(element: lxml.html.HtmlElement) -> None:
        for child in element:
            if not isinstance(child.tag, str):
                current.append(child.tail or "")
                continue
            tag = child.tag.lower()
            if tag == "a":
                cut()
            elif tag in oracle.INLINE_TAGS:
                current.append(child.text or "")
                walk(child)
            else:
                cut()
                current.append(child.text or "")
                walk(child)
                cut()
            current.append(child.tail or "")

    current.append(node.text or "")
    walk(node)
    cut()
    return runs


def _proved(run: str, own: str) -> bool:
    """An excerpt of the teased page's own words, or a date (a year alone is one: an
    archive's heading over the posts of its year, the teased page's date, whether or not
    that page shows it at that version)."""
    if selfdates.DATE_ALONE.match(run.strip()) or YEAR.match(run):
        return True
    words = TRIM.sub("", fold(run))
    return not words or words in own


def _beside(
    article: lxml.html.HtmlElement,
    teasers: list[lxml.html.HtmlElement],
    left_out: frozenset[int],
    base: str,
) -> bool:
    """Whether the page has its own article beside its teasers: a headline outside them, and
    more text of its own than they hold (what the site repeats, ``left_out``, is none of the
    page's own: a masthead in a list's body)."""
    if not any(
        not any(teaser in h1.iterancestors() for teaser in teasers) for h1 in article.iter("h1")
    ):
        return False
    theirs = sum(len(fold(oracle.visible_text(teaser))) for teaser in teasers)
    repeated = _repeated(article, teasers, left_out, base)
    return len(fold(oracle.visible_text(article))) - repeated > 2 * theirs


def _repeated(
    article: lxml.html.HtmlElement,
    teasers: list[lxml.html.HtmlElement],
    left_out: frozenset[int],
    base: str,
) -> int:
    """How many characters of the article's text (white space left out) stand in the blocks
    the site repeats, outside the teasers (one reading of the article: each element's key)."""
    if not left_out:
        return 0
    held = list(article.iter())  # (lxml's proxies are one per element while held)
    marked: dict[int, blocks.Block] = {id(element): blocks.Block(None, ()) for element in held}
    blocks._build(article, base, None, marked)
    around = {id(node) for teaser in teasers for node in (teaser, *teaser.iterancestors())}
    count = 0
    skip: set[int] = set()
    for element in held:
        if id(element) in skip or id(element) in around:
            continue
        if marked[id(element)].key in left_out:
            count += len(fold(oracle.visible_text(element)))
            skip.update(id(inner) for inner in element.iter())
    return count


class Versions:
    """Each version's own texts of the site's pages (memoised per blob), and a page's reading
    with its teasers read so."""

    def __init__(
        self,
        reader: oracle.BlobReader,
        article_xpath: str | None,
        tree: Callable[[str], list[tuple[str, str]]],
        site_url: str | None = None,
    ) -> None:
        self.reader = reader
        self.site_url = site_url
        self.article_xpath = article_xpath
        self.tree = tree
        self.own: dict[str, str] = {}
        self.own_links: dict[str, frozenset[str]] = {}
        self.sites: dict[str, dict[str, str]] = {}  # commit -> address -> blob

    def texts(self, commit: str) -> Texts:
        if commit not in self.sites:
            self.sites[commit] = {address(path): blob for path, blob in self.tree(commit)}
        site = self.sites[commit]

        def text(url: str) -> str | None:
            blob = site.get(url)
            if blob is None:
                return None
            if blob not in self.own:
                data = self.reader.read(blob)
                self.own[blob] = "" if data is None else own_text(data, self.article_xpath)
            return self.own[blob]

        return text

    def links(self, commit: str) -> Links:
        self.texts(commit)
        site = self.sites[commit]

        def found(url: str) -> frozenset[str]:
            blob = site.get(url)
            if blob is None:
                return frozenset()
            if blob not in self.own_links:
                data = self.reader.read(blob)
                self.own_links[blob] = (
                    frozenset() if data is None else own_links(data, self.article_xpath)
                )
            return self.own_links[blob]

        return found

    def reading(
        self, blob: str, path: str, commit: str, left_out: frozenset[int]
    ) -> blocks.Reading | None:
        data = self.reader.read(blob)
        if data is None:
            return None
        texts, links = self.texts(commit), self.links(commit)
        return blocks.read(
            data,
            path,
            self.article_xpath,
            self.site_url,
            lambda article: prune(article, path, texts, left_out, links),
        )
