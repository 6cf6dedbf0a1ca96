"""The `sitemill` command: build, urls, s3 and validate, over the same core."""

from __future__ import annotations

import argparse
import contextlib
import io
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from sitemill import __version__
from sitemill.cli.console import print_report, terminal_progress
from sitemill.config import Config, load_config
from sitemill.config_file import CONFIG_FILE_NAME, read_config_file
from sitemill.errors import RefusedError, SitemillError, SourceError
from sitemill.safefs import Root

log = logging.getLogger("sitemill")

_BOOL_FLAGS = (
    "respect_noindex",
    "respect_redirects",
    "respect_canonical",
    "respect_robots_txt",
    "robots_txt",
    "gzip",
)
_VALUE_FLAGS = (
    "base_url",
    "url_style",
    "lastmod",
    "lastmod_precision",
    "format",
    "max_urls",
    "max_bytes",
    "max_sitemaps_per_index",
    "templates_dir",
)


def _add_config_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("configuration (flag > SITEMILL_* env > sitemill.toml)")
    group.add_argument("--base-url", help="absolute http(s) URL the site root is served at")
    group.add_argument("--config", type=Path, help=f"config file (default: ./{CONFIG_FILE_NAME})")
    group.add_argument("--include", action="append", metavar="GLOB", help="pages to list (repeat)")
    group.add_argument("--exclude", action="append", metavar="GLOB", help="paths to leave out")
    group.add_argument("--url-style", choices=["directory", "clean", "file"])
    group.add_argument("--lastmod", choices=["git", "mtime", "none"])
    group.add_argument("--lastmod-precision", choices=["datetime", "date"])
    group.add_argument("--format", choices=["xml", "txt"])
    group.add_argument("--max-urls", metavar="N")
    group.add_argument("--max-bytes", metavar="N")
    group.add_argument("--max-sitemaps-per-index", metavar="N")
    group.add_argument("--templates-dir", metavar="DIR")
    for key in _BOOL_FLAGS:
        group.add_argument(
            f"--{key.replace('_', '-')}", action=argparse.BooleanOptionalAction, default=None
        )


def build_parser() -> argparse.ArgumentParser:
    # Global options work before and after the command: `sitemill -q build` and
    # `sitemill build -q`. SUPPRESS as the commands' default keeps a command from resetting
    # a value given before it.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--version", action="version", version=f"sitemill {__version__}", help=argparse.SUPPRESS
    )
    common.add_argument(
        "-q", "--quiet", action="store_true", default=argparse.SUPPRESS, help="print errors only"
    )
    parser = argparse.ArgumentParser(
        prog="sitemill", description="Correct, deterministic sitemaps for static sites."
    )
    parser.add_argument("--version", action="version", version=f"sitemill {__version__}")
    parser.add_argument("-q", "--quiet", action="store_true", help="print errors only")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    build = commands.add_parser("build", parents=[common], help="sitemaps for a site directory")
    build.add_argument("site_dir", nargs="?", type=Path, default=Path("."), metavar="SITE_DIR")
    build.add_argument("--out", type=Path, help="output directory (default: SITE_DIR)")
    _add_config_flags(build)

    urls = commands.add_parser(
        "urls", parents=[common], help="sitemaps from a URL list (one per line, TAB lastmod)"
    )
    urls.add_argument("url_file", metavar="FILE|-")
    urls.add_argument("--out", type=Path, default=Path("."), help="output directory (default: .)")
    _add_config_flags(urls)

    s3 = commands.add_parser(
        "s3", parents=[common], help="sitemaps for an S3 bucket, written to the bucket"
    )
    s3.add_argument("--bucket", required=True)
    s3.add_argument("--prefix", default="", help="source prefix; sitemaps go under it too")
    s3.add_argument("--endpoint-url", help="S3-compatible endpoint")
    s3.add_argument("--dry-run", action="store_true", help="print what would change, write nothing")
    _add_config_flags(s3)

    validate = commands.add_parser(
        "validate", parents=[common], help="check sitemaps against XSDs and the protocol"
    )
    validate.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    validate.add_argument("--base-url", help="URL the sitemaps are served from")
    return parser


def config_from_args(
    args: argparse.Namespace,
    env: dict[str, str],
    *,
    search_dirs: Sequence[Path] = (),
    require_base_url: bool = True,
) -> Config:
    """Flags, env and a config file: ``--config`` (anywhere: the operator named it), else the
    first ./sitemill.toml or SEARCH_DIR/sitemill.toml that stays inside its directory."""
    flags: dict[str, Any] = {key: getattr(args, key, None) for key in (*_VALUE_FLAGS, *_BOOL_FLAGS)}
    flags["include"] = args.include
    flags["exclude"] = args.exclude
    if args.config is not None:
        file_values = read_config_file(args.config)
    else:
        found = _find_config_file((Path("."), *search_dirs))
        file_values = {} if found is None else read_config_file(found[0], root=found[1])
    return load_config(flags, env, file_values, require_base_url=require_base_url)


def _find_config_file(directories: Sequence[Path]) -> tuple[Path, Path] | None:
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


def _run_build(args: argparse.Namespace, env: dict[str, str]) -> int:
    from sitemill.jobs.tree import build_from_tree  # not at import: validate needs no Jinja
    from sitemill.sinks import LocalDirSink

    site_dir: Path = args.site_dir
    config = config_from_args(args, env, search_dirs=[site_dir])
    out_dir: Path = args.out or site_dir
    with terminal_progress(sys.stderr) as progress:
        report = build_from_tree(
            config, site_dir, LocalDirSink(out_dir), progress=progress, output_dir=out_dir
        )
    if not args.quiet:
        print_report(report, str(out_dir), sys.stdout)
    return 0


def _run_urls(args: argparse.Namespace, env: dict[str, str]) -> int:
    from sitemill.jobs.urllist import build_from_url_list
    from sitemill.sinks import LocalDirSink

    config = config_from_args(args, env)
    source: str = args.url_file
    try:
        with contextlib.ExitStack() as stack:
            if source == "-":
                lines: TextIO = sys.stdin
            else:
                lines = stack.enter_context(open(source, encoding="utf-8", newline=""))
            progress = stack.enter_context(terminal_progress(sys.stderr))
            try:  # a file or a redirected one: its size sizes the duplicate check
                size_hint: int | None = os.fstat(lines.fileno()).st_size or None
            except (OSError, ValueError, io.UnsupportedOperation):
                size_hint = None
            report = build_from_url_list(
                config,
                lines,
                LocalDirSink(args.out),
                name=source,
                progress=progress,
                size_hint=size_hint,
            )
    except UnicodeDecodeError as exc:
        raise SourceError(f"{source}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    except OSError as exc:
        raise SourceError(f"cannot read {source}: {exc.strerror or exc}") from exc
    if not args.quiet:
        print_report(report, str(args.out), sys.stdout)
    return 0


def _run_validate(args: argparse.Namespace, env: dict[str, str]) -> int:
    from sitemill.urls import normalize_base_url
    from sitemill.validate import validate_paths

    base_url = normalize_base_url(args.base_url) if args.base_url else None
    violations = validate_paths(args.paths, base_url)
    errors = sum(1 for violation in violations if violation.is_error)
    warnings = len(violations) - errors
    # Warnings (a repeated loc, a .gz name on plain XML) are findings, not failures: -q hides them.
    shown = [v for v in violations if v.is_error] if args.quiet else violations
    sys.stdout.writelines(f"{violation}\n" for violation in shown)
    if not errors and not args.quiet:
        also = f" (with {warnings} warning{'s' if warnings != 1 else ''})" if warnings else ""
        sys.stdout.write(f"valid: {', '.join(str(p) for p in args.paths)}{also}\n")
    return 1 if errors else 0


def _run_s3(args: argparse.Namespace, env: dict[str, str]) -> int:
    from sitemill.cli.s3 import run_s3_command

    config = config_from_args(args, env)
    return run_s3_command(args, config, sys.stdout, env=env)


_COMMANDS: dict[str, Callable[[argparse.Namespace, dict[str, str]], int]] = {
    "build": _run_build,
    "urls": _run_urls,
    "validate": _run_validate,
    "s3": _run_s3,
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.ERROR if args.quiet else logging.WARNING,
        format="sitemill: warning: %(message)s",
        stream=sys.stderr,
    )
    try:
        return _COMMANDS[args.command](args, dict(os.environ))
    except SitemillError as exc:
        sys.stderr.write(f"sitemill: error: {_one_line(str(exc))}\n")
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("sitemill: interrupted; nothing half-written was published\n")
        return 130


def _one_line(text: str) -> str:
    return " ".join(text.split()) if "\n" in text else text
