"""The configuration flags of `sitemill build`, `urls` and `s3`, and the Config they give."""
# The commands run after a deploy (`sitemill indexnow`, `sitemill check`) read the record a build
# kept (its state, its sitemaps): in SITE_DIR (or --out, or the `state` it names), or in a bucket
# (--bucket, --prefix): record_config.

from __future__ import annotations

import argparse
import logging
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sitemill.config import CONFIG_FILE_NAME
from sitemill.errors import ConfigError, RefusedError
from sitemill.safefs import Root

if TYPE_CHECKING:  # (loaded by the commands that read a configuration: not validate)
    from sitemill.config.model import Config
    from sitemill.jobs.bucketsite import BucketSite

log = logging.getLogger("sitemill")

BOOL_FLAGS = (
    "respect_noindex",
    "respect_redirects",
    "respect_canonical",
    "respect_robots_txt",
    "robots_txt",
    "gzip",
    "content_dates",
    "images",
    "keep_image_chrome",
    "alternates",
    "html_sitemap",
    "llms_full",
    "llms_pages",
    "llms_listings",
    "indexnow_write_key_file",
)
VALUE_FLAGS = (
    "base_url",
    "url_style",
    "lastmod",
    "lastmod_precision",
    "format",
    "max_urls",
    "max_bytes",
    "max_sitemaps_per_index",
    "templates_dir",
    "state",
    "previous_state",
    "image_chrome_share",
    "content_scope",
    "workers",
    "shards",
    "shard_fill",
    "indexnow",
    "llms_txt",
    "llms_full_max_bytes",
    "indexnow_endpoint",
    "indexnow_key_location",
)
# Repeatable flags: --include GLOB --include GLOB ...
LIST_FLAGS = ("include", "exclude", "fingerprint_ignore", "image_hosts", "sitemaps")


# Value flags with a metavar and a help line: (flag, metavar, help).
_VALUE_HELP = (
    ("--indexnow-endpoint", "URL", "the IndexNow endpoint (default api.indexnow.org)"),
    ("--indexnow-key-location", "URL", "where engines read the key file (default /<key>.txt)"),
    ("--shard-fill", "N", "URLs a shard is cut after (default 40,000)"),
    ("--llms-full-max-bytes", "N", "the most bytes llms-full.txt holds (default 10 MiB)"),
    (
        "--workers",
        "N|auto",
        "processes that read a tree's pages (default auto: one per core, one for small sites)",
    ),
    (
        "--image-chrome-share",
        "SHARE",
        "images shown on more than this share of the pages are site chrome (default 0.5)",
    ),
    (
        "--state",
        "PATH|s3://BUCKET/KEY",
        "where the state of the last run lives (default: beside the sitemaps)",
    ),
    (
        "--previous-state",
        "PATH|URL",
        "a state to start from when there is none yet (the live site's copy)",
    ),
)


def add_config_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("configuration (flag > SITEMILL_* env > sitemill.toml)")
    group.add_argument("--base-url", help="absolute http(s) URL the site root is served at")
    group.add_argument("--config", type=Path, help=f"config file (default: ./{CONFIG_FILE_NAME})")
    group.add_argument("--include", action="append", metavar="GLOB", help="pages to list (repeat)")
    group.add_argument("--exclude", action="append", metavar="GLOB", help="paths to leave out")
    group.add_argument("--url-style", choices=["auto", "directory", "clean", "file"])
    group.add_argument("--lastmod", choices=["git", "mtime", "none"])
    group.add_argument("--lastmod-precision", choices=["datetime", "date"])
    group.add_argument("--format", choices=["xml", "txt"])
    group.add_argument("--max-urls", metavar="N")
    group.add_argument("--max-bytes", metavar="N")
    group.add_argument("--max-sitemaps-per-index", metavar="N")
    group.add_argument("--templates-dir", metavar="DIR")
    group.add_argument(
        "--shards",
        choices=["auto", "on", "off"],
        help="sitemaps as shards with stable names (default auto: when one file is not enough)",
    )
    group.add_argument(
        "--content-scope",
        choices=["main", "body"],
        help="what content dates fingerprint: a page's main region (default) or its body",
    )
    group.add_argument(
        "--fingerprint-ignore",
        action="append",
        metavar="REGEX",
        help="text removed from pages before their content is compared (repeat)",
    )
    group.add_argument(
        "--image-host",
        dest="image_hosts",
        action="append",
        metavar="HOST",
        help="a host besides the site's whose images are listed, a CDN (repeat)",
    )
    group.add_argument(
        "--sitemap",
        dest="sitemaps",
        action="append",
        metavar="NAME|URL",
        help="a sitemap of yours to name beside sitemill's, relative to the base URL (repeat)",
    )
    _add_mode_flags(group)
    for flag, metavar, text in _VALUE_HELP:
        group.add_argument(flag, metavar=metavar, help=text)
    for key in BOOL_FLAGS:
        group.add_argument(
            f"--{key.replace('_', '-')}", action=argparse.BooleanOptionalAction, default=None
        )


def _add_mode_flags(group: argparse._ArgumentGroup) -> None:
    """The flags whose value may be left out (a bare --indexnow sends, a bare --llms-txt writes).
    Their values are read by the config's parser, as the file's are (true and yes too)."""
    for flag, bare, choices, text in _MODE_FLAGS:
        metavar = "{" + ",".join(choices) + "}"
        group.add_argument(flag, nargs="?", const=bare, metavar=metavar, help=text)


# (flag, its value when bare, its values, help)
_MODE_FLAGS = (
    (
        "--indexnow",
        "send",
        ["send", "later", "off"],
        "announce the URLs added, changed or removed: send right after writing (the default), "
        "or keep them for `sitemill indexnow` (later); the key comes from SITEMILL_INDEXNOW_KEY",
    ),
    (
        "--llms-txt",
        "on",
        ["on", "replace", "off"],
        "write llms.txt from the listed pages (on, the default); replace: also over an llms.txt "
        "sitemill did not write",
    ),
)


def config_from_args(
    args: argparse.Namespace,
    env: dict[str, str],
    *,
    search_dirs: Sequence[Path] = (),
    require_base_url: bool = True,
) -> Config:
    """Flags, env and a config file: ``--config`` (anywhere: the operator named it), else the
    first ./sitemill.toml or SEARCH_DIR/sitemill.toml that stays inside its directory."""
    from sitemill.config.file import read_config_file
    from sitemill.config.model import load_config

    keys = (*VALUE_FLAGS, *BOOL_FLAGS, *LIST_FLAGS)
    flags: dict[str, Any] = {key: getattr(args, key, None) for key in keys}
    if args.config is not None:
        file_values = read_config_file(args.config)
    else:
        found = find_config_file((Path("."), *search_dirs))
        file_values = {} if found is None else read_config_file(found[0], root=found[1])
    config = load_config(flags, env, file_values, require_base_url=require_base_url)
    _check_places(config)
    return config


def site_and_config(args: argparse.Namespace, env: dict[str, str]) -> tuple[Path, Path, Config]:
    """A folder command's site, its output folder (the site, unless ``--out``) and its
    configuration, each checked (build, why)."""
    from sitemill.cli._usage import check_out_dir, check_site_dir

    site_dir: Path = args.site_dir
    check_site_dir(site_dir)
    out_dir: Path = args.out or site_dir
    check_out_dir(site_dir, out_dir)
    return site_dir, out_dir, config_from_args(args, env, search_dirs=[site_dir])


def add_record_arguments(command: argparse.ArgumentParser, bucket_help: str) -> None:
    """--bucket, --prefix and --endpoint-url (after SITE_DIR and --out: add_command's)."""
    from sitemill.cli._usage import bucket_name, endpoint_url, key_prefix

    command.add_argument("--bucket", type=bucket_name, metavar="NAME", help=bucket_help)
    command.add_argument("--prefix", default="", type=key_prefix, help="the bucket's source prefix")
    command.add_argument("--endpoint-url", type=endpoint_url, help="S3-compatible endpoint")


def record_config(args: argparse.Namespace, env: Mapping[str, str]) -> Config:
    """The configuration, once the folders (or the s3 extra, for a bucket) are checked; a
    folder's sitemill.toml is found there."""
    from sitemill.cli._usage import check_out_dir, check_site_dir, require_s3_extra

    if args.bucket:
        require_s3_extra()
    else:
        check_site_dir(args.site_dir)
        check_out_dir(args.site_dir, args.out or args.site_dir)
    search = [] if args.bucket else [args.site_dir]
    return config_from_args(args, dict(env), search_dirs=search)


def record_site(args: argparse.Namespace, env: Mapping[str, str]) -> BucketSite:
    """The bucket's site --bucket and --prefix name (over SITEMILL_PREFIX)."""
    from sitemill.jobs.bucketsite import BucketSettings

    return BucketSettings.read(env, bucket=args.bucket, prefix=args.prefix).site(args.bucket)


def _check_places(config: Config) -> None:
    """The places a configuration names that a command may not reach before its input (or
    at all): checked now, so that a mistake is one line before anything is read."""
    from sitemill.config.values import names_no_previous_state
    from sitemill.state.previous import previous_state

    if config.templates_dir is not None and not config.templates_dir.is_dir():
        raise ConfigError("templates_dir", f"{config.templates_dir} is not a directory")
    if config.previous_state and not names_no_previous_state(config.previous_state):
        previous_state(config.previous_state)  # (a ConfigError for what is no path or URL)


def find_config_file(directories: Sequence[Path]) -> tuple[Path, Path] | None:
    """The first sitemill.toml found in ``directories``, with the directory it was found in.

    Found, not named: one that is a link leading outside its directory, or that is not a
    regular file, is skipped with a warning (a checkout must not choose what sitemill reads).
    """
    for directory in directories:
        path = directory / CONFIG_FILE_NAME
        try:
            real = Root(directory, hidden=True).resolve(CONFIG_FILE_NAME)
        except FileNotFoundError:
            continue
        except RefusedError as exc:
            log.warning("ignoring %s", exc)
            continue
        except OSError:
            return path, directory  # read_config_file says what is wrong
        if not os.path.isfile(real):
            log.warning("ignoring %s: not a regular file", path)
            continue
        return path, directory
    return None
