"""Build a site with its own generator and ask the generator which source made each page.

Each ``build_<generator>(clone, site)`` builds the site in the clone (the built folder left
untracked) and returns ``{built page (site-relative): source (repo-relative)}`` taken from the
generator's own data where it has any: an MkDocs hook dumping ``page.file``, ``hugo list all``,
Sphinx's build environment, Hexo's own locals, Docusaurus's generated route data. The generator
runs from ``GEN_PY`` (a scratch venv with mkdocs/sphinx) or the clone's ``node_modules``.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
GEN_PY = os.environ.get("GEN_PY", "/work/gen-venv/bin/python")
INCLUDES = "sourcedates-includes.json"  # {source: [files it includes]}, where the generator says


def sh(cmd: list[str] | str, cwd: Path, log: Path) -> None:
    """Run a build step, its output appended to ``log``; raise when it fails."""
    with log.open("a") as out:
        out.write(f"\n$ {cmd if isinstance(cmd, str) else ' '.join(cmd)}\n")
        out.flush()
        subprocess.run(
            cmd,
            cwd=cwd,
            stdout=out,
            stderr=subprocess.STDOUT,
            check=True,
            shell=isinstance(cmd, str),
        )


def built_file(root: Path, permalink: str) -> str | None:
    """The built file a permalink is served from, site-relative, or None."""
    p = permalink.split("#")[0].lstrip("/")
    for cand in (p + "index.html", p + "/index.html", p + ".html", p) if p else ("index.html",):
        cand = cand.replace("//", "/")
        if cand and (root / cand).is_file():
            return cand
    return None


def build_mkdocs(clone: Path, site: dict[str, Any], log: Path) -> dict[str, str]:
    dump = clone / "sourcedates-pages.jsonl"
    dump.unlink(missing_ok=True)
    cfg = clone / "sourcedates-mkdocs.yml"
    cfg.write_text(
        f"INHERIT: {site['config']}\nhooks:\n  - {HERE / 'dump' / 'mkdocs_pages.py'}\n"
        + site.get("mkdocs_extra", "")
    )
    if site.get("icon_stubs"):
        _icon_stubs(clone, site)
    env_cmd = f"SOURCEDATES_DUMP={dump} PYTHONPATH={clone} {GEN_PY} -m mkdocs build -f {cfg.name}"
    sh(env_cmd, clone, log)
    docs_dir = _mkdocs_docs_dir(clone / site["config"])
    pages = {}
    for line in dump.read_text().splitlines():
        row = json.loads(line)
        pages[row["dest_uri"]] = f"{docs_dir}/{row['src_uri']}".lstrip("/")
    return pages


def _icon_stubs(clone: Path, site: dict[str, Any]) -> None:
    """A copy of the theme's custom_dir with an empty SVG for each icon of a set Material for
    MkDocs lacks (Zensical's lucide): presentation only, the pages' text is untouched."""
    theme = clone / "sourcedates-theme"
    shutil.rmtree(theme, ignore_errors=True)
    shutil.copytree(clone / site["icon_stubs"]["custom_dir"], theme)
    names: set[str] = set()
    for f in [
        clone / site["config"],
        *(clone / _mkdocs_docs_dir(clone / site["config"])).rglob("*"),
    ]:
        if f.is_file():
            names |= set(re.findall(r"\blucide/[a-z0-9-]+", f.read_text(errors="replace")))
    for name in names:
        stub = theme / ".icons" / f"{name}.svg"
        stub.parent.mkdir(parents=True, exist_ok=True)
        stub.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"></svg>')


def _mkdocs_docs_dir(config: Path) -> str:
    for line in config.read_text().splitlines():
        if line.startswith("docs_dir:"):
            return line.split(":", 1)[1].strip().strip("'\"")
    return "docs"


def build_hugo(clone: Path, site: dict[str, Any], log: Path) -> dict[str, str]:
    hugo = site.get("hugo", "hugo")  # a newer Hugo than Debian's where the theme needs one
    sh([hugo, "-d", site["site_dir"]], clone, log)
    listed = subprocess.run(
        [hugo, "list", "all"], cwd=clone, capture_output=True, text=True, check=True
    ).stdout
    root = clone / site["site_dir"]
    pages: dict[str, str] = {}
    for row in csv.DictReader(io.StringIO(listed)):
        if row.get("draft") == "true" or "?" in row["permalink"]:
            continue  # a draft is not built; a "?p=" permalink names no file of its own
        page = built_file(root, _site_path(row["permalink"]))
        if page:
            pages[page] = row["path"]
    # `hugo list all` (0.111) leaves out section pages: their _index.* by Hugo's own rule
    # (content dir + section path; the language's prefix from the site's config).
    tracked = _tracked(clone)
    for path in tracked:
        for content, prefix in site.get("languages", {"content": ""}).items():
            name = path.rsplit("/", 1)[-1]
            if path.startswith(content + "/") and name.rsplit(".", 1)[0] == "_index":
                section = path[len(content) + 1 : -len(name)]
                page = built_file(root, "/" + prefix + section)
                if page and page not in pages:
                    pages[page] = path
    return pages


def _site_path(permalink: str) -> str:
    """A permalink's path on the site: newer Hugo lists absolute URLs (a root-served site)."""
    return urlsplit(permalink).path if "://" in permalink else permalink


def build_sphinx(clone: Path, site: dict[str, Any], log: Path) -> dict[str, str]:
    out = site["site_dir"]
    builder = site.get("sphinx_builder", "html")  # "dirhtml": a page per folder
    sh([GEN_PY, "-m", "sphinx", "-b", builder, site["source_dir"], out], clone, log)
    deps = clone / INCLUDES
    res = subprocess.run(
        [GEN_PY, str(HERE / "dump" / "sphinx_docs.py"), str(clone / out), str(deps)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    pages = {}
    for docname, src in json.loads(res).items():
        rel = os.path.relpath(src, clone)
        pages[_sphinx_page(docname, builder)] = rel
    # the files each source includes (include, literalinclude, autodoc): repo-relative
    found = json.loads(deps.read_text())
    deps.write_text(
        json.dumps(
            {
                os.path.relpath(src, clone): [os.path.relpath(d, clone) for d in ds]
                for src, ds in found.items()
            }
        )
    )
    return pages


def _sphinx_page(docname: str, builder: str) -> str:
    """The file Sphinx writes a document to (its builders' own rule for dirhtml)."""
    if builder != "dirhtml" or docname == "index" or docname.endswith("/index"):
        return docname + ".html"
    return docname + "/index.html"


def build_hexo(clone: Path, site: dict[str, Any], log: Path) -> dict[str, str]:
    sh(["npx", "--no-install", "hexo", "generate"], clone, log)
    res = subprocess.run(
        ["node", str(HERE / "dump" / "hexo_pages.js"), str(clone)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    root = clone / site["site_dir"]
    pages = {}
    for row in json.loads(res):
        page = built_file(root, row["path"])
        if page:
            pages[page] = row["source"]
    return pages


def build_docusaurus(clone: Path, site: dict[str, Any], log: Path) -> dict[str, str]:
    # The build a user deploys: all locales, the default one at the root, the others under
    # /<locale>/. Each locale's build rewrites .docusaurus/ with its route data, so after it
    # only the last locale's is there: the others are read from a build of that locale alone
    # into a scratch folder (a default-locale build alone has the same permalinks).
    sh(["npx", "--no-install", "docusaurus", "build"], clone, log)
    pages = _docusaurus_routes(clone, site)
    locales = site.get("locales", [])
    for locale in locales[:-1]:
        if locale != locales[0]:
            raise ValueError("only the default locale is re-read alone (its permalinks agree)")
        scratch = clone / "sourcedates-locale-build"
        sh(
            [
                "npx",
                "--no-install",
                "docusaurus",
                "build",
                "--locale",
                locale,
                "--out-dir",
                str(scratch),
            ],
            clone,
            log,
        )
        shutil.rmtree(scratch)
        for page, src in _docusaurus_routes(clone, site).items():
            pages.setdefault(page, src)
    return pages


def _docusaurus_routes(clone: Path, site: dict[str, Any]) -> dict[str, str]:
    root = clone / site["site_dir"]
    pages: dict[str, str] = {}
    for data in sorted((clone / ".docusaurus").rglob("*.json")):
        try:
            doc = json.loads(data.read_text())
        except (ValueError, UnicodeDecodeError):
            continue
        for item in _walk(doc):
            src, link = item.get("source"), item.get("permalink")
            if isinstance(src, str) and isinstance(link, str) and src.startswith("@site/"):
                page = built_file(root, link)
                if page:
                    pages.setdefault(page, src[len("@site/") :])
    return pages


def _walk(doc: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            found.append(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _tracked(clone: Path) -> list[str]:
    out = subprocess.run(
        ["git", "-C", str(clone), "ls-files", "-z"], capture_output=True, check=True
    ).stdout
    return [p.decode() for p in out.split(b"\0") if p]


BUILDERS = {
    "mkdocs": build_mkdocs,
    "hugo": build_hugo,
    "sphinx": build_sphinx,
    "hexo": build_hexo,
    "docusaurus": build_docusaurus,
}
