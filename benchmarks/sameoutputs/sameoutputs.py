"""Byte-identity of sitemill's outputs between a base revision and this checkout, on real sites.

    make sameoutputs BASE=<rev> [SITES=file.json] [DATA=dir] [MIRRORS=dir] [ONLY=name]
    .venv/bin/python benchmarks/sameoutputs/sameoutputs.py --base REV [--sites ...] [--data ...]

Run by hand (README.md beside this file): it needs local checkouts of public repositories,
which no test may depend on. BASE is installed into a venv of its own under build/sameoutputs/
(cached by commit); this checkout (its work tree, as .venv has it) is the other side. For each
site both revisions run, one after the other, the same steps on the same copy of the checkout
(with its git history) at the same path, each command at a fixed time (runner.py): in a folder,
a first build writing every file sitemill writes, one deterministic commit (a page removed, one
edited, one moved), `diff --json`, `diff --write-redirects`, the second build, `diff --against`
the first build's state, `indexnow --dry-run` and `why` on 50 pages; in a moto bucket (a
ThreadedMotoServer on 127.0.0.1), `sitemill s3` with one state, the partitioned run (`--shards on
--shard-fill 20`, its state in a bucket of its own) and a distributed rebuild (the Lambda steps
of infra/rebuild.asl.json), each before and after the same change. Every file written, every
object whose bytes a run changed, stdout, stderr and the exit code of each step are kept per
revision (build/sameoutputs/out/) and compared byte for byte. The only text normalised is the
moto endpoint's port in stdout and stderr. Exits 1 when anything differs, 2 when a site could
not be run. Nothing contacts the network.
"""

from __future__ import annotations

import argparse
import difflib
import gzip
import hashlib
import json
import logging
import mimetypes
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
RUNNER = HERE / "runner.py"
DAY = 86400
WHY_PAGES = 50
BUCKET_WHY_EVERY = 5  # `why --bucket` on every fifth of those pages, in each bucket
UPLOAD_LIMIT = 2 * 1024 * 1024  # objects larger than this are left out of the buckets (both sides)
INDEXNOW_KEY = "5a3e0c1d2b4f6a7c8e9d0b1a2c3d4e5f"
EDIT = b"<p>sameoutputs: a paragraph added by the harness's commit.</p>"
STATE_BUCKET = "sameoutputs-state"
INSTALLED = ".installed-s3"  # (the stamp: sitemill with its s3 extra, and time-machine)
PORT = re.compile(rb"127\.0\.0\.1:\d+")


@dataclass(frozen=True)
class Site:
    name: str
    base_url: str
    pristine: Path


@dataclass(frozen=True)
class Change:
    """The one commit between the first and the second runs (same on both sides)."""

    removed: str
    edited: str
    moved: str
    moved_to: str
    at: int


@dataclass(frozen=True)
class Facts:
    """What both sides share: the times, the change, the pages asked about, the bucket's files."""

    tip: int
    change: Change
    why: tuple[str, ...]
    dates: dict[str, int]


# ---------------------------------------------------------------------------------- revisions


def git(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, env=env, text=True
    )
    return done.stdout


def base_python(rev: str, work: Path) -> tuple[Path, str]:
    """BASE's Python: a venv of its own, sitemill installed from the commit (cached)."""
    sha = git("rev-parse", "--verify", f"{rev}^{{commit}}").strip()
    venv = work / "venvs" / sha[:12]
    python = venv / "bin" / "python"
    if (venv / INSTALLED).exists():
        return python, sha
    source = work / "src" / sha[:12]
    shutil.rmtree(venv, ignore_errors=True)
    if source.exists():
        git("worktree", "remove", "--force", str(source))
    print(f"installing {sha[:12]} into {venv} ...", flush=True)
    git("worktree", "add", "--detach", str(source), sha)
    try:
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run(
            [python, "-m", "pip", "install", "--quiet", f"{source}[s3]", "time-machine"], check=True
        )
    finally:
        git("worktree", "remove", "--force", str(source))
    (venv / INSTALLED).touch()
    return python, sha


# -------------------------------------------------------------------------------------- sites


def load_sites(path: Path, data: Path, mirrors: Path, only: list[str]) -> list[Site | str]:
    """Each site of ``path``, checked out under ``data`` first when it is not there yet (from
    its mirror: realsites/checkout.py); a site that cannot be is its reason."""
    sites: list[Site | str] = []
    for entry in json.loads(path.read_text()):
        if only and entry["name"] not in only:
            continue
        pristine = data / entry["name"]
        if not (pristine / ".git").exists():
            subprocess.run(
                [sys.executable, str(ROOT / "benchmarks/realsites/checkout.py"),
                 "--sites", str(path), "--mirrors", str(mirrors), "--data", str(data),
                 "--only", entry["name"]],
                check=False,
            )  # fmt: skip
        if not (pristine / ".git").exists():
            sites.append(f"{entry['name']}: no checkout in {data} (fetch github:{entry['repo']})")
            continue
        sites.append(Site(entry["name"], entry["base_url"], pristine))
    return sites


def site_facts(site: Site, why_pages: int = WHY_PAGES) -> Facts:
    tip = int(git("log", "-1", "--format=%ct", "HEAD", cwd=site.pristine).strip())
    listed = git("-c", "core.quotepath=off", "ls-files", "-z", "--", "*.html", cwd=site.pristine)
    pages = sorted(p for p in listed.split("\0") if p and (site.pristine / p).is_file())
    movable = [p for p in pages if p not in ("index.html", "404.html")]
    if len(movable) < 3:
        raise SystemExit(f"{site.name}: fewer than 4 pages")
    n = len(movable)
    removed, edited, moved = movable[n // 3], movable[n // 2], movable[(2 * n) // 3]
    head, _, tail = moved.rpartition("/")
    moved_to = f"{head}/moved-{tail}" if head else f"moved-{tail}"
    change = Change(removed, edited, moved, moved_to, tip + DAY + 3600)
    after = sorted([*(p for p in pages if p not in (removed, moved)), moved_to])
    count = min(why_pages, len(after))
    why = tuple(dict.fromkeys(after[i * len(after) // count] for i in range(count)))
    return Facts(tip, change, why, file_dates(site.pristine, tip))


def file_dates(checkout: Path, tip: int) -> dict[str, int]:
    """Each path's last commit time (an object's LastModified in the buckets); git's rename
    detection off: it reads blobs, which a mirror may lack."""
    dates: dict[str, int] = {}
    log = subprocess.run(
        ["git", "-c", "core.quotepath=off", "log", "--no-renames", "--format=@%ct", "--name-only"],
        cwd=checkout, capture_output=True, text=True, check=False,
    ).stdout  # fmt: skip
    when = tip
    for line in log.splitlines():
        if line.startswith("@"):
            when = int(line[1:])
        elif line:
            dates.setdefault(line, when)
    return dates


def copy_checkout(source: Path, target: Path) -> None:
    """The checkout at ``target``: its files copied (times kept), its .git hard-linked (git
    never writes a file in place: a new object, index or ref is a new file)."""
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    subprocess.run(["cp", "-al", str(source / ".git"), str(target / ".git")], check=True)
    for entry in source.iterdir():
        if entry.name != ".git":
            subprocess.run(["cp", "-a", str(entry), str(target)], check=True)


def commit_change(checkout: Path, change: Change) -> None:
    """The change as one commit at a fixed time and author: the same commit on both sides."""
    when = f"@{change.at} +0000"
    env = {
        **os.environ,
        "GIT_AUTHOR_DATE": when,
        "GIT_COMMITTER_DATE": when,
        "GIT_AUTHOR_NAME": "sameoutputs",
        "GIT_AUTHOR_EMAIL": "sameoutputs@example.invalid",
        "GIT_COMMITTER_NAME": "sameoutputs",
        "GIT_COMMITTER_EMAIL": "sameoutputs@example.invalid",
    }
    edited = checkout / change.edited
    edited.write_bytes(edited_bytes(edited.read_bytes()))
    git("rm", "-q", "--", change.removed, cwd=checkout)
    git("mv", "--", change.moved, change.moved_to, cwd=checkout)
    git("add", "--", change.edited, cwd=checkout)
    # (plumbing: `git commit` refuses a tree naming a blob the mirror lacks; write-tree need not)
    tree = git("write-tree", "--missing-ok", cwd=checkout).strip()
    message = "sameoutputs: one page removed, one edited, one moved"
    commit = git("commit-tree", tree, "-p", "HEAD", "-m", message, cwd=checkout, env=env)
    git("update-ref", "HEAD", commit.strip(), cwd=checkout)


def edited_bytes(page: bytes) -> bytes:
    lowered = page.lower()
    for tag in (b"</article>", b"</main>", b"</body>"):
        at = lowered.find(tag)
        if at >= 0:
            return page[:at] + EDIT + page[at:]
    return page + EDIT


# ----------------------------------------------------------------------------------- the runs


def clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SITEMILL_", "AWS_"))}
    env.update(
        SITEMILL_INDEXNOW_KEY=INDEXNOW_KEY, AWS_ACCESS_KEY_ID="testing",
        AWS_SECRET_ACCESS_KEY="testing", AWS_DEFAULT_REGION="us-east-1",
        AWS_CONFIG_FILE="/dev/null", AWS_SHARED_CREDENTIALS_FILE="/dev/null",
        AWS_EC2_METADATA_DISABLED="true", PYTHONIOENCODING="utf-8", TZ="UTC", NO_COLOR="1",
    )  # fmt: skip
    return env


def flags(site: Site) -> list[str]:
    """The options of every run; no sitemap.html where the site has one of its own (sitemill
    refuses to write over it: python-markdown)."""
    html = [] if (site.pristine / "sitemap.html").exists() else ["--html-sitemap"]
    return [
        *html,
        "--base-url",
        site.base_url,
        "--llms-txt",
        "--llms-full",
        "--llms-pages",
        "--robots-txt",
        "--indexnow",
        "later",
        "--indexnow-write-key-file",
    ]


TIMES: dict[str, float] = {}


def run(python: Path, steps: list[dict[str, Any]], script: Path) -> None:
    script.write_text(json.dumps(steps))
    begun = time.monotonic()
    subprocess.run([str(python), str(RUNNER), str(script)], check=True, env=clean_env())
    TIMES[Path(steps[0]["out"]).name] = round(time.monotonic() - begun, 2)


def folder_runs(python: Path, site: Site, facts: Facts, work: Path, out: Path) -> None:
    """The folder's steps, each command in a process of its own (the 50 `why` in one)."""
    tree = work / "tree"
    copy_checkout(site.pristine, tree)
    first, second = facts.tip + DAY, facts.tip + 2 * DAY
    opts = flags(site)
    run(python, [{"at": first, "argv": ["build", str(tree), *opts], "out": str(out / "01-build")}],
        work / "script.json")  # fmt: skip
    snapshot_tree(tree, out / "01-build" / "files")
    state1 = work / "state1.json.gz"  # (none when the build failed: then diff --against says so)
    if (tree / "sitemill-state.json.gz").exists():
        shutil.copyfile(tree / "sitemill-state.json.gz", state1)
    commit_change(tree, facts.change)
    redirects = work / "redirects" / "_redirects"
    redirects.parent.mkdir(parents=True, exist_ok=True)
    steps = [
        {
            "at": second,
            "argv": ["diff", str(tree), *opts, "--json"],
            "out": str(out / "02-diff-json"),
        },
        {
            "at": second,
            "argv": ["diff", str(tree), *opts, "--write-redirects", str(redirects)],
            "out": str(out / "03-diff-redirects"),
        },
        {"at": second, "argv": ["build", str(tree), *opts], "out": str(out / "04-build")},
        {
            "at": second,
            "argv": ["diff", str(tree), *opts, "--against", str(state1)],
            "out": str(out / "05-diff-against"),
        },
        {
            "at": second,
            "argv": ["indexnow", str(tree), *opts, "--dry-run"],
            "out": str(out / "06-indexnow-dry-run"),
        },
    ]
    for step in steps:
        run(python, [step], work / "script.json")
        if step["out"].endswith("03-diff-redirects") and redirects.exists():
            shutil.copyfile(redirects, out / "03-diff-redirects" / "_redirects")
        if step["out"].endswith("04-build"):
            snapshot_tree(tree, out / "04-build" / "files")
    whys = [
        {
            "at": second,
            "argv": ["why", page, str(tree), *opts],
            "out": str(out / "07-why" / f"{n:02d}"),
        }
        for n, page in enumerate(facts.why)
    ]
    run(python, whys, work / "script.json")


def snapshot_tree(tree: Path, into: Path) -> None:
    """Every file the run wrote or deleted: what git sees differ from the commit (ignored files
    too), its bytes kept, a deleted file listed in ``deleted`` (beside ``into``)."""
    status = git("status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored=matching",
                 cwd=tree)  # fmt: skip
    deleted = []
    for entry in status.split("\0"):
        if not entry:
            continue
        path = entry[3:]
        if (tree / path).is_file():
            target = into / path
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(tree / path, target)
        elif not (tree / path).exists():
            deleted.append(path)
    into.mkdir(parents=True, exist_ok=True)
    (into.parent / "deleted").write_text("".join(f"{p}\n" for p in sorted(deleted)))


class Moto:
    """moto's S3 on 127.0.0.1, in this process (its backend is this process's too)."""

    def __init__(self) -> None:
        from moto.core import DEFAULT_ACCOUNT_ID
        from moto.s3.models import s3_backends
        from moto.server import ThreadedMotoServer

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.backend = s3_backends[DEFAULT_ACCOUNT_ID]["aws"]
        self.backend.reset()
        logging.getLogger("werkzeug").setLevel(logging.ERROR)  # (a line per request)
        self.server = ThreadedMotoServer(ip_address="127.0.0.1", port=self.port, verbose=False)
        self.server.start()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.uploaded: dict[tuple[str, str], str] = {}

    def stop(self) -> None:
        self.server.stop()
        self.backend.reset()

    def put(self, bucket: str, key: str, data: bytes, when: int) -> None:
        stored = self.backend.put_object(bucket, key, data)
        kind = mimetypes.guess_type(key)[0] or "application/octet-stream"
        stored.set_metadata({"Content-Type": kind})
        stored.last_modified = datetime.fromtimestamp(when, UTC).replace(tzinfo=None)
        self.uploaded[(bucket, key)] = hashlib.md5(data).hexdigest()

    def delete(self, bucket: str, key: str) -> None:
        self.backend.delete_object(bucket, key)
        self.uploaded.pop((bucket, key), None)

    def upload_site(self, bucket: str, tree: Path, dates: dict[str, int], tip: int) -> None:
        self.backend.create_bucket(bucket, "us-east-1")
        for path in sorted(walk(tree)):
            data = (tree / path).read_bytes()
            if len(data) <= UPLOAD_LIMIT:
                self.put(bucket, path, data, dates.get(path, tip))

    def change(self, bucket: str, tree: Path, change: Change) -> None:
        """The folder's commit, as a deploy makes it: objects deleted and uploaded."""
        self.delete(bucket, change.removed)
        moved = (tree / change.moved).read_bytes()
        self.delete(bucket, change.moved)
        self.put(bucket, change.moved_to, moved, change.at)
        edited = edited_bytes((tree / change.edited).read_bytes())
        self.put(bucket, change.edited, edited, change.at)

    def snapshot(self, into: Path) -> None:
        """Every object a run wrote (new, or bytes other than uploaded) with its headers, and
        every uploaded object that is gone, per bucket."""
        import boto3

        client = boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            region_name="us-east-1",
            aws_access_key_id="testing",
            aws_secret_access_key="testing",
        )
        into.mkdir(parents=True, exist_ok=True)
        gone = []
        for bucket in sorted(b["Name"] for b in client.list_buckets()["Buckets"]):
            seen = set()
            for page in client.get_paginator("list_objects_v2").paginate(Bucket=bucket):
                for obj in page.get("Contents", []):
                    key = obj["Key"]
                    seen.add(key)
                    if self.uploaded.get((bucket, key)) == obj["ETag"].strip('"'):
                        continue
                    got = client.get_object(Bucket=bucket, Key=key)
                    target = into / bucket / key
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(got["Body"].read())
                    headers = {k: got.get(k) for k in ("ContentType", "ContentEncoding",
                               "CacheControl", "ContentDisposition", "Metadata")}  # fmt: skip
                    sidecar = into.parent / "headers" / bucket / (key + ".json")
                    sidecar.parent.mkdir(parents=True, exist_ok=True)
                    sidecar.write_text(json.dumps(headers, sort_keys=True, default=str) + "\n")
            gone += [f"{b}/{k}" for (b, k) in self.uploaded if b == bucket and k not in seen]
        (into.parent / "deleted").write_text("".join(f"{g}\n" for g in sorted(gone)))


def walk(tree: Path) -> Iterator[str]:
    for folder, dirs, files in os.walk(tree):
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in files:
            path = Path(folder, name)
            if path.is_file() and not path.is_symlink():
                yield path.relative_to(tree).as_posix()


def bucket_runs(python: Path, site: Site, facts: Facts, work: Path, out: Path) -> None:
    moto = Moto()
    try:
        _bucket_runs(moto, python, site, facts, work, out)
    finally:
        moto.stop()


def _bucket_runs(moto: Moto, python: Path, site: Site, facts: Facts, work: Path, out: Path) -> None:
    first, second, third = facts.tip + DAY, facts.tip + 2 * DAY, facts.tip + 3 * DAY
    opts = flags(site)
    s3 = ["s3", "--endpoint-url", moto.endpoint]
    state = f"s3://{STATE_BUCKET}/sharded/sitemill-state.json.gz"
    sharded = ["--shards", "on", "--shard-fill", "20", "--state", state]
    # The partitioned runs and the distributed rebuild after them share one configuration, less
    # what a distributed rebuild refuses (sitemap.html lists the whole site) or a sharded bucket
    # does not write (llms-full.txt, the Markdown twins).
    partitioned = [f for f in opts if f not in ("--html-sitemap", "--llms-full", "--llms-pages")]
    moto.backend.create_bucket(STATE_BUCKET, "us-east-1")
    moto.upload_site("site", site.pristine, facts.dates, facts.tip)
    moto.upload_site("sharded", site.pristine, facts.dates, facts.tip)
    script = work / "script.json"

    def step(name: str, at: int, spec: dict[str, Any]) -> None:
        run(python, [{"at": at, **spec, "out": str(out / name)}], script)
        moto.snapshot(out / name / "objects")
        normalise(out / name, moto.port)

    step("11-s3", first, {"argv": [*s3, "--bucket", "site", *opts]})
    step("12-s3-shards", first, {"argv": [*s3, "--bucket", "sharded", *partitioned, *sharded]})
    moto.change("site", site.pristine, facts.change)
    moto.change("sharded", site.pristine, facts.change)
    step("13-s3-dry-run", second, {"argv": [*s3, "--bucket", "site", *opts, "--dry-run"]})
    # `why --bucket` on a fifth of the folder's pages, from each bucket's state (the partitioned
    # one too) before the second run: the bucket run dry, one process for all.
    for name, bucket, more in (("13-why-bucket", "site", opts),
                               ("13-why-shards", "sharded", [*partitioned, *sharded])):  # fmt: skip
        whys = [
            {
                "at": second,
                "argv": ["why", page, "--bucket", bucket, *s3[1:], *more],
                "out": str(out / name / f"{n:02d}"),
            }
            for n, page in enumerate(facts.why[::BUCKET_WHY_EVERY])
        ]
        run(python, whys, script)
        moto.snapshot(out / name / "objects")
        for done in (out / name).iterdir():
            if done.name != "objects":
                normalise(done, moto.port)
    # The Lambda's diff of each bucket against its state, before the second run: the one state
    # object (the site's own, beside the sitemaps) and the partitioned state.
    diff_env = {"SITEMILL_BASE_URL": site.base_url, "SITEMILL_LLMS_TXT": "on",
                "SITEMILL_ROBOTS_TXT": "true", "SITEMILL_INDEXNOW": "later"}  # fmt: skip
    in_parts = {"SITEMILL_STATE": state, "SITEMILL_SHARDS": "on", "SITEMILL_SHARD_FILL": "20"}
    for name, bucket, more in (("13-diff-bucket", "site", {"SITEMILL_SHARDS": "off"}),
                               ("13-diff-shards", "sharded", in_parts)):  # fmt: skip
        env = {**diff_env, "SITEMILL_BUCKET": bucket, **more}
        step(name, second, {"diff": {"endpoint": moto.endpoint, "env": env}})
    step("14-s3", second, {"argv": [*s3, "--bucket", "site", *opts]})
    step("15-s3-shards", second, {"argv": [*s3, "--bucket", "sharded", *partitioned, *sharded]})
    env = {"SITEMILL_BUCKET": "sharded", "SITEMILL_STATE": state, "SITEMILL_SHARDS": "on",
           "SITEMILL_SHARD_FILL": "20", "SITEMILL_BASE_URL": site.base_url,
           "SITEMILL_LLMS_TXT": "on", "SITEMILL_ROBOTS_TXT": "true",
           "SITEMILL_INDEXNOW": "later"}  # fmt: skip
    spec = {"endpoint": moto.endpoint, "bucket": "sharded", "run": "full-sameoutputs", "env": env}
    step("16-distributed", third, {"steps": spec})


def normalise(step: Path, port: int) -> None:
    """The moto endpoint's port, the one thing a run prints that differs by design."""
    for name in ("stdout", "stderr"):
        path = step / name
        if path.exists():
            path.write_bytes(PORT.sub(b"127.0.0.1:PORT", path.read_bytes()))


# ------------------------------------------------------------------------------- comparison


def files_under(folder: Path) -> dict[str, Path]:
    return {p.relative_to(folder).as_posix(): p for p in folder.rglob("*") if p.is_file()}


# A state's history record names what dated its pages besides the files and the commit
# (jobs.treeseen: the sitemill version, DATING_RULES, the fingerprint key): a BASE across a
# version or rules change differs there by design (the next run walks the history once more
# instead of recalling dates older rules found). With everything else the same, a state
# differing there alone says the releases differ, not what they do.
SOURCE_DIGESTS = frozenset({"/history/inputs"})


def compare(site: str, base: Path, head: Path) -> tuple[int, list[str], list[str]]:
    """The number of files compared, a report of each difference, and the states that differ
    only by what dated their pages (SOURCE_DIGESTS)."""
    ours, theirs = files_under(base), files_under(head)
    problems, explained = [], []
    for name in sorted(ours.keys() | theirs.keys()):
        if name not in theirs or name not in ours:
            side = "BASE" if name in ours else "HEAD"
            problems.append(f"{site}: {name}: only {side} has it")
        elif ours[name].read_bytes() != theirs[name].read_bytes():
            if differing_fields(ours[name], theirs[name]) <= SOURCE_DIGESTS:
                explained.append(f"{site}: {name}: only history.inputs (what dated the pages)")
            else:
                problems.append(f"{site}: {name}: differs\n{short_diff(ours[name], theirs[name])}")
    return len(ours.keys() | theirs.keys()), problems, explained


def differing_fields(a: Path, b: Path) -> set[str]:
    """The JSON paths where two JSON files (gzip or not) differ; {""} when either is no JSON."""
    try:
        values = [json.loads(_plain(path.read_bytes())) for path in (a, b)]
    except ValueError:
        return {""}
    found: set[str] = set()

    def walk(x: Any, y: Any, at: str) -> None:
        if isinstance(x, dict) and isinstance(y, dict):
            for key in x.keys() | y.keys():
                walk(x.get(key), y.get(key), f"{at}/{key}")
        elif x != y:
            found.add(at)

    walk(*values, "")
    return found


def _plain(data: bytes) -> bytes:
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def short_diff(a: Path, b: Path, lines: int = 24) -> str:
    def text(path: Path) -> list[str]:
        data = _plain(path.read_bytes())
        try:  # (a state is one line of JSON: one line per value)
            return json.dumps(json.loads(data), indent=1, sort_keys=True).splitlines()
        except ValueError:
            return data.decode("utf-8", "replace").replace("><", ">\n<").splitlines()

    diff = list(difflib.unified_diff(text(a), text(b), "BASE", "HEAD", n=1, lineterm=""))
    shown = [line[:200] for line in diff[:lines]]
    more = f"\n    ... {len(diff) - lines} more lines" if len(diff) > lines else ""
    return "\n".join(f"    {line}" for line in shown) + more


# ------------------------------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the revision to compare with (git rev)")
    parser.add_argument("--sites", type=Path, default=HERE / "sites.json")
    parser.add_argument("--data", type=Path, default=ROOT / "build/sameoutputs/data")
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--work", type=Path, default=ROOT / "build/sameoutputs")
    parser.add_argument("--only", action="append", default=[], help="a site name (repeat)")
    parser.add_argument(
        "--head-python",
        type=Path,
        default=Path(sys.executable),
        help="the other side's Python (default: this one, the checkout's .venv)",
    )
    parser.add_argument("--why", type=int, default=WHY_PAGES, help="pages asked about (`why`)")
    parser.add_argument(
        "--strict",
        action="store_true",
        help="a state differing by the dating code's digest fails too",
    )
    args = parser.parse_args()
    work = args.work.resolve()
    base, sha = base_python(args.base, work)
    sides = {"base": base, "head": args.head_python}
    print(f"BASE {sha[:12]} ({base}) against HEAD's work tree ({args.head_python})", flush=True)
    failed, unrun, total = 0, 0, 0
    started = time.monotonic()
    for site in load_sites(args.sites, args.data.resolve(), args.mirrors, args.only):
        if isinstance(site, str):
            print(f"NOT RUN {site}", flush=True)
            unrun += 1
            continue
        try:
            count, problems, explained, times = run_site(site, sides, work, args.why)
        except (subprocess.CalledProcessError, OSError, SystemExit) as exc:
            print(f"NOT RUN {site.name}: {exc}", flush=True)
            unrun += 1
            continue
        total += count
        if args.strict:
            problems, explained = problems + explained, []
        verdict = "identical" if not problems else f"{len(problems)} DIFFER"
        if explained and not problems:
            verdict += f" but for the dating code's digest in {len(explained)} state(s)"
        print(f"{site.name}: {count} files compared, {verdict} "
              f"(BASE {times['base']:.0f} s, HEAD {times['head']:.0f} s)", flush=True)  # fmt: skip
        for problem in problems[:20]:
            print(problem)
        for note in explained[:3]:
            print(f"NOTE {note}")
        failed += bool(problems)
    minutes = (time.monotonic() - started) / 60
    print(f"{total} files compared; {failed} site(s) differ, {unrun} not run; {minutes:.1f} min")
    return 1 if failed else 2 if unrun else 0


def run_site(
    site: Site, sides: dict[str, Path], work: Path, why: int
) -> tuple[int, list[str], list[str], dict[str, float]]:
    """Both sides' runs of ``site``, one after the other; what they wrote compared."""
    facts = site_facts(site, why)
    times = {}
    for side, python in sides.items():
        out = work / "out" / side / site.name
        shutil.rmtree(out, ignore_errors=True)
        scratch = work / "run" / site.name
        begun = time.monotonic()
        folder_runs(python, site, facts, scratch, out / "folder")
        bucket_runs(python, site, facts, scratch, out / "bucket")
        times[side] = time.monotonic() - begun
        steps_file = work / "out" / side / f"{site.name}.times.json"
        steps_file.write_text(json.dumps(TIMES, indent=1) + "\n")  # (beside: not compared)
        TIMES.clear()
        shutil.rmtree(scratch, ignore_errors=True)
    count, problems, explained = compare(site.name, work / "out/base" / site.name,
                                         work / "out/head" / site.name)  # fmt: skip
    return count, problems, explained, times


if __name__ == "__main__":
    sys.exit(main())
