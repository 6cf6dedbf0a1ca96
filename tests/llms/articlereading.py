"""An independent reading of a page's article and furniture words, with lxml (no sitemill code).

The article is what a careful reader calls the page's text, read much as
benchmarks/realsites/oracle.py reads it: the single <article> (when no <h1> stands beside it)
inside the main region (<main>, [role=main]), else the main region, else the only <article>,
else <body>; left out wherever they stand: script, style, nav, aside, header, footer (but a
header holding an <h1>, and an article's own header and footer), noscript, template, svg,
buttons and the furniture roles (an unclosed <nav> that holds the page is kept), and a "Last
updated" line. The furniture words are the body's words that
the article does not hold (navigation, sidebars, footer). Words: runs of 3+ letters, case-folded.
"""

from __future__ import annotations

import re
from collections import Counter

import lxml.html

DROP_TAGS = ("script", "style", "nav", "aside", "noscript", "template", "svg", "button")
DROP_ROLES = ("navigation", "complementary", "search", "banner", "contentinfo")
WORD = re.compile(r"[^\W\d_]{3,}")
SELF_DATE = re.compile(r"^\s*(?:page )?last (?:updated|modified|update)\b", re.IGNORECASE)


def _tree(data: bytes) -> lxml.html.HtmlElement:
    return lxml.html.fromstring(data.decode("utf-8", "replace"))


def _drop(root: lxml.html.HtmlElement, xpath: str) -> None:
    for element in root.xpath(xpath):
        if element.getparent() is not None:
            element.drop_tree()


def _article(root: lxml.html.HtmlElement) -> lxml.html.HtmlElement:
    roles = " or ".join(f"starts-with(normalize-space(@role), '{r}')" for r in DROP_ROLES)
    keep = "[not(.//main) and not(.//article)]"  # (an unclosed <nav> holding the page: kept)
    _drop(root, " | ".join(f"//{tag}{keep}" for tag in DROP_TAGS) + f" | //*[{roles}]{keep}")
    _drop(root, "//header[not(.//h1)][not(ancestor::article)] | //footer[not(ancestor::article)]")
    mains = root.xpath("//main") or root.xpath("//*[normalize-space(@role)='main']")
    region = mains[0] if mains else None
    scope = region if region is not None else root
    articles = scope.xpath(".//article[not(ancestor::article)]")
    headlines = len(scope.xpath(".//h1"))
    alone = len(articles) == 1 and (region is not None or len(root.xpath("//article")) == 1)
    if alone and headlines == len(articles[0].xpath(".//h1")):  # (no <h1> beside it)
        return articles[0]
    bodies = root.xpath("//body")
    return region if region is not None else (bodies[0] if bodies else root)


def _words(text: str) -> list[str]:
    return [word.casefold() for word in WORD.findall(text)]


def article_words(data: bytes) -> Counter[str]:
    """The words of the page's article (with multiplicity), self-dates left out."""
    article = _article(_tree(data))
    for element in list(article.iter()):
        if not isinstance(element.tag, str) or element.getparent() is None:
            continue
        words = element.text_content() or ""
        if SELF_DATE.match(words) and len(words) < 200:
            element.drop_tree()
    return Counter(_words(" ".join(article.itertext())))


def furniture_words(data: bytes) -> set[str]:
    """The words of the page's body that its article does not hold."""
    root = _tree(data)
    for element in root.xpath("//script | //style | //template | //noscript | //svg"):
        element.drop_tree()
    bodies = root.xpath("//body")
    body = set(_words(" ".join((bodies[0] if bodies else root).itertext())))
    return body - set(article_words(data))


def markdown_words(markdown: str) -> Counter[str]:
    """The words a reader of ``markdown`` sees: link targets and images (their alt text is no
    text the article reading counts) left out."""
    markdown = re.sub(r"!\[[^\]]*\]\([^)\s]*(?: \"[^\"]*\")?\)", " ", markdown)
    visible = re.sub(r"\]\([^)\s]*(?: \"[^\"]*\")?\)", "]", markdown)
    visible = re.sub(r"^```\S*$", "", visible, flags=re.MULTILINE).replace("\\", "")
    return Counter(_words(visible))


def recall(article: Counter[str], markdown: Counter[str]) -> float:
    """The share of the article's words (with multiplicity) that the Markdown holds."""
    total = sum(article.values())
    held = sum(min(count, markdown[word]) for word, count in article.items())
    return held / total if total else 1.0
