"""Clone each site of sites.json from a local mirror into the data folder, at its listed commit.

    python benchmarks/realsites/checkout.py --sites benchmarks/realsites/sites.json \
        --mirrors /work/.mirror --data /work/realsites-data

A mirror is a bare git directory ``<mirrors>/<owner>+<name>/repo`` (or ``<owner>+<name>``, or
``<owner>/<name>``) holding the site's branch. Mirrors may lack large blobs (big PDFs, videos):
those paths are left out of the work tree with a sparse checkout, so the checkout is clean and
every page that git has is there. Nothing here touches the network.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path


def find_mirror(mirrors: Path, repo: str) -> Path | None:
    owner_name = repo.replace("/", "+")
    for candidate in (mirrors / owner_name / "repo", mirrors / owner_name, mirrors / repo):
        if (candidate / "HEAD").exists() or (candidate / ".git").exists():
            return candidate
    return None


def missing_paths(checkout: Path) -> list[bytes]:
    """Paths of the commit whose blobs git does not have."""
    tree = subprocess.run(
        ["git", "-C", str(checkout), "ls-tree", "-r", "-z", "HEAD"], check=True, capture_output=True
    ).stdout
    entries = [entry for entry in tree.split(b"\0") if entry]
    blobs = [entry.split(b"\t", 1)[0].split()[2] for entry in entries]
    answers = subprocess.run(
        ["git", "-C", str(checkout), "cat-file", "--batch-check"],
        input=b"\n".join(blobs) + b"\n",
        check=True,
        capture_output=True,
    ).stdout.splitlines()
    return [
        e.split(b"\t", 1)[1]
        for e, a in zip(entries, answers, strict=True)
        if a.endswith(b"missing")
    ]


def sparse_pattern(path: bytes) -> bytes:
    escaped = path
    for char in (b"\\", b"*", b"?", b"[", b"!", b"#"):
        escaped = escaped.replace(char, b"\\" + char)
    return b"!/" + escaped


def check_out(site: dict[str, str], mirrors: Path, data: Path) -> str:
    checkout = data / site["name"]
    if not checkout.exists():
        mirror = find_mirror(mirrors, site["repo"])
        if mirror is None:
            return f"no mirror of {site['repo']} under {mirrors}"
        branch = site["branch"]
        # a mirror may hold the site's branch only as a remote-tracking ref (a clone of a clone)
        ref = next(
            (
                name
                for name in (f"refs/heads/{branch}", f"refs/remotes/origin/{branch}")
                if subprocess.run(
                    ["git", "-C", str(mirror), "rev-parse", "-q", "--verify", name],
                    capture_output=True,
                    check=False,
                ).returncode
                == 0
            ),
            None,
        )
        if ref is None:
            return f"no branch {branch} in {mirror}"
        # a local clone links the mirror's objects (a fetch would pack them, and stop at a blob
        # the mirror lacks); the branch is then set to the ref found
        subprocess.run(
            ["git", "clone", "-q", "--no-checkout", str(mirror), str(checkout)], check=True
        )
        tip = subprocess.run(
            ["git", "-C", str(mirror), "rev-parse", ref], capture_output=True, text=True, check=True
        ).stdout.strip()
        subprocess.run(
            ["git", "-C", str(checkout), "update-ref", f"refs/heads/{branch}", tip], check=True
        )
    git = ["git", "-C", str(checkout)]
    subprocess.run(
        [*git, "checkout", "-q", "--detach", site["commit"]], check=False, capture_output=True
    )
    # git reset names each blob it lacks; those paths are left out of the work tree below
    subprocess.run([*git, "reset", "-q", site["commit"]], check=True, capture_output=True)
    missing = missing_paths(checkout)
    if missing:
        patterns = b"/*\n" + b"".join(sparse_pattern(p) + b"\n" for p in missing)
        subprocess.run(
            [*git, "sparse-checkout", "set", "--no-cone", "--stdin"],
            input=patterns,
            check=True,
            capture_output=True,
        )
    # git still names the blobs it lacks (the sparse checkout leaves their paths out): the
    # status below tells whether the work tree came out whole
    subprocess.run([*git, "checkout", "-q", "-f", site["commit"]], check=False, capture_output=True)
    dirty = subprocess.run([*git, "status", "--porcelain"], check=True, capture_output=True).stdout
    state = "clean" if not dirty else "NOT CLEAN"
    return f"{site['name']}: {site['commit'][:12]} {state}, {len(missing)} paths git lacks left out"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sites", type=Path, default=Path(__file__).with_name("sites.json"))
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--data", type=Path, default=Path("/work/realsites-data"))
    parser.add_argument("--only", action="append", help="a site name (repeat)")
    args = parser.parse_args()
    args.data.mkdir(parents=True, exist_ok=True)
    for site in json.loads(args.sites.read_text()):
        if args.only and site["name"] not in args.only:
            continue
        print(check_out(site, args.mirrors, args.data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
