"""`make bench` section second-impls: each second implementation of one job against the first.

Issue 68 keeps a second way of doing a job only where it is at least 1.5x faster on a path a
user waits for. Each pair runs here the same job both ways, in fresh child processes taking
turns (A B A B ...), and the ratio of their CPU times is the median of the pairs' (a shared
machine's load moves both alike; wall time is reported beside it). The outputs are checked equal.

- render-compiled: `sitemill urls` of the 100,000-URL list with a templates_dir holding copies of
  the built-in templates (a user's template the compiler takes), entry by entry: the compiled
  renderer (render.compiled) against Jinja rendering the same template (render.split);
- render-blocks: `sitemill urls` of the 1,000,000-URL list (`--quick`: 100,000): a block at a
  time (render.blocks, render.lineform) against the compiled renderer entry by entry;
- url-dedupe: the same, the list's duplicate check as `sitemill urls` runs it, keyed by Python's
  hash (bounded.dedupe.SeenUrlBytes) on a helper core a block behind (bounded.repeatfinder's
  ForkedRepeats), against the plain check: BLAKE2b keys (SeenUrls' keys, on the same bytes) in
  the one process (`--workers 1`). Judged by wall time, which the helper core shortens (its CPU
  is counted too: it adds some); the two apart are reported in benchmarks/README.md;
- git-names: the last commit of each of build-git-10k's 10,000 files (`--quick`: 1,000) from one
  `git log` pass:
  the `--name-only` parser (history.logparse) against the `--raw` one (history.versions), which
  would do the same job (its first version of each file), both stopping once every file is dated.

The content fingerprint's twins were measured here at full size and retired (issue 80): a page
reduced line by line with a memo of each line's reduction (linememo) 1.19x, its new lines in
one call (linebatch) 1.14x, the first pass by one split (tagpass) 1.00x, a page read in order by
one split (orderedpass) 0.85x, each against its fallback (benchmarks/README.md).

`python benchmarks/second_impls_bench.py urls MODE ARGS...` is `sitemill ARGS...` with one path
switched off (MODE: default, noblocks, jinja, stablekeys); `... names REPO WAY` prints the CPU of
one way's dates and their digest.
"""

from __future__ import annotations

import hashlib
import json
import resource
import shutil
import statistics
import subprocess
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TARGET = 1.5


def _switch_off(mode: str) -> None:
    """Patch this process's sitemill so that ``mode``'s path does not run."""
    import sitemill.render.renderer as renderer

    if mode in ("noblocks", "jinja"):

        class _NoBlocks:  # isinstance(entries, UrlBlocks) is False: entry by entry
            pass

        renderer.UrlBlocks = _NoBlocks  # type: ignore[misc,assignment]
    if mode == "jinja":
        import sitemill.render.compiled as compiled

        compiled.try_compile_template = lambda template: compiled.Declined("switched off")
        compiled.compile_template = lambda template: None
    if mode == "stablekeys":
        from hashlib import blake2b
        from itertools import repeat
        from operator import methodcaller, or_

        import sitemill.bounded.dedupe as dedupe

        digest, key8 = methodcaller("digest"), partial(blake2b, digest_size=8)
        signed = partial(int.from_bytes, byteorder="big", signed=True)

        def keys(urls: Any) -> Any:
            return map(or_, map(signed, map(digest, map(key8, urls))), repeat(1))

        dedupe.SeenUrlBytes._keys = staticmethod(keys)  # type: ignore[assignment]
        dedupe.SeenUrlBytes._key = staticmethod(lambda url: signed(key8(url).digest()) | 1)  # type: ignore[assignment]


def _names(repo: Path, way: str) -> dict[str, Any]:
    """One way's last-commit dates of every file of ``repo``'s HEAD, and their CPU."""
    from sitemill.lastmod.history import lastcommit
    from sitemill.lastmod.history.versions import VersionWalk, parse_raw_log

    top, head, _ = lastcommit._locate(repo)
    assert head is not None
    git = lastcommit._git(top)
    targets = {n for n in git.output("ls-tree", "-r", "-z", "--name-only", head).split(b"\0") if n}
    started = _cpu()
    if way == "name-only":
        dates = lastcommit._read_log_dates(git, head, set(targets))
    else:
        walk, left = VersionWalk(targets), set(targets)
        command = lastcommit.log_command(head, "--no-renames", "--raw", "--no-abbrev")
        with git.stream(*command) as output:
            for commit in parse_raw_log(output.stdout, walk.relevant):
                walk.visit(commit)
                left -= commit.blocks[0].keys() if commit.blocks else set()
                if not left:
                    output.stop()
                    break
        dates = {name: chain[0].time for name, chain in walk.versions.items()}
    cpu = _cpu() - started
    digest = hashlib.sha256(repr(sorted(dates.items())).encode()).hexdigest()
    return {"cpu": cpu, "files": len(dates), "digest": digest}


def _cpu() -> float:
    own, children = (
        resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _run(command: list[str]) -> tuple[float, float, str]:
    """CPU and wall of one child (its own children counted), and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command[:4])}: exit {done.returncode}: {done.stderr[-300:]}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return cpu, wall, done.stdout


def _pairs(first: list[str], second: list[str], rounds: int) -> tuple[float, float, list[str]]:
    """Median ratios second/first of CPU and wall over ``rounds`` interleaved pairs (one warm-up
    pair first), and the last outputs of each."""
    cpu, wall, outputs = [], [], ["", ""]
    for number in range(rounds + 1):
        a = _run(first)
        b = _run(second)
        outputs = [a[2], b[2]]
        if number:
            cpu.append(b[0] / a[0])
            wall.append(b[1] / a[1])
    return statistics.median(cpu), statistics.median(wall), outputs


def _out(command: list[str]) -> Path:
    return Path(command[command.index("--out") + 1])


def _same_files(one: Path, other: Path) -> bool:
    names = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
    if names != sorted(p.relative_to(other) for p in other.rglob("*") if p.is_file()):
        return False
    return all((one / name).read_bytes() == (other / name).read_bytes() for name in names)


def bench_second_impls(section: Any, *, out: Path, quick: bool, repeat: int) -> None:
    """Fill ``section`` (run.Section) with each pair's ratio and a check of the 1.5x it needs."""
    from datasets import RepoPlan, ensure_git_repo, ensure_url_list

    rounds = 3 if quick else max(repeat, 5)
    base = out / "second-impls"
    shutil.rmtree(base, ignore_errors=True)
    templates = base / "templates"
    templates.mkdir(parents=True)
    for template in (HERE.parent / "templates").glob("*.j2"):
        shutil.copy(template, templates / template.name)
    small = ensure_url_list(out / "data", 100_000)
    big = small if quick else ensure_url_list(out / "data", 1_000_000)

    def urls(mode: str, folder: str, listed: Path, *extra: str) -> list[str]:
        return [
            *(sys.executable, str(Path(__file__)), "urls", mode, "urls", str(listed)),
            *("--base-url", "https://www.example.com/", "--out", str(base / folder), *extra),
        ]

    cases = [
        (
            "render-compiled",
            "the compiled renderer against Jinja, entry by entry",
            urls("noblocks", "compiled", small, "--templates-dir", str(templates)),
            urls("jinja", "jinja", small, "--templates-dir", str(templates)),
        ),
        (
            "render-blocks",
            "a block at a time against entry by entry",
            urls("default", "blocks", big),
            urls("noblocks", "entries", big),
        ),
        (
            "url-dedupe",
            "hash keys and a helper core against BLAKE2b keys in process",
            urls("default", "hashkeys", big),
            urls("stablekeys", "blake2b", big, "--workers", "1"),
        ),
    ]
    for name, what, first, second in cases:
        by_wall = name == "url-dedupe"
        try:
            cpu, wall, _ = _pairs(first, second, rounds)
        except RuntimeError as exc:
            section.check(f"{name}: runs", "exit 0", str(exc), False)
            continue
        same = _same_files(_out(first), _out(second))
        section.check(f"{name}: the same bytes", "same", "same" if same else "differ", same)
        measured = f"{cpu:.2f}x CPU, {wall:.2f}x wall"
        section.check(
            f"{name}: {what}",
            f"≥ {TARGET}x {'wall' if by_wall else 'CPU'}",
            *_judged(measured, wall if by_wall else cpu, quick),
        )
    plan = RepoPlan(1_000, 100) if quick else RepoPlan(10_000, 1_000)
    repo = ensure_git_repo(out / "data", plan)
    names = [sys.executable, str(Path(__file__)), "names", str(repo)]
    ratios, digests = [], set()
    for number in range(rounds + 1):
        first = json.loads(_run([*names, "name-only"])[2])
        second = json.loads(_run([*names, "raw"])[2])
        digests |= {first["digest"], second["digest"]}
        if number:
            ratios.append(second["cpu"] / first["cpu"])
    same = len(digests) == 1
    section.check("git-names: the same dates", "same", "same" if same else "differ", same)
    ratio = statistics.median(ratios)
    section.check(
        f"git-names: --name-only against --raw, {plan.files:,} files",
        f"≥ {TARGET}x CPU",
        *_judged(f"{ratio:.2f}x CPU", ratio, quick),
    )


def _judged(measured: str, ratio: float, quick: bool) -> tuple[str, bool]:
    """The 1.5x is a user's wait at full size: ``--quick``'s tenth (a start-up weighs more) is
    reported, not judged."""
    if quick and ratio < TARGET:
        return f"{measured} (--quick: reported, judged at full size)", True
    return measured, ratio >= TARGET


if __name__ == "__main__":
    if sys.argv[1] == "names":
        print(json.dumps(_names(Path(sys.argv[2]), sys.argv[3])))
    else:
        shutil.rmtree(sys.argv[sys.argv.index("--out") + 1], ignore_errors=True)
        _switch_off(sys.argv[2])
        from sitemill.cli import main

        sys.exit(main(sys.argv[3:]))
