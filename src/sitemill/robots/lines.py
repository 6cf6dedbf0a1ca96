"""Keep sitemill's ``Sitemap:`` lines in a robots.txt; every other byte stays as it was."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from typing import Final
from urllib.parse import urlsplit, urlunsplit

_LINE_END: Final = re.compile(r"\r\n|\r|\n")
_LINES_WITH_ENDS: Final = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")
# The comment on a Sitemap line sitemill writes for one of the user's sitemaps (another host's, or
# above the index's folder): the file itself then says which lines are sitemill's, so a state that
# names a line (robots_sitemaps: a tampered one may name the user's own) removes only a line that
# bears it. sitemill's own sitemaps are known by their names and need none.
NAMED_MARK: Final = "# named by sitemill"
# The spellings Google's parser takes for a Sitemap record.
_SITEMAP_LINE: Final = re.compile(
    r"[ \t]*(?:sitemap|site-map)(?:[ \t]*:|[ \t])[ \t]*(?P<url>[^#]*?)[ \t]*(?:#.*)?", re.IGNORECASE
)


def sitemap_urls(text: str) -> list[str]:
    """The URLs of robots.txt's Sitemap records, in order, in every spelling Google takes."""
    found = (_SITEMAP_LINE.fullmatch(line) for line in _LINE_END.split(text.removeprefix("\ufeff")))
    return [match.group("url") for match in found if match and match.group("url")]


def replace_sitemap_lines(
    text: str | None,
    sitemap_urls: Sequence[str],
    is_own: Callable[[str], bool],
    written: Collection[str] = (),
) -> str:
    """robots.txt with our Sitemap lines in place of the old ones; every other byte is kept.

    A ``Sitemap:`` line is ours when ``is_own(url)`` is true or sitemill wrote it (its URL is
    ``written``: the state keeps them, and the line bears NAMED_MARK); any other is the user's and
    stays, and a URL it names is not written twice. The new lines go where the first of ours
    was, else at the end, and use the file's own line ending, so running this twice gives the
    same text.
    """
    users = set(users_sitemap_lines(text or "", is_own, written))
    urls = [url for url in dict.fromkeys(sitemap_urls) if is_own(url) or url not in users]
    wanted = set(written)  # (with is_own: sitemill's old lines, each replaced)
    text = text or ""
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    text = text.removeprefix(bom)
    first_end = _LINE_END.search(text)
    newline = first_end.group() if first_end else "\n"

    kept: list[str] = []
    insert_at: int | None = None
    for line in _LINES_WITH_ENDS.findall(text):
        found = _SITEMAP_LINE.fullmatch(line.rstrip("\r\n"))
        url = found.group("url") if found else ""
        if url and (is_own(url) or (url in wanted and _marked(line))):
            insert_at = len(kept) if insert_at is None else insert_at
            continue
        kept.append(line)

    marks = {url: "" if is_own(url) else " " + NAMED_MARK for url in urls}
    new_lines = [f"Sitemap: {url}{marks[url]}{newline}" for url in urls]
    if insert_at is None:
        insert_at = len(kept)
        if kept and not kept[-1].endswith(("\n", "\r")) and new_lines:
            kept[-1] += newline
    elif insert_at == len(kept) and new_lines and not text.endswith(("\n", "\r")):
        # Ours were the file's last lines and it had no final line end: neither has the result.
        new_lines[-1] = new_lines[-1].removesuffix(newline)
    kept[insert_at:insert_at] = new_lines
    return bom + "".join(kept)


def users_sitemap_lines(
    text: str, is_own: Callable[[str], bool], written: Collection[str]
) -> list[str]:
    """The URLs of the Sitemap lines the user wrote: neither sitemill's own names nor one it
    wrote (``written``, on a line that bears NAMED_MARK)."""
    found = []
    for line in _LINE_END.split(text.removeprefix("\ufeff")):
        record = _SITEMAP_LINE.fullmatch(line)
        url = record.group("url") if record else ""
        if url and not is_own(url) and not (url in written and _marked(line)):
            found.append(url)
    return found


def _marked(line: str) -> bool:
    return line.rstrip(" \t\r\n").endswith(NAMED_MARK)


def written_lines(
    text: str | None,
    sitemap_urls: Sequence[str],
    is_own: Callable[[str], bool],
    written: Collection[str] = (),
) -> list[str]:
    """The user's sitemaps whose Sitemap line sitemill writes in ``text`` (to remember: a later
    run removes those it no longer names), sorted: not one the user's own line names."""
    users = set(users_sitemap_lines(text or "", is_own, written))
    return sorted({url for url in sitemap_urls if not is_own(url) and url not in users})


def robots_scope_warnings(
    base_url: str, *, maintain: bool, respect: bool, found: bool
) -> list[str]:
    """Warnings for a site served below its host's root (a GitHub Pages project site): a
    crawler reads robots.txt only at the root of the host, so a robots.txt in this site is
    never read. https://www.rfc-editor.org/rfc/rfc9309#section-2.3
    """
    parts = urlsplit(base_url)
    if parts.path in ("", "/"):
        return []
    host_robots = urlunsplit((parts.scheme, parts.netloc, "/robots.txt", "", ""))
    ours = base_url + "robots.txt"
    lines = []
    if maintain:
        lines.append(
            f"robots_txt: crawlers read only {host_robots}, never {ours} (the site is served "
            f"below the host's root): put the Sitemap line in {host_robots} or submit "
            f"{base_url}sitemap.xml in Search Console"
        )
    if respect and found:
        lines.append(
            f"the site's robots.txt will be served at {ours}, which crawlers never read (only "
            f"{host_robots} counts); its rules still leave pages out of this sitemap "
            "(respect_robots_txt = false lists them)"
        )
    return lines
