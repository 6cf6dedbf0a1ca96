"""Which form the flow at hand takes: by the file's name, else by the site's generator."""

from __future__ import annotations

import fnmatch
import posixpath
from collections.abc import Callable
from typing import Final

from sitemill.html.meta import page_generator
from sitemill.redirects.model import RedirectForm

# The first word of a <meta name="generator"> content, lower case -> the generator's form.
_GENERATORS: Final = (
    ("hugo", RedirectForm.HUGO),
    ("mkdocs", RedirectForm.MKDOCS),
    ("docusaurus", RedirectForm.DOCUSAURUS),
    ("jekyll", RedirectForm.JEKYLL),
)
# File names (lower case, fnmatch) -> form, in order; a name alone decides these.
_NAMES: Final = (
    ("_redirects", RedirectForm.NETLIFY),
    ("*.sh", RedirectForm.S3_OBJECTS),
    ("routing-rules*.json", RedirectForm.S3_RULES),
    ("website*.json", RedirectForm.S3_RULES),
    ("mkdocs*.yml", RedirectForm.MKDOCS),
    ("mkdocs*.yaml", RedirectForm.MKDOCS),
    ("docusaurus*", RedirectForm.DOCUSAURUS),
    ("hugo*", RedirectForm.HUGO),
    ("_config*.yml", RedirectForm.JEKYLL),
)
_YAML_FORMS: Final = (RedirectForm.MKDOCS, RedirectForm.HUGO, RedirectForm.JEKYLL)


def generator_form(generator: str | None) -> RedirectForm | None:
    """The form of the generator a page's generator meta names ("Hugo 0.113.0",
    "mkdocs-1.5.3, mkdocs-material-9.4", "Docusaurus v3.1.0", "Jekyll v4.3.2"), or None."""
    words = (generator or "").strip().lower()
    for name, form in _GENERATORS:
        if words.startswith(name):
            return form
    return None


def form_for(file_name: str | None, generator: str | None, *, bucket: bool) -> RedirectForm:
    """The form to write: the file's name decides where it is explicit (`_redirects`, a
    `.sh` script, `routing-rules.json`, `mkdocs.yml`); a `.json` or `.yml` name picks among
    its forms by the generator and the bucket; else the generator; else the host (a bucket:
    S3 routing rules; otherwise `_redirects` lines)."""
    by_generator = generator_form(generator)
    if file_name:
        name = posixpath.basename(file_name.replace("\\", "/")).lower()
        for pattern, form in _NAMES:
            if fnmatch.fnmatchcase(name, pattern):
                return form
        if name.endswith(".json"):  # the two JSON forms
            return RedirectForm.S3_RULES if bucket else RedirectForm.DOCUSAURUS
        if name.endswith(".toml"):  # front matter or hugo.toml: Hugo alone reads TOML
            return RedirectForm.HUGO
        if name.endswith((".yml", ".yaml")):
            return by_generator if by_generator in _YAML_FORMS else RedirectForm.MKDOCS
    if by_generator is not None:
        return by_generator
    return RedirectForm.S3_RULES if bucket else RedirectForm.NETLIFY


def detect_generator(files: Callable[[str], bytes | None]) -> str | None:
    """The generator the site's home page names (`index.html`'s <meta name="generator">),
    read from the head alone (its first bytes); None without a home page or a meta."""
    home = files("index.html")
    return None if home is None else page_generator(home)
