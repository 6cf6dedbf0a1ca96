"""Hexo: which post or page each built page comes from, and which pages are its archives."""
# ``_config.yml`` sets ``source_dir`` (default ``source``), ``permalink`` (default
# ``:year/:month/:day/:title/``), ``new_post_name`` (how a post's file name holds its date and
# title) and ``archive_dir``. Posts ``<source>/_posts/**.md`` are built by the permalink (the date
# from front matter ``date``, else from the file name; a post with neither is skipped: Hexo would
# use the file's time, no evidence here); other ``<source>/**.md`` pages to the same path with
# ``.html`` (``index.md`` -> ``index.html``), folders starting with ``_`` skipped. The date archives
# (``<archive_dir>/``, ``/YYYY/``, ``/YYYY/MM/``) list several posts: they map to no source.

from __future__ import annotations

import posixpath
import re
from typing import Final

from sitemill.lastmod.sourcefiles._frontmatter import text_value
from sitemill.lastmod.sourcefiles.conventions import paths
from sitemill.lastmod.sourcefiles.conventions.base import MARKDOWN, Pages, Project, Tree

_DATE: Final = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})")
_PLACEHOLDER: Final = re.compile(r":([a-z_]+)")
_NAME_FIELDS: Final = {"year": r"(?P<year>\d{4})", "month": r"(?P<month>\d{1,2})"} | {
    "day": r"(?P<day>\d{1,2})",
    "i_month": r"(?P<month>\d{1,2})",
    "i_day": r"(?P<day>\d{1,2})",
    "title": r"(?P<title>.+?)",
}


def hexo_pages(project: Project, tree: Tree) -> Pages:
    """Every page the Hexo project builds from a post or a page, and its date archives."""
    settings = tree.settings(project.config)
    source = paths.join(project.folder, _setting(settings, "source_dir", "source"))
    permalink = _setting(settings, "permalink", ":year/:month/:day/:title/")
    name = _name_pattern(_setting(settings, "new_post_name", ":title.md"))
    archive = _setting(settings, "archive_dir", "archives").strip("/")
    pages = Pages()
    for path, relative in tree.under(paths.join(source, "_posts")):
        stem, extension = paths.split_extension(relative)
        if extension not in MARKDOWN:
            continue
        page, date = _post_page(tree, path, stem, permalink, name)
        if page is not None:
            pages.add(page, path)
        if date is not None and archive:  # the date archives list several posts
            for route in (archive, paths.join(archive, date[0]), paths.join(archive, *date[:2])):
                pages.add(paths.directory_page(route))
    for path, relative in tree.under(source):
        stem, extension = paths.split_extension(relative)
        if extension in MARKDOWN and not any(p.startswith("_") for p in relative.split("/")):
            pages.add(f"{stem}.html", path)
    return pages


def _setting(settings: dict[str, object], key: str, default: str) -> str:
    value = settings.get(key)
    return value.strip() if isinstance(value, str) and value.strip() else default


def _name_pattern(new_post_name: str) -> re.Pattern[str] | None:
    """The pattern of a post's file stem (its path under ``_posts``) by ``new_post_name``;
    None when it holds a placeholder no file name says (then the stem is the title)."""
    stem = paths.split_extension(new_post_name)[0]
    pattern, used = "", set()
    for part in re.split(r"(:[a-z_]+)", stem):
        if not part.startswith(":"):
            pattern += re.escape(part)
            continue
        field = _NAME_FIELDS.get(part[1:])
        group = field.split(">", 1)[0] if field else None
        if field is None or group in used:
            return None
        used.add(group)
        pattern += field
    return re.compile(f"^{pattern}$") if "(?P<title" in used else None


def _post_page(
    tree: Tree, path: str, stem: str, permalink: str, name: re.Pattern[str] | None
) -> tuple[str | None, tuple[str, str, str] | None]:
    """The page a post is built to and its date (year, month, day as two digits)."""
    meta = tree.meta(path)
    parsed = name.match(stem) if name is not None else None
    fields = parsed.groupdict() if parsed else {}
    title = fields.get("title") or stem
    date = None
    found = _DATE.match(str(meta.get("date") or "").strip())
    if found:
        date = (found[1], found[2].zfill(2), found[3].zfill(2))
    elif fields.get("year") and fields.get("month") and fields.get("day"):
        date = (fields["year"], fields["month"].zfill(2), fields["day"].zfill(2))
    own = text_value(meta, "permalink")
    if own is not None:
        return paths.url_page("/" + own.lstrip("/")), date
    values = {"title": title, "name": posixpath.basename(title), "post_title": title}
    if date is not None:
        year, month, day = date
        values |= {"year": year, "month": month, "day": day}
        values |= {"i_month": str(int(month)), "i_day": str(int(day))}
    unknown = {key for key in _PLACEHOLDER.findall(permalink) if key not in values}
    if unknown:
        return None, date  # a placeholder with no evidence here (the file's time, an id)
    url = _PLACEHOLDER.sub(lambda m: values[m[1]], permalink)
    return paths.url_page("/" + url.lstrip("/"), bare=lambda route: route.strip("/")), date
