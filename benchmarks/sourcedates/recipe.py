"""The GitHub Pages recipe (docs/github-pages.md) through the Action's real step, on real sites.

    GEN_PY=/work/gen-venv/bin/python .venv/bin/python benchmarks/sourcedates/recipe.py \
        [--sites a,b] [--work DIR] [--full RESULTS/pages.jsonl] [--out DIR]

Per site (sites.json), two workflow runs, each as a runner runs it:

1. actions/checkout's default: a depth-1 ``file://`` fetch of the branch's head from a scratch
   bare copy of the mirror (sharing its objects; ``uploadpack.allowFilter`` on, as GitHub's
   server has it), into a new workspace; the site built there with its generator
   (generators.py; node_modules hard-linked from the full clone of run.py);
2. action.yml's ``run`` step in bash, its env evaluated from action.yml with these inputs over
   the defaults: ``base-url`` (the site's), ``path`` (the built folder), ``commit: false``,
   ``previous-state: http://127.0.0.1:PORT/sitemill-state.json.gz`` (a loopback http.server
   serving the live site: empty before the first deploy, so a 404 and a first run); the
   Action's Python imports this checkout's ``src`` (as the install step's venv would);
3. the deploy (actions/deploy-pages): the built folder replaces the live folder.

The second run starts from a new checkout and a new build (every file time new) and fetches
the first deploy's state from the live site. Checks: the Action's "Deepened" line; no
``<lastmod>`` at or after a minute before the build began; each listed page's date against
run.py's full-clone run (``--full``: its pages.jsonl); the second run's dates, sitemaps and
state against the first's. Writes ``recipe.jsonl`` and ``recipe.md`` under ``--out``.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generators import BUILDERS

from run import MIRRORS, build_stamps

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
STATE = "sitemill-state.json.gz"
FULL_CLONES = Path("/work/measure-sites")  # run.py's --work: its node_modules are linked
EXPRESSION = re.compile(r"\$\{\{\s*(.+?)\s*\}\}")
DEAD_PROXY = {  # nothing leaves the machine: only the loopback is reached directly
    "http_proxy": "http://127.0.0.1:9",
    "https_proxy": "http://127.0.0.1:9",
    "no_proxy": "127.0.0.1",
}


def git(*args: str, cwd: Path | None = None) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=True
    ).stdout.strip()


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def serve(folder: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(Quiet, directory=str(folder))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/"


def remote_copy(site: dict[str, Any], into: Path) -> Path:
    """A bare copy of the mirror sharing its objects, that lets a client filter (as GitHub)."""
    mirror = MIRRORS / site["repo"].replace("/", "+") / "repo"
    git("clone", "-q", "--bare", "--shared", str(mirror), str(into))
    git("config", "uploadpack.allowFilter", "true", cwd=into)
    return into


def checkout(workspace: Path, remote: Path, branch: str) -> None:
    """actions/checkout with its defaults: the one commit at the branch's tip (fetch-depth 1)."""
    sha = git("rev-parse", f"refs/heads/{branch}", cwd=remote)
    workspace.mkdir(parents=True)
    git("init", "-q", cwd=workspace)
    git("remote", "add", "origin", f"file://{remote}", cwd=workspace)
    git(
        "fetch",
        "-q",
        "--no-tags",
        "--depth=1",
        "origin",
        f"+{sha}:refs/remotes/origin/x",
        cwd=workspace,
    )
    git("checkout", "-q", "--force", "-B", branch, "refs/remotes/origin/x", cwd=workspace)


def action_step() -> dict[str, Any]:
    spec = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    (step,) = [s for s in spec["runs"]["steps"] if s.get("id") == "run"]
    step["defaults"] = {n: str(i.get("default", "")) for n, i in spec["inputs"].items()}
    return dict(step)


def action_python(scratch: Path) -> str:
    """What the install step makes: a Python importing sitemill from this checkout."""
    wrapper = scratch / "action-python"
    src = shlex.quote(str(ROOT / "src"))
    wrapper.write_text(
        f'#!/bin/sh\nPYTHONPATH="$PYTHONPATH"{os.pathsep}{src} '
        f'exec {shlex.quote(sys.executable)} "$@"\n'
    )
    wrapper.chmod(0o755)
    return str(wrapper)


def run_action(workspace: Path, inputs: dict[str, str]) -> dict[str, Any]:
    """The runner's work for the `run` step: its env: evaluated with these inputs, then bash."""
    step = action_step()
    values = {**step["defaults"], **inputs}
    scratch = workspace.parent
    known = {"steps.install.outputs.python": action_python(scratch)}

    def evaluate(m: re.Match[str]) -> str:
        name = m[1]
        return values[name.removeprefix("inputs.")] if name.startswith("inputs.") else known[name]

    (scratch / "home").mkdir(exist_ok=True)
    output, summary = scratch / "github-output", scratch / "step-summary"
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(scratch / "home"),
        "RUNNER_TEMP": str(scratch),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        **DEAD_PROXY,
    }
    env.update({n: EXPRESSION.sub(evaluate, str(v)) for n, v in step["env"].items()})
    env.update(
        GITHUB_WORKSPACE=str(workspace),
        GITHUB_ACTION_PATH=str(ROOT),
        GITHUB_OUTPUT=str(output),
        GITHUB_STEP_SUMMARY=str(summary),
    )
    t = time.monotonic()
    done = subprocess.run(
        ["bash", "-c", step["run"]], cwd=workspace, env=env, capture_output=True, text=True
    )
    return {
        "rc": done.returncode,
        "seconds": round(time.monotonic() - t, 1),
        "stdout": done.stdout,
        "stderr": done.stderr,
        "outputs": output.read_text() if output.exists() else "",
        "summary": summary.read_text() if summary.exists() else "",
    }


def sitemap_files(outputs: str) -> list[str]:
    """The `files` output (a name<<DELIMITER block): every sitemap file written or kept."""
    m = re.search(r"^files<<(\S+)\n(.*?)\n\1$", outputs, re.S | re.M)
    return m[2].splitlines() if m else []


def deploy(site: dict[str, Any], root: Path, n: int, remote: Path, live: str) -> dict[str, Any]:
    """One workflow run: checkout, build, the Action; what it wrote."""
    workspace = root / f"run-{n}" / "workspace"
    checkout(workspace, remote, site["branch"])
    if site.get("prepare"):
        full = FULL_CLONES / site["name"] / "node_modules"
        subprocess.run(["cp", "-al", str(full), str(workspace / "node_modules")], check=True)
    env_date = os.environ.pop("SOURCE_DATE_EPOCH", None)  # a workflow's build: files of now
    started = time.time()
    t = time.monotonic()
    BUILDERS[site["generator"]](workspace, {**site, "locales": []}, root / f"build-{n}.log")
    build_secs = time.monotonic() - t
    if env_date is not None:
        os.environ["SOURCE_DATE_EPOCH"] = env_date
    inputs = {
        "base-url": site["base_url"],
        "path": site["site_dir"],
        "commit": "false",
        "previous-state": live + STATE,
    }
    run = run_action(workspace, inputs)
    built = workspace / site["site_dir"]
    files = sitemap_files(run["outputs"])
    sitemaps = {f: (workspace / f).read_bytes() for f in files if (workspace / f).is_file()}
    lastmods: list[str] = []
    for data in sitemaps.values():
        lastmods += re.findall(r"<lastmod>([^<]+)</lastmod>", data.decode())
    state = built / STATE
    pages = {}
    if state.is_file():
        for path, fact in json.loads(gzip.decompress(state.read_bytes()))["pages"].items():
            pages[path] = fact.get("lastmod")
    head = git("rev-parse", "HEAD", cwd=workspace)
    shallow = git("rev-parse", "--is-shallow-repository", cwd=workspace)
    return {
        "run": run,
        "built": built,
        "head": head,
        "shallow_after": shallow,
        "build_seconds": round(build_secs, 1),
        "sitemaps": sitemaps,
        "state": state.read_bytes() if state.is_file() else b"",
        "pages": pages,
        "build_stamps": build_stamps(lastmods, started),
        "lastmods": len(lastmods),
    }


def lines(text: str, pattern: str) -> list[str]:
    return [ln for ln in text.splitlines() if re.search(pattern, ln)]


def notices(stdout: str) -> list[str]:
    """The run's notices and warnings, the per-page "skipped this page" ones as a count."""
    said = lines(stdout, r"^::(notice|warning|error)")
    skipped = [ln for ln in said if "skipped this page" in ln]
    rest = [ln for ln in said if ln not in skipped]
    return rest + ([f"({len(skipped)} pages skipped, each a warning)"] if skipped else [])


def measure(site: dict[str, Any], work: Path, full: dict[str, str | None]) -> dict[str, Any]:
    root = work / site["name"]
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    remote = remote_copy(site, root / "remote.git")
    served = root / "live"
    served.mkdir()
    httpd, live = serve(served)
    try:
        first = deploy(site, root, 1, remote, live)
        shutil.rmtree(served)  # actions/deploy-pages: the artifact replaces the live site
        shutil.copytree(first["built"], served)
        second = deploy(site, root, 2, remote, live)
    finally:
        httpd.shutdown()
        httpd.server_close()
    equal = sum(1 for p, d in first["pages"].items() if p in full and full[p] == d)
    differ = sorted(p for p, d in first["pages"].items() if p in full and full[p] != d)
    moved = sorted(p for p, d in second["pages"].items() if first["pages"].get(p) != d)
    out: dict[str, Any] = {
        "site": site["name"],
        "generator": site["generator"],
        "head": first["head"],
        "rc": [first["run"]["rc"], second["run"]["rc"]],
        "pages": len(first["pages"]),
        "dated": sum(1 for d in first["pages"].values() if d),
        "build_seconds": [first["build_seconds"], second["build_seconds"]],
        "action_seconds": [first["run"]["seconds"], second["run"]["seconds"]],
        "deepened": [lines(d["run"]["stdout"], r"^Deepened") for d in (first, second)],
        "shallow_after": [first["shallow_after"], second["shallow_after"]],
        "lastmod_line": [lines(d["run"]["summary"], r"lastmod:") for d in (first, second)],
        "notices": [notices(d["run"]["stdout"]) for d in (first, second)],
        "build_stamps": [first["build_stamps"], second["build_stamps"]],
        "xml_lastmods": first["lastmods"],
        "full_clone_pages": sum(1 for p in first["pages"] if p in full),
        "equal_full": equal,
        "differ_full": len(differ),
        "differ_pages": [(p, first["pages"][p], full[p]) for p in differ[:20]],
        "not_in_full": sorted(set(first["pages"]) - set(full))[:20],
        "only_in_full": sorted(set(full) - set(first["pages"]))[:20],
        "second_moved": len(moved),
        "second_moved_pages": moved[:20],
        "sitemap_files": sorted(first["sitemaps"]),
        "sitemaps_identical": first["sitemaps"] == second["sitemaps"],
        "state_identical": first["state"] == second["state"],
    }
    for d, n in ((first, 1), (second, 2)):
        if d["run"]["rc"]:
            out[f"stderr_{n}"] = d["run"]["stderr"][-2000:] + d["run"]["stdout"][-2000:]
    return out


def full_dates(pages_jsonl: Path, name: str) -> dict[str, str | None]:
    found = {}
    for line in pages_jsonl.read_text().splitlines():
        row = json.loads(line)
        if row["site"] == name:
            found[row["page"]] = row["sitemill"]
    return found


def table(rows: list[dict[str, Any]]) -> str:
    out = [
        "| site | pages | deepened (first run; s) | lastmod line (first run) | same date as the"
        " full clone | build-time lastmods | second run: moved / sitemaps / state identical |",
        "| --- | ---: | --- | --- | ---: | ---: | --- |",
    ]
    for r in rows:
        if "error" in r:
            out.append(f"| {r['site']} | error: {r['error'][:200]} | | | | | |")
            continue
        deep = "; ".join(r["deepened"][0]) or "–"
        line = "; ".join(r["lastmod_line"][0]).strip("- ") or "–"
        out.append(
            f"| {r['site']} | {r['pages']} | {deep} | {line} |"
            f" {r['equal_full']} / {r['full_clone_pages']} (differ {r['differ_full']}) |"
            f" {r['build_stamps'][0]} / {r['build_stamps'][1]} |"
            f" {r['second_moved']} / {'yes' if r['sitemaps_identical'] else 'NO'} /"
            f" {'yes' if r['state_identical'] else 'NO'} |"
        )
    return "\n".join(out) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sites", default="")
    ap.add_argument("--work", type=Path, default=Path("/work/measure-sites/recipe"))
    ap.add_argument(
        "--full", type=Path, default=Path("/work/measure-sites/results-recipe2/pages.jsonl")
    )
    ap.add_argument("--out", type=Path, default=Path("/work/measure-sites/recipe-results"))
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    wanted = set(filter(None, args.sites.split(",")))
    rows = []
    for site in json.loads((HERE / "sites.json").read_text()):
        if wanted and site["name"] not in wanted:
            continue
        try:
            row = measure(site, args.work, full_dates(args.full, site["name"]))
        except (subprocess.CalledProcessError, OSError, KeyError, ValueError) as e:
            err = getattr(e, "stderr", "") or ""
            row = {"site": site["name"], "error": (repr(e) + str(err))[:800]}
        print(json.dumps(row), flush=True)
        rows.append(row)
        with (args.out / "recipe.jsonl").open("a") as f:
            f.write(json.dumps(row) + "\n")
    text = table(rows)
    (args.out / "recipe.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
