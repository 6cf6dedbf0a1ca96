"""A small site in two languages with a page of each kind the sitemap leaves out, built with
llms.txt and its kin, and the readings of what a build wrote: shared by the llms tests of a
tree, a bucket, the Action and check."""

from __future__ import annotations

from pathlib import Path

from llms_txt.miniparse import parse_llms_txt
from lxml import etree

from conftest import BASE_URL as BASE
from conftest import FIXED_MTIME as FIXED_MTIME
from conftest import write_site as write_site

ALTERNATES = (
    f'<link rel="alternate" hreflang="en" href="{BASE}">'
    f'<link rel="alternate" hreflang="fr" href="{BASE}fr/">'
)


def page(title: str, text: str, head: str = "", lang: str = "en") -> str:
    return (
        f'<!doctype html><html lang="{lang}"><head><title>{title}</title>{head}</head>'
        f"<body><nav>Menu</nav><main><h1>{title}</h1><p>{text}</p></main></body></html>"
    )


def described(text: str) -> str:
    return f'<meta name="description" content="{text}">'


LISTED = {
    "index.html": page(
        "Acme home",
        "Welcome to Acme.",
        described("All about Acme") + ALTERNATES + '<meta property="og:site_name" content="Acme">',
    ),
    "fr/index.html": page(
        "Accueil", "Bienvenue chez Acme.", described("Tout sur Acme") + ALTERNATES, lang="fr"
    ),
    "docs/guide.html": page("Guide", "How to use Acme, step by step.", described("How to")),
    "manual.pdf": "%PDF-1.4\n",
}
# Each with a name and a title found nowhere else.
HIDDEN = {
    "docs/draft.html": page("Hushdraft", "Not yet.", '<meta name="robots" content="noindex">'),
    "docs/copy.html": page(
        "Twincopy", "A copy.", f'<link rel="canonical" href="{BASE}docs/guide.html">'
    ),
    "moved.html": page(
        "Movedstub", "Moved.", f'<meta http-equiv="refresh" content="0; url={BASE}docs/guide.html">'
    ),
    "404.html": page("Lostpage", "Nothing here."),
}
SITE = {**LISTED, **HIDDEN}
# The twins of the listed HTML pages (none for the PDF).
TWINS = {"index.html.md", "fr/index.html.md", "docs/guide.html.md"}
LLMS_FILES = {"llms.txt", "fr/llms.txt", "llms-full.txt"}


def links(text: str) -> list[str]:
    """The URLs an llms.txt links, as the reference parser reads them."""
    return [
        link["url"] for section in parse_llms_txt(text)["sections"].values() for link in section
    ]


def sitemap_locs(data: bytes) -> list[str]:
    tree = etree.fromstring(data)
    namespace = {"sm": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    return [str(loc.text) for loc in tree.iterfind(".//sm:loc", namespace)]


def hidden_words() -> list[str]:
    """What would name a hidden page: its path (and URL) and its title."""
    titles = ["Hushdraft", "Twincopy", "Movedstub", "Lostpage"]
    return [*HIDDEN, *(BASE + path for path in HIDDEN), *titles]


def files_below(root: Path) -> dict[str, tuple[int, int, bytes]]:
    """Every file below ``root`` by its relative name: (inode, mtime in ns, bytes)."""
    found = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink():
            status = path.stat()
            found[path.relative_to(root).as_posix()] = (
                status.st_ino,
                status.st_mtime_ns,
                path.read_bytes(),
            )
    return found
