"""Sitemaps that site generators write, told apart by their shape."""
# Whose sitemap.xml sitemill is about to replace, and the setting that turns the generator's off.
# Each shape in _SHAPES is what a generator's built-in template or library writes in its first
# bytes (sitemill's own templates match none of them: tests/writing/test_takeover.py). Only Hugo
# (``<language>/sitemap.xml``) and Astro (``sitemap-<n>.xml``, ``sitemap-<chunk>-<n>.xml``) write
# an index, each naming its own sitemaps in one form (``children``), so that a name of another
# form its index names is the user's (sitemill.writing.takeover).

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Generator:
    """A site generator that writes its own sitemap, and how to turn that off."""

    name: str
    setting: str  # a sentence: how the generator's sitemap is turned off
    # The same, when sitemill writes text and so leaves the generator's sitemap (None: as above).
    setting_beside_text: str | None = None
    # The folder-relative names its index gives its own sitemaps (None: it writes no index).
    children: re.Pattern[str] | None = None

    @property
    def owner(self) -> str:
        """``MkDocs'``, ``Hugo's``: the generator's name as a possessive."""
        return self.name + ("'" if self.name.endswith("s") else "'s")

    def setting_in(self, config: str | None) -> str:
        """``setting``, in the file and syntax of the site's ``config`` (its path, when the
        generator's project was found): Hugo reads TOML, YAML and JSON alike."""
        if self is not HUGO:
            return self.setting
        extension = (config or "").rpartition(".")[2].lower()
        if extension in ("yaml", "yml"):
            return f"turn it off with `disableKinds: [sitemap]` in {config}"
        if extension == "json":
            return f'turn it off with `"disableKinds": ["sitemap"]` in {config}'
        if extension == "toml":
            return f'turn it off with `disableKinds = ["sitemap"]` in {config}'
        return self.setting

    def writes_child(self, name: str) -> bool:
        """Whether ``name`` (relative to the folder of its index) is one the generator's index
        gives the generator's own sitemaps; any other name it names is the user's."""
        return self.children is not None and self.children.fullmatch(name) is not None


MKDOCS: Final = Generator(
    "MkDocs",
    "MkDocs writes both on every build and has no setting to turn them off: run sitemill "
    "after every `mkdocs build`, which replaces them",
    "MkDocs writes it (and sitemap.xml.gz) on every build and has no setting to turn them off: "
    'delete both after every `mkdocs build`, or let sitemill write XML (format = "xml")',
)
HUGO: Final = Generator(
    "Hugo",
    'turn it off with `disableKinds = ["sitemap"]` in hugo.toml (in hugo.yaml: '
    "`disableKinds: [sitemap]`)",
    children=re.compile(r"[a-z]{2,3}(?:[-_][a-z0-9]{1,8})*/sitemap\.xml", re.IGNORECASE),
)
JEKYLL: Final = Generator(
    "Jekyll", "turn it off by removing `jekyll-sitemap` from `plugins` in _config.yml"
)
DOCUSAURUS: Final = Generator(
    "Docusaurus",
    "turn it off with `sitemap: false` in the options of `@docusaurus/preset-classic` "
    "(docusaurus.config.js)",
)
ASTRO: Final = Generator(
    "Astro",
    "turn it off by removing `@astrojs/sitemap` from `integrations` in astro.config.mjs",
    children=re.compile(r"sitemap-(?:[^/]+-)?[0-9]+\.xml"),
)
SPHINX: Final = Generator(
    "Sphinx", "turn it off by removing `sphinx_sitemap` from `extensions` in conf.py"
)
# Astro's entry file (sitemill writes sitemap.xml: this one would stay beside it).
ASTRO_INDEX: Final = "sitemap-index.xml"

_SNIFF: Final = 2_048
_SHAPES: Final = (
    (MKDOCS, re.compile(rb"<url>\r?\n {9}<loc>")),
    (
        MKDOCS,
        re.compile(
            rb'\A<\?xml version="1\.0" encoding="UTF-8"\?>\n<urlset xmlns="[^"]*">\n</urlset>\Z'
        ),
    ),
    (HUGO, re.compile(rb"""^(?:\xef\xbb\xbf)?<\?xml[^>]*standalone=["']yes["']""")),
    (JEKYLL, re.compile(rb"<urlset xmlns:xsi=\S+ xsi:schemaLocation=")),
    (DOCUSAURUS, re.compile(rb"<urlset xmlns=\S+ xmlns:news=\S+ xmlns:xhtml=\S+ xmlns:image=")),
    (SPHINX, re.compile(rb"^<\?xml version='1\.0' encoding='utf-8'\?>\s*<urlset")),
)
_ASTRO: Final = re.compile(
    rb'^<\?xml version="1\.0" encoding="UTF-8"\?><sitemapindex xmlns="[^"]*"><sitemap><loc>'
)
# The first bytes of sitemill's built-in templates (templates/urlset.xml.j2,
# sitemapindex.xml.j2; sitemill.render.compiled writes the same); an empty one ends in a
# newline (sitemill writes none in a tree: a run with no page writes nothing).
_SITEMILL: Final = re.compile(
    rb'^<\?xml version="1\.0" encoding="UTF-8"\?>\n'
    rb'<(?:urlset xmlns="http://www\.sitemaps\.org/schemas/sitemap/0\.9"'
    rb'(?: xmlns:xhtml="[^"]*")?(?: xmlns:image="[^"]*")?>\n(?:  <url><loc>|</urlset>\n\Z)'
    rb'|sitemapindex xmlns="http://www\.sitemaps\.org/schemas/sitemap/0\.9">\n'
    rb"(?:  <sitemap><loc>|</sitemapindex>\n\Z))"
)


def written_by(data: bytes) -> Generator | None:
    """The generator whose built-in sitemap ``data`` (a sitemap.xml) is, when it can be told."""
    head = data[:_SNIFF]
    if _SITEMILL.match(head):
        return None
    for generator, shape in _SHAPES:
        if shape.search(head):
            return generator
    return None


def is_astro_index(data: bytes) -> bool:
    """Whether ``data`` (a sitemap-index.xml) is the index @astrojs/sitemap writes."""
    return _ASTRO.search(data[:_SNIFF]) is not None


def looks_like_sitemills(data: bytes) -> bool:
    """Whether ``data`` begins as sitemill's built-in templates write a sitemap."""
    return _SITEMILL.match(data[:_SNIFF]) is not None
