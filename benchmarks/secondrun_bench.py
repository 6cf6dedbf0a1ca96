"""second-run: a later run of a real site with a long history, against a plain run.

Three real built sites with their git history (`realsites/`: archcraft, hugegraph from
`sites.json`, lektor-website from `heldout63.json`), checked out by `realsites/checkout.py` into a
data folder (`--realsites DIR` or `REALSITES_DATA`); each is cloned here and moved back NEW
commits. A first run there (content dates on, not timed) leaves a state; the clone moves to the
checkout's commit; then, timed: the second run after those new commits (from that state, copied
afresh each time); the second run with nothing new (from the state the run before left), and the
plain run (`--no-content-dates`), round-robin. Checked: the two second runs write the same
sitemap (both at the same commit); the run with nothing new within SECOND_TARGET of the plain run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any, Final

from harness import Timing, clean_env, time_commands
from realsites.checkout import missing_paths, sparse_pattern

REALSITES: Final = Path(__file__).parent / "realsites"
# The sites, and the sites file that names each.
SITES: Final = (
    ("archcraft", "sites.json"),
    ("hugegraph", "sites.json"),
    ("lektor-website", "heldout63.json"),
)
NEW: Final = 3  # commits the second run finds new
SECOND_TARGET: Final = 1.5  # the second run with nothing new, against the plain run (issue 64)


def checkout_command(data: Path | str) -> str:
    """The command that checks the sites out into ``data``."""
    names = " ".join(f"--only {name}" for name, _ in SITES)
    return (
        "for sites in sites.json heldout63.json; do .venv/bin/python "
        f"benchmarks/realsites/checkout.py --sites benchmarks/realsites/$sites --mirrors MIRRORS "
        f"--data {data} {names}; done"
    )


def _base_url(name: str, sites_file: str) -> str:
    sites = json.loads((REALSITES / sites_file).read_text())
    return next(str(site["base_url"]) for site in sites if site["name"] == name)


def _git(*args: str, cwd: Path) -> str:
    done = subprocess.run(
        ["git", *args], cwd=cwd, env=clean_env(), capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def _clone(site: Path, clone: Path) -> str:
    """``clone`` of ``site`` at NEW commits before its HEAD; return the HEAD's sha."""
    head = _git("rev-parse", "HEAD", cwd=site)
    if not clone.exists():
        _git("clone", "-q", "--no-checkout", str(site), str(clone), cwd=site.parent)
    move_to(clone, f"{head}~{NEW}")
    return head


def move_to(clone: Path, commit: str) -> None:
    """Check ``commit`` out in ``clone``, leaving out (sparse) the paths whose blobs the mirror
    lacks, as realsites/checkout.py does: the work tree is clean."""
    _git("reset", "-q", commit, cwd=clone)
    missing = missing_paths(clone)
    patterns = b"/*\n" + b"".join(sparse_pattern(path) + b"\n" for path in missing)
    subprocess.run(
        ["git", "-C", str(clone), "sparse-checkout", "set", "--no-cone", "--stdin"],
        input=patterns,
        env=clean_env(),
        capture_output=True,
        check=True,
    )
    _git("checkout", "-q", "--force", "--detach", commit, cwd=clone)


def bench_second_run(
    section: Any, *, data: Path | None, sitemill: list[str], repeat: int, out: Path
) -> None:
    """Fill ``section`` (run.Section) for each site (see above)."""
    data = data or (Path(os.environ["REALSITES_DATA"]) if "REALSITES_DATA" in os.environ else None)
    missing = [name for name, _ in SITES if data is None or not (data / name / ".git").exists()]
    if data is None or missing:
        where = data or "DIR"
        message = f"not checked out ({', '.join(missing)}): {checkout_command(where)}"
        section.check("real sites", "checked out", message, False)
        return
    for name, sites_file in SITES:
        _bench_site(section, data / name, _base_url(name, sites_file), sitemill, repeat, out)


def _bench_site(
    section: Any, site: Path, base_url: str, sitemill: list[str], repeat: int, out: Path
) -> None:
    base = out / "second-run" / site.name
    base.mkdir(parents=True, exist_ok=True)
    clone = base / "clone"
    head = _clone(site, clone)
    command = [*sitemill, "build", str(clone), "--base-url", base_url, "-q"]
    older, state = base / "older-state.json.gz", base / "state.json.gz"
    older.unlink(missing_ok=True)
    first = Timing(
        f"{site.name}: first run at HEAD~{NEW}",
        [*command, "--state", str(older), "--out", str(base / "first")],
        base / "first",
    )
    time_commands([first], repeat=1, scratch=base)
    move_to(clone, head)

    def timing(label: str, name: str, *extra: str) -> Timing:
        return Timing(
            f"{site.name}: {label}", [*command, "--out", str(base / name), *extra], base / name
        )

    after = timing(f"second run, {NEW} new commits", "after", "--state", str(state))
    for _ in range(repeat):
        shutil.copyfile(older, state)
        time_commands([after], repeat=1, scratch=base)
    plain = timing("plain run (--no-content-dates)", "plain", "--no-content-dates")
    second = timing("second run, nothing new", "second", "--state", str(state))
    time_commands([plain, second], repeat=repeat, scratch=base)
    section.timings += [first, after, plain, second]
    failed = next((t for t in (first, after, plain, second) if not t.ok), None)
    if failed is not None:
        section.check(f"{failed.label}: runs", "exit 0", failed.failure(), False)
        return
    same = (after.out_dir / "sitemap.xml").read_bytes() == (
        second.out_dir / "sitemap.xml"
    ).read_bytes()
    section.check(
        f"{site.name}: both second runs", "same bytes", "same" if same else "differ", same
    )
    ratio = second.wall_s / plain.wall_s
    section.check(
        f"{site.name}: second run, nothing new, vs plain",
        f"≤ {SECOND_TARGET:.2f}×",
        f"{ratio:.2f}× ({second.wall_s:.2f} s vs {plain.wall_s:.2f} s)",
        ratio <= SECOND_TARGET,
    )
    ratio = after.wall_s / plain.wall_s
    section.check(
        f"{site.name}: second run, {NEW} new commits, vs plain",
        "report",
        f"{ratio:.2f}× ({after.wall_s:.2f} s)",
        True,
    )
