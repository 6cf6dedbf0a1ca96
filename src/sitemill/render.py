"""Jinja2 environment and the three templates: urlset, sitemapindex and text."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Final

import jinja2

from sitemill.errors import ConfigError, TemplateError

URLSET_TEMPLATE: Final = "urlset.xml.j2"
INDEX_TEMPLATE: Final = "sitemapindex.xml.j2"
TEXT_TEMPLATE: Final = "text.txt.j2"
_BUILTIN_NAMES: Final = (URLSET_TEMPLATE, INDEX_TEMPLATE, TEXT_TEMPLATE)


@dataclass(frozen=True, slots=True)
class IndexItem:
    """One <sitemap> of an index: the child's absolute URL and its newest <lastmod>."""

    loc: str
    lastmod: str | None


def _builtin_loader() -> jinja2.BaseLoader:
    # Read through importlib.resources so that the templates load from a wheel, an editable
    # install or the unpacked Lambda zip alike.
    folder = resources.files("sitemill.templates")
    return jinja2.DictLoader({name: (folder / name).read_text("utf-8") for name in _BUILTIN_NAMES})


def _autoescape(name: str | None) -> bool:
    # Escape every XML template (".xml.j2" would escape nothing with select_autoescape's
    # default extensions); a text sitemap holds raw URLs, where "&amp;" would be wrong.
    return name is None or not name.endswith(".txt.j2")


def make_environment(templates_dir: Path | None = None) -> jinja2.Environment:
    """An environment whose loader prefers the user's templates_dir over the built-in ones."""
    loaders: list[jinja2.BaseLoader] = []
    if templates_dir is not None:
        if not templates_dir.is_dir():
            raise ConfigError("templates_dir", f"{templates_dir} is not a directory")
        loaders.append(jinja2.FileSystemLoader(templates_dir))
    loaders.append(_builtin_loader())
    return jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        autoescape=_autoescape,  # noqa: S701 - a function: on for every XML template
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def load_template(environment: jinja2.Environment, name: str) -> jinja2.Template:
    try:
        return environment.get_template(name)
    except jinja2.TemplateError as exc:
        raise TemplateError(f"template {name}: {exc}") from exc


def render_index(template: jinja2.Template, sitemaps: Iterable[IndexItem]) -> bytes:
    """Render a <sitemapindex> (small: at most max_sitemaps_per_index children)."""
    try:
        return template.render(sitemaps=list(sitemaps)).encode("utf-8")
    except jinja2.TemplateError as exc:
        raise TemplateError(f"template {template.name}: {exc}") from exc
