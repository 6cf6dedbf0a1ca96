"""A listed page's Markdown twin: its name beside the page (llmstxt.org) and its bytes."""
# llmstxt.org proposes a page's Markdown "at the same URL as the original page, but with .md
# appended", and "index.html.md" for a URL without a file name: /guide/ -> guide/index.html.md,
# /guide.html -> guide.html.md; a clean URL (/guide, served from guide.html or guide/index.html)
# gets guide.md. The twin is the page's title as its H1, sitemill's mark, then the page's
# Markdown with its headings one level down (llms.markdown.headings_down).

from __future__ import annotations

from urllib.parse import unquote, urlsplit

from sitemill.filenames.outputs import twin_url
from sitemill.llms._markdown import headings_down
from sitemill.llms._ownership import SITEMILL_MARK
from sitemill.llms._text import heading_text, one_line
from sitemill.llms.conversion import PageMarkdown


def twin_name(url: str, base_url: str) -> str | None:
    """The path of the twin of the page at ``url``, relative to the site's root ``base_url``
    (decoded: a file's name); None for a URL outside the site."""
    page, base = urlsplit(url), urlsplit(base_url)
    root = base.path if base.path.endswith("/") else base.path + "/"
    if (page.scheme, page.netloc) != (base.scheme, base.netloc):
        return None
    path = page.path or "/"
    if not (path + "/").startswith(root):
        return None
    twin = twin_url(path if path.startswith(root) else root)  # (the root's own: /docs)
    return unquote(twin[len(root) :])


def twin_bytes(converted: PageMarkdown) -> bytes:
    """The twin of one page: ``# Title`` (its URL when it has none; escaped as llms.txt
    escapes a heading: llms.text), the mark, its Markdown; UTF-8, LF, ending with one LF."""
    title = heading_text(one_line(converted.page.title) or one_line(converted.page.url))
    body = headings_down(converted.markdown).strip("\n")
    text = f"# {title}\n\n{SITEMILL_MARK}\n" + (f"\n{body}\n" if body else "")
    return text.encode()
