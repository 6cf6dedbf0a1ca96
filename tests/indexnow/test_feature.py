"""IndexNow behind the output port: the runs name none of it; the front ends' list decides."""

from __future__ import annotations

import ast
import gzip
import json
from pathlib import Path

from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.indexnow.feature import IndexNowFeature
from sitemill.jobs import tree
from sitemill.jobs.afterpublish import after_publishing
from sitemill.jobs.asked import RunAsked
from sitemill.outputs import KeptState, LiveRun
from sitemill.report import Report
from sitemill.sinks import LocalDirSink

PACKAGE = Path(tree.__file__).resolve().parents[1]
BASE = "https://example.com/"
KEY = "feature-key-0123456789"


def _indexnow_imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return sorted(name for name in names if name.startswith("sitemill.indexnow"))


def test_the_runs_import_nothing_of_indexnow() -> None:
    # Issue 80: the tree, the bucket, the sharded and the distributed runs take IndexNow from the
    # list their front end passes (jobs/features.py names it), as they take sitemap.html.
    runs = sorted((PACKAGE / "jobs").glob("*.py")) + sorted((PACKAGE / "scaleout").glob("*.py"))
    found = {
        str(path.relative_to(PACKAGE)): _indexnow_imports(path)
        for path in runs
        if path.name != "features.py"
    }
    assert {name: imports for name, imports in found.items() if imports} == {}
    assert _indexnow_imports(PACKAGE / "jobs" / "features.py") == ["sitemill.indexnow.feature"]


def test_the_check_names_no_feature() -> None:
    # Issue 80: the check asks each output feature of its front end's list for its live files
    # and, after the pages, its gate (IndexNow's: the key file, indexnow/_livecheck.py).
    features = ("sitemill.indexnow", "sitemill.llms", "sitemill.htmlmap")
    found = {}
    for path in sorted((PACKAGE / "check").glob("*.py")):
        tree_ = ast.parse(path.read_text(encoding="utf-8"))
        names = [a.name for n in ast.walk(tree_) if isinstance(n, ast.Import) for a in n.names]
        names += [n.module for n in ast.walk(tree_) if isinstance(n, ast.ImportFrom) and n.module]
        found[path.name] = sorted(name for name in names if name.startswith(features))
    assert "run.py" in found
    assert {name: imports for name, imports in found.items() if imports} == {}


class _Kept(IndexNowFeature):
    """A feature of the test's, IndexNow's but for two hooks: it keeps a record made of the
    states, and is told when the run has published."""

    def __init__(self) -> None:
        self.kept: KeptState | None = None
        self.told: list[tuple[bool, bool]] = []  # (a write_file given, dry)

    def keep(self, kept: KeptState, report: Report) -> None:
        self.kept = kept
        kept.keep.pending = {url: "added" for url in sorted(kept.keep.pages)}

    def published(self, run: LiveRun) -> None:
        self.told.append((run.write_file is not None, run.dry_run))


def _site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    site.mkdir()
    for name in ("a.html", "b.html"):
        body = f"<title>{name}</title><main><p>words of {name}</p></main>"
        (site / name).write_text(body, encoding="utf-8")
    return site


def _pending(site: Path) -> dict[str, str]:
    document = json.loads(gzip.decompress((site / "sitemill-state.json.gz").read_bytes()))
    return document.get("indexnow", {}).get("pending", {})


def test_a_tree_run_hands_each_listed_feature_its_state_before_saving_it(tmp_path: Path) -> None:
    site, feature = _site(tmp_path), _Kept()
    config = load_config({"base_url": BASE}, {"SITEMILL_LASTMOD": "mtime"})
    sink = LocalDirSink(site)
    report = tree.build_tree(config, site, sink, RunAsked((feature,)), output_dir=site)
    kept = feature.kept
    assert kept is not None and kept.first_run and kept.public  # (beside the sitemaps)
    assert set(kept.keep.pages) == {"a.html", "b.html"}
    assert _pending(site) == {"a.html": "added", "b.html": "added"}  # (what it kept is saved)
    after_publishing(config, report, None, RunAsked((feature,), dry_run=True))
    assert feature.told == [(False, True)]


def test_indexnow_on_keeps_nothing_unless_the_front_end_lists_it(tmp_path: Path) -> None:
    site = _site(tmp_path)
    env = {"SITEMILL_LASTMOD": "mtime", "SITEMILL_INDEXNOW": "later"}
    config = load_config({"base_url": BASE}, env)
    tree.build_tree(config, site, LocalDirSink(site), output_dir=site)  # (the sitemaps alone)
    (site / "a.html").write_text("<title>a</title><main><p>new words</p></main>", "utf-8")
    alone = tree.build_tree(config, site, LocalDirSink(site), output_dir=site)
    assert alone.indexnow is None and _pending(site) == {}
    (site / "b.html").write_text("<title>b</title><main><p>new words</p></main>", "utf-8")
    listed = build_from_tree(config, site, LocalDirSink(site), output_dir=site)
    assert listed.indexnow is not None
    assert _pending(site) == {BASE + "b.html": "changed"} == listed.indexnow.urls


def test_the_key_file_is_written_once_the_run_has_published(tmp_path: Path) -> None:
    from outputlist import OUTPUTS

    site = _site(tmp_path)
    env = {"SITEMILL_LASTMOD": "mtime", "SITEMILL_INDEXNOW": "later", "SITEMILL_INDEXNOW_KEY": KEY}
    config = load_config({"base_url": BASE, "indexnow_write_key_file": True}, env)
    report = build_from_tree(config, site, LocalDirSink(site), output_dir=site)
    calls: list[tuple[str, bytes]] = []

    def write_file(name: str, data: bytes) -> bool:
        calls.append((name, data))
        return True

    after_publishing(config, report, write_file, RunAsked(OUTPUTS, dry_run=True))
    after_publishing(config, report, write_file, RunAsked(()))
    assert calls == []  # (a dry run, an empty list: nothing written)
    after_publishing(config, report, write_file, RunAsked(OUTPUTS))
    assert calls == [(f"{KEY}.txt", KEY.encode())]
