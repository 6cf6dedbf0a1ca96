"""`make demo`: run sitemill on examples/site the way a user would, then show the result."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "examples" / "site"
OUT = ROOT / "examples" / "out"
SITEMILL = Path(sys.executable).parent / "sitemill"


def run(*args: str) -> None:
    print(f"$ sitemill {' '.join(args)}", flush=True)
    subprocess.run([str(SITEMILL), *args], check=True, cwd=ROOT)


def state_summary(path: Path) -> str:
    """The state in a few lines (its size and what it holds), not the whole of it."""
    data = path.read_bytes()
    state = json.loads(gzip.decompress(data))
    pages = state.get("pages", {})
    lines = [
        f"the state, {len(data):,} bytes gzipped ({state.get('format')} {state.get('version')}):"
        " what this run saw, for the next one",
        f"  pages: {len(pages)}, each with the fingerprint of its content and its lastmod",
    ]
    if pages:
        path_, record = next(iter(sorted(pages.items())))
        lines.append(f"    e.g. {path_}: {json.dumps(record, sort_keys=True)}")
    lines.append(f"  outputs: {', '.join(state.get('outputs', [])) or 'none'}")
    rest = sorted(set(state) - {"pages", "outputs", "format", "version"})
    lines.append(f"  also: {', '.join(rest)} (see docs/lastmod.md)")
    return "\n".join(lines)


def main() -> int:
    shutil.rmtree(OUT, ignore_errors=True)
    print("== File tree: examples/site -> examples/out\n")
    run("build", "examples/site", "--config", "examples/sitemill.toml", "--out", "examples/out")
    for path in sorted(OUT.iterdir()):
        print(f"\n--- {path.relative_to(ROOT)}")
        if path.suffix == ".gz":  # the state: what this run saw, for the next one
            print(state_summary(path))
            continue
        print(path.read_text(encoding="utf-8"), end="")
    print()
    run("validate", "examples/out", "--base-url", "https://www.example.com/")
    print("\n== Second run: nothing changes, nothing is written\n")
    run("build", "examples/site", "--config", "examples/sitemill.toml", "--out", "examples/out")
    show_a_change()
    lambda_demo = ROOT / "examples" / "demo_lambda.py"
    if lambda_demo.exists():
        print("\n== S3 + Lambda on an embedded moto S3\n", flush=True)
        subprocess.run([sys.executable, str(lambda_demo)], check=True, cwd=ROOT)
    return 0


def show_a_change() -> None:
    """A restructure of a copy of the site, and what `sitemill diff` says of it."""
    print("\n== A change: the guide moves to docs/guides/, the about page goes\n")
    changed = OUT / "changed-site"  # (a copy: examples/site stays as it is)
    shutil.copytree(SITE, changed)
    (changed / "docs" / "guides").mkdir()
    (changed / "docs" / "guide.html").rename(changed / "docs" / "guides" / "guide.html")
    (changed / "about.html").unlink()
    try:
        run(
            "diff", str(changed.relative_to(ROOT)), "--config", "examples/sitemill.toml",
            "--out", "examples/out", "--write-redirects", "examples/out/_redirects",
        )  # fmt: skip
        print("\n--- examples/out/_redirects")
        print((OUT / "_redirects").read_text(encoding="utf-8"), end="")
    finally:
        shutil.rmtree(changed)
        (OUT / "_redirects").unlink(missing_ok=True)


if __name__ == "__main__":
    sys.exit(main())
