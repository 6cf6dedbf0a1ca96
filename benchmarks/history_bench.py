"""`make bench` section content-dates-2k: content dates from git on a big site, first run and
second run, against plain git dates on the same tree (issue 22's targets).

The repository (built once with `git fast-import` and repacked as a clone's pack, cached under
benchmarks/out/data/): 2,000
pages of about 200 KB (fingerprint_bench.make_page with a 150-paragraph article and a
215-link navigation: 400 MB of HTML; each paragraph names its page, so no two pages share an
article line), each written by all 5 commits, 2 GB of versions.
Every commit re-renders every page (new asset hashes and query strings, a new generator
version); commit 3 also renames a navigation label and commits 4 and 5 change the footer's
year (furniture outside <main>); page n's article is edited once, by commit 2 + n % 4. So the
walk back from the newest version reads 1 to 4 older versions of a page (2.5 on average, the
order the issue's real sites read: 2,528 older versions on a 416 MB site) and each page's
content date is the commit that edited its article. A branch `next` adds one commit that
edits page 0.

Timed: `sitemill build` with plain git dates (--no-content-dates); the first run with content
dates (no state); the same with --workers 1; the second run on `next` from the first run's
state. Checked: the first run dates every page by its article's commit, the second moves page
0 only, 1 and N workers write the same bytes, and the ratios to the plain run (first ≤ 4x,
second ≤ 1.5x).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from datasets import BASE_URL, git_env, run_git
from fingerprint_bench import make_page
from harness import SitemapSet, Timing, lastmod_timestamp, read_sitemaps, time_commands

PAGES, QUICK_PAGES = 2_000, 200
VERSIONS = 5
SEEDS = 40  # distinct generated pages; page n is seed n % SEEDS with its own title
FIRST_TARGET, SECOND_TARGET = 4.0, 1.5
_REPO_VERSION = 2
_START = int(datetime(2024, 3, 1, tzinfo=UTC).timestamp())
_DAY = 86_400


def commit_time(number: int) -> int:
    """Commit ``number`` (1-based; 6 is the one on `next`): a day apart, at 10:00 UTC."""
    return _START + (number - 1) * _DAY + 10 * 3600


def path_of(page: int) -> str:
    return f"s{page % 20:02d}/p{page:04d}/index.html"


def url_of(page: int) -> str:
    return BASE_URL + path_of(page).removesuffix("index.html")


def edited_by(page: int) -> int:
    """The commit that edits page ``page``'s article (its content date)."""
    return 2 + page % (VERSIONS - 1)


def _renders(version: int) -> list[bytes]:
    """The SEEDS generated pages as commit ``version`` renders them (furniture included)."""
    pages = []
    for seed in range(SEEDS):
        page = make_page(
            seed, build=f"b{version:03d}", generator=f"0.12{version}", paragraphs=150, nav=215
        )
        if version >= 3:  # a navigation label gains a word
            page = page.replace(b'href="/docs/section-0/">', b'href="/docs/section-0/">Guide: ')
        if version >= 4:  # the footer's copyright year
            page = page.replace(b"</ul><!-- built", f"</ul>© {2020 + version}<!-- built".encode())
        pages.append(page)
    return pages


def _page(renders: list[bytes], page: int, version: int) -> bytes:
    data = renders[page % SEEDS].replace(b"Example Docs", f"Docs page {page}".encode(), 1)
    # Every paragraph the page's own (pages share their navigation, head and footer, as a
    # site's do, but no article text: the line memo finds nothing another page wrote).
    data = data.replace(b".</p>", f" (page {page}).</p>".encode())
    data = data.replace(b"https://example.com/docs/page/", url_of(page).encode(), 1)
    if version >= edited_by(page):
        edit = f'<article class="prose"><p>Page {page}: edited by commit {edited_by(page)}.</p>'
        data = data.replace(b'<article class="prose">', edit.encode(), 1)
    if version >= 6 and page == 0:
        data = data.replace(b'<article class="prose">', b'<article class="prose"><p>New.</p>', 1)
    return data


def _commit(number: int, branch: str, message: str) -> bytes:
    who = f"Bench <bench@example.com> {commit_time(number)} +0000"
    text = message.encode() + b"\n"
    head = f"commit refs/heads/{branch}\nauthor {who}\ncommitter {who}\ndata {len(text)}\n"
    return head.encode() + text


def _stream(pages: int) -> Iterator[bytes]:
    for version in range(1, VERSIONS + 1):
        renders = _renders(version)
        yield _commit(version, "main", f"Render {version}")
        for page in range(pages):
            data = _page(renders, page, version)
            yield f"M 100644 inline {path_of(page)}\ndata {len(data)}\n".encode() + data
        yield b"\n"
    renders = _renders(VERSIONS)
    yield _commit(VERSIONS + 1, "next", "Edit page 0") + b"from refs/heads/main\n"
    data = _page(renders, 0, VERSIONS + 1)
    yield f"M 100644 inline {path_of(0)}\ndata {len(data)}\n".encode() + data + b"\n"


def ensure_history_repo(directory: Path, pages: int) -> Path:
    """The repository above, built once; checked out at `main`."""
    repo = directory / f"history-{pages}.v{_REPO_VERSION}"
    if not (repo / ".git").is_dir():
        partial = repo.with_name(repo.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        run_git("init", "--quiet", "--initial-branch=main", cwd=partial)
        with subprocess.Popen(
            ["git", "fast-import", "--quiet"], cwd=partial, stdin=subprocess.PIPE, env=git_env()
        ) as importer:
            assert importer.stdin is not None
            for chunk in _stream(pages):
                importer.stdin.write(chunk)
            importer.stdin.close()
            if importer.wait() != 0:
                raise RuntimeError("git fast-import failed")
        # As a clone gets it: one pack whose newest versions are whole and older ones deltas
        # of them (fast-import chains each version on the one before: reading an old version
        # then costs git 16x more CPU than in a real clone).
        run_git("repack", "-a", "-d", "-f", "-q", cwd=partial)
        run_git("checkout", "--quiet", "--force", "main", cwd=partial)
        partial.replace(repo)
    run_git("checkout", "--quiet", "--force", "main", cwd=repo)
    return repo


def _dates(out_dir: Path) -> dict[str, int | None]:
    return {
        entry.loc: lastmod_timestamp(entry.lastmod)
        for _, entry in read_sitemaps(out_dir, SitemapSet())
    }


def _check_dates(section: Any, label: str, out_dir: Path, pages: int, *, second: bool) -> None:
    try:
        found = _dates(out_dir)
    except (OSError, ValueError, SyntaxError) as exc:
        section.check(f"{label}: dates", "the article's commit", f"unreadable: {exc}", False)
        return
    problem = "" if len(found) == pages else f"{len(found):,} URLs, expected {pages:,}"
    for page in range(pages):
        want = commit_time(VERSIONS + 1 if second and page == 0 else edited_by(page))
        if not problem and found.get(url_of(page)) != want:
            problem = f"{url_of(page)}: {found.get(url_of(page))}, expected {want}"
    measured = problem or f"{pages:,} pages, each its article's commit"
    section.check(f"{label}: dates", "the article's commit", measured, not problem)


def bench_history(
    section: Any, *, quick: bool, sitemill: list[str], repeat: int, out: Path
) -> None:
    """Fill ``section`` (run.Section): the timings and checks described above."""
    pages = QUICK_PAGES if quick else PAGES
    repo = ensure_history_repo(out / "data", pages)
    base = out / "content-dates-2k"
    command = [*sitemill, "build", str(repo), "--base-url", BASE_URL]

    def timing(label: str, name: str, *extra: str) -> Timing:
        return Timing(label, [*command, "--out", str(base / name), *extra], base / name)

    plain = timing("plain git dates (--no-content-dates)", "plain", "--no-content-dates")
    first = timing("content dates, first run", "first")
    single = timing("content dates, first run, --workers 1", "single", "--workers", "1")
    time_commands([plain, first, single], repeat=repeat, scratch=base)
    section.timings += [plain, first, single]
    failed = next((t for t in (plain, first, single) if not t.ok), None)
    if failed is not None:
        section.check(f"{failed.label}: runs", "exit 0", failed.failure(), False)
        return
    _check_dates(section, "first run", first.out_dir, pages, second=False)
    same = (first.out_dir / "sitemap.xml").read_bytes() == (
        single.out_dir / "sitemap.xml"
    ).read_bytes()
    section.check("1 worker vs the machine's", "same bytes", "same" if same else "differ", same)
    state = base / "first-state.json.gz"
    shutil.copyfile(first.out_dir / "sitemill-state.json.gz", state)
    run_git("checkout", "--quiet", "--force", "next", cwd=repo)
    try:
        second = timing(
            "content dates, second run (one new commit)",
            "second",
            "--state",
            str(base / "state.json.gz"),
        )
        for _ in range(repeat):
            shutil.copyfile(state, base / "state.json.gz")
            time_commands([second], repeat=1, scratch=base)
        section.timings.append(second)
    finally:
        run_git("checkout", "--quiet", "--force", "main", cwd=repo)
    if not second.ok:
        section.check(f"{second.label}: runs", "exit 0", second.failure(), False)
        return
    _check_dates(section, "second run", second.out_dir, pages, second=True)
    for name, run, target in (("first", first, FIRST_TARGET), ("second", second, SECOND_TARGET)):
        ratio = run.wall_s / plain.wall_s
        section.check(
            f"{name} run vs plain git dates", f"≤ {target:.2f}×", f"{ratio:.2f}×", ratio <= target
        )
    speedup = single.wall_s / first.wall_s
    section.check(
        f"first run: {os.cpu_count()} workers vs 1", "report", f"{speedup:.2f}× faster", True
    )
