"""Docusaurus' config read with simple patterns: locales, content plugin instances, options."""
# Comments are dropped first (a commented-out plugin is no plugin). A plugin whose options object
# nests another object is not matched: it is left alone rather than guessed.

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from sitemill.lastmod.sourcefiles._cutspans import cut_spans

# A block comment, a line comment (not a URL's "//", nor one in a string's first characters).
_COMMENT_OPENERS: Final = re.compile(r"/\*|(?<![:\w'\"`])//")
_COMMENT_CLOSERS: Final = {"/*": "*/", "//": None}
_QUOTED: Final = r"""['"`]([^'"`]*)['"`]"""
_INSTANCE: Final = re.compile(
    r"""['"`]@docusaurus/plugin-content-(docs|blog|pages)['"`]\s*,\s*\{([^{}]*)\}"""
)
_KINDS: Final = ("docs", "blog", "pages")


@dataclass(frozen=True, slots=True)
class Instance:
    """One content plugin: its kind (docs, blog, pages), ``id`` ("default" when none),
    folder (``path``, relative to the project) and route base (``routeBasePath``)."""

    kind: str
    id: str
    path: str
    route: str

    def i18n_folder(self, locale: str) -> str:
        """Where its translations for ``locale`` are, relative to the project."""
        plugin = f"docusaurus-plugin-content-{self.kind}"
        if self.id != "default":
            plugin += f"-{self.id}"
        return f"i18n/{locale}/{plugin}"


@dataclass(frozen=True, slots=True)
class DocusaurusConfig:
    """What the conventions read from ``docusaurus.config.*``."""

    default_locale: str
    locales: tuple[str, ...]  # the default locale first
    instances: tuple[Instance, ...]
    trailing_slash_false: bool


def read_config(text: str) -> DocusaurusConfig:
    """The config's locales, content plugins (the classic preset's and the declared
    instances) and ``trailingSlash: false``; the defaults where a pattern finds nothing."""
    text = cut_spans(text, _COMMENT_OPENERS, _COMMENT_CLOSERS, fill="")
    default = _option(text, "defaultLocale") or "en"
    locales = [default]
    # (the list stops at the next "[": 40,000 unclosed "locales: [" took minutes)
    found = re.search(r"\blocales\s*+:\s*+\[([^\][]*+)\]", text)
    if found:
        locales += [name for name in re.findall(_QUOTED, found[1]) if name and name != default]
    declared = [_instance(kind, body) for kind, body in _INSTANCE.findall(text)]
    preset = re.sub(_INSTANCE, "", text)  # the classic preset's own docs/blog/pages options
    defaults = [
        _instance(kind, _preset_options(preset, kind))
        for kind in _KINDS
        if not any(i.kind == kind and i.id == "default" for i in declared)
    ]
    return DocusaurusConfig(
        default_locale=default,
        locales=tuple(locales),
        instances=tuple(defaults + declared),
        trailing_slash_false=re.search(r"trailingSlash\s*:\s*false", text) is not None,
    )


def _option(text: str, key: str) -> str | None:
    found = re.search(rf"\b{key}\s*:\s*{_QUOTED}", text)
    return found[1] if found else None


def _preset_options(text: str, kind: str) -> str:
    found = re.search(rf"\b{kind}\s*:\s*\{{([^{{}}]*)", text)  # up to a nested object
    return found[1] if found else ""


def _instance(kind: str, body: str) -> Instance:
    folder = {"docs": "docs", "blog": "blog", "pages": "src/pages"}[kind]
    route = {"docs": "docs", "blog": "blog", "pages": ""}[kind]
    path = _option(body, "path")
    base = _option(body, "routeBasePath")
    return Instance(
        kind=kind,
        id=_option(body, "id") or "default",
        path=(path if path is not None else folder).removeprefix("./").strip("/"),
        route=(base if base is not None else route).strip("/"),
    )
