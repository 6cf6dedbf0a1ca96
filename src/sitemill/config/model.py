"""The one configuration model, read from flags, SITEMILL_* env and sitemill.toml."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Final
from urllib.parse import urljoin, urlsplit

from sitemill.config._indexnow import (
    DEFAULT_ENDPOINT,
    check_indexnow,
    parse_endpoint,
    parse_indexnow_key,
    parse_indexnow_mode,
    parse_key_location,
)
from sitemill.config._indexnow import IndexNowMode as IndexNowMode
from sitemill.config.alternates import AlternatesSetting, parse_alternates
from sitemill.config.globs import Glob
from sitemill.config.llms import (
    DEFAULT_LLMS_FULL_BYTES,
    MAX_LLMS_FULL_BYTES,
    MIN_LLMS_FULL_BYTES,
    parse_llms_mode,
    writes_llms,
)
from sitemill.config.llms import LlmsMode as LlmsMode
from sitemill.config.names import ENV_PREFIX as ENV_PREFIX
from sitemill.config.names import env_name as env_name
from sitemill.config.names import warn_unknown_env
from sitemill.config.tables import Group, Rule, parse_groups, parse_rules
from sitemill.config.values import (
    parse_base_url,
    parse_bool,
    parse_enum,
    parse_globs,
    parse_hosts,
    parse_int_range,
    parse_location,
    parse_path,
    parse_previous_state,
    parse_regexes,
    parse_share,
    parse_sitemaps,
    parse_workers,
)
from sitemill.errors import ConfigError
from sitemill.filenames.outputs import is_own_name
from sitemill.protocol import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_SITEMAPS_PER_INDEX,
    DEFAULT_SHARD_FILL,
    MAX_BYTES_LIMIT,
    MAX_SITEMAPS_PER_INDEX_LIMIT,
    MAX_URL_LENGTH,
    MAX_URLS_PER_SITEMAP,
    Precision,
)
from sitemill.urls import UrlStyle, encode_uri_part, remove_dot_segments, url_origin

_ALTERNATES_ON: Final = AlternatesSetting()
DEFAULT_INCLUDE: Final = ("**/*.html", "**/*.htm", "**/*.pdf")
# Smallest sensible file: the XML header, one <url> and the closing tag.
_MIN_MAX_BYTES: Final = 1_024


class LastmodMode(Enum):
    GIT = "git"
    MTIME = "mtime"
    NONE = "none"


class OutputFormat(Enum):
    XML = "xml"
    TXT = "txt"


class ShardsMode(Enum):
    """Whether a tree's sitemaps are shards with stable names (sitemill.shards)."""

    AUTO = "auto"  # sharded when the site needs more than one sitemap file
    ON = "on"
    OFF = "off"  # children split by count, sitemap-1.xml, sitemap-2.xml, ...


class ContentScope(Enum):
    """What a page's content fingerprint covers (fingerprint.regionselect)."""

    MAIN = "main"  # the title, the description and the main region, where there is one
    BODY = "body"  # the whole body


@dataclass(frozen=True, slots=True)
class Config:
    """Everything a run needs to know; built only by ``load_config``."""

    base_url: str
    include: tuple[Glob, ...] = ()  # empty: the source's default (DEFAULT_INCLUDE for files)
    exclude: tuple[Glob, ...] = ()
    url_style: UrlStyle = UrlStyle.AUTO  # settled by each run (sitemill.urlstyle)
    lastmod: LastmodMode | None = None  # None: git inside a work tree, else mtime
    lastmod_precision: Precision = Precision.DATETIME
    rules: tuple[Rule, ...] = ()
    groups: tuple[Group, ...] = ()  # [[groups]]: pages in children named for them
    respect_noindex: bool = True
    respect_redirects: bool = True
    respect_canonical: bool = True
    respect_robots_txt: bool = True
    robots_txt: bool = False
    # The user's sitemaps to name, absolute URLs (resolved below, writing.usersitemaps).
    sitemaps: tuple[str, ...] = ()
    gzip: bool = False
    format: OutputFormat = OutputFormat.XML
    max_urls: int = MAX_URLS_PER_SITEMAP
    max_bytes: int = DEFAULT_MAX_BYTES
    max_sitemaps_per_index: int = DEFAULT_MAX_SITEMAPS_PER_INDEX
    templates_dir: Path | None = None
    content_dates: bool = True
    fingerprint_ignore: tuple[re.Pattern[str], ...] = ()
    content_scope: ContentScope = ContentScope.MAIN
    state: str | None = None  # a path or s3://bucket/key; None: beside the sitemaps
    previous_state: str | None = None  # a path, an http(s) URL, or PREVIOUS_NONE
    images: bool = False
    image_hosts: tuple[str, ...] = ()  # hosts besides the site's whose images are listed
    keep_image_chrome: bool = False  # list images shown on most pages (logos) all the same
    image_chrome_share: float = 0.5  # "most": more than this share of the pages
    alternates: AlternatesSetting = _ALTERNATES_ON  # hreflang, from heads or folders
    html_sitemap: bool = False  # sitemap.html for people (sitemill.htmlmap)
    llms_txt: LlmsMode = LlmsMode.OFF  # llms.txt from the listed pages (sitemill.llms)
    llms_full: bool = False  # llms-full.txt: each listed page's content region as Markdown
    llms_pages: bool = False  # a Markdown twin of each listed page at its URL plus ".md"
    llms_listings: bool = False  # llms.txt links listing pages too (tags, pagination, ...)
    llms_full_max_bytes: int = DEFAULT_LLMS_FULL_BYTES
    workers: int | None = None  # processes reading a tree's pages; None: the machine's cores
    shards: ShardsMode = ShardsMode.AUTO
    shard_fill: int = DEFAULT_SHARD_FILL  # URLs a shard is cut after (docs/output.md)
    indexnow: IndexNowMode = IndexNowMode.OFF
    indexnow_key: str = field(default="", repr=False)  # a secret: never in a repr or a log
    indexnow_endpoint: str = DEFAULT_ENDPOINT
    indexnow_key_location: str | None = None  # None: <key>.txt at each host's root
    indexnow_write_key_file: bool = False  # write <key>.txt as sitemill's own output

    @property
    def reads_titles(self) -> bool:  # pages' titles, descriptions, site names: shown by these
        return self.html_sitemap or writes_llms(self)


# key -> parser. The key is the TOML spelling; flags use --kebab-case, env SITEMILL_UPPER_CASE.
_PARSERS: Final[Mapping[str, Callable[[str, Any], Any]]] = {
    "base_url": parse_base_url,
    "include": parse_globs,
    "exclude": parse_globs,
    "url_style": parse_enum(UrlStyle),
    "lastmod": parse_enum(LastmodMode),
    "lastmod_precision": parse_enum(Precision),
    "rules": parse_rules,
    "groups": parse_groups,
    "respect_noindex": parse_bool,
    "respect_redirects": parse_bool,
    "respect_canonical": parse_bool,
    "respect_robots_txt": parse_bool,
    "robots_txt": parse_bool,
    "sitemaps": parse_sitemaps,
    "gzip": parse_bool,
    "format": parse_enum(OutputFormat),
    "max_urls": parse_int_range(1, MAX_URLS_PER_SITEMAP),
    "max_bytes": parse_int_range(_MIN_MAX_BYTES, MAX_BYTES_LIMIT),
    "max_sitemaps_per_index": parse_int_range(1, MAX_SITEMAPS_PER_INDEX_LIMIT),
    "templates_dir": parse_path,
    "content_dates": parse_bool,
    "fingerprint_ignore": parse_regexes,
    "content_scope": parse_enum(ContentScope),
    "state": parse_location,
    "previous_state": parse_previous_state,
    "images": parse_bool,
    "image_hosts": parse_hosts,
    "keep_image_chrome": parse_bool,
    "image_chrome_share": parse_share,
    "alternates": parse_alternates,
    "html_sitemap": parse_bool,
    "llms_txt": parse_llms_mode,
    "llms_full": parse_bool,
    "llms_pages": parse_bool,
    "llms_listings": parse_bool,
    "llms_full_max_bytes": parse_int_range(MIN_LLMS_FULL_BYTES, MAX_LLMS_FULL_BYTES),
    "workers": parse_workers,
    "shards": parse_enum(ShardsMode),
    "shard_fill": parse_int_range(1, MAX_URLS_PER_SITEMAP),
    "indexnow": parse_indexnow_mode,
    "indexnow_key": parse_indexnow_key,
    "indexnow_endpoint": parse_endpoint,
    "indexnow_key_location": parse_key_location,
    "indexnow_write_key_file": parse_bool,
}
CONFIG_KEYS: Final = tuple(_PARSERS)
# Keys of tables, set in sitemill.toml only (no flag, input or variable).
FILE_ONLY: Final = frozenset({"rules", "groups"})


def refuse_shards_on(config: Config, what: str) -> None:
    """shards = "on" where the source cannot shard is a ConfigError: a URL list never can
    (its order is not sortable)."""
    if config.shards is ShardsMode.ON:
        raise ConfigError(
            "shards",
            f'"on" is for a tree or a bucket: {what} are split by count '
            '(sitemap-1.xml, ...); use "auto" or "off"',
        )


def load_config(
    flags: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    file_values: Mapping[str, Any] | None = None,
    *,
    require_base_url: bool = True,
) -> Config:
    """Merge the spellings (flag > env > file > default), validate each value, build Config.

    ``flags`` holds only values the user gave explicitly (None means not given).
    """
    warn_unknown_env(env or {}, _PARSERS)
    merged: dict[str, Any] = {}
    for key, parse in _PARSERS.items():
        raw = _pick(key, flags or {}, env or {}, file_values or {})
        if raw is not None:
            merged[key] = parse(key, raw)
    table = (file_values or {}).get("alternates")
    setting = merged.get("alternates")
    if isinstance(table, dict) and isinstance(setting, AlternatesSetting) and setting.enabled:
        # --alternates (or SITEMILL_ALTERNATES=true) switches them on: the file's language
        # folders still say how.
        merged["alternates"] = parse_alternates("alternates", table)
    if "base_url" not in merged:
        if require_base_url:
            raise ConfigError(
                "base_url",
                "is required (--base-url, SITEMILL_BASE_URL or base_url in sitemill.toml)",
            )
        merged["base_url"] = ""
    if "sitemaps" in merged:
        merged["sitemaps"] = resolve_sitemaps(merged["sitemaps"], merged["base_url"])
    config = Config(**merged)
    check_indexnow(config, dated=config.content_dates and config.lastmod is not LastmodMode.NONE)
    return config


def _pick(
    key: str, flags: Mapping[str, Any], env: Mapping[str, str], file_values: Mapping[str, Any]
) -> Any:
    value = flags.get(key)
    if value is not None and not (isinstance(value, Sequence | tuple) and not value):
        return value
    if key not in FILE_ONLY:
        text = env.get(env_name(key))
        if text is not None and text.strip():
            return text
    return file_values.get(key)


# The user's sitemaps to name (``sitemaps``), resolved against the base URL as a link on the site's
# root page is, and spelt as the base URL is (lower-case scheme and host, no default port, the
# least percent-encoding), so that a name compares equal to the loc sitemill writes. Where each may
# be named is the location rule's (sitemill.writing.usersitemaps).
KEY = "sitemaps"


def resolve_sitemaps(names: tuple[str, ...], base_url: str) -> tuple[str, ...]:
    """Each name as an absolute URL, in the order given, each once; as given when there is
    no base URL (a command that needs none)."""
    if not base_url:
        return names
    return tuple(dict.fromkeys(resolve_sitemap(name, base_url) for name in names))


def resolve_sitemap(name: str, base_url: str) -> str:
    """``name`` resolved against ``base_url`` in one spelling; a ConfigError naming the key
    when it names no sitemap file sitemill may name (a folder, another scheme, user info,
    sitemill's own output, a URL too long)."""
    quoted = "the URL given" if "@" in name else repr(name)  # (never a password quoted)
    joined = urljoin(base_url, name)
    try:
        parts = urlsplit(joined)
        parts.port  # noqa: B018 (a port that is no number raises here)
    except ValueError:
        raise ConfigError(KEY, f"{quoted} has a port that is no number") from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ConfigError(
            KEY, f"{quoted} is neither a name relative to base_url nor an absolute http(s) URL"
        )
    if parts.username is not None or parts.password is not None:
        raise ConfigError(KEY, f"{quoted} must not contain user info")
    try:
        origin = url_origin(joined)
    except ConfigError as exc:
        raise ConfigError(KEY, f"{quoted}: {str(exc).partition(': ')[2]}") from exc
    path = remove_dot_segments(encode_uri_part(parts.path or "/"))
    if path.endswith("/"):
        raise ConfigError(KEY, f"{quoted} names a folder, not a sitemap file")
    url = origin + path + ("?" + encode_uri_part(parts.query) if parts.query else "")
    if len(url) > MAX_URL_LENGTH:
        raise ConfigError(KEY, f"{quoted} is longer than {MAX_URL_LENGTH:,} characters")
    if url.startswith(base_url) and is_own_name(url[len(base_url) :]):
        raise ConfigError(KEY, f"{quoted} is sitemill's own output: name the user's sitemaps")
    return url
