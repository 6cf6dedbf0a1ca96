"""Jekyll: which post, page or collection document each built page comes from."""
# Posts ``_posts/YYYY-MM-DD-title.md`` by the ``permalink`` setting (``date``, ``pretty``,
# ``ordinal``, ``none`` or a template) or their own; pages ``about.md`` -> ``about.html``;
# collections whose ``output`` is true.

from __future__ import annotations

import datetime
import posixpath
import re
from typing import Final

from sitemill.lastmod.sourcefiles._frontmatter import has_front_matter, text_value, words_value
from sitemill.lastmod.sourcefiles.conventions import paths
from sitemill.lastmod.sourcefiles.conventions.base import Pages, Project, Tree

_RENDERED: Final = frozenset({".md", ".markdown", ".mkdown", ".mkd", ".html", ".htm", ".textile"})
_STYLES: Final = {
    "date": "/:categories/:year/:month/:day/:title:output_ext",
    "pretty": "/:categories/:year/:month/:day/:title/",
    "ordinal": "/:categories/:year/:y_day/:title:output_ext",
    "weekdate": "/:categories/:year/W:week/:short_day/:title:output_ext",
    "none": "/:categories/:title:output_ext",
}
_POST_NAME: Final = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})-(.+)$")
_PLACEHOLDER: Final = re.compile(r":([a-z_]+)")


def jekyll_pages(project: Project, tree: Tree) -> Pages:
    """Every page the Jekyll project builds from a post, a page or a collection document."""
    settings = tree.settings(project.config)
    source = paths.join(project.folder, str(settings.get("source") or ""))
    permalink = str(settings.get("permalink") or "date")
    template = _STYLES.get(permalink, permalink)
    collections = settings.get("collections")
    outputs = _output_collections(collections if isinstance(collections, dict) else {})
    pages = Pages()
    for path, relative in tree.under(source):
        stem, extension = paths.split_extension(relative)
        if extension not in _RENDERED:
            continue
        parts = relative.split("/")
        meta = tree.meta(path)
        own = text_value(meta, "permalink")
        if "_posts" in parts[:-1]:
            page = _post(relative, meta, own or template)
        elif parts[0][1:] in outputs and parts[0].startswith("_"):
            style = own or outputs[parts[0][1:]] or _with_suffix("/:collection/:path", permalink)
            page = _fill(
                style,
                {
                    "collection": parts[0][1:],
                    "path": paths.join(*parts[1:-1], posixpath.basename(stem)),
                    "name": posixpath.basename(stem),
                    "title": posixpath.basename(stem),
                    "output_ext": ".html",
                },
            )
        elif any(part.startswith("_") for part in parts) or not has_front_matter(
            tree.text(path) or ""
        ):
            continue
        else:
            style = own or _with_suffix("/:path/:basename", permalink)
            page = _page(stem, style)
        if page:
            pages.add(page, path)
    return pages


def _output_collections(collections: dict[str, object]) -> dict[str, str | None]:
    """The collections that are written out (posts aside) -> their own permalink."""
    found: dict[str, str | None] = {}
    for name, table in collections.items():
        if isinstance(table, dict) and table.get("output") is True and name != "posts":
            permalink = table.get("permalink")
            found[name] = _STYLES.get(str(permalink), str(permalink)) if permalink else None
    return found


def _post(relative: str, meta: dict[str, object], template: str) -> str | None:
    parts = relative.split("/")
    stem = paths.split_extension(parts[-1])[0]
    named = _POST_NAME.match(stem)
    if named is None:
        return None
    try:
        day = datetime.date(int(named[1]), int(named[2]), int(named[3]))
    except ValueError:
        return None
    folders = [part for part in parts[:-1] if part != "_posts"]
    categories = folders + words_value(meta, "categories") + words_value(meta, "category")
    unique = list(dict.fromkeys(c.lower() for c in categories))
    title = text_value(meta, "slug") or named[4]
    values = {
        "categories": "/".join(unique),
        "year": f"{day.year:04d}",
        "short_year": f"{day.year % 100:02d}",
        "month": f"{day.month:02d}",
        "i_month": str(day.month),
        "day": f"{day.day:02d}",
        "i_day": str(day.day),
        "y_day": f"{day.timetuple().tm_yday:03d}",
        "week": f"{day.isocalendar()[1]:02d}",
        "short_day": day.strftime("%a"),
        "title": title,
        "slug": title,
        "name": named[4],
        "output_ext": ".html",
    }
    return _fill(template, values)


def _with_suffix(template: str, permalink: str) -> str:
    """A page's or a collection's URL template ends as the site's permalink style does
    (Jekyll's add_permalink_suffix): "/" for pretty or a style ending in "/", else the
    output extension."""
    pretty = permalink == "pretty" or (permalink not in _STYLES and permalink.endswith("/"))
    return f"{template}/" if pretty else f"{template}:output_ext"


def _page(stem: str, style: str) -> str | None:
    folder, basename = posixpath.split(stem)
    if basename == "index" and ":basename" in style:
        return _fill(
            style.replace(":basename:output_ext", "").replace(":basename", ""), {"path": folder}
        )
    return _fill(style, {"path": folder, "basename": basename, "output_ext": ".html"})


def _fill(template: str, values: dict[str, str]) -> str | None:
    """The built file of a permalink ``template`` with its placeholders filled; None when it
    names one this convention does not know."""
    unknown = [name for name in _PLACEHOLDER.findall(template) if name not in values]
    if unknown:
        return None
    url = _PLACEHOLDER.sub(lambda found: values[found[1]], template)
    url = re.sub(r"/{2,}", "/", url)
    return paths.url_page(url, bare=lambda route: f"{route.strip('/')}.html")
