"""A small site built by sitemill and served by the engine stand (tests/enginestand.py): the
live site a check reads, each file as the build wrote it unless a test serves another."""

from __future__ import annotations

import mimetypes
from pathlib import Path

from enginestand import KEY, Stand
from outputlist import CheckOptions
from sitemill.cli.main import main
from sitemill.commands.check import Checked, check_tree
from sitemill.config.model import Config, load_config
from sitemill.web.livesite import Limits

QUICK = Limits(concurrency=4, timeout=5.0, request_deadline=5.0, run_deadline=60.0)


def page(title: str, text: str, head: str = "") -> str:
    return (
        f"<!doctype html><html lang=en><head><title>{title}</title>{head}</head>"
        f"<body><main><h1>{title}</h1><p>{text}</p></main></body></html>"
    )


PAGES = {
    "index.html": page("Home", "Welcome to the example."),
    "about.html": page("About", "Who we are and what we do."),
    "docs/index.html": page("Docs", "Start here."),
    "docs/guide.html": page("Guide", "How to use it, step by step."),
    "blog/first.html": page("First post", "Hello, world."),
    "blog/second.html": page("Second post", "More words."),
}


def write_site(root: Path, pages: dict[str, str]) -> None:
    for path, text in pages.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")


def build(root: Path, base: str, *flags: str) -> None:
    argv = ["build", str(root), "--base-url", base, "--lastmod", "mtime", "-q", *flags]
    assert main(argv) == 0


def publish(stand: Stand, root: Path, *, clean: bool = False) -> None:
    """Serve every file of ``root`` at its path (a folder's index.html at the folder too;
    ``clean``: a page at its path without .html too, as GitHub Pages serves it)."""
    for file in sorted(root.rglob("*")):
        if not file.is_file():
            continue
        rel = file.relative_to(root).as_posix()
        kind = mimetypes.guess_type(rel)[0] or "application/octet-stream"
        if rel.endswith(".gz"):
            kind = "application/gzip"
        entry = (200, file.read_bytes(), {"Content-Type": kind})
        stand.files["/" + rel] = entry
        if rel.endswith("index.html"):
            stand.files["/" + rel[: -len("index.html")]] = entry
        elif clean and rel.endswith(".html"):
            stand.files["/" + rel[: -len(".html")]] = entry


def built_site(tmp_path: Path, stand: Stand) -> tuple[Path, str]:
    """The example pages built for the stand's origin and published there."""
    root = tmp_path / "site"
    write_site(root, PAGES)
    base = stand.origin + "/"
    build(root, base)
    stand.files.clear()
    publish(stand, root)
    return root, base


def config(base: str, **values: object) -> Config:
    flags = {"base_url": base, **{k: str(v) for k, v in values.items()}}
    return load_config(flags, {}, {})


def check(
    root: Path, base: str, *, every: bool = True, limits: Limits = QUICK, **values: object
) -> Checked:
    options = CheckOptions(every=every)
    return check_tree(config(base, **values), root, root, None, options, limits)


__all__ = [
    "KEY",
    "PAGES",
    "build",
    "built_site",
    "check",
    "config",
    "page",
    "publish",
    "write_site",
]
