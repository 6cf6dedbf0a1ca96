"""The files sitemill writes: their names, content types and size bounds; nothing else is ours."""
# Also where they go in a bucket (the site root's key prefix) and their default Cache-Control:
# the Lambda's router reads them without importing the S3 source and sink.

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection, Iterable
from pathlib import PurePosixPath
from typing import Final

from sitemill.filenames.groupnames import child_group, is_group_child
from sitemill.protocol import MAX_BYTES_LIMIT
from sitemill.robots.rules import MAX_ROBOTS_TXT_BYTES

ENTRY_XML: Final = "sitemap.xml"
ENTRY_TXT: Final = "sitemap.txt"
ROBOTS_TXT: Final = "robots.txt"
# The HTML sitemap for people (html_sitemap, sitemill.htmlmap). Its name is sitemill's
# whether or not a run writes it: never listed as a page, and written or deleted only when
# its head says sitemill wrote it (sitemill.html.meta.made_by_sitemill).
HTML_SITEMAP: Final = "sitemap.html"
# The most bytes a sitemap.html may hold: far above what 50,000 links with long titles take
# (about 25 MB), far below what would strain a Lambda's memory.
MAX_HTML_SITEMAP_BYTES: Final = 64 * 1024 * 1024
# llms.txt (llms_txt, sitemill.llms) at the site root, and one per language folder where the
# site's hreflang clusters split it (fr/llms.txt); llms-full.txt beside the root one. Written,
# replaced or deleted only when sitemill wrote them (their own text says so), never a user's.
LLMS_TXT: Final = "llms.txt"
LLMS_FULL: Final = "llms-full.txt"
# A Markdown twin of a listed page (llms_pages): its URL plus ".md" (llmstxt.org).
MARKDOWN_SUFFIX: Final = ".md"
# The most bytes an llms.txt of sitemill's may hold, to be read (50,000 links with long titles
# and descriptions take about 25 MB); llms-full.txt's limit is the configuration's.
MAX_LLMS_TXT_BYTES: Final = 64 * 1024 * 1024
# What the last run saw (sitemill.state.model); sitemill's own file, never a page.
STATE_NAME: Final = "sitemill-state.json.gz"
# A stored state (gzip) larger than this is not one sitemill wrote (a million pages compress to
# ~20 MB): no store reads more.
MAX_STATE_READ_BYTES: Final = 64 * 1024 * 1024
# Sitemaps change with every deploy; a short max-age lets crawlers see new ones soon.
DEFAULT_CACHE_CONTROL: Final = "public, max-age=300"
# Children (sitemap-N.xml, .xml.gz, .txt, .txt.gz; a shard's sitemap-r<id>.xml and its parts, and
# in a partitioned state sitemap-r<id>-<version>.xml: sitemill.shards.manifest) and their staging
# copies (sitemap-N-next-YYYYMMDDhhmmss-<6 hex>.xml: writing.publish), written beside the index;
# "sitemap-N-next.xml" is the name earlier versions shared between runs, still recognised.
_CHILD: Final = r"sitemap-(?:[1-9][0-9]*|r[a-z2-7]{8}(?:-[a-z2-7]{8}|-[1-9][0-9]*)?)"
CHILD_NAME: Final = re.compile(
    rf"{_CHILD}(?:-next(?:-[0-9]{{14}}-[0-9a-f]{{6}})?)?\.(?:xml|txt)(?:\.gz)?"
)
STAGING_NAME: Final = re.compile(
    rf"{_CHILD}(?P<staging>-next(?:-(?P<stamp>[0-9]{{14}})-[0-9a-f]{{6}})?)\.(?:xml|txt)(?:\.gz)?"
)
# Indexes after the first (sitemap.xml): sitemap-index-2.xml, -3, ...
MORE_INDEX_NAME: Final = re.compile(r"sitemap-index-(?:[2-9]|[1-9][0-9]+)\.xml")
# Every name sitemill writes, and so the only names it may ever delete; and the children of
# the named groups that the configuration names or the state remembers (``groups`` below).
OWN_NAME: Final = re.compile(
    rf"sitemap\.xml|sitemap\.txt|sitemap\.html|sitemap-index-[1-9][0-9]*\.xml|{CHILD_NAME.pattern}"
    rf"|{re.escape(STATE_NAME)}"
)
_CONTENT_TYPES: Final = {
    ".xml": "application/xml",
    ".gz": "application/gzip",
    ".txt": "text/plain; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
}


def stored_digest(data: bytes | Iterable[bytes | memoryview]) -> str:
    """The MD5 (hex) of a file's bytes as stored, whole or in parts: S3's ETag of one PUT
    (not a security use)."""
    digest = hashlib.md5(usedforsecurity=False)
    for part in (data,) if isinstance(data, bytes) else data:
        digest.update(part)
    return digest.hexdigest()


def is_sitemap_file(name: str, groups: Collection[str] = ()) -> bool:
    """Whether ``name`` is one of sitemill's sitemap files or indexes as they go live (not a
    staging copy, the state, sitemap.html); ``groups``: the named groups whose children are
    sitemill's too (sitemill.filenames.groupnames)."""
    if name in (ENTRY_XML, ENTRY_TXT) or MORE_INDEX_NAME.fullmatch(name):
        return True
    return is_child_name(name, groups) and not is_staging_name(name, groups)


def is_own_name(name: str, groups: Collection[str] = ()) -> bool:
    return OWN_NAME.fullmatch(name) is not None or is_group_child(name, groups)


def is_users_file_name(name: str) -> bool:
    """Whether ``name`` is a file's name below a folder (no empty, ``.`` or ``..`` segment,
    no NUL) that is none of sitemill's own: one of the user's sitemaps a record remembers."""
    if is_own_name(name) or "\0" in name:
        return False
    return not {"", ".", ".."} & set(name.split("/"))


def is_child_name(name: str, groups: Collection[str] = ()) -> bool:
    """A child or a staging copy of one (CHILD_NAME), a named group's among them."""
    return CHILD_NAME.fullmatch(name) is not None or is_group_child(name, groups)


def is_recorded_child(name: str) -> bool:
    """A child of sitemill's shape, a named group's of any name: for names sitemill's own
    records give (a partitioned bucket's manifest, its writer), never for a name merely
    found in a folder or a bucket (that is ``is_child_name`` with the groups known)."""
    return CHILD_NAME.fullmatch(name) is not None or child_group(name) is not None


def is_staging_name(name: str, groups: Collection[str] = ()) -> bool:
    """A staging copy of a child (STAGING_NAME), a named group's among them."""
    if STAGING_NAME.fullmatch(name):
        return True
    return is_group_child(name, groups, staging=True)


def twin_url(url: str) -> str:
    """The URL of a page's Markdown twin (llmstxt.org): the URL plus .md, index.html.md for a
    folder's (``guide/`` -> ``guide/index.html.md``, ``guide.html`` -> ``guide.html.md``,
    ``guide`` -> ``guide.md``)."""
    return url + ("index.html" if url.endswith("/") else "") + MARKDOWN_SUFFIX


def is_llms_name(name: str) -> bool:
    """llms.txt at the root or in a folder (one per language), or llms-full.txt."""
    return name == LLMS_FULL or PurePosixPath(name).name == LLMS_TXT


def content_type(name: str) -> str:
    return _CONTENT_TYPES[PurePosixPath(name).suffix]


def staging_name(name: str, run: str) -> str:
    """``sitemap-3.xml.gz`` -> ``sitemap-3-next-<run>.xml.gz``, ``run`` being
    ``YYYYMMDDhhmmss-<6 hex>`` (sitemill.writing.publish.Staging)."""
    stem, dot, suffix = name.partition(".")
    return f"{stem}-next-{run}{dot}{suffix}"


def read_limit(name: str) -> int:
    """The most bytes a file of this name in an output folder or prefix may hold, to be read."""
    if name == ROBOTS_TXT:
        return MAX_ROBOTS_TXT_BYTES  # Google reads no further
    if name == HTML_SITEMAP:
        return MAX_HTML_SITEMAP_BYTES
    if is_llms_name(name):
        return MAX_LLMS_TXT_BYTES
    if name.endswith(".gz"):
        # Deflate's stored blocks add 5 bytes per 64 KiB: incompressible data grows a little.
        return MAX_BYTES_LIMIT + MAX_BYTES_LIMIT // 8192 + 1024
    return MAX_BYTES_LIMIT


def normalize_prefix(prefix: str) -> str:
    """The key prefix of the site root: '' for the whole bucket, else ending in one '/'."""
    stripped = prefix.strip("/")
    return f"{stripped}/" if stripped else ""
