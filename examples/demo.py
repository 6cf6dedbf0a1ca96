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


def main() -> int:
    shutil.rmtree(OUT, ignore_errors=True)
    print("== File tree: examples/site -> examples/out\n")
    run("build", "examples/site", "--config", "examples/sitemill.toml", "--out", "examples/out")
    for path in sorted(OUT.iterdir()):
        print(f"\n--- {path.relative_to(ROOT)}")
        if path.suffix == ".gz":  # the state: what this run saw, for the next one
            state = json.loads(gzip.decompress(path.read_bytes()))
            print(json.dumps(state, indent=1, sort_keys=True))
            continue
        print(path.read_text(encoding="utf-8"), end="")
    print()
    run("validate", "examples/out", "--base-url", "https://www.example.com/")
    print("\n== Second run: nothing changes, nothing is written\n")
    run("build", "examples/site", "--config", "examples/sitemill.toml", "--out", "examples/out")
    lambda_demo = ROOT / "examples" / "demo_lambda.py"
    if lambda_demo.exists():
        print("\n== S3 + Lambda on an embedded moto S3\n", flush=True)
        subprocess.run([sys.executable, str(lambda_demo)], check=True, cwd=ROOT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
